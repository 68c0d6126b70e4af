/**
 * Reading an ONNX model: decode the bytes, convert to the typed {@link OnnxModel}, and
 * validate its structure (opset imports, names, initializers vs inputs, producers of every
 * value, duplicate outputs, cycles, declared shape sizes).
 */
import { Messages, hasErrors, type OnnxDiagnostic, type OnnxLocation } from '../diagnostics';
import { KNOWN_DOMAINS, MAX_OPSET, MIN_OPSET, normalizeDomain } from '../support/opsets';
import { decodeModelProto } from './decode';
import { DataArena, dataTypeName, isSupportedDataType } from './dtypes';
import type { OnnxAttribute, OnnxDim, OnnxGraph, OnnxModel, OnnxNode, OnnxTensor, OnnxValueInfo } from './model';
import { type AttributeMsg, type GraphMsg, type ModelMsg, type ValueInfoMsg, int64ToNumber } from './proto-types';
import { type ExternalDataReader, type TensorContext, convertTensor } from './tensor';
import { sortNodes } from './topological-sort';

/** Default limit on the element count of any declared or inferred tensor (2^30). */
export const DEFAULT_MAX_TENSOR_ELEMENTS = 2 ** 30;

/** Options of {@link readOnnxModel}. */
export interface ReadOnnxOptions {
  /** File name used in diagnostics (default `<memory>`). */
  readonly file?: string;
  /** Reader for external data files in the model's folder (see `nodeExternalDataReader`). */
  readonly external?: ExternalDataReader;
  /** Largest element count accepted for a declared tensor shape (default 2^30). */
  readonly maxTensorElements?: number;
}

/** Model (when no error was reported) and every diagnostic. */
export interface ReadOnnxResult {
  readonly model: OnnxModel | undefined;
  readonly diagnostics: OnnxDiagnostic[];
}

interface Ctx extends TensorContext {
  readonly maxElements: number;
}

const utf8 = new TextDecoder('utf-8');

function err(ctx: Ctx, location: OnnxLocation, message: string): void {
  ctx.diagnostics.push({ severity: 'error', location, message });
}

function convertValueInfo(v: ValueInfoMsg, ctx: Ctx, what: string): OnnxValueInfo | undefined {
  const loc = { file: ctx.file, value: v.name };
  if (!v.name) {
    err(ctx, loc, Messages.emptyName(what));
    return undefined;
  }
  const type = v.type;
  if (!type || !type.value) {
    if (what === 'graph input') err(ctx, loc, Messages.missingType(v.name));
    return { name: v.name, elemType: 0, shape: undefined };
  }
  if (type.value !== 'tensorType' || !type.tensorType) {
    err(ctx, loc, Messages.unsupportedType(v.name, type.value.replace('Type', '')));
    return undefined;
  }
  const elemType = type.tensorType.elemType;
  if (!isSupportedDataType(elemType) && elemType !== 0) {
    err(ctx, loc, Messages.unsupportedValueDtype(dataTypeName(elemType), v.name));
    return undefined;
  }
  const shapeMsg = type.tensorType.shape;
  if (!shapeMsg) return { name: v.name, elemType, shape: undefined };
  const shape: OnnxDim[] = [];
  let count = 1;
  for (let i = 0; i < shapeMsg.dim.length; i++) {
    const d = shapeMsg.dim[i]!;
    if (d.value === 'dimValue') {
      const n = int64ToNumber(d.dimValue);
      if (!Number.isSafeInteger(n) || n < 0) {
        err(ctx, loc, Messages.badDim(v.name, i, String(d.dimValue)));
        return undefined;
      }
      shape.push(n);
      count *= n;
    } else if (d.value === 'dimParam' && d.dimParam) shape.push(d.dimParam);
    else shape.push(null);
  }
  if (count > ctx.maxElements) {
    err(ctx, loc, Messages.tooManyElements(`${what} '${v.name}'`, shape, count, ctx.maxElements));
    return undefined;
  }
  return { name: v.name, elemType, shape };
}

function convertAttribute(a: AttributeMsg, ctx: Ctx, loc: OnnxLocation, depth: number): OnnxAttribute | undefined {
  const tensor = (t: Parameters<typeof convertTensor>[0]): OnnxTensor | undefined => convertTensor(t, ctx, loc, a.name);
  if (a.refAttrName) {
    err(ctx, loc, Messages.attributeRef(a.name));
    return undefined;
  }
  switch (a.type) {
    case 1: return { kind: 'float', value: a.f };
    case 2: return { kind: 'int', value: int64ToNumber(a.i) };
    case 3: return { kind: 'string', value: utf8.decode(a.s) };
    case 4: {
      const t = a.t ? tensor(a.t) : undefined;
      return t ? { kind: 'tensor', value: t } : undefined;
    }
    case 5: {
      const g = a.g ? convertGraph(a.g, ctx, depth + 1) : undefined;
      return g ? { kind: 'graph', value: g } : undefined;
    }
    case 6: return { kind: 'floats', value: Array.from(a.floats) };
    case 7: return { kind: 'ints', value: a.ints.map(int64ToNumber) };
    case 8: return { kind: 'strings', value: a.strings.map((s) => utf8.decode(s)) };
    case 9: {
      const ts = a.tensors.map(tensor);
      return ts.every((t) => t) ? { kind: 'tensors', value: ts as OnnxTensor[] } : undefined;
    }
    case 10: {
      const gs = a.graphs.map((g) => convertGraph(g, ctx, depth + 1));
      return gs.every((g) => g) ? { kind: 'graphs', value: gs as OnnxGraph[] } : undefined;
    }
    case 11: err(ctx, loc, Messages.attributeKindUnsupported(a.name, 'SPARSE_TENSOR')); return undefined;
    case 12: err(ctx, loc, Messages.attributeKindUnsupported(a.name, 'SPARSE_TENSORS')); return undefined;
    case 13: err(ctx, loc, Messages.attributeKindUnsupported(a.name, 'TYPE_PROTO')); return undefined;
    case 14: err(ctx, loc, Messages.attributeKindUnsupported(a.name, 'TYPE_PROTOS')); return undefined;
    case 0: {
      // IR version 1 files have no `type`; infer it from the field that is set.
      if (a.t) return convertAttribute({ ...a, type: 4 }, ctx, loc, depth);
      if (a.g) return convertAttribute({ ...a, type: 5 }, ctx, loc, depth);
      if (a.floats.length) return convertAttribute({ ...a, type: 6 }, ctx, loc, depth);
      if (a.ints.length) return convertAttribute({ ...a, type: 7 }, ctx, loc, depth);
      if (a.strings.length) return convertAttribute({ ...a, type: 8 }, ctx, loc, depth);
      if (a.s.length) return convertAttribute({ ...a, type: 3 }, ctx, loc, depth);
      if (Object.prototype.hasOwnProperty.call(a, 'i')) return convertAttribute({ ...a, type: 2 }, ctx, loc, depth);
      if (Object.prototype.hasOwnProperty.call(a, 'f')) return convertAttribute({ ...a, type: 1 }, ctx, loc, depth);
      err(ctx, loc, Messages.attributeNoType(a.name));
      return undefined;
    }
    default:
      err(ctx, loc, Messages.attributeKindUnsupported(a.name, `type ${a.type}`));
      return undefined;
  }
}

function convertGraph(g: GraphMsg, ctx: Ctx, depth: number): OnnxGraph | undefined {
  const before = ctx.diagnostics.length;
  const initializers = new Map<string, OnnxTensor>();
  for (let i = 0; i < g.initializer.length; i++) {
    const t = g.initializer[i]!;
    const loc = { file: ctx.file, value: t.name || `initializer #${i}` };
    if (!t.name) {
      err(ctx, loc, Messages.emptyName(`initializer #${i}`));
      continue;
    }
    if (initializers.has(t.name)) {
      err(ctx, loc, Messages.duplicateInitializer(t.name));
      continue;
    }
    const tensor = convertTensor(t, ctx, loc);
    if (tensor) initializers.set(t.name, tensor);
  }
  for (const s of g.sparseInitializer) {
    const name = s.values?.name ?? '';
    err(ctx, { file: ctx.file, value: name }, Messages.sparseInitializerUnsupported(name));
  }
  const inputs: OnnxValueInfo[] = [];
  const inputNames = new Set<string>();
  const initializerNames = new Set(g.initializer.map((t) => t.name));
  for (const v of g.input) {
    if (inputNames.has(v.name)) {
      err(ctx, { file: ctx.file, value: v.name }, Messages.duplicateInput(v.name));
      continue;
    }
    inputNames.add(v.name);
    if (initializerNames.has(v.name)) continue;
    const info = convertValueInfo(v, ctx, 'graph input');
    if (info) inputs.push(info);
  }
  const outputs: OnnxValueInfo[] = [];
  for (const v of g.output) {
    const info = convertValueInfo(v, ctx, 'graph output');
    if (info) outputs.push(info);
  }
  const valueInfo = new Map<string, OnnxValueInfo>();
  for (const v of g.valueInfo) {
    const info = convertValueInfo(v, ctx, 'value_info');
    if (info) valueInfo.set(info.name, info);
  }
  const nodes: OnnxNode[] = [];
  for (let i = 0; i < g.node.length; i++) {
    const n = g.node[i]!;
    const loc = { file: ctx.file, node: n.name, nodeIndex: i };
    if (!n.opType) err(ctx, loc, Messages.emptyOpType());
    const attributes = new Map<string, OnnxAttribute>();
    for (const a of n.attribute) {
      const attr = convertAttribute(a, ctx, loc, depth);
      if (attr) attributes.set(a.name, attr);
    }
    nodes.push({ name: n.name, index: i, opType: n.opType, domain: normalizeDomain(n.domain), inputs: n.input, outputs: n.output, attributes });
  }
  if (ctx.diagnostics.length > before && hasErrors(ctx.diagnostics.slice(before))) return undefined;
  return { name: g.name, nodes, initializers, inputs, outputs, valueInfo };
}

function checkOpsets(m: ModelMsg, ctx: Ctx): Map<string, number> {
  const opsets = new Map<string, number>();
  const loc = { file: ctx.file };
  for (const o of m.opsetImport) {
    const domain = normalizeDomain(o.domain);
    const version = int64ToNumber(o.version);
    if (opsets.has(domain)) {
      err(ctx, loc, Messages.duplicateOpset(domain));
      continue;
    }
    opsets.set(domain, version);
    if (domain === '') {
      if (version < MIN_OPSET) err(ctx, loc, Messages.opsetTooOld(version, MIN_OPSET));
      else if (version > MAX_OPSET) err(ctx, loc, Messages.opsetTooNew(version, MAX_OPSET));
    } else if (!KNOWN_DOMAINS.has(domain)) err(ctx, loc, Messages.unknownDomain(domain));
  }
  if (!opsets.has('')) err(ctx, loc, Messages.noOpsetImport());
  return opsets;
}

const INITIALIZER = 0;
const GRAPH_INPUT = 1;

/** Checks that every value is produced once and every use has a producer; sorts the nodes. */
function validateGraph(graph: OnnxGraph, irVersion: number, ctx: Ctx, declaredInputs: readonly string[]): OnnxGraph | undefined {
  const before = ctx.diagnostics.length;
  // The producer of each value: a node, or INITIALIZER / GRAPH_INPUT (described only for a
  // diagnostic: no text per value is built for a valid model).
  const producer = new Map<string, OnnxNode | typeof INITIALIZER | typeof GRAPH_INPUT>();
  for (const name of graph.initializers.keys()) producer.set(name, INITIALIZER);
  const overridable: string[] = [];
  for (const name of declaredInputs) {
    if (!graph.initializers.has(name)) producer.set(name, GRAPH_INPUT);
    else if (irVersion >= 4) overridable.push(name);
  }
  // Before IR version 4 every initializer had to be an input too; later it marks an overridable default.
  if (overridable.length > 0) {
    ctx.diagnostics.push({ severity: 'warning', location: { file: ctx.file, value: overridable[0]! }, message: Messages.initializersAsInputs(overridable.length, overridable[0]!, irVersion) });
  }
  for (const node of graph.nodes) {
    for (const out of node.outputs) {
      if (out === '') continue;
      const first = producer.get(out);
      if (first !== undefined) {
        const by = first === INITIALIZER ? `initializer '${out}'` : first === GRAPH_INPUT ? `graph input '${out}'` : `node '${first.name}' (#${first.index})`;
        err(ctx, { file: ctx.file, node: node.name, nodeIndex: node.index, value: out }, Messages.duplicateOutput(out, by));
      } else producer.set(out, node);
    }
  }
  for (const node of graph.nodes) {
    node.inputs.forEach((input, i) => {
      if (input !== '' && !producer.has(input)) {
        err(ctx, { file: ctx.file, node: node.name, nodeIndex: node.index, value: input }, Messages.undefinedInput(input, i, node.opType));
      }
    });
  }
  for (const out of graph.outputs) {
    if (!producer.has(out.name)) err(ctx, { file: ctx.file, value: out.name }, Messages.undefinedGraphOutput(out.name));
  }
  if (hasErrors(ctx.diagnostics.slice(before))) return undefined;
  const sorted = sortNodes(graph.nodes);
  if ('cycle' in sorted) {
    const first = sorted.cycle[0]!;
    err(ctx, { file: ctx.file, node: first.name, nodeIndex: first.index }, Messages.cycle(sorted.cycle.map((n) => n.name || `#${n.index}`)));
    return undefined;
  }
  return { ...graph, nodes: sorted.nodes };
}

/**
 * Reads and validates an ONNX model from its bytes. Never throws on bad input: returns the
 * model (undefined if any error was reported) and the diagnostics.
 *
 * @example
 * const { model, diagnostics } = readOnnxModel(bytes, { file: 'model.onnx' });
 */
export function readOnnxModel(bytes: Uint8Array, options: ReadOnnxOptions = {}): ReadOnnxResult {
  const file = options.file ?? '<memory>';
  const ctx: Ctx = {
    file,
    diagnostics: [],
    external: options.external,
    maxElements: options.maxTensorElements ?? DEFAULT_MAX_TENSOR_ELEMENTS,
    // Chunks no larger than the file: initializer data can never need more than the file holds
    // (typed fields expand, e.g. int64 varints, and then take further chunks).
    arena: new DataArena(Math.max(4096, Math.min(bytes.length, 64 * 2 ** 20))),
  };
  const decoded = decodeModelProto(bytes, file);
  ctx.diagnostics.push(...decoded.diagnostics);
  const m = decoded.message;
  if (!m || !m.graph) return { model: undefined, diagnostics: ctx.diagnostics };
  const irVersion = int64ToNumber(m.irVersion);
  if (irVersion <= 0) err(ctx, { file }, Messages.noIrVersion());
  const opsets = checkOpsets(m, ctx);
  if (m.functions.length > 0) ctx.diagnostics.push({ severity: 'warning', location: { file }, message: Messages.functionsUnsupported(m.functions.length) });
  if (m.trainingInfo.length > 0) ctx.diagnostics.push({ severity: 'warning', location: { file }, message: Messages.trainingInfoIgnored() });
  const converted = convertGraph(m.graph, ctx, 0);
  if (!converted || hasErrors(ctx.diagnostics)) return { model: undefined, diagnostics: ctx.diagnostics };
  const graph = validateGraph(converted, irVersion, ctx, m.graph.input.map((v) => v.name));
  if (!graph || hasErrors(ctx.diagnostics)) return { model: undefined, diagnostics: ctx.diagnostics };
  const model: OnnxModel = {
    file,
    irVersion,
    opsets,
    producerName: m.producerName,
    producerVersion: m.producerVersion,
    modelVersion: int64ToNumber(m.modelVersion),
    docString: m.docString,
    metadata: new Map(m.metadataProps.map((e) => [e.key, e.value])),
    graph,
  };
  return { model, diagnostics: ctx.diagnostics };
}
