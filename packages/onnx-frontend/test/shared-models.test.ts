import * as fs from 'node:fs';
import * as path from 'node:path';
import { InferenceSession } from 'onnxruntime-node';
import { hasErrors, loadOnnxFile, readNpy, readTensorProtoFile } from '@raptor-pim/onnx-frontend';
import { MODELS_DIR, sharedModels, text } from './helpers';

// This machine is shared: allow for load (the whole file normally takes a few seconds).
jest.setTimeout(120_000);

const models = sharedModels();

describe('shared models', () => {
  it('finds the shared models', () => {
    expect(models.length).toBeGreaterThanOrEqual(10);
  });

  describe.each(models)('%s', (name) => {
    const dir = path.join(MODELS_DIR, name);
    const loaded = loadOnnxFile(path.join(dir, 'model.onnx'));

    it('reads, validates and infers shapes without errors', () => {
      expect(hasErrors(loaded.diagnostics)).toBe(false);
      expect(text(loaded.diagnostics.filter((d) => d.severity === 'error'))).toBe('');
      expect(loaded.model).toBeDefined();
      expect(loaded.values).toBeDefined();
    });

    it('infers output shapes equal to the reference outputs (npy and pb)', () => {
      const outputs = loaded.model!.graph.outputs;
      outputs.forEach((out, i) => {
        const npyFile = path.join(dir, `output_${i}.npy`);
        const pbFile = path.join(dir, 'test_data_set_0', `output_${i}.pb`);
        const inferred = loaded.values!.get(out.name)!;
        expect(inferred).toBeDefined();
        if (fs.existsSync(npyFile)) {
          const { tensor } = readNpy(fs.readFileSync(npyFile), npyFile);
          expect(inferred.shape).toEqual(tensor!.dims);
          expect(inferred.dataType).toBe(tensor!.dataType);
        }
        const { tensor: pb, diagnostics } = readTensorProtoFile(pbFile);
        expect(text(diagnostics)).toBe('');
        expect(inferred.shape).toEqual(pb!.dims);
      });
    });

    it('has the inputs and outputs onnxruntime reports, with input shapes of the references', async () => {
      const session = await InferenceSession.create(path.join(dir, 'model.onnx'), { intraOpNumThreads: 1, graphOptimizationLevel: 'disabled', logSeverityLevel: 3 });
      const graph = loaded.model!.graph;
      expect(graph.inputs.map((i) => i.name)).toEqual([...session.inputNames]);
      expect(graph.outputs.map((o) => o.name)).toEqual([...session.outputNames]);
      graph.inputs.forEach((input, i) => {
        const { tensor } = readTensorProtoFile(path.join(dir, 'test_data_set_0', `input_${i}.pb`));
        expect(loaded.values!.get(input.name)!.shape).toEqual(tensor!.dims);
      });
      await session.release();
    });
  });

  it.each([['ultraface-slim-320']])('%s: folded Reshape targets equal the -ortfolded variant', (name) => {
    const reshapeShapes = (model: string): string[] => {
      const { model: m, values } = loadOnnxFile(path.join(MODELS_DIR, model, 'model.onnx'));
      return m!.graph.nodes
        .filter((n) => n.opType === 'Reshape')
        .map((n) => {
          const target = values!.get(n.inputs[1]!)!;
          expect(target.constant).toBeDefined();
          return values!.get(n.outputs[0]!)!.shape.join('x');
        })
        .sort();
    };
    const plain = reshapeShapes(name);
    expect(plain.length).toBeGreaterThan(0);
    expect(plain).toEqual(reshapeShapes(`${name}-ortfolded`));
  });
});
