import { kernels } from '../../src';
import { buildSingleNodeModel } from './support/onnx-model-builder';
import { DIFFERENTIAL_TEST_TIMEOUT_MS, runOrtNode, stopOrt } from './support/ort-runner';

jest.setTimeout(DIFFERENTIAL_TEST_TIMEOUT_MS);
afterAll(stopOrt);

describe('test-support ONNX model builder', () => {
  it('starts with ir_version 8 and ends with the default-domain opset import', () => {
    const bytes = buildSingleNodeModel({ opType: 'Relu', nodeInputs: ['x'], inputs: [{ name: 'x', shape: [1] }], outputs: [{ name: 'y', shape: [1] }] });
    // ModelProto.ir_version (field 1, varint) = 8.
    expect(Array.from(bytes.subarray(0, 2))).toEqual([0x08, 0x08]);
    // ModelProto.opset_import (field 8, length 4) = { domain: "" (field 1, length 0), version: 17 (field 2) }.
    expect(Array.from(bytes.subarray(bytes.length - 6))).toEqual([0x42, 0x04, 0x0a, 0x00, 0x10, 0x11]);
  });

  it('encodes floats, ints (negative too) and string attributes that onnxruntime reads back', async () => {
    const floats = await runOrtNode({
      opType: 'Constant',
      nodeInputs: [],
      inputs: [],
      attributes: { value_floats: { floats: [1.5, -2, 300] } },
      outputShape: [3],
    });
    expect(Array.from(floats.data)).toEqual([1.5, -2, 300]);
    const ints = await runOrtNode({
      opType: 'Transpose',
      nodeInputs: ['x'],
      inputs: [{ name: 'x', tensor: kernels.createTensor([2, 1, 3], [1, 2, 3, 4, 5, 6]) }],
      attributes: { perm: { ints: [2, 0, 1] } },
      outputShape: [3, 2, 1],
    });
    expect(Array.from(ints.data)).toEqual([1, 4, 2, 5, 3, 6]);
    const negativeAxis = await runOrtNode({
      opType: 'Softmax',
      nodeInputs: ['x'],
      inputs: [{ name: 'x', tensor: kernels.createTensor([2, 1], [0, 0]) }],
      attributes: { axis: { int: -2 } },
      outputShape: [2, 1],
    });
    expect(Array.from(negativeAxis.data)).toEqual([0.5, 0.5]);
    const crd = await runOrtNode({
      opType: 'DepthToSpace',
      nodeInputs: ['x'],
      inputs: [{ name: 'x', tensor: kernels.createTensor([1, 8, 1, 1], [0, 1, 2, 3, 4, 5, 6, 7]) }],
      attributes: { blocksize: { int: 2 }, mode: { string: 'CRD' } },
      outputShape: [1, 2, 2, 2],
    });
    expect(Array.from(crd.data)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('reports onnxruntime errors as rejected promises', async () => {
    await expect(
      runOrtNode({ opType: 'NoSuchOp', nodeInputs: ['x'], inputs: [{ name: 'x', tensor: kernels.createTensor([1], [0]) }], outputShape: [1] }),
    ).rejects.toThrow(/onnxruntime/);
  });
});
