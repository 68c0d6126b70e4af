/**
 * ONNX -> Spatial plans: `importOnnxModel` turns a validated, shape-inferred ONNX model into a
 * `builtin.module` with one `func.func @main` of `spat.*_plan` ops (convolutions, pooling,
 * element-wise plans), `spat.graph_compute(_batch)` regions for matrix products (weights tiled
 * onto crossbar-sized `spat.wvmm`) and softmax, and `arith.constant` weights. Every op carries
 * the ONNX node name as a name location. The ops are built directly (constants hold their
 * data from creation on), then the module is verified.
 */
import {
  Block,
  FunctionType,
  MLIRContext,
  ModuleOp,
  OpBuilder,
  FuncOp,
  ReturnOp,
  StringAttr,
  TypeAttr,
  UnknownLoc,
  printOperation,
  verify,
  type Location,
  type Operation,
  type RankedTensorType,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { LoweringMessages as LM, Messages, hasErrors, type OnnxDiagnostic } from '../diagnostics';
import { dataTypeName } from '../onnx/dtypes';
import type { OnnxModel, OnnxTensor } from '../onnx/model';
import { inferShapes, type InferredValue } from '../shapes/infer-shapes';
import { type CrossbarTarget, DEFAULT_CROSSBAR_SIZE, resolveCrossbarShape } from './crossbar';
import { F32, LoweringContext } from './lowering-context';
import { nameLoc, tensorType } from './ir-helpers';
import { NODE_LOWERINGS } from './ops';

export { DEFAULT_CROSSBAR_SIZE };

/** The ONNX operators {@link importOnnxModel} lowers, alphabetical. */
export const LOWERED_OPERATORS: readonly string[] = Object.keys(NODE_LOWERINGS).sort();

/** Options of {@link importOnnxModel}. */
export interface ImportOnnxOptions {
  /** Concrete shapes of graph inputs by name (binds symbolic dims). */
  readonly inputShapes?: Readonly<Record<string, readonly number[]>>;
  /**
   * Rows and columns of one crossbar: the weight tile size of `spat.wvmm`. With a `target`,
   * it must equal the target's crossbar size (an error otherwise: the target wins). Default:
   * the target's crossbar size, else pim-target's default configuration (128 x 128).
   */
  readonly crossbarSize?: number;
  /**
   * The machine the module is compiled for (e.g. pim-target's `defaultTarget()` or a loaded
   * architecture): Gemm/MatMul weights are tiled onto its `matrix_config.xbar_size` crossbars,
   * so the importer and the later stages tile alike.
   */
  readonly target?: CrossbarTarget;
  /**
   * The inferred values of the model, when the caller already ran `inferShapes` (or
   * `loadOnnxFile`) with the same input shapes and constant inputs: shapes are not inferred twice.
   */
  readonly inferred?: ReadonlyMap<string, InferredValue>;
  /** Name of the generated function (default `main`). */
  readonly functionName?: string;
  /**
   * Graph inputs bound to compile-time values, by name: they become constants of the module
   * (not function arguments). Crossbar weights must be constants, so models that feed weights
   * (or shape tensors) as graph inputs are imported by binding those inputs here.
   */
  readonly constantInputs?: Readonly<Record<string, OnnxTensor>>;
}

/** A graph input or output of the imported function. */
export interface ImportedValue {
  readonly name: string;
  readonly shape: readonly number[];
}

/** The result of {@link importOnnxModel}. */
export interface ImportedModule {
  /** The verified module, or undefined when an error was reported. */
  readonly module: Operation | undefined;
  /**
   * The module as MLIR text with locations (printed on first access). When the generated IR
   * does not verify (an internal error), the built module in the generic form; empty when
   * lowering failed earlier.
   */
  readonly text: string;
  /** The context owning the module. */
  readonly context: MLIRContext;
  readonly functionName: string;
  readonly inputs: readonly ImportedValue[];
  readonly outputs: readonly ImportedValue[];
  readonly diagnostics: OnnxDiagnostic[];
  /** Wall-clock milliseconds of each import phase (phases not reached are absent). */
  readonly timings: ImportTimings;
}

/** Milliseconds spent in each phase of {@link importOnnxModel}. */
export interface ImportTimings {
  /** Shape inference and constant folding. */
  inferShapes?: number;
  /** Building the Spatial ops (constants with their data). */
  lower?: number;
  /** Verifying the module. */
  verify?: number;
}

/** Builds `func.func @functionName` of one graph into `module` from the lowering table; false on error. */
function lowerGraph(cx: LoweringContext, module: Operation, functionName: string): boolean {
  const g = cx.model.graph;
  const ctx = cx.context;
  const argTypes: Type[] = [];
  const argLocs: Location[] = [];
  const argNames: string[] = [];
  for (const inp of g.inputs) {
    const info = cx.values.get(inp.name);
    if (info?.constant) continue; // bound to a compile-time value
    if (!info || info.dataType !== F32) {
      cx.error(undefined, LM.nonFloatValue(inp.name, dataTypeName(info?.dataType ?? inp.elemType)), inp.name);
      continue;
    }
    argTypes.push(tensorType(ctx, info.shape));
    argLocs.push(nameLoc(ctx, inp.name));
    argNames.push(inp.name);
  }
  const body = cx.body;
  argTypes.forEach((t, i) => {
    const arg = body.addArgument(t, argLocs[i]!);
    cx.define(argNames[i]!, { value: arg, shape: (t as RankedTensorType).shape });
  });
  for (const n of g.nodes) {
    if (cx.fused.has(n)) continue;
    if (n.outputs.every((o) => o === '' || cx.values.get(o)?.constant !== undefined)) continue; // folded
    if (n.domain !== '' && n.domain !== 'ai.onnx') {
      cx.error(n, Messages.unsupportedDomainOp(n.opType, n.domain, cx.nodeName(n)));
      continue;
    }
    const lower = NODE_LOWERINGS[n.opType];
    if (!lower) {
      cx.error(n, LM.unsupportedOperator(n.opType, cx.nodeName(n), cx.opset, LOWERED_OPERATORS.join(', ')));
      continue;
    }
    lower(cx, n, cx.locOf(n));
  }
  const results: Value[] = [];
  for (const o of g.outputs) {
    const v = cx.value(o.name, UnknownLoc.get(ctx));
    if (!v) {
      if (!hasErrors(cx.diagnostics)) cx.error(undefined, LM.nonFloatValue(o.name, dataTypeName(cx.values.get(o.name)?.dataType ?? o.elemType)), o.name);
      continue;
    }
    results.push(v.value);
  }
  if (hasErrors(cx.diagnostics)) return false;
  ReturnOp.build(cx.b, { operands: results }, nameLoc(ctx, g.outputs.map((o) => o.name).join(', ')));
  const mb = OpBuilder.atBlockEnd(module.regions[0]!.blocks[0]!, ctx); // the module's single block
  const fn = FuncOp.build(
    mb,
    { sym_name: StringAttr.get(ctx, functionName), function_type: TypeAttr.get(FunctionType.get(ctx, argTypes, results.map((r) => r.type))) },
    nameLoc(ctx, g.name || functionName),
  );
  fn.op.regions[0]!.push(body);
  return true;
}

/**
 * A monotonic clock in milliseconds for the phase timings. Node's global `performance` would do,
 * but its first use loads `perf_hooks` (about 2 ms of a `raptor import`'s start-up).
 */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * Lowers a validated ONNX model to a verified `builtin.module` of Spatial plans. Never throws
 * on bad input: unsupported operators or forms are reported as diagnostics naming the node.
 *
 * @example
 * const { model } = readOnnxFile('mlp.onnx');
 * const { module, text, diagnostics } = importOnnxModel(model!, { crossbarSize: 128 });
 */
export function importOnnxModel(model: OnnxModel, options: ImportOnnxOptions = {}): ImportedModule {
  const timings: ImportTimings = {};
  let clock = nowMs();
  const lap = (phase: keyof ImportTimings): void => {
    const now = nowMs();
    timings[phase] = now - clock;
    clock = now;
  };
  const context = new MLIRContext();
  registerSpatialDialect(context);
  const functionName = options.functionName ?? 'main';
  const diagnostics: OnnxDiagnostic[] = [];
  const fail = (): ImportedModule => ({ module: undefined, text: '', context, functionName, inputs: [], outputs: [], diagnostics, timings });
  const crossbar = resolveCrossbarShape(model.file, options.crossbarSize, options.target);
  if ('error' in crossbar) {
    diagnostics.push(crossbar.error);
    return fail();
  }
  let values = options.inferred;
  if (!values) {
    const inferred = inferShapes(model, { inputShapes: options.inputShapes, inputValues: options.constantInputs, maxFoldElements: 1 << 24 });
    lap('inferShapes');
    diagnostics.push(...inferred.diagnostics);
    if (!inferred.values || hasErrors(diagnostics)) return fail();
    values = inferred.values;
  }
  const module = ModuleOp.build(new OpBuilder(context), {}, nameLoc(context, model.file)).op;
  module.regions[0]!.push(new Block());
  const cx = new LoweringContext(context, new Block(), model, values, crossbar.shape);
  const ok = lowerGraph(cx, module, functionName);
  lap('lower');
  diagnostics.push(...cx.diagnostics);
  if (!ok) return fail();
  const { result, diagnostics: irDiagnostics } = context.diagnostics.capture(() => verify(module));
  lap('verify');
  if (!result) {
    diagnostics.push({ severity: 'error', location: { file: model.file }, message: LM.generatedIrInvalid(irDiagnostics.map((d) => d.message).join('; ')) });
    return { ...fail(), text: printOperation(module, { debugInfo: true, generic: true }) + '\n' };
  }
  const io = (name: string): ImportedValue => ({ name, shape: values.get(name)?.shape ?? [] });
  let printed: string | undefined;
  return {
    module,
    get text(): string {
      printed ??= printOperation(module, { debugInfo: true }) + '\n';
      return printed;
    },
    context,
    functionName,
    inputs: model.graph.inputs.filter((i) => values.get(i.name)?.constant === undefined).map((i) => io(i.name)),
    outputs: model.graph.outputs.map((o) => io(o.name)),
    diagnostics,
    timings,
  };
}
