/**
 * Differential tests through bufferization: PIM streams on tensors (bufferization's own
 * fixtures) are bufferized and planned by `pim-bufferize,pim-plan-memory,pim-verify-memory`,
 * emitted, and run in pim-sim; the outputs must equal the pim interpreter's on the tensor
 * module (which must equal the interpreter on the planned memref module bit for bit).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, printOperation } from '@raptor-pim/ir-core';
import { registerBufferizationPasses } from '@raptor-pim/bufferization';
import { defaultTarget, validateBundle } from '@raptor-pim/pim-target';
import { emitBundle, findEntryFunction } from '../src';
import { expectClose, interpretAll, parseModule, randomValues, simulate } from './helpers';
import { MemRefType } from '@raptor-pim/ir-core';

const TENSOR_STREAMS = path.resolve(__dirname, '../../bufferization/test/fixtures/tensor-streams');
const files = fs.readdirSync(TENSOR_STREAMS).filter((f) => f.endsWith('.mlir')).sort();

describe('bufferized streams', () => {
  it('finds bufferization\'s tensor-stream fixtures', () => expect(files.length).toBeGreaterThanOrEqual(5));

  it.each(files)('%s: pim-sim on the emitted bundle equals the interpreter (tensor and planned forms)', (file) => {
    const text = fs.readFileSync(path.join(TENSOR_STREAMS, file), 'utf8');
    const module = parseModule(text);
    const registry = new PassRegistry();
    registerBufferizationPasses(registry);
    const pm = parsePassPipeline(module.context, 'builtin.module(pim-bufferize,pim-plan-memory,pim-verify-memory)', registry)!;
    const { result, diagnostics } = module.context.diagnostics.capture(() => pm.run(module));
    expect(diagnostics.map((d) => d.message)).toEqual([]);
    expect(result.success).toBe(true);
    const planned = printOperation(module);

    const r = emitBundle(parseModule(planned), defaultTarget());
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    expect(r.diagnostics.map((d) => d.message)).toEqual([]);
    const v = validateBundle(r.bundle);
    expect(v.diagnostics).toEqual([]);
    expect(v.pimsimCompatible).toBe(true);

    const func = findEntryFunction(module)!;
    const args = func.regions[0]!.firstBlock!.arguments;
    const data = new Map(args.map((a, i) => [i, randomValues((a.type as MemRefType).shape.reduce((x, y) => x * y, 1), 100 + i)] as const));
    const onTensors = interpretAll(parseModule(text), data).results;
    const onMemrefs = interpretAll(parseModule(planned), data).results;
    expect(onMemrefs.map((x) => Array.from(x))).toEqual(onTensors.map((x) => Array.from(x)));
    const byName: Record<string, Float32Array> = {};
    r.bundle.inputs.forEach((t, k) => (byName[t.name] = data.get(k)!));
    const sim = simulate(r.bundle, byName);
    expect(r.bundle.outputs.length).toBe(onTensors.length);
    r.bundle.outputs.forEach((t, k) => expectClose(sim.outputs.get(t.name)!, onTensors[k]!));
  });
});
