/** The README example, run against the shared ultraface model. */
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import { formatDiagnostic, hasErrors, importOnnxModel, loadOnnxFile, parseInputShapeFlag, readOnnxFile, runImportedModule } from '@raptor-pim/onnx-frontend';
import { MODELS_DIR } from './helpers';

it('README example: binds --input-shape and prints a shape per node', () => {
  const flag = parseInputShapeFlag('input=1x3x240x320');
  if ('error' in flag) throw new Error(flag.error);
  const { model, values, diagnostics } = loadOnnxFile(path.join(MODELS_DIR, 'ultraface-slim-320', 'model.onnx'), {
    inputShapes: { [flag.name]: flag.shape },
  });
  expect(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  expect(hasErrors(diagnostics)).toBe(false);
  const lines = model!.graph.nodes.map((node) => `${node.opType} ${node.name}: [${values!.get(node.outputs[0]!)!.shape.join('x')}]`);
  expect(lines[0]).toBe('Conv : [1x16x120x160]');
  expect(lines).toContain('Concat : [1x4420x4]');
  expect(lines).toContain('Softmax : [1x4420x2]');
});

it('parseInputShapeFlag rejects malformed flags', () => {
  expect(parseInputShapeFlag('input=1x3xx4')).toEqual({ error: "cannot parse --input-shape 'input=1x3xx4'; expected name=1x3x224x224" });
  expect(parseInputShapeFlag('=1x2')).toEqual({ error: "cannot parse --input-shape '=1x2'; expected name=1x3x224x224" });
  expect(parseInputShapeFlag('a=b=2x3')).toEqual({ name: 'a=b', shape: [2, 3] });
  expect(parseInputShapeFlag('scalar=')).toEqual({ name: 'scalar', shape: [] });
});

it('README lowering example: imports mlp and runs it', () => {
  const { model } = readOnnxFile(path.join(MODELS_DIR, 'mlp', 'model.onnx'));
  const imported = importOnnxModel(model!, { crossbarSize: 128 });
  expect(imported.diagnostics.map(formatDiagnostic)).toEqual([]);
  expect(printOperation(imported.module!, { debugInfo: true })).toContain('spat.wvmm');
  const r = runImportedModule(imported, [{ shape: [1, 784], data: new Float32Array(784) }]);
  expect(r.ok && r.outputs[0]!.shape).toEqual([1, 10]);
});
