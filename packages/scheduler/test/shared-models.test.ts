import { printOperation } from '@raptor-pim/ir-core';
import { defaultTarget } from '@raptor-pim/pim-target';
import { BUILTIN_SCHEDULERS, formatReport } from '@raptor-pim/scheduler';
import { checkModule, run, scheduleWith } from './helpers';
import { importShared, sharedInput } from './models';

jest.setTimeout(120_000);

const MODELS = ['mlp', 'mlp_batch4'];
const STRATEGIES = ['layer-sequential', 'throughput', 'latency'];

describe.each(MODELS)('%s', (model) => {
  it.each(STRATEGIES)('%s: passes the checks and computes what the graph computes', (strategy) => {
    const imported = importShared(model);
    if (!imported) return;
    const module = imported.module!;
    const args = sharedInput(imported, model);
    const before = run(module, imported.functionName, args);
    expect(before.ok).toBe(true);
    const r = scheduleWith(module, strategy);
    expect(r.errors).toEqual([]);
    expect(checkModule(module)).toEqual([]);
    const after = run(module, imported.functionName, args);
    if (!after.ok) throw new Error(after.message + '\n' + printOperation(module).replace(/dense<"0x[0-9A-F]+">/g, 'dense<...>'));
    expect(after.outputs).toEqual((before as { outputs: number[][] }).outputs);
  });
});

describe('determinism', () => {
  it.each(STRATEGIES)('%s: the same input gives the same module and report, byte for byte', (strategy) => {
    const outputs = [0, 1].map(() => {
      const imported = importShared('mlp_batch4');
      if (!imported) return undefined;
      const s = BUILTIN_SCHEDULERS.find((x) => x.name === strategy)!;
      const r = s.schedule(imported.module!, defaultTarget(), {});
      expect(r.module).toBeDefined();
      return { ir: printOperation(imported.module!), report: JSON.stringify(r.report), text: formatReport(r.report!.functions[0]!) };
    });
    expect(outputs[1]).toEqual(outputs[0]);
  });
});
