// spat-to-pim on hand-written scheduled programs: the PIM interpreter gives the outputs of the
// Spatial interpreter (on tensors, and on planned memrefs after pim-bufferize, pim-plan-memory and
// pim-verify-memory), and the printed PIM module matches its golden file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PassRegistry } from '@raptor-pim/ir-core';
import { registerBufferizationPasses } from '@raptor-pim/bufferization';
import { registerSpatialToPimPasses } from '../src';
import { FIXTURES, asBuffers, parseOk, print, randomInputs, readFixture, runPim, runPipeline, runSpatial } from './support/harness';

const CASES = fs.readdirSync(path.join(FIXTURES, 'patterns')).filter((f) => f.endsWith('.mlir') && !f.endsWith('.pim.mlir'));

describe.each(CASES)('%s', (name) => {
  it('converts, verifies, and the pim interpreter matches the spatial interpreter', () => {
    const module = parseOk(readFixture(`patterns/${name}`));
    const inputs = randomInputs(module, 'tensor', name.length);
    const expected = runSpatial(module, inputs);
    const r = runPipeline(module, 'spat-to-pim');
    expect(r.diagnostics.map((d) => d.message)).toEqual([]);
    expect(r.ok).toBe(true);
    const printed = print(module);
    const again = parseOk(printed);
    expect(print(again)).toBe(printed);
    const actual = runPim(module, asBuffers(inputs));
    expect(actual).toEqual(expected);
    const golden = path.join(FIXTURES, 'patterns', name.replace(/\.mlir$/, '.pim.mlir'));
    if (process.env.UPDATE_GOLDEN || !fs.existsSync(golden)) fs.writeFileSync(golden, printed);
    expect(printed).toBe(fs.readFileSync(golden, 'utf8'));
    const register = (r: PassRegistry): void => {
      registerSpatialToPimPasses(r);
      registerBufferizationPasses(r);
    };
    const b = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', register);
    expect(b.diagnostics.map((d) => d.message)).toEqual([]);
    expect(runPim(module, asBuffers(inputs))).toEqual(expected);
  });
});
