/**
 * Interpreter rules of the `spat` ops of part A (plans, compute structure, element-wise). The
 * numeric work is done by the reference kernels (`./kernels`); rules convert values, read the
 * op's properties and report kernel failures as diagnostics at the op.
 */
import {
  ExecutionFailure,
  IntegerAttr,
  ShapedValue,
  Yield,
  type ExecutionContext,
  type InterpreterRegistry,
  type InterpreterRule,
  type Operation,
  type RuntimeValue,
  type Type,
} from '@raptor-pim/ir-core';
import { applyPublications, publicationStack, type PublicationCollector } from '@raptor-pim/upstream-dialects';
import { SpatMessages as M } from '../diagnostics';
import type { SpatEnumAttr } from '../ir/attributes';
import { denseValues } from '../ir/type-checks';
import * as kernels from './kernels';
import type { F32Tensor, KernelResult } from './kernels';
import { fromF32, toF32 } from './tensor-values';

/** The f32 operands of `op`, or a failure naming the bad operand. */
function f32Operands(ctx: ExecutionContext, op: Operation, operands: readonly RuntimeValue[]): F32Tensor[] | ExecutionFailure {
  const out: F32Tensor[] = [];
  for (let k = 0; k < operands.length; k++) {
    const t = toF32(operands[k]);
    if (typeof t === 'string') return ctx.fail(op, M.runtimeKernel(op.name, `operand #${k}: ${t}`));
    out.push(t);
  }
  return out;
}

/** Converts a kernel result into the op's result, checking its shape against the result type. */
function finish(ctx: ExecutionContext, op: Operation, r: KernelResult<F32Tensor>, resultIndex = 0): ShapedValue | ExecutionFailure {
  if (!r.ok) return ctx.fail(op, M.runtimeKernel(op.name, r.message));
  const type = op.getResult(resultIndex).type as Type & { shape?: readonly number[]; elementType?: Type };
  const expected = type.shape ?? [];
  if (expected.length !== r.value.shape.length || expected.some((d, i) => d >= 0 && d !== r.value.shape[i])) {
    return ctx.fail(op, M.runtimeShapeMismatch(op.name, r.value.shape, expected));
  }
  return fromF32(r.value, type.elementType ?? type);
}

/** A rule computing one result from the f32 operands with `compute`. */
function kernelRule(compute: (op: Operation, xs: F32Tensor[]) => KernelResult<F32Tensor>): InterpreterRule {
  return (ctx, op, operands) => {
    const xs = f32Operands(ctx, op, operands);
    if (xs instanceof ExecutionFailure) return xs;
    const r = finish(ctx, op, compute(op, xs));
    return r instanceof ExecutionFailure ? r : [r];
  };
}

const ints = (op: Operation, name: string): number[] => denseValues(op.getAttr(name)) ?? [];
const int = (op: Operation, name: string): number => Number((op.getAttr(name) as IntegerAttr).value);

/** Rules of the plan ops (checked against onnxruntime in the tests). */
const PLAN_RULES: Record<string, InterpreterRule> = {
  'spat.add_plan': kernelRule((_op, [a, b]) => kernels.add(a!, b!)),
  'spat.bias_add_plan': kernelRule((_op, [x, b]) => kernels.biasAdd(x!, b!)),
  'spat.concat_plan': kernelRule((op, xs) => kernels.concat(xs, int(op, 'axis'))),
  'spat.conv2d_plan': kernelRule((op, [x, w, b]) =>
    kernels.conv2d(x!, w!, b, { pads: ints(op, 'pads'), strides: ints(op, 'strides'), dilations: ints(op, 'dilations'), group: int(op, 'group') }),
  ),
  'spat.flatten_plan': kernelRule((op, [x]) => kernels.flatten(x!, int(op, 'axis'))),
  'spat.global_average_pool_plan': kernelRule((_op, [x]) => kernels.globalAveragePool(x!)),
  'spat.max_pool2d_plan': kernelRule((op, [x]) =>
    kernels.maxPool2d(x!, { kernelShape: ints(op, 'kernelShape'), pads: ints(op, 'pads'), strides: ints(op, 'strides'), dilations: ints(op, 'dilations') }),
  ),
  'spat.relu_plan': kernelRule((_op, [x]) => kernels.relu(x!)),
  'spat.resize_nearest_plan': kernelRule((op, [x]) =>
    kernels.resizeNearest(x!, { sizes: [...((op.getResult(0).type as unknown as { shape: readonly number[] }).shape)], coordinateTransformationMode: 'asymmetric', nearestMode: 'floor' }),
  ),
  'spat.silu_plan': kernelRule((_op, [x]) => kernels.silu(x!)),
};

/** Rules of the element-wise family. */
const ELEMENTWISE_RULES: Record<string, InterpreterRule> = {
  'spat.relu': kernelRule((_op, [x]) => kernels.relu(x!)),
  'spat.sigmoid': kernelRule((_op, [x]) => kernels.sigmoid(x!)),
  'spat.vadd': kernelRule((_op, [a, b]) => kernels.add(a!, b!)),
  'spat.vsub': kernelRule((_op, [a, b]) => kernels.sub(a!, b!)),
  'spat.vmul': kernelRule((_op, [a, b]) => kernels.mul(a!, b!)),
  'spat.vmax': kernelRule((_op, [a, b]) => kernels.maximum(a!, b!)),
  'spat.vavg': kernelRule((op, [x]) => {
    const r = kernels.vavg(x!);
    if (!r.ok) return r;
    const shape = (op.getResult(0).type as unknown as { shape: readonly number[] }).shape;
    return kernels.kernelOk({ shape: [...shape], data: r.value.data });
  }),
  'spat.softmax': kernelRule((_op, [x]) => kernels.softmaxAll(x!)),
  'spat.wvmm': kernelRule((_op, [w, x]) => kernels.wvmm(w!, x!)),
  'spat.vvdmul': kernelRule((_op, [a, b]) => kernels.vvdmul(a!, b!)),
  'spat.concat': kernelRule((op, xs) => kernels.concat(xs, int(op, 'axis'))),
  'spat.extract_rows': (ctx, op, operands) => {
    const xs = f32Operands(ctx, op, operands);
    if (xs instanceof ExecutionFailure) return xs;
    const r = kernels.extractRows(xs[0]!);
    if (!r.ok) return ctx.fail(op, M.runtimeKernel(op.name, r.message));
    if (r.value.length !== op.numResults) return ctx.fail(op, M.runtimeKernel(op.name, `produced ${r.value.length} rows for ${op.numResults} results`));
    const out: ShapedValue[] = [];
    for (let k = 0; k < r.value.length; k++) {
      const v = finish(ctx, op, kernels.kernelOk(r.value[k]!), k);
      if (v instanceof ExecutionFailure) return v;
      out.push(v);
    }
    return out;
  },
};

/** `spat.materialize_layout`: logical values are unchanged (the interpreter keeps logical NCHW values). */
const materializeRule: InterpreterRule = (ctx, op, operands) => {
  const x = operands[0];
  if (!(x instanceof ShapedValue)) return ctx.fail(op, M.runtimeNotTensor(op.name, 0));
  return [x.copy('tensor')];
};

const graphComputeRule: InterpreterRule = (ctx, op, operands) => {
  const body = op.regions[0]!;
  if (body.firstBlock !== body.lastBlock) return ctx.fail(op, M.runtimeMultiBlock(op.name));
  return ctx.runRegion(body, operands);
};

const LANE_ORDER_KEY = Symbol('spat.graph_compute_batch lane order');

/**
 * The order in which `spat.graph_compute_batch` runs its lanes in a run of `interpreter`:
 * `forward` (default), `reverse`, or a function returning a permutation of `0..laneCount-1`.
 * Lanes are independent, so every order must give the same result (tests use this).
 */
export function setGraphBatchLaneOrder(interpreter: ExecutionContext['interpreter'], order: 'forward' | 'reverse' | ((laneCount: number) => readonly number[])): void {
  interpreter.state.set(LANE_ORDER_KEY, order);
}

function laneSequence(ctx: ExecutionContext, n: number): readonly number[] {
  const order = ctx.interpreter.state.get(LANE_ORDER_KEY) as 'forward' | 'reverse' | ((laneCount: number) => readonly number[]) | undefined;
  if (typeof order === 'function') return order(n);
  const seq = Array.from({ length: n }, (_, i) => i);
  return order === 'reverse' ? seq.reverse() : seq;
}

const graphComputeBatchRule: InterpreterRule = (ctx, op, operands) => {
  const laneCount = int(op, 'laneCount');
  const body = op.regions[0]!;
  if (body.firstBlock !== body.lastBlock) return ctx.fail(op, M.runtimeMultiBlock(op.name));
  const outputs: ShapedValue[] = [];
  for (let k = 0; k < op.numResults; k++) {
    const t = op.getResult(k).type as Type & { shape: readonly number[]; elementType: Type };
    const v = ShapedValue.allocate('tensor', t.elementType, t.shape);
    if (!v) return ctx.fail(op, M.runtimeUnsupportedElement(op.name, String(t)));
    outputs.push(v);
  }
  const collector: PublicationCollector = { lane: [], publications: [] };
  const stack = publicationStack(ctx);
  stack.push(collector);
  try {
    for (const lane of laneSequence(ctx, laneCount)) {
      const before = collector.publications.length;
      collector.lane = [lane];
      const r = ctx.runRegion(body, [lane, ...operands, ...outputs]);
      if (r instanceof ExecutionFailure) return r;
      if (op.numResults && collector.publications.length === before) return ctx.fail(op, M.runtimeNoPublication(op.name, lane));
    }
  } finally {
    stack.pop();
  }
  if (!op.numResults) return [];
  const entry = body.firstBlock!;
  const outArgs = entry.arguments.slice(entry.arguments.length - op.numResults);
  return applyPublications(ctx, op, outputs, (p) => outArgs.indexOf(p.dest as (typeof outArgs)[number]), collector.publications);
};

const inParallelRule: InterpreterRule = (ctx, op) => {
  const r = ctx.runRegion(op.regions[0]!, []);
  if (r instanceof ExecutionFailure) return r;
  return new Yield([]);
};

/**
 * `spat.blueprint`: `physical_view` reinterprets the slots in row-major order;
 * `fragment_assembly` copies slice k (row-major, `sizes[k]` elements) from slot
 * `sourceSlots[k]` of collection `operandIndices[k]`, starting at flat element
 * `sourceOffsets[k]`. Two slices writing one element stop the run.
 */
const blueprintRule: InterpreterRule = (ctx, op, operands) => {
  const t = op.getResult(0).type as Type & { shape: readonly number[]; elementType: Type };
  const out = ShapedValue.allocate('tensor', t.elementType, t.shape);
  if (!out) return ctx.fail(op, M.runtimeUnsupportedElement(op.name, String(t)));
  const srcs: ShapedValue[] = [];
  for (let k = 0; k < operands.length; k++) {
    const v = operands[k];
    if (!(v instanceof ShapedValue)) return ctx.fail(op, M.runtimeNotTensor(op.name, k));
    srcs.push(v);
  }
  const dst = out.data as unknown as (number | bigint)[];
  const mode = (op.getAttr('mode') as SpatEnumAttr<'blueprint_mode'>).value;
  if (mode === 'physical_view') {
    const flat = srcs[0]!.toContiguousArray() as unknown as (number | bigint)[];
    if (flat.length !== dst.length) return ctx.fail(op, M.runtimeBlueprintSource(0, `the collection has ${flat.length} elements, the output ${dst.length}`));
    for (let i = 0; i < dst.length; i++) dst[i] = flat[i]!;
    return [out];
  }
  const rank = t.shape.length;
  const offsets = ints(op, 'offsets');
  const sizes = ints(op, 'sizes');
  const indices = ints(op, 'operandIndices');
  const slots = ints(op, 'sourceSlots');
  const srcOffsets = ints(op, 'sourceOffsets');
  const writer = new Int32Array(dst.length).fill(-1);
  const strides = t.shape.map((_, d) => t.shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const n = rank ? offsets.length / rank : 0;
  for (let k = 0; k < n; k++) {
    const src = srcs[indices[k]!];
    if (!src) return ctx.fail(op, M.runtimeBlueprintSource(k, `no fragment collection #${indices[k]}`));
    const slotShape = src.shape.slice(1);
    const slotElems = slotShape.reduce((a, b) => a * b, 1);
    const flat = src.toContiguousArray() as unknown as (number | bigint)[];
    const base = slots[k]! * slotElems + srcOffsets[k]!;
    const o = offsets.slice(k * rank, (k + 1) * rank);
    const s = sizes.slice(k * rank, (k + 1) * rank);
    const count = s.reduce((a, b) => a * b, 1);
    if (slots[k]! >= src.shape[0]! || srcOffsets[k]! + count > slotElems) return ctx.fail(op, M.runtimeBlueprintSource(k, 'the source range leaves its fragment slot'));
    const idx = new Array<number>(rank).fill(0);
    for (let e = 0; e < count; e++) {
      let linear = 0;
      for (let d = 0; d < rank; d++) linear += (o[d]! + idx[d]!) * strides[d]!;
      if (writer[linear]! >= 0) return ctx.fail(op, M.runtimeBlueprintOverlap(writer[linear]!, k, o.map((v, d) => v + idx[d]!)));
      writer[linear] = k;
      dst[linear] = flat[base + e]!;
      for (let d = rank - 1; d >= 0; d--) {
        if (++idx[d]! < s[d]!) break;
        idx[d] = 0;
      }
    }
  }
  return [out];
};

/** The interpreter rules of the `spat` plan, compute-structure and element-wise ops, by op name. */
export const SPATIAL_INTERPRETER_RULES: Readonly<Record<string, InterpreterRule>> = {
  ...PLAN_RULES,
  ...ELEMENTWISE_RULES,
  'spat.materialize_layout': materializeRule,
  'spat.graph_compute': graphComputeRule,
  'spat.graph_compute_batch': graphComputeBatchRule,
  'spat.in_parallel': inParallelRule,
  'spat.yield': (_ctx, _op, operands) => new Yield(operands),
  'spat.blueprint': blueprintRule,
};

/** Registers {@link SPATIAL_INTERPRETER_RULES} in `registry`. */
export function registerSpatialInterpreterRules(registry: InterpreterRegistry): void {
  registry.registerAll(SPATIAL_INTERPRETER_RULES);
}

void IntegerAttr;
