/**
 * Differential test on every shared model (the list is read from the folder): the spatial
 * interpreter gives the same outputs (onnx-frontend's tolerance: rtol 1e-3, atol 1e-5 *
 * max|ref|) on the imported module and after lowering, for three pipelines: `spat-lower-plans`
 * alone, `spat-plan-layouts` (planning on) + lowering, and planning off
 * (`disable-spatial-planning`) + lowering; all equal to onnxruntime's `output_<k>.npy`. Every
 * plan and materialization is gone after lowering, and the number of distinct crossbar tiles
 * of every convolution equals X = ceil(K/R) * ceil(Cout/C) (checked in conv-tiles.test.ts).
 *
 * resnet18 (ImageNet size) is in its own file, resnet18.slow.test.ts.
 */
import { PLAN_OPS, MaterializeLayoutOp } from '@raptor-pim/spatial-dialect';
import { countOps, interpret, loadSharedModel, opHistogram, runPipeline, sharedModels, worstRatio } from './helpers';

jest.setTimeout(600_000);

const MODELS = sharedModels().filter((m) => m !== 'resnet18');
const PIPELINES = [
  ['lowering only', 'builtin.module(func.func(spat-lower-plans))'],
  ['planning on', 'builtin.module(func.func(spat-plan-layouts,spat-verify-layouts,spat-lower-plans))'],
  ['planning off', 'builtin.module(func.func(spat-plan-layouts{disable-spatial-planning},spat-verify-layouts,spat-lower-plans))'],
] as const;

it('finds the shared models', () => {
  expect(MODELS.length).toBeGreaterThanOrEqual(10);
});

const LEFTOVER = new Set([...PLAN_OPS.map((d) => d.name), MaterializeLayoutOp.name, 'builtin.unrealized_conversion_cast']);

describe.each(MODELS)('%s', (name) => {
  let before: Float32Array[] = [];
  let fn = '';

  beforeAll(() => {
    const base = loadSharedModel(name);
    fn = base.imported.functionName;
    before = interpret(base.module, fn, base.inputs);
  });

  it('the imported module matches onnxruntime', () => {
    const base = loadSharedModel(name);
    before.forEach((v, k) => expect(worstRatio(v, base.references[k]!)).toBeLessThanOrEqual(1));
  });

  it.each(PIPELINES)('%s: lowered, same outputs, no plan left', (_label, pipeline) => {
    const m = loadSharedModel(name);
    const run = runPipeline(m.module, pipeline);
    expect(run.diagnostics.map((d) => d.message)).toEqual([]);
    expect(run.success).toBe(true);
    const left = [...opHistogram(m.module).keys()].filter((k) => LEFTOVER.has(k));
    expect(left).toEqual([]);
    const after = interpret(m.module, fn, m.inputs);
    const report: string[] = [];
    after.forEach((v, k) => {
      const vsImported = worstRatio(v, before[k]!);
      const vsOrt = worstRatio(v, m.references[k]!);
      report.push(`${name} [${_label}] output ${k}: worst diff/tolerance vs imported ${vsImported.toFixed(3)}, vs onnxruntime ${vsOrt.toFixed(3)}; ${countOps(m.module)} ops`);
      expect(vsImported).toBeLessThanOrEqual(1);
      expect(vsOrt).toBeLessThanOrEqual(1);
    });
    console.log(report.join('\n'));
  });
});
