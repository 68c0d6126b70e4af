/**
 * The differential model check shared by models.test.ts and models-large.slow.test.ts (see
 * there).
 */
import { PLAN_OPS, MaterializeLayoutOp } from '@raptor-pim/spatial-dialect';
import { countOps, interpret, loadSharedModel, opHistogram, runPipeline, worstRatio } from './helpers';

/** Models whose lowered interpretation takes minutes (models-large.slow.test.ts). */
export const LARGE_MODELS: ReadonlySet<string> = new Set(['superres-224', 'ultraface-slim-320', 'ultraface-slim-320-ortfolded']);
/** Whether the exhaustive variants run (`RAPTOR_SLOW_TESTS=1`; npm test runs the bounded ones). */
export const RUN_SLOW_TESTS = process.env['RAPTOR_SLOW_TESTS'] === '1';

/** The pipelines a model is checked after (the default compile pipeline is 'planning on'). */
export const PIPELINES = [
  ['lowering only', 'builtin.module(func.func(spat-lower-plans))'],
  ['planning on', 'builtin.module(func.func(spat-plan-layouts,spat-verify-layouts,spat-lower-plans))'],
  ['planning off', 'builtin.module(func.func(spat-plan-layouts{disable-spatial-planning},spat-verify-layouts,spat-lower-plans))'],
] as const;


const LEFTOVER = new Set([...PLAN_OPS.map((d) => d.name), MaterializeLayoutOp.name, 'builtin.unrealized_conversion_cast']);

/** What {@link describeModelDifferential} checks. */
export interface ModelDifferentialOptions {
  /** The pipelines to check (default all three). */
  readonly pipelines?: readonly (typeof PIPELINES)[number][];
  /** Also interpret the imported module and compare with it (default true); onnxruntime is always compared. */
  readonly compareWithImported?: boolean;
}

/**
 * Declares, per model: the imported module matches onnxruntime, and each pipeline lowers every
 * plan and keeps the outputs (vs the imported module and vs onnxruntime).
 */
export function describeModelDifferential(models: readonly string[], options: ModelDifferentialOptions = {}): void {
const pipelines = options.pipelines ?? PIPELINES;
const compareWithImported = options.compareWithImported ?? true;
describe.each(models)('%s', (name) => {
  let before: Float32Array[] = [];
  let fn = '';

  beforeAll(() => {
    const base = loadSharedModel(name);
    fn = base.imported.functionName;
    if (compareWithImported) before = interpret(base.module, fn, base.inputs);
  });

  (compareWithImported ? it : it.skip)('the imported module matches onnxruntime', () => {
    const base = loadSharedModel(name);
    before.forEach((v, k) => expect(worstRatio(v, base.references[k]!)).toBeLessThanOrEqual(1));
  });

  it.each(pipelines)('%s: lowered, same outputs, no plan left', (_label, pipeline) => {
    const m = loadSharedModel(name);
    const run = runPipeline(m.module, pipeline);
    expect(run.diagnostics.map((d) => d.message)).toEqual([]);
    expect(run.success).toBe(true);
    const left = [...opHistogram(m.module).keys()].filter((k) => LEFTOVER.has(k));
    expect(left).toEqual([]);
    const after = interpret(m.module, fn, m.inputs);
    const report: string[] = [];
    after.forEach((v, k) => {
      const vsImported = compareWithImported ? worstRatio(v, before[k]!) : 0;
      const vsOrt = worstRatio(v, m.references[k]!);
      report.push(`${name} [${_label}] output ${k}: worst diff/tolerance vs ${compareWithImported ? `imported ${vsImported.toFixed(3)}, vs ` : ''}onnxruntime ${vsOrt.toFixed(3)}; ${countOps(m.module)} ops`);
      expect(vsImported).toBeLessThanOrEqual(1);
      expect(vsOrt).toBeLessThanOrEqual(1);
    });
    console.log(report.join('\n'));
  });
});
}
