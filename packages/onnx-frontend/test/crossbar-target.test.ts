/**
 * The Gemm/MatMul tiling follows the target configuration's crossbar size: a target and the
 * equal `crossbarSize` give the same module, a conflicting `crossbarSize` is an error naming
 * both, rectangular crossbars give ceil(K/R) x ceil(N/C) tiles, and the default is pim-target's.
 */
import * as path from 'node:path';
import { GraphComputeBatchOp, GraphComputeOp, crossbarTileCount } from '@raptor-pim/spatial-dialect';
import { defaultTarget, type Target } from '@raptor-pim/pim-target';
import { DEFAULT_CROSSBAR_SIZE, LoweringMessages, getAttribute, hasErrors, importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { MODELS_DIR } from './helpers';

function targetWith(rows: number, columns: number): Target {
  const t = defaultTarget();
  t.config.chip_config.core_config.matrix_config.xbar_size = [rows, columns];
  return t;
}

/** The weight counts of the compute ops of a module, in order. */
function weightCounts(text: string): number[] {
  return [...text.matchAll(/crossbarWeights (\d+)/g)].map((m) => Number(m[1]));
}

describe('crossbar size from the target', () => {
  const { model } = readOnnxFile(path.join(MODELS_DIR, 'mlp', 'model.onnx'));

  it('the default is the crossbar of pim-target default configuration', () => {
    const [rows] = defaultTarget().config.chip_config.core_config.matrix_config.xbar_size;
    expect(DEFAULT_CROSSBAR_SIZE).toBe(rows);
    expect(importOnnxModel(model!).text).toBe(importOnnxModel(model!, { target: defaultTarget() }).text);
  });

  it('a target and the same crossbarSize give the same module', () => {
    const a = importOnnxModel(model!, { target: targetWith(32, 32) });
    const b = importOnnxModel(model!, { crossbarSize: 32, target: targetWith(32, 32) });
    const c = importOnnxModel(model!, { crossbarSize: 32 });
    expect(hasErrors(a.diagnostics)).toBe(false);
    expect(a.text).toBe(b.text);
    expect(a.text).toBe(c.text);
  });

  it('a crossbarSize that conflicts with the target is an error', () => {
    const r = importOnnxModel(model!, { crossbarSize: 64, target: targetWith(32, 32) });
    expect(r.module).toBeUndefined();
    expect(r.diagnostics.map((d) => d.message)).toEqual([LoweringMessages.crossbarSizeConflict(64, 32, 32)]);
    expect(importOnnxModel(model!, { crossbarSize: 0 }).diagnostics.map((d) => d.message)).toEqual([LoweringMessages.badCrossbarSize(0)]);
  });

  it('rectangular crossbars tile rows by R and columns by C', () => {
    const r = importOnnxModel(model!, { target: targetWith(64, 16) });
    expect(hasErrors(r.diagnostics)).toBe(false);
    const gemms = model!.graph.nodes.filter((n) => n.opType === 'Gemm' || n.opType === 'MatMul');
    expect(gemms.length).toBeGreaterThan(0);
    const computes: number[] = [];
    r.module!.walk((op) => {
      const view = GraphComputeOp.match(op) ?? GraphComputeBatchOp.match(op);
      if (view && view.weights.length > 0) computes.push(view.weights.length);
    });
    const shapes = gemms.map((n) => {
      const w = model!.graph.initializers.get(n.inputs[1]!)!;
      const transB = getAttribute(n, 'transB', 'int') === 1;
      const [k, nOut] = transB ? [w.dims[1]!, w.dims[0]!] : [w.dims[0]!, w.dims[1]!];
      return crossbarTileCount(k, nOut, 64, 16);
    });
    expect(computes).toEqual(shapes);
    expect(weightCounts(r.text).filter((c) => c > 0)).toEqual(shapes);
  });
});
