import { printOperation } from '@raptor-pim/ir-core';
import { checkModule, importShared, run, scheduleWith, sharedInput } from './helpers';

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
