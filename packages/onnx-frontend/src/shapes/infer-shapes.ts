/**
 * Static shape inference over a validated {@link OnnxModel}: binds symbolic input dimensions,
 * checks operator support, infers the element type and shape of every value, and folds
 * constant shape computations.
 */
import { Messages, hasErrors, type OnnxDiagnostic } from '../diagnostics';
import { OnnxDataType, dataTypeName } from '../onnx/dtypes';
import type { OnnxDim, OnnxModel, OnnxTensor, OnnxValueInfo } from '../onnx/model';
import { DEFAULT_MAX_TENSOR_ELEMENTS } from '../onnx/read-model';
import { operatorSupport, opsetRangeText, supportedOperatorList } from '../support/operators';
import { type InferredValue, NodeContext } from './node-context';
import { NN_RULES, type ShapeRule } from './rules-nn';
import { TENSOR_RULES } from './rules-tensor';

export type { InferredValue } from './node-context';

/** Options of {@link inferShapes}. */
export interface InferShapesOptions {
  /** Concrete shapes for graph inputs, by name (binds `dim_param` and unknown dims). */
  readonly inputShapes?: Readonly<Record<string, readonly number[]>>;
  /** Constant values for graph inputs (e.g. a shape tensor fed at run time), by name. */
  readonly inputValues?: Readonly<Record<string, OnnxTensor>>;
  /** Largest element count of any value (default 2^30). */
  readonly maxTensorElements?: number;
  /** Largest element count of a folded constant (default 65536). */
  readonly maxFoldElements?: number;
}

/** The inferred value of every name, or undefined when an error was reported. */
export interface ShapeInferenceResult {
  readonly values: ReadonlyMap<string, InferredValue> | undefined;
  readonly diagnostics: OnnxDiagnostic[];
}

const RULES: Readonly<Record<string, ShapeRule>> = { ...NN_RULES, ...TENSOR_RULES };

function exampleShape(dims: readonly OnnxDim[] | undefined): string {
  if (!dims || dims.length === 0) return '1x3x224x224';
  return dims.map((d) => (typeof d === 'number' ? String(d) : '1')).join('x');
}

function bindInputs(model: OnnxModel, options: InferShapesOptions, values: Map<string, InferredValue>, diagnostics: OnnxDiagnostic[]): void {
  const file = model.file;
  const given = options.inputShapes ?? {};
  const names = model.graph.inputs.map((i) => i.name);
  for (const name of Object.keys(given)) {
    if (!names.includes(name)) diagnostics.push({ severity: 'error', location: { file }, message: Messages.inputShapeUnknown(name, names) });
  }
  for (const input of model.graph.inputs) {
    const loc = { file, value: input.name };
    const declared = input.shape;
    const bound = given[input.name];
    const constant = options.inputValues?.[input.name];
    let shape: readonly number[] | undefined;
    if (bound) {
      const ok =
        bound.every((d) => Number.isSafeInteger(d) && d >= 0) &&
        (!declared || (declared.length === bound.length && declared.every((d, i) => typeof d !== 'number' || d === bound[i])));
      if (!ok) {
        diagnostics.push({ severity: 'error', location: loc, message: Messages.inputShapeRank(input.name, bound, declared ?? []) });
        continue;
      }
      shape = bound;
    } else if (constant) shape = constant.dims;
    else if (declared && declared.every((d) => typeof d === 'number')) shape = declared as number[];
    else {
      diagnostics.push({ severity: 'error', location: loc, message: Messages.missingInputShape(input.name, declared ?? [], exampleShape(declared)) });
      continue;
    }
    const elemType = input.elemType !== 0 ? input.elemType : (constant?.dataType ?? 0);
    if (!constant) {
      values.set(input.name, { dataType: elemType, shape });
      continue;
    }
    // A bound value must have the input's element type; float16/bfloat16 may come as their raw
    // uint16 bits (as the ONNX test data stores them).
    const rawHalf = constant.dataType === OnnxDataType.UINT16 && (elemType === OnnxDataType.FLOAT16 || elemType === OnnxDataType.BFLOAT16);
    if (constant.dataType !== elemType && !rawHalf) {
      diagnostics.push({ severity: 'error', location: loc, message: Messages.boundValueType(input.name, dataTypeName(constant.dataType), dataTypeName(elemType)) });
      continue;
    }
    values.set(input.name, { dataType: elemType, shape, constant: rawHalf ? { ...constant, dataType: elemType } : constant });
  }
}

function checkDeclared(info: OnnxValueInfo | undefined, v: InferredValue, file: string, diagnostics: OnnxDiagnostic[]): void {
  if (!info?.shape) return;
  const d = info.shape;
  const mismatch = d.length !== v.shape.length || d.some((x, i) => typeof x === 'number' && x !== v.shape[i]);
  if (mismatch) diagnostics.push({ severity: 'warning', location: { file, value: info.name }, message: Messages.declaredShapeMismatch(info.name, d, v.shape) });
}

/**
 * Infers static shapes for every value of `model`. Reports unsupported operators (naming the
 * node, the opset and the supported list), unbound dynamic input dimensions (naming the
 * `--input-shape` flag to use), and shape errors. Never throws on bad input.
 *
 * @example
 * const { values } = inferShapes(model, { inputShapes: { input: [1, 3, 224, 224] } });
 * values?.get('output')?.shape; // [1, 1000]
 */
export function inferShapes(model: OnnxModel, options: InferShapesOptions = {}): ShapeInferenceResult {
  const diagnostics: OnnxDiagnostic[] = [];
  const file = model.file;
  const maxElements = options.maxTensorElements ?? DEFAULT_MAX_TENSOR_ELEMENTS;
  const maxFold = options.maxFoldElements ?? 65536;
  const opset = model.opsets.get('') ?? 0;
  const graph = model.graph;

  // Operator support first: one diagnostic per unsupported node.
  for (const node of graph.nodes) {
    const loc = { file, node: node.name, nodeIndex: node.index };
    // Unnamed nodes are named as the lowering names them: <OpType>_<index>.
    const name = node.name !== '' ? node.name : `${node.opType}_${node.index}`;
    if (node.domain !== '') {
      diagnostics.push({ severity: 'error', location: loc, message: Messages.unsupportedDomainOp(node.opType, node.domain, name) });
      continue;
    }
    const support = operatorSupport(node.opType);
    if (!support) diagnostics.push({ severity: 'error', location: loc, message: Messages.unsupportedOperator(node.opType, name, opset, supportedOperatorList()) });
    else if (opset < support.minOpset || opset > support.maxOpset) {
      diagnostics.push({ severity: 'error', location: loc, message: Messages.unsupportedOperatorOpset(node.opType, name, opset, opsetRangeText(support)) });
    }
  }
  if (hasErrors(diagnostics)) return { values: undefined, diagnostics };

  const values = new Map<string, InferredValue>();
  for (const [name, t] of graph.initializers) values.set(name, { dataType: t.dataType, shape: t.dims, constant: t });
  bindInputs(model, options, values, diagnostics);
  if (hasErrors(diagnostics)) return { values: undefined, diagnostics };

  for (const node of graph.nodes) {
    const ctx = new NodeContext(node, opset, values, diagnostics, file, maxFold);
    const outs = RULES[node.opType]!(ctx);
    if (!outs) return { values: undefined, diagnostics };
    for (let i = 0; i < node.outputs.length; i++) {
      const name = node.outputs[i]!;
      if (name === '') continue;
      const v = outs[i];
      if (!v) {
        ctx.error(Messages.outputNotProduced(node.opType, i, name));
        return { values: undefined, diagnostics };
      }
      const n = v.shape.reduce((p, d) => p * d, 1);
      if (n > maxElements) {
        diagnostics.push({ severity: 'error', location: { file, node: node.name, nodeIndex: node.index, value: name }, message: Messages.tooManyElements(`value '${name}'`, v.shape, n, maxElements) });
        return { values: undefined, diagnostics };
      }
      if (v.dataType === 0) ctx.error(Messages.unknownElementType(node.opType, name));
      values.set(name, v);
      checkDeclared(graph.valueInfo.get(name), v, file, diagnostics);
    }
  }
  for (const out of graph.outputs) {
    const v = values.get(out.name);
    if (!v) continue;
    checkDeclared(out, v, file, diagnostics);
    if (out.elemType !== 0 && out.elemType !== v.dataType) {
      diagnostics.push({ severity: 'error', location: { file, value: out.name }, message: Messages.outputTypeMismatch(out.name, dataTypeName(out.elemType), dataTypeName(v.dataType)) });
    }
  }
  return { values: hasErrors(diagnostics) ? undefined : values, diagnostics };
}

/**
 * Parses one `--input-shape name=1x3x224x224` flag value. A name may contain `=`; the last
 * `=` separates the shape. Returns the binding or an error message.
 */
export function parseInputShapeFlag(text: string): { name: string; shape: number[] } | { error: string } {
  const eq = text.lastIndexOf('=');
  if (eq <= 0) return { error: Messages.badInputShapeFlag(text) };
  const name = text.slice(0, eq);
  const dims = text.slice(eq + 1);
  if (!/^\d+(x\d+)*$/.test(dims) && dims !== '') return { error: Messages.badInputShapeFlag(text) };
  return { name, shape: dims === '' ? [] : dims.split('x').map(Number) };
}
