/**
 * Interpreter rules of the tensor dialect. Tensors are immutable {@link ShapedValue}s: every
 * rule that "modifies" a tensor returns a new one. `tensor.parallel_insert_slice` records a
 * publication with the enclosing parallel op's collector (see {@link PublicationCollector}).
 */
import {
  DYNAMIC,
  formatType,
  RankedTensorType,
  ShapedValue,
  type ExecutionContext,
  type InterpreterRule,
  type Operation,
  type RuntimeValue,
  type Value,
} from '@raptor-pim/ir-core';
import { readReassociation, readStaticArray } from '../memref/asm';
import { TensorMessages as M } from '../tensor/diagnostics';
import { rankReductionMask, readSliceLists, resolveSliceLists, sliceDynamicOperands } from '../tensor/slice-utils';
import { checkRuntimeSlice, extractSlice, insertSlice, type SliceSpec } from './tensor-slicing';

/** One lane's `tensor.parallel_insert_slice`, recorded for the parallel op to apply. */
export interface ParallelPublication {
  /** The publishing op. */
  readonly op: Operation;
  /** The lane (induction variable values) that published. */
  readonly lane: readonly number[];
  /** The destination block argument (a shared output of the parallel op). */
  readonly dest: Value;
  /** The published tensor. */
  readonly source: ShapedValue;
  /** Where it goes. */
  readonly slice: SliceSpec;
}

/**
 * Receives publications of the lanes of a parallel op. A parallel op's rule pushes one on
 * {@link publicationStack} while it runs its lanes (setting `lane` before each), and applies
 * the collected publications afterwards with {@link applyPublications}.
 */
export interface PublicationCollector {
  /** The current lane. */
  lane: readonly number[];
  /** Publications so far. */
  readonly publications: ParallelPublication[];
}

const STACK_KEY = Symbol('tensor.parallel_insert_slice collectors');

/** The collector stack of a run (kept in the interpreter's per-run state). */
export function publicationStack(ctx: ExecutionContext): PublicationCollector[] {
  const state = ctx.interpreter.state;
  let s = state.get(STACK_KEY) as PublicationCollector[] | undefined;
  if (!s) {
    s = [];
    state.set(STACK_KEY, s);
  }
  return s;
}

const isTensor = (v: RuntimeValue | undefined): v is ShapedValue => v instanceof ShapedValue;

/** Resolves the slice of a slice op (`fixed` leading non-index operands) from runtime operands. */
function runtimeSlice(op: Operation, operands: readonly RuntimeValue[], fixed: number): SliceSpec {
  const dyn = sliceDynamicOperands(op, fixed);
  const nums = operands.slice(fixed).map((v) => Number(v));
  const a = dyn.offsets.length;
  const b = a + dyn.sizes.length;
  return resolveSliceLists(readSliceLists(op), { offsets: nums.slice(0, a), sizes: nums.slice(a, b), strides: nums.slice(b) });
}

/** Runtime shape of a result type whose dynamic dims come from `dynamic` (in order). */
function runtimeShape(type: RankedTensorType, dynamic: readonly RuntimeValue[]): number[] {
  let k = 0;
  return type.shape.map((d) => (d === DYNAMIC ? Number(dynamic[k++]) : d));
}

function allocate(ctx: ExecutionContext, op: Operation, type: RankedTensorType, shape: readonly number[]): ShapedValue | ReturnType<ExecutionContext['fail']> {
  for (const d of shape) if (!(d >= 0)) return ctx.fail(op, M.runtimeNegativeSize('dynamic size', d));
  const v = ShapedValue.allocate('tensor', type.elementType, shape);
  return v ?? ctx.fail(op, M.runtimeUnsupportedElement(formatType(type.elementType)));
}

function checkIndices(ctx: ExecutionContext, op: Operation, what: string, t: ShapedValue, idx: readonly number[]) {
  for (let d = 0; d < idx.length; d++) if (!(idx[d]! >= 0 && idx[d]! < t.shape[d]!)) return ctx.fail(op, M.runtimeIndexOutOfBounds(what, idx, t.shape));
  return undefined;
}

/** Checks a static result type against the runtime shape. */
function checkShape(ctx: ExecutionContext, op: Operation, what: string, shape: readonly number[], type: RankedTensorType) {
  if (shape.length !== type.rank || type.shape.some((d, i) => d !== DYNAMIC && d !== shape[i]))
    return ctx.fail(op, M.runtimeShapeMismatch(what, shape, type.shape.map((d) => (d === DYNAMIC ? -1 : d))));
  return undefined;
}

const rules: Record<string, InterpreterRule> = {
  'tensor.empty': (ctx, op, operands) => {
    const type = op.getResult(0).type as RankedTensorType;
    const v = allocate(ctx, op, type, runtimeShape(type, operands));
    return v instanceof ShapedValue ? [v] : v;
  },
  'tensor.splat': (ctx, op, operands) => {
    const type = op.getResult(0).type as RankedTensorType;
    const v = allocate(ctx, op, type, runtimeShape(type, operands.slice(1)));
    if (!(v instanceof ShapedValue)) return v;
    (v.data as unknown as (number | bigint)[]).fill(operands[0] as number);
    return [v];
  },
  'tensor.from_elements': (ctx, op, operands) => {
    const type = op.getResult(0).type as RankedTensorType;
    const v = allocate(ctx, op, type, type.shape);
    if (!(v instanceof ShapedValue)) return v;
    const dst = v.data as unknown as (number | bigint)[];
    operands.forEach((e, i) => (dst[i] = e as number | bigint));
    return [v];
  },
  'tensor.extract': (ctx, op, operands) => {
    const t = operands[0];
    if (!isTensor(t)) return ctx.fail(op, M.runtimeUnsupportedElement('non-tensor'));
    const idx = operands.slice(1).map(Number);
    return checkIndices(ctx, op, 'extract', t, idx) ?? [t.get(idx)];
  },
  'tensor.insert': (ctx, op, operands) => {
    const t = operands[1];
    if (!isTensor(t)) return ctx.fail(op, M.runtimeUnsupportedElement('non-tensor'));
    const idx = operands.slice(2).map(Number);
    const bad = checkIndices(ctx, op, 'insert', t, idx);
    if (bad) return bad;
    const out = t.copy('tensor');
    out.set(idx, operands[0] as number | bigint);
    return [out];
  },
  'tensor.dim': (ctx, op, operands) => {
    const t = operands[0] as ShapedValue;
    const d = Number(operands[1]);
    if (!(d >= 0 && d < t.shape.length)) return ctx.fail(op, M.runtimeDimOutOfRange(d, t.shape.length));
    return [t.shape[d]!];
  },
  'tensor.cast': (ctx, op, operands) => {
    const t = operands[0] as ShapedValue;
    const type = op.getResult(0).type;
    if (type instanceof RankedTensorType) {
      const bad = checkShape(ctx, op, 'the cast operand', t.shape, type);
      if (bad) return bad;
    }
    return [t];
  },
  'tensor.collapse_shape': (_ctx, op, operands) => {
    const t = operands[0] as ShapedValue;
    const groups = readReassociation(op.getAttr('reassociation')) ?? [];
    const shape = groups.map((g) => g.reduce((a, d) => a * t.shape[d]!, 1));
    return [new ShapedValue('tensor', t.elementType, shape, t.toContiguousArray())];
  },
  'tensor.expand_shape': (ctx, op, operands) => {
    const t = operands[0] as ShapedValue;
    const groups = readReassociation(op.getAttr('reassociation')) ?? [];
    const statics = readStaticArray(op.getAttr('static_output_shape'));
    const shape = runtimeShape(RankedTensorType.get(op.context, statics, t.elementType), operands.slice(1));
    for (let g = 0; g < groups.length; g++) {
      const n = groups[g]!.reduce((a, d) => a * shape[d]!, 1);
      if (n !== t.shape[g]) return ctx.fail(op, M.runtimeReshapeMismatch(g, t.shape[g]!, n));
    }
    return [new ShapedValue('tensor', t.elementType, shape, t.toContiguousArray())];
  },
  'tensor.extract_slice': (ctx, op, operands) => {
    const t = operands[0] as ShapedValue;
    const slice = runtimeSlice(op, operands, 1);
    const bad = checkRuntimeSlice(t.shape, slice);
    if (bad) return ctx.fail(op, bad);
    const type = op.getResult(0).type as RankedTensorType;
    // Rank reduction drops unit dimensions: the result shape is the sizes minus dropped 1s.
    const shape = reduceShape(op, slice.sizes, type);
    if (!shape) return ctx.fail(op, M.runtimeShapeMismatch('the slice', slice.sizes, type.shape.map((d) => (d === DYNAMIC ? -1 : d))));
    return [extractSlice(t, slice, shape)];
  },
  'tensor.insert_slice': (ctx, op, operands) => {
    const src = operands[0] as ShapedValue;
    const dest = operands[1] as ShapedValue;
    const slice = runtimeSlice(op, operands, 2);
    const bad = checkRuntimeSlice(dest.shape, slice) ?? sourceMismatch(src, slice);
    if (bad) return ctx.fail(op, bad);
    return [insertSlice(src, dest, slice)];
  },
  'tensor.parallel_insert_slice': (ctx, op, operands) => {
    const stack = publicationStack(ctx);
    const top = stack[stack.length - 1];
    if (!top) return ctx.fail(op, M.runtimeNoCollector);
    const src = operands[0] as ShapedValue;
    const dest = operands[1] as ShapedValue;
    const slice = runtimeSlice(op, operands, 2);
    const bad = checkRuntimeSlice(dest.shape, slice) ?? sourceMismatch(src, slice);
    if (bad) return ctx.fail(op, bad);
    top.publications.push({ op, lane: top.lane, dest: op.getOperand(1), source: src, slice });
    return [];
  },
};

/**
 * The runtime shape of an extract_slice result: the runtime sizes without the unit dimensions
 * the verifier dropped (MLIR's rank-reduction mask of the static sizes against the result type).
 */
function reduceShape(op: Operation, sizes: readonly number[], type: RankedTensorType): number[] | undefined {
  const dropped = rankReductionMask(readSliceLists(op).sizes, type.shape);
  if (!dropped) return undefined;
  const out = sizes.filter((_, d) => !dropped.has(d));
  return out.every((s, i) => type.shape[i] === DYNAMIC || type.shape[i] === s) ? out : undefined;
}

function sourceMismatch(src: ShapedValue, slice: SliceSpec): string | undefined {
  const nonUnit = (s: readonly number[]) => s.filter((d) => d !== 1);
  const a = nonUnit(src.shape);
  const b = nonUnit(slice.sizes);
  if (a.length !== b.length || a.some((d, i) => d !== b[i])) return M.runtimeShapeMismatch('the inserted tensor', src.shape, slice.sizes);
  return undefined;
}

/** The tensor rules, by op name. */
export const TENSOR_INTERPRETER_RULES: Readonly<Record<string, InterpreterRule>> = rules;
