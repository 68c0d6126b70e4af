/** Bad input of every kind the issue lists: each gets a diagnostic, never a throw. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OnnxDataType, type OnnxDiagnostic, formatDiagnostic, hasErrors, importOnnxModel, inferShapes, loadOnnxModel, readOnnxFile, readOnnxModel, runImportedModule } from '@raptor-pim/onnx-frontend';
import { convReluSpec, encode, encodeModel, floatTensor, int64Tensor, modelObject, node, valueInfo } from './build-model';
import { MODELS_DIR } from './helpers';

function errors(diagnostics: readonly OnnxDiagnostic[]): string[] {
  return diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
}

const mnist = (): Uint8Array => fs.readFileSync(path.join(MODELS_DIR, 'mnist-8', 'model.onnx'));

describe('bad input', () => {
  it('a valid small model reads (control)', () => {
    const r = loadOnnxModel(encodeModel(convReluSpec()), { file: 'm.onnx', inputShapes: { x: [2, 3, 8, 8] } });
    expect(errors(r.diagnostics)).toEqual([]);
    expect(r.values!.get('y')!.shape).toEqual([2, 4, 8, 8]);
  });

  it('an empty file', () => {
    const r = readOnnxModel(new Uint8Array(0), { file: 'empty.onnx' });
    expect(r.model).toBeUndefined();
    expect(errors(r.diagnostics)).toEqual(['empty.onnx:@0: error: file is empty; expected an ONNX ModelProto']);
  });

  it.each([10, 1000, 20000])('a model truncated to %i bytes names the offset', (n) => {
    const r = readOnnxModel(mnist().subarray(0, n), { file: 'mnist.onnx' });
    expect(r.model).toBeUndefined();
    const e = errors(r.diagnostics);
    expect(e).toHaveLength(1);
    expect(e[0]).toMatch(/^mnist\.onnx:@\d+: error: truncated protobuf: .* runs past the end of the buffer$/);
  });

  it('a non-ONNX file (text)', () => {
    const r = readOnnxModel(new TextEncoder().encode('hello, this is not a model\n'), { file: 'hello.txt' });
    expect(r.model).toBeUndefined();
    expect(errors(r.diagnostics)).toHaveLength(1);
    expect(errors(r.diagnostics)[0]).toMatch(/^hello\.txt:@\d+: error: /);
  });

  it('a non-ONNX file (a valid protobuf without a graph)', () => {
    // field 1 (ir_version) = 8, field 2 (producer_name) = "x": well-formed, but no graph.
    const r = readOnnxModel(new Uint8Array([0x08, 0x08, 0x12, 0x01, 0x78]), { file: 'nograph.onnx' });
    expect(errors(r.diagnostics)).toEqual(['nograph.onnx: error: not an ONNX model: the file has no graph (ModelProto field 7)']);
  });

  it('a wrong protobuf field type (graph encoded as a varint)', () => {
    // ir_version = 8, then field 7 (graph) with wire type 0 (varint) instead of 2.
    const r = readOnnxModel(new Uint8Array([0x08, 0x08, 0x38, 0x05]), { file: 'bad.onnx' });
    expect(errors(r.diagnostics)).toEqual([
      'bad.onnx:@2: error: wrong protobuf field type for ModelProto.graph (field 7): wire type varint, expected length-delimited',
    ]);
  });

  it('a wrong field type deep inside a real model (TensorProto.data_type as bytes)', () => {
    const obj = modelObject(convReluSpec());
    const bytes = encode(obj);
    // Find the initializer's data_type tag (field 2, varint: 0x10 0x01) after its name "w" and replace the varint by a length-delimited field of 1 byte.
    const at = bytes.findIndex((b, i) => b === 0x10 && bytes[i + 1] === 0x01 && bytes[i + 2] === 0x42 && bytes[i + 3] === 0x01 && bytes[i + 4] === 0x77);
    expect(at).toBeGreaterThan(0);
    const patched = Uint8Array.from(bytes);
    patched[at] = 0x12; // field 2, wire type 2
    const r = readOnnxModel(patched, { file: 'm.onnx' });
    expect(errors(r.diagnostics).join('\n')).toMatch(/wrong protobuf field type for TensorProto\.dataType \(field 2\): wire type length-delimited, expected varint/);
  });

  it('an invalid UTF-8 node name', () => {
    const obj = modelObject(convReluSpec());
    const bytes = encode(obj);
    const name = new TextEncoder().encode('relu0');
    const at = bytes.findIndex((_, i) => name.every((c, k) => bytes[i + k] === c));
    const patched = Uint8Array.from(bytes);
    patched[at] = 0xff;
    const r = readOnnxModel(patched, { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual([`m.onnx:@${at}: error: invalid UTF-8 in string field NodeProto.name`]);
  });

  it('an initializer whose raw_data length does not match its shape', () => {
    const spec = convReluSpec();
    spec.initializers = [floatTensor('w', [4, 3, 3, 3], undefined, new Uint8Array(100))];
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: value 'w': error: initializer 'w' raw_data has 100 bytes, expected 432 for shape [4x3x3x3] of float"]);
  });

  it('typed-field data whose count does not match the shape', () => {
    const spec = convReluSpec();
    spec.initializers = [{ name: 'w', dims: [4, 3, 3, 3], dataType: 1, floatData: [1, 2, 3] }];
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: value 'w': error: tensor 'w' float_data has 3 values, expected 108"]);
  });

  it('a node input that no node produces', () => {
    const spec = convReluSpec();
    spec.nodes[1] = node('Relu', ['nobody'], ['y'], {}, 'relu0');
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual([
      "m.onnx: node 'relu0' (#1): error: input #0 'nobody' of Relu is not produced by any node, initializer or graph input",
    ]);
  });

  it('a value produced twice', () => {
    const spec = convReluSpec();
    spec.nodes.push(node('Relu', ['c'], ['y'], {}, 'relu1'));
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: node 'relu1' (#2): error: value 'y' is produced twice (first by node 'relu0' (#1))"]);
  });

  it('a cycle names its nodes', () => {
    const spec = convReluSpec();
    spec.nodes = [node('Add', ['x', 'b'], ['a'], {}, 'add0'), node('Relu', ['a'], ['b'], {}, 'relu0'), node('Relu', ['b'], ['y'], {}, 'relu1')];
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: node 'add0' (#0): error: the graph has a cycle through node(s) 'add0', 'relu0'"]);
  });

  it('nodes out of order are sorted topologically', () => {
    const spec = convReluSpec();
    spec.nodes.reverse();
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(r.model!.graph.nodes.map((n) => n.name)).toEqual(['conv0', 'relu0']);
  });

  it('a 10^12-element declared shape is rejected before any allocation', () => {
    const spec = convReluSpec();
    spec.inputs = [valueInfo('x', [1000000, 1000000])];
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual([
      "m.onnx: value 'x': error: graph input 'x' has shape [1000000x1000000] = 1.000e+12 elements, more than the limit of 1073741824 (set maxTensorElements to raise it)",
    ]);
  });

  it('a 10^12-element initializer without data is a length mismatch, not an allocation', () => {
    const spec = convReluSpec();
    spec.initializers = [floatTensor('w', [1000000, 1000000], undefined, new Uint8Array(4))];
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)[0]).toContain("raw_data has 4 bytes, expected 4000000000000 for shape [1000000x1000000] of float");
  });

  it('a 10^12-element inferred value (Resize with a huge scale) is rejected', () => {
    const spec: Parameters<typeof encodeModel>[0] = {
      nodes: [node('Resize', ['x', '', 's'], ['y'], {}, 'resize0')],
      inputs: [valueInfo('x', [1, 1, 1000, 1000])],
      outputs: [valueInfo('y', undefined)],
      initializers: [{ name: 's', dims: [4], dataType: 1, floatData: [1, 1, 1000, 1000] }],
    };
    const r = loadOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual([
      "m.onnx: node 'resize0' (#0): error: value 'y' has shape [1x1x1000000x1000000] = 1.000e+12 elements, more than the limit of 1073741824 (set maxTensorElements to raise it)",
    ]);
  });

  it('an unknown opset domain is named', () => {
    const spec = convReluSpec();
    spec.opsets = [{ domain: '', version: 13 }, { domain: 'com.example.mystery', version: 1 }];
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual([
      "m.onnx: error: unknown opset domain 'com.example.mystery'; known domains: '' (ai.onnx), ai.onnx.ml, com.microsoft",
    ]);
  });

  it.each([
    [5, "m.onnx: error: ai.onnx opset 5 is not supported; supported opsets are 6 and newer"],
    [99, 'm.onnx: error: ai.onnx opset 99 is newer than the newest supported opset 24'],
  ])('ai.onnx opset %i', (version, message) => {
    const spec = convReluSpec();
    spec.opset = version;
    expect(errors(readOnnxModel(encodeModel(spec), { file: 'm.onnx' }).diagnostics)).toEqual([message]);
  });

  it('no ai.onnx opset import', () => {
    const spec = convReluSpec();
    spec.opsets = [{ domain: 'ai.onnx.ml', version: 3 }];
    expect(errors(readOnnxModel(encodeModel(spec), { file: 'm.onnx' }).diagnostics)).toEqual([
      'm.onnx: error: model has no opset_import for the ai.onnx domain; add one (opset 6 or newer)',
    ]);
  });

  it('an unsupported operator names the node, the opset and the supported list', () => {
    const spec = convReluSpec();
    spec.nodes[1] = node('Elu', ['c'], ['y'], {}, 'elu0');
    const r = loadOnnxModel(encodeModel(spec), { file: 'm.onnx', inputShapes: { x: [1, 3, 8, 8] } });
    const e = errors(r.diagnostics);
    expect(e).toHaveLength(1);
    expect(e[0]).toMatch(/^m\.onnx: node 'elu0' \(#1\): error: unsupported operator 'Elu' \(node 'elu0', opset 13\); supported: Add, AveragePool, .*, Upsample$/);
  });

  it('an operator outside its supported opsets', () => {
    const spec = convReluSpec();
    spec.nodes[1] = node('Upsample', ['c', 's'], ['y'], {}, 'up0');
    spec.initializers!.push({ name: 's', dims: [4], dataType: 1, floatData: [1, 1, 2, 2] });
    const r = loadOnnxModel(encodeModel(spec), { file: 'm.onnx', inputShapes: { x: [1, 3, 8, 8] } });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: node 'up0' (#1): error: operator 'Upsample' (node 'up0') is not supported at opset 13; supported opsets: 7-9"]);
  });

  it('an unsupported initializer data type names the dtype and the tensor', () => {
    const spec = convReluSpec();
    spec.initializers!.push({ name: 'names', dims: [1], dataType: 8, stringData: [new TextEncoder().encode('a')] });
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: value 'names': error: tensor 'names' has unsupported data type string"]);
  });

  it('a sequence-typed input is unsupported', () => {
    const spec = convReluSpec();
    spec.inputs.push({ name: 'seq', type: { sequenceType: { elemType: { tensorType: { elemType: 1 } } } } });
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: value 'seq': error: value 'seq' has sequence type; only tensor types are supported"]);
  });

  it('training-mode BatchNormalization is rejected', () => {
    const spec: Parameters<typeof encodeModel>[0] = {
      nodes: [node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y'], { training_mode: 1 }, 'bn0')],
      inputs: [valueInfo('x', [1, 2, 4, 4])],
      outputs: [valueInfo('y', undefined)],
      initializers: ['s', 'b', 'm', 'v'].map((n) => floatTensor(n, [2])),
      opset: 15,
    };
    expect(errors(loadOnnxModel(encodeModel(spec), { file: 'm.onnx' }).diagnostics)).toEqual([
      "m.onnx: node 'bn0' (#0): error: BatchNormalization in training mode (training_mode=1 or several outputs) is not supported",
    ]);
  });

  it('a model-local function gives a warning', () => {
    const obj = modelObject(convReluSpec());
    obj['functions'] = [{ name: 'f', domain: 'custom' }];
    const r = readOnnxModel(encode(obj), { file: 'm.onnx' });
    expect(r.model).toBeDefined();
    expect(r.diagnostics.map(formatDiagnostic)).toEqual(['m.onnx: warning: model-local functions are not supported (1 FunctionProto); inline them first']);
  });

  it('a tensor segment gives a warning and is read whole', () => {
    const spec = convReluSpec();
    spec.initializers = [{ ...floatTensor('w', [4, 3, 3, 3]), segment: { begin: 0, end: 10 } }];
    const r = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(r.model).toBeDefined();
    expect(r.diagnostics.map(formatDiagnostic)).toEqual(["m.onnx: value 'w': warning: tensor 'w' has a segment; segments are not supported and it is read as a whole tensor"]);
  });

  it('initializers listed as inputs: allowed in IR 3, warned in IR >= 4', () => {
    const spec = convReluSpec();
    spec.inputs.push(valueInfo('w', [4, 3, 3, 3]));
    spec.irVersion = 3;
    const r3 = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(r3.diagnostics).toEqual([]);
    expect(r3.model!.graph.inputs.map((i) => i.name)).toEqual(['x']);
    spec.irVersion = 7;
    const r7 = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(r7.model!.graph.inputs.map((i) => i.name)).toEqual(['x']);
    expect(r7.diagnostics.map((d) => d.severity)).toEqual(['warning']);
  });
});

describe('symbolic dimensions', () => {
  const bytes = encodeModel(convReluSpec());

  it('a missing binding names the input and the --input-shape flag', () => {
    const r = loadOnnxModel(bytes, { file: 'm.onnx' });
    expect(errors(r.diagnostics)).toEqual([
      "m.onnx: value 'x': error: input 'x' has a dynamic shape [Nx3x8x8]; bind it with --input-shape x=1x3x8x8 (option inputShapes: { 'x': [1, 3, 8, 8] })",
    ]);
  });

  it('a binding that contradicts a static dimension', () => {
    const r = loadOnnxModel(bytes, { file: 'm.onnx', inputShapes: { x: [1, 4, 8, 8] } });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: value 'x': error: input shape [1x4x8x8] given for 'x' does not match its declared shape [Nx3x8x8]"]);
  });

  it('a binding for a name that is not an input', () => {
    const r = loadOnnxModel(bytes, { file: 'm.onnx', inputShapes: { x: [1, 3, 8, 8], z: [1] } });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: error: --input-shape names 'z', which is not a graph input; inputs: x"]);
  });

  it('a bound value of another element type than the input is refused; raw uint16 bits bind to a float16 input', () => {
    const t = { name: 'x', dataType: OnnxDataType.INT64, dims: [1, 3, 8, 8], data: new BigInt64Array(192) };
    const r = loadOnnxModel(bytes, { file: 'm.onnx', inputValues: { x: t } });
    expect(errors(r.diagnostics)).toEqual(["m.onnx: value 'x': error: the value bound to input 'x' has element type int64; the input is declared float"]);
    const half = encodeModel({ nodes: [node('Cast', ['h'], ['y'], { to: 1 })], inputs: [valueInfo('h', [2], OnnxDataType.FLOAT16)], outputs: [valueInfo('y', [2])] });
    const bits = { name: 'h', dataType: OnnxDataType.UINT16, dims: [2], data: Uint16Array.of(0x3c00, 0xc000) };
    const imported = importOnnxModel(readOnnxModel(half, { file: 'h.onnx' }).model!, { constantInputs: { h: bits } });
    expect(errors(imported.diagnostics)).toEqual([]);
    const run = runImportedModule(imported, []);
    expect(run.ok && Array.from(run.outputs[0]!.data)).toEqual([1, -2]);
  });

  it('binds the batch dimension', () => {
    const r = loadOnnxModel(bytes, { file: 'm.onnx', inputShapes: { x: [7, 3, 8, 8] } });
    expect(r.values!.get('y')!.shape).toEqual([7, 4, 8, 8]);
  });
});

describe('external data', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onnx-ext-'));
    const weights = new Float32Array(108).map((_, i) => i);
    const blob = new Uint8Array(16 + weights.byteLength);
    blob.set(new Uint8Array(weights.buffer), 16);
    fs.writeFileSync(path.join(dir, 'weights.bin'), blob);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const withExternal = (entries: { key: string; value: string }[]): string => {
    const spec = convReluSpec();
    spec.initializers = [{ name: 'w', dims: [4, 3, 3, 3], dataType: 1, dataLocation: 1, externalData: entries }];
    const file = path.join(dir, `m${Math.random().toString(36).slice(2)}.onnx`);
    fs.writeFileSync(file, encodeModel(spec));
    return file;
  };

  it('reads location/offset/length next to the model', () => {
    const file = withExternal([
      { key: 'location', value: 'weights.bin' },
      { key: 'offset', value: '16' },
      { key: 'length', value: '432' },
    ]);
    const r = readOnnxFile(file);
    expect(errors(r.diagnostics)).toEqual([]);
    const w = r.model!.graph.initializers.get('w')!;
    expect(Array.from((w.data as Float32Array).slice(0, 4))).toEqual([0, 1, 2, 3]);
    expect(w.data[107]).toBe(107);
  });

  it('a location escaping the model folder', () => {
    const file = withExternal([{ key: 'location', value: '../../etc/passwd' }]);
    expect(errors(readOnnxFile(file).diagnostics)[0]).toContain("external data location '../../etc/passwd' escapes the model folder");
  });

  it('an absolute location', () => {
    const file = withExternal([{ key: 'location', value: '/etc/passwd' }]);
    expect(errors(readOnnxFile(file).diagnostics)[0]).toContain('escapes the model folder');
  });

  it('a range past the end of the file', () => {
    const file = withExternal([
      { key: 'location', value: 'weights.bin' },
      { key: 'offset', value: '100' },
    ]);
    expect(errors(readOnnxFile(file).diagnostics)[0]).toContain("external data range [100, 532) lies outside 'weights.bin' (448 bytes)");
  });

  it('a missing file', () => {
    const file = withExternal([{ key: 'location', value: 'nope.bin' }]);
    expect(errors(readOnnxFile(file).diagnostics)[0]).toContain("external data file 'nope.bin' cannot be read: ENOENT");
  });

  it('from memory without a folder', () => {
    const spec = convReluSpec();
    spec.initializers = [{ name: 'w', dims: [4, 3, 3, 3], dataType: 1, dataLocation: 1, externalData: [{ key: 'location', value: 'weights.bin' }] }];
    expect(errors(readOnnxModel(encodeModel(spec), { file: 'm.onnx' }).diagnostics)).toEqual([
      "m.onnx: value 'w': error: tensor 'w' has external data, but the model was read from memory without a folder (pass baseDir)",
    ]);
  });
});

describe('constant folding of shape chains', () => {
  it('Shape -> Gather -> Unsqueeze -> Concat -> Reshape gets a constant target', () => {
    const spec: Parameters<typeof encodeModel>[0] = {
      nodes: [
        node('Shape', ['x'], ['s']),
        node('Gather', ['s', 'i0'], ['n'], { axis: 0 }),
        node('Unsqueeze', ['n', 'ax'], ['n1']),
        node('Concat', ['n1', 'minus1'], ['target'], { axis: 0 }),
        node('Cast', ['target'], ['target64'], { to: 7 }),
        node('Reshape', ['x', 'target64'], ['y']),
      ],
      inputs: [valueInfo('x', ['B', 3, 4, 5])],
      outputs: [valueInfo('y', undefined)],
      initializers: [int64Tensor('i0', [0], []), int64Tensor('ax', [0]), int64Tensor('minus1', [-1])],
    };
    const r = loadOnnxModel(encodeModel(spec), { file: 'm.onnx', inputShapes: { x: [2, 3, 4, 5] } });
    expect(errors(r.diagnostics)).toEqual([]);
    expect(Array.from(r.values!.get('target64')!.constant!.data as BigInt64Array)).toEqual([2n, -1n]);
    expect(r.values!.get('y')!.shape).toEqual([2, 60]);
  });

  it('a non-constant Reshape target is a diagnostic', () => {
    const spec: Parameters<typeof encodeModel>[0] = {
      nodes: [node('Reshape', ['x', 't'], ['y'], {}, 'r0')],
      inputs: [valueInfo('x', [2, 3]), valueInfo('t', [2], 7)],
      outputs: [valueInfo('y', undefined)],
    };
    const read = readOnnxModel(encodeModel(spec), { file: 'm.onnx' });
    expect(errors(inferShapes(read.model!).diagnostics)).toEqual([
      "m.onnx: node 'r0' (#0): error: Reshape: input #1 't' must be a constant (initializer or a foldable shape computation) to infer static shapes",
    ]);
  });

  it('hasErrors is false for warnings only', () => {
    expect(hasErrors([{ severity: 'warning', location: { file: 'f' }, message: 'm' }])).toBe(false);
  });
});
