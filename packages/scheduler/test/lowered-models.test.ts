/**
 * Differential tests on models lowered by the real upstream stages (layout-planner,
 * plan-lowering): for every strategy the scheduled module passes the checks and the
 * multi-core interpreter computes exactly what the graph computes did. resnet_mini takes about a
 * minute per strategy in the interpreter: it runs with RAPTOR_SLOW_TESTS=1 only.
 */
import { checkModule, run, scheduleWith } from './helpers';
import { lowerShared } from './models';

jest.setTimeout(600_000);

const MODELS = ['lenet5', 'mnist-8', ...(process.env['RAPTOR_SLOW_TESTS'] ? ['resnet_mini'] : [])];
const STRATEGIES = ['layer-sequential', 'throughput', 'latency'];

const lowered = lowerShared;

describe.each(MODELS)('%s (planned and lowered)', (model) => {
  const reference = (() => {
    const m = lowered(model);
    return m ? run(m.module, m.fn, m.args) : undefined;
  })();

  it.each(STRATEGIES)('%s: passes the checks and computes what the graph computes', (strategy) => {
    const m = lowered(model);
    if (!m || !reference) return;
    expect(reference.ok).toBe(true);
    const r = scheduleWith(m.module, strategy);
    expect(r.errors).toEqual([]);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });
});
