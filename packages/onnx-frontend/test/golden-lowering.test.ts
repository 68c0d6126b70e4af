/**
 * Golden files of the Spatial lowering (`test/golden/lowering/<case>.mlir`): the printed module
 * with locations (the ONNX node names) of small models covering every decomposition. Regenerate
 * with `UPDATE_GOLDEN=1 npx nx test onnx-frontend`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import { formatDiagnostic, importOnnxModel, readOnnxModel, type ImportOnnxOptions } from '@raptor-pim/onnx-frontend';
import { type ModelSpec, encodeModel, floatTensor, node, valueInfo } from './build-model';

const values = (n: number, scale = 0.25) => Array.from({ length: n }, (_, i) => ((i % 7) - 3) * scale);

const CASES: Record<string, { spec: ModelSpec; options?: ImportOnnxOptions }> = {
  // Conv + BatchNormalization (folded) + Relu + MaxPool + Flatten + Gemm (tiled 3x2 on 4x4 crossbars) + Softmax, 2 rows.
  'cnn-batch2': {
    spec: {
      nodes: [
        node('Conv', ['x', 'w'], ['c'], { pads: [1, 1, 1, 1] }, 'conv1'),
        node('BatchNormalization', ['c', 'g', 'b', 'm', 'v'], ['n'], {}, 'bn1'),
        node('Relu', ['n'], ['r'], {}, 'relu1'),
        node('MaxPool', ['r'], ['p'], { kernel_shape: [2, 2], strides: [2, 2] }, 'pool1'),
        node('Flatten', ['p'], ['f'], { axis: 1 }, 'flatten'),
        node('Gemm', ['f', 'fw', 'fb'], ['l'], { transB: 1 }, 'fc'),
        node('Softmax', ['l'], ['y'], { axis: 1 }, 'softmax'),
      ],
      inputs: [valueInfo('x', [2, 1, 4, 6])],
      outputs: [valueInfo('y', undefined)],
      initializers: [
        floatTensor('w', [3, 1, 3, 3], values(27)),
        floatTensor('g', [3], [1, 2, 0.5]),
        floatTensor('b', [3], [0, 0.5, -0.5]),
        floatTensor('m', [3], [0.25, 0, -0.25]),
        floatTensor('v', [3], [1, 4, 0.25]),
        floatTensor('fw', [5, 18], values(90, 0.125)),
        floatTensor('fb', [5], [1, 2, 3, 4, 5]),
      ],
    },
    options: { crossbarSize: 8 },
  },
  // SiLU, channel concat, nearest upsampling, residual add, bias add, global average pool.
  'silu-concat-resize': {
    spec: {
      nodes: [
        node('Sigmoid', ['x'], ['s'], {}, 'sig'),
        node('Mul', ['x', 's'], ['silu'], {}, 'silu'),
        node('Concat', ['x', 'silu'], ['cat'], { axis: 1 }, 'cat'),
        node('Resize', ['cat', '', 'sc'], ['up'], { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' }, 'up'),
        node('Add', ['up', 'up'], ['res'], {}, 'residual'),
        node('Add', ['res', 'bias'], ['ba'], {}, 'bias'),
        node('GlobalAveragePool', ['ba'], ['y'], {}, 'gap'),
      ],
      inputs: [valueInfo('x', [1, 2, 2, 2])],
      outputs: [valueInfo('y', undefined)],
      initializers: [floatTensor('sc', [4], [1, 1, 2, 2]), floatTensor('bias', [1, 4, 1, 1], [1, 2, 3, 4])],
    },
  },
};

describe('golden Spatial modules', () => {
  it.each(Object.keys(CASES))('%s', (name) => {
    const { spec, options } = CASES[name]!;
    const { model } = readOnnxModel(encodeModel(spec), { file: `${name}.onnx` });
    const imported = importOnnxModel(model!, options);
    expect(imported.diagnostics.map(formatDiagnostic)).toEqual([]);
    const text = printOperation(imported.module!, { debugInfo: true }) + '\n';
    const file = path.join(__dirname, 'golden', 'lowering', `${name}.mlir`);
    if (process.env['UPDATE_GOLDEN'] === '1' || !fs.existsSync(file)) fs.writeFileSync(file, text);
    expect(text).toBe(fs.readFileSync(file, 'utf8'));
  });
});
