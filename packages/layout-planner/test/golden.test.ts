/**
 * Golden tests of `spat-plan-layouts` (planning on with the default exact solver, local search, off) on test/fixtures/*.mlir;
 * regenerate with UPDATE_GOLDEN=1. The hand-built chain of issue 11 is also checked by
 * counting: row strips through the chain, one materialization at the flatten, none with
 * planning off.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, parseSourceString, printOperation, type Operation } from '@raptor-pim/ir-core';
import { countLayoutOps, layoutPlanningPipeline, readSelectedLayouts, registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { FIXTURES_DIR, makeContext } from './helpers';

const MODES: [string, string][] = [
  ['on', 'spat-plan-layouts'], // the default solver (exact)
  ['local', 'spat-plan-layouts{solver=local}'],
  ['off', 'spat-plan-layouts{disable-spatial-planning}'],
];

function run(file: string, passes: string): { module: Operation; text: string; diagnostics: string[] } {
  const ctx = makeContext();
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8'), { filename: file })!;
    const pm = parsePassPipeline(ctx, `builtin.module(func.func(${passes},spat-verify-layouts))`, registry)!;
    return pm.run(m).success ? m : undefined;
  });
  return { module: result!, text: result ? printOperation(result) + '\n' : '', diagnostics: diagnostics.map((d) => d.message) };
}

const inputs = ['chain.mlir', 'residual.mlir'];

describe.each(inputs)('%s', (file) => {
  it.each(MODES)('planning %s matches its golden file', (mode, passes) => {
    const r = run(file, passes);
    expect(r.diagnostics).toEqual([]);
    const golden = path.join(FIXTURES_DIR, 'golden', file.replace('.mlir', `.${mode}.mlir`));
    if (process.env['UPDATE_GOLDEN']) {
      fs.mkdirSync(path.dirname(golden), { recursive: true });
      fs.writeFileSync(golden, r.text);
    }
    expect(r.text).toBe(fs.readFileSync(golden, 'utf8'));
    // Deterministic: a second run prints the same bytes; planning planned IR changes nothing.
    expect(run(file, passes).text).toBe(r.text);
    expect(run(file, `${passes},${passes}`).text).toBe(r.text);
  });
});

function resultLayouts(m: Operation): string[] {
  const out: string[] = [];
  m.walk((op) => {
    const r = readSelectedLayouts(op);
    if (r.ok) out.push(`${op.name}:${r.layouts.resultLayout}`);
  });
  return out;
}

it('layoutPlanningPipeline spells the compiler flags as pass options that parse', () => {
  expect(layoutPlanningPipeline()).toBe('func.func(spat-plan-layouts,spat-verify-layouts)');
  const off = layoutPlanningPipeline({ disableSpatialPlanning: true, solver: 'local', debugLayouts: true });
  expect(off).toBe('func.func(spat-plan-layouts{disable-spatial-planning=true solver=local debug-layouts=true},spat-verify-layouts)');
  const ctx = makeContext();
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  expect(parsePassPipeline(ctx, `builtin.module(${off})`, registry)).toBeDefined();
});

describe('the hand-built chain conv -> relu -> maxpool -> conv -> flatten', () => {
  it('row strips through the chain and one materialization at the flatten', () => {
    for (const passes of ['spat-plan-layouts', 'spat-plan-layouts{solver=local}', 'spat-plan-layouts{solver=exact}']) {
      const { module } = run('chain.mlir', passes);
      expect(resultLayouts(module)).toEqual([
        'spat.conv2d_plan:nhwc_row_strip',
        'spat.relu_plan:nhwc_row_strip',
        'spat.max_pool2d_plan:nhwc_row_strip',
        'spat.conv2d_plan:nhwc_row_strip',
        'spat.flatten_plan:dense_nchw',
      ]);
      expect(countLayoutOps(module)).toEqual({ plans: 5, rowStripPlans: 4, materializations: 1 });
      let materializedInto = '';
      module.walk((op) => {
        if (op.name === 'spat.materialize_layout') materializedInto = op.getResult(0).firstUse!.owner.name;
      });
      expect(materializedInto).toBe('spat.flatten_plan');
    }
  });
  it('no materialization and all dense with planning off', () => {
    const { module } = run('chain.mlir', 'spat-plan-layouts{disable-spatial-planning}');
    expect(countLayoutOps(module)).toEqual({ plans: 5, rowStripPlans: 0, materializations: 0 });
    expect(resultLayouts(module).every((s) => s.endsWith(':dense_nchw'))).toBe(true);
  });
});
