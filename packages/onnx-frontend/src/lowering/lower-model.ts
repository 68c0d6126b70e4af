/**
 * ONNX -> Spatial plans: `importOnnxModel` turns a validated, shape-inferred ONNX model into a
 * `builtin.module` with one `func.func @main` of `spat.*_plan` ops (convolutions, pooling,
 * element-wise plans), `spat.graph_compute(_batch)` regions for matrix products (weights tiled
 * onto crossbar-sized `spat.wvmm`) and softmax, and `arith.constant` weights. Every op carries
 * the ONNX node name as a name location. The module is built as MLIR text, parsed and verified.
 */
import { DenseElementsAttr, DenseResourceElementsAttr, MLIRContext, RankedTensorType, parseSourceString, printOperation, verify, type Operation } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { LoweringMessages as LM, Messages, hasErrors, type OnnxDiagnostic } from '../diagnostics';
import { dataTypeName } from '../onnx/dtypes';
import type { OnnxModel, OnnxTensor } from '../onnx/model';
import { inferShapes } from '../shapes/infer-shapes';
import { F32, LoweringContext, PAYLOAD_PREFIX } from './lowering-context';
import { nameLoc, tensorType } from './mlir-text';
import { NODE_LOWERINGS } from './ops';

/** Default crossbar size (rows = columns), from the hardware defaults: 128 x 128. */
export const DEFAULT_CROSSBAR_SIZE = 128;

/** The ONNX operators {@link importOnnxModel} lowers, alphabetical. */
export const LOWERED_OPERATORS: readonly string[] = Object.keys(NODE_LOWERINGS).sort();

/** Options of {@link importOnnxModel}. */
export interface ImportOnnxOptions {
  /** Concrete shapes of graph inputs by name (binds symbolic dims). */
  readonly inputShapes?: Readonly<Record<string, readonly number[]>>;
  /** Rows and columns of one crossbar: the weight tile size of `spat.wvmm` (default 128). */
  readonly crossbarSize?: number;
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
   * does not verify (an internal error), the generated text, whose constants are
   * `dense_resource<raptor_payload_K>` placeholders; empty when lowering failed earlier.
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
  /** Generating the Spatial ops (MLIR text with constant placeholders). */
  lower?: number;
  /** Parsing the generated text. */
  parse?: number;
  /** Attaching the constant data to the parsed constants. */
  attach?: number;
  /** Verifying the module. */
  verify?: number;
}

/** Builds the function text of one graph from the lowering table; undefined on error. */
function lowerGraph(cx: LoweringContext, functionName: string): string | undefined {
  const g = cx.model.graph;
  const args: string[] = [];
  let argIndex = 0;
  for (const inp of g.inputs) {
    const info = cx.values.get(inp.name);
    if (info?.constant) continue; // bound to a compile-time value
    if (!info || info.dataType !== F32) {
      cx.error(undefined, LM.nonFloatValue(inp.name, dataTypeName(info?.dataType ?? inp.elemType)), inp.name);
      continue;
    }
    const ssa = `%arg${argIndex++}`;
    args.push(`${ssa}: ${tensorType(info.shape)} ${nameLoc(inp.name)}`);
    cx.define(inp.name, { ssa, shape: info.shape });
  }
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
  const results: string[] = [];
  const resultTypes: string[] = [];
  for (const o of g.outputs) {
    const v = cx.value(o.name, 'loc(unknown)');
    if (!v) {
      if (!hasErrors(cx.diagnostics)) cx.error(undefined, LM.nonFloatValue(o.name, dataTypeName(cx.values.get(o.name)?.dataType ?? o.elemType)), o.name);
      continue;
    }
    results.push(v.ssa);
    resultTypes.push(tensorType(v.shape));
  }
  if (hasErrors(cx.diagnostics)) return undefined;
  const resultText = resultTypes.length === 1 ? resultTypes[0]! : `(${resultTypes.join(', ')})`;
  const outputNames = g.outputs.map((o) => o.name).join(', ');
  // One join over the body lines (each indented by the separator), no per-line copies.
  const body = cx.lines.length > 0 ? `    ${cx.lines.join('\n    ')}\n` : '';
  return (
    `module {\n  func.func @${functionName}(${args.join(', ')}) -> ${resultText} {\n` +
    body +
    `    func.return ${results.join(', ')} : ${resultTypes.join(', ')} ${nameLoc(outputNames)}\n  } ${nameLoc(g.name || functionName)}\n} ${nameLoc(cx.model.file)}\n`
  );
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
  let clock = performance.now();
  const lap = (phase: keyof ImportTimings): void => {
    const now = performance.now();
    timings[phase] = now - clock;
    clock = now;
  };
  const context = new MLIRContext();
  registerSpatialDialect(context);
  const functionName = options.functionName ?? 'main';
  const inferred = inferShapes(model, { inputShapes: options.inputShapes, inputValues: options.constantInputs, maxFoldElements: 1 << 24 });
  lap('inferShapes');
  const diagnostics: OnnxDiagnostic[] = [...inferred.diagnostics];
  const fail = (): ImportedModule => ({ module: undefined, text: '', context, functionName, inputs: [], outputs: [], diagnostics, timings });
  if (!inferred.values || hasErrors(diagnostics)) return fail();
  const values = inferred.values;
  const cx = new LoweringContext(model, values, options.crossbarSize ?? DEFAULT_CROSSBAR_SIZE);
  const text = lowerGraph(cx, functionName);
  lap('lower');
  diagnostics.push(...cx.diagnostics);
  if (text === undefined) return fail();
  const { result, diagnostics: irDiagnostics } = context.diagnostics.capture(() => {
    const m = parseSourceString(context, text, { filename: model.file });
    lap('parse');
    if (!m || !attachPayloads(m, cx.payloads)) return undefined;
    lap('attach');
    const ok = verify(m);
    lap('verify');
    return ok ? m : undefined;
  });
  if (!result) {
    diagnostics.push({ severity: 'error', location: { file: model.file }, message: LM.generatedIrInvalid(irDiagnostics.map((d) => d.message).join('; ')) });
    return { ...fail(), text };
  }
  const io = (name: string): ImportedValue => ({ name, shape: values.get(name)?.shape ?? [] });
  let printed: string | undefined;
  return {
    module: result,
    get text(): string {
      printed ??= printOperation(result, { debugInfo: true }) + '\n';
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

/**
 * Replaces every `dense_resource<raptor_payload_K>` constant value of `module` by a dense
 * attribute holding `payloads[K]`. Returns false (with a diagnostic) if a handle is unknown.
 */
function attachPayloads(module: Operation, payloads: readonly Float32Array[]): boolean {
  let ok = true;
  module.walk((op) => {
    if (op.name !== 'arith.constant') return;
    const v = op.getAttr('value');
    if (!(v instanceof DenseResourceElementsAttr) || !v.handle.startsWith(PAYLOAD_PREFIX)) return;
    const data = payloads[Number(v.handle.slice(PAYLOAD_PREFIX.length))];
    if (!data || !(v.type instanceof RankedTensorType)) {
      op.emitError(`internal error: no payload for constant ${v.handle}`);
      ok = false;
      return;
    }
    op.setAttr('value', DenseElementsAttr.adopt(v.type, data));
  });
  return ok;
}
