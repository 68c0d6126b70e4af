/**
 * Every message text the ONNX frontend emits, and the diagnostic value it reports them in.
 *
 * User input never makes the frontend throw: readers, validators and shape inference return
 * {@link OnnxDiagnostic} values. Messages say what is wrong, where, and what would be right.
 */

/** How serious a diagnostic is (the same spelling as MLIR and `@raptor-pim/ir-core`). */
export type OnnxSeverity = 'error' | 'warning' | 'note';

/**
 * Where a diagnostic points: the model (or tensor) file, and optionally a byte offset in it, a
 * node (name and index in the graph's node list), or a named tensor/value.
 */
export interface OnnxLocation {
  /** File name as given by the caller (e.g. `model.onnx`), or `<memory>`. */
  readonly file: string;
  /** Byte offset in the file, for decoding errors. */
  readonly byteOffset?: number;
  /** Node name (may be empty in ONNX files; then {@link nodeIndex} identifies it). */
  readonly node?: string;
  /** Index of the node in the graph's node list. */
  readonly nodeIndex?: number;
  /** Name of the value, initializer or input the diagnostic is about. */
  readonly value?: string;
}

/** One diagnostic: severity, location, message and optional notes. */
export interface OnnxDiagnostic {
  readonly severity: OnnxSeverity;
  readonly location: OnnxLocation;
  readonly message: string;
  readonly notes?: readonly string[];
}

/** Formats a location as `file:@offset`, `file:node 'n' (#3)` or `file:value 'x'`. */
export function formatLocation(loc: OnnxLocation): string {
  let s = loc.file;
  if (loc.byteOffset !== undefined) s += `:@${loc.byteOffset}`;
  if (loc.nodeIndex !== undefined) s += loc.node ? `: node '${loc.node}' (#${loc.nodeIndex})` : `: node #${loc.nodeIndex}`;
  else if (loc.value !== undefined) s += `: value '${loc.value}'`;
  return s;
}

/** Formats a diagnostic in the `file:loc: error: message` style of compilers. */
export function formatDiagnostic(d: OnnxDiagnostic): string {
  let s = `${formatLocation(d.location)}: ${d.severity}: ${d.message}`;
  for (const n of d.notes ?? []) s += `\n  note: ${n}`;
  return s;
}

/** True if any diagnostic in the list is an error. */
export function hasErrors(diagnostics: readonly OnnxDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

const q = (s: string): string => `'${s}'`;
const shapeText = (dims: readonly (number | string | null)[]): string =>
  dims.length === 0 ? '[]' : `[${dims.map((d) => (d === null ? '?' : String(d))).join('x')}]`;

/** The message catalog. Each entry builds one message text. */
export const Messages = {
  boundValueType: (input: string, given: string, declared: string) =>
    `the value bound to input ${q(input)} has element type ${given}; the input is declared ${declared}`,
  // --- protobuf decoding -------------------------------------------------------------------
  emptyFile: () => 'file is empty; expected an ONNX ModelProto',
  truncated: (what: string) => `truncated protobuf: ${what} runs past the end of the buffer`,
  badVarint: () => 'malformed protobuf varint (more than 10 bytes)',
  badFieldNumber: (n: number) => `invalid protobuf field number ${n}`,
  badWireType: (wt: number) => `invalid protobuf wire type ${wt}`,
  wrongWireType: (message: string, field: string, id: number, got: string, expected: string) =>
    `wrong protobuf field type for ${message}.${field} (field ${id}): wire type ${got}, expected ${expected}`,
  badUtf8: (message: string, field: string) => `invalid UTF-8 in string field ${message}.${field}`,
  badPackedLength: (message: string, field: string, len: number, size: number) =>
    `packed field ${message}.${field} has ${len} bytes, not a multiple of ${size}`,
  tooDeep: (limit: number) => `protobuf messages nested deeper than ${limit} levels`,
  groupMismatch: () => 'protobuf group end tag does not match its start tag',
  protobufError: (msg: string) => `protobuf decoding failed: ${msg}`,
  notOnnx: () => 'not an ONNX model: the file has no graph (ModelProto field 7)',
  noIrVersion: () => 'ModelProto has no ir_version; this does not look like an ONNX model',
  // --- model structure ---------------------------------------------------------------------
  noOpsetImport: () => 'model has no opset_import for the ai.onnx domain; add one (opset 6 or newer)',
  opsetTooOld: (v: number, min: number) => `ai.onnx opset ${v} is not supported; supported opsets are ${min} and newer`,
  opsetTooNew: (v: number, max: number) => `ai.onnx opset ${v} is newer than the newest supported opset ${max}`,
  unknownDomain: (d: string) => `unknown opset domain ${q(d)}; known domains: '' (ai.onnx), ai.onnx.ml, com.microsoft`,
  duplicateOpset: (d: string) => `opset domain ${q(d === '' ? 'ai.onnx' : d)} is imported twice`,
  functionsUnsupported: (n: number) => `model-local functions are not supported (${n} FunctionProto); inline them first`,
  trainingInfoIgnored: () => 'training_info is ignored',
  sparseInitializerUnsupported: (name: string) => `sparse initializer ${q(name)} is not supported`,
  unsupportedType: (value: string, kind: string) => `value ${q(value)} has ${kind} type; only tensor types are supported`,
  missingType: (value: string) => `graph input ${q(value)} has no tensor type`,
  emptyName: (what: string) => `${what} has an empty name`,
  duplicateInitializer: (name: string) => `initializer ${q(name)} is defined twice`,
  initializersAsInputs: (count: number, first: string, ir: number) =>
    `${count} initializer(s) are also listed as graph inputs (first: ${q(first)}); with IR version ${ir} they are overridable defaults, and are read as constants`,
  duplicateOutput: (name: string, first: string) => `value ${q(name)} is produced twice (first by ${first})`,
  duplicateInput: (name: string) => `graph input ${q(name)} is listed twice`,
  undefinedInput: (name: string, idx: number, op: string) =>
    `input #${idx} ${q(name)} of ${op} is not produced by any node, initializer or graph input`,
  undefinedGraphOutput: (name: string) => `graph output ${q(name)} is not produced by any node, initializer or graph input`,
  cycle: (nodes: string[]) => `the graph has a cycle through node(s) ${nodes.map(q).join(', ')}`,
  emptyOpType: () => 'node has an empty op_type',
  // --- tensors -----------------------------------------------------------------------------
  unsupportedDtype: (dtype: string, tensor: string) => `tensor ${q(tensor)} has unsupported data type ${dtype}`,
  unsupportedValueDtype: (dtype: string, value: string) => `value ${q(value)} has unsupported data type ${dtype}`,
  badDim: (tensor: string, i: number, d: string) => `tensor ${q(tensor)} has invalid dimension #${i} = ${d}`,
  tooManyElements: (what: string, dims: readonly (number | string | null)[], count: number, limit: number) =>
    `${what} has shape ${shapeText(dims)} = ${count.toExponential(3)} elements, more than the limit of ${limit} (set maxTensorElements to raise it)`,
  rawDataLength: (tensor: string, dims: readonly number[], dtype: string, got: number, expected: number) =>
    `initializer ${q(tensor)} raw_data has ${got} bytes, expected ${expected} for shape ${shapeText(dims)} of ${dtype}`,
  typedDataLength: (tensor: string, field: string, got: number, expected: number) =>
    `tensor ${q(tensor)} ${field} has ${got} values, expected ${expected}`,
  wrongTypedField: (tensor: string, dtype: string, field: string) =>
    `tensor ${q(tensor)} of ${dtype} stores its values in ${field}, which is not the field for that type`,
  segmentIgnored: (tensor: string) => `tensor ${q(tensor)} has a segment; segments are not supported and it is read as a whole tensor`,
  externalNoLocation: (tensor: string) => `tensor ${q(tensor)} has external data without a 'location' key`,
  externalBadKey: (tensor: string, key: string, value: string) => `tensor ${q(tensor)} external data key ${q(key)} has invalid value ${q(value)}`,
  externalEscapes: (tensor: string, loc: string) =>
    `tensor ${q(tensor)} external data location ${q(loc)} escapes the model folder; it must be a relative path inside it`,
  externalNoDir: (tensor: string) => `tensor ${q(tensor)} has external data, but the model was read from memory without a folder (pass baseDir)`,
  externalMissing: (tensor: string, file: string, why: string) => `tensor ${q(tensor)} external data file ${q(file)} cannot be read: ${why}`,
  externalRange: (tensor: string, file: string, offset: number, length: number, size: number) =>
    `tensor ${q(tensor)} external data range [${offset}, ${offset + length}) lies outside ${q(file)} (${size} bytes)`,
  // --- attributes --------------------------------------------------------------------------
  attributeKindUnsupported: (attr: string, kind: string) => `attribute ${q(attr)} has kind ${kind}, which is not supported`,
  attributeNoType: (attr: string) => `attribute ${q(attr)} has no type and no value`,
  attributeRef: (attr: string) => `attribute ${q(attr)} refers to a function attribute (ref_attr_name), which is only allowed in functions`,
  // --- operators and shapes ----------------------------------------------------------------
  unsupportedOperator: (op: string, node: string, opset: number, supported: string) =>
    `unsupported operator ${q(op)} (node ${q(node)}, opset ${opset}); supported: ${supported}`,
  unsupportedOperatorOpset: (op: string, node: string, opset: number, range: string) =>
    `operator ${q(op)} (node ${q(node)}) is not supported at opset ${opset}; supported opsets: ${range}`,
  unsupportedDomainOp: (op: string, domain: string, node: string) =>
    `unsupported operator ${q(op)} of domain ${q(domain)} (node ${q(node)}); only the ai.onnx domain is supported`,
  missingInputShape: (input: string, dims: readonly (number | string | null)[], example: string) =>
    `input ${q(input)} has a dynamic shape ${shapeText(dims)}; bind it with --input-shape ${input}=${example} (option inputShapes: { '${input}': [${example.split('x').join(', ')}] })`,
  inputShapeRank: (input: string, given: readonly number[], declared: readonly (number | string | null)[]) =>
    `input shape ${shapeText(given)} given for ${q(input)} does not match its declared shape ${shapeText(declared)}`,
  inputShapeUnknown: (input: string, inputs: string[]) => `--input-shape names ${q(input)}, which is not a graph input; inputs: ${inputs.join(', ') || '(none)'}`,
  badInputShapeFlag: (text: string) => `cannot parse --input-shape ${q(text)}; expected name=1x3x224x224`,
  shapeError: (op: string, what: string) => `${op}: ${what}`,
  missingRequiredInput: (op: string, idx: number) => `${op}: required input #${idx} is missing`,
  nonConstantInput: (op: string, idx: number, name: string) =>
    `${op}: input #${idx} ${q(name)} must be a constant (initializer or a foldable shape computation) to infer static shapes`,
  unknownShape: (op: string, idx: number, name: string) => `${op}: the shape of input #${idx} ${q(name)} is unknown`,
  trainingDropout: () => 'Dropout in training mode (training_mode input true, or is_test=0 before opset 7) is not supported',
  trainingBatchNorm: () => 'BatchNormalization in training mode (training_mode=1 or several outputs) is not supported',
  declaredShapeMismatch: (value: string, declared: readonly (number | string | null)[], inferred: readonly number[]) =>
    `value ${q(value)} is declared with shape ${shapeText(declared)} but inferred as ${shapeText(inferred)}`,
  outputTypeMismatch: (value: string, declared: string, inferred: string) =>
    `graph output ${q(value)} is declared ${declared} but inferred ${inferred}`,
  unsupportedAttributeValue: (op: string, attr: string, value: string, allowed: string) =>
    `${op}: attribute ${q(attr)} = ${value} is not supported; supported: ${allowed}`,
  cannotReadFile: (why: string) => `cannot read file: ${why}`,
  outputNotProduced: (op: string, i: number, name: string) => `${op}: output #${i} ${q(name)} is not produced by this form of the operator`,
  unknownElementType: (op: string, name: string) => `${op}: cannot infer the element type of output ${q(name)}`,
  // --- npy / tensor files ------------------------------------------------------------------
  npyMagic: () => 'not a .npy file (missing \\x93NUMPY magic)',
  npyVersion: (major: number) => `unsupported .npy format version ${major}; supported: 1, 2, 3`,
  npyHeader: (why: string) => `malformed .npy header: ${why}`,
  npyDtype: (descr: string) => `unsupported .npy dtype ${q(descr)}; supported: <f4, <f8, <i8, <i4, |u1, |b1`,
  npyFortran: () => '.npy data in Fortran order is not supported; save with C order',
  npyLength: (got: number, expected: number) => `.npy data has ${got} bytes, expected ${expected}`,
} as const;

/** Message texts of the lowering to Spatial plans (`importOnnxModel`). */
export const LoweringMessages = {
  unsupportedOperator: (op: string, node: string, opset: number, supported: string) =>
    `cannot lower operator ${q(op)} (node ${q(node)}, opset ${opset}) to Spatial; lowered operators: ${supported}`,
  unsupportedForm: (op: string, node: string, why: string) => `cannot lower ${op} (node ${q(node)}): ${why}`,
  noSpatReshape: (op: string, node: string, from: readonly number[], to: readonly number[]) =>
    `cannot lower ${op} (node ${q(node)}) from ${shapeText(from)} to ${shapeText(to)}: no spat op represents this reshape (spat.flatten_plan only produces rank-2 [prod(dims before axis), prod(rest)])`,
  nonFloatValue: (value: string, type: string) => `value ${q(value)} has element type ${type}; the Spatial lowering supports float32 tensors only`,
  badCrossbarSize: (size: number) => `crossbar size ${size} is not a positive integer`,
  crossbarSizeConflict: (size: number, rows: number, columns: number) =>
    `crossbar size ${size} (--crossbar-size) conflicts with the target's crossbar ${rows}x${columns} (matrix_config.xbar_size); the target decides the tiling: drop the crossbar size or change the target`,
  weightTiling: (message: string) => `cannot tile the weights onto crossbars: ${message}`,
  generatedIrInvalid: (message: string) => `internal error: the generated Spatial module does not verify: ${message}`,
  runInputCount: (got: number, expected: number) => `the model has ${expected} input(s), ${got} given`,
  runInputShape: (index: number, name: string, got: readonly number[], expected: readonly number[]) =>
    `input #${index} ${q(name)} has shape ${shapeText(got)}, expected ${shapeText(expected)}`,
  runFailed: (message: string) => `interpretation failed: ${message}`,
} as const;
