/**
 * Cross-check with HEAPLab's pimsim-nn (not a dependency: runs only when `PIMSIM_NN` names a
 * built `ChipTest`, see `../shared/TOOLCHAIN.md`): every hand-written fixture and every
 * bufferization fixture is emitted, run by pimsim-nn in directory mode on the default target's
 * architecture JSON, and must finish with the latency and energy pim-sim computes.
 *
 *   PIMSIM_NN=/path/to/build/ChipTest npx jest -c packages/codegen/jest.config.ts pimsim-nn
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, printOperation, type Operation } from '@raptor-pim/ir-core';
import { registerBufferizationPasses } from '@raptor-pim/bufferization';
import { defaultTarget, saveTarget, writeBundle } from '@raptor-pim/pim-target';
import { emitBundle } from '../src';
import { fixture, parseModule, randomValues, simulate } from './helpers';

const CHIPTEST = process.env['PIMSIM_NN'];
const TENSOR_STREAMS = path.resolve(__dirname, '../../bufferization/test/fixtures/tensor-streams');

function planned(file: string): Operation {
  const module = parseModule(fs.readFileSync(path.join(TENSOR_STREAMS, file), 'utf8'));
  const registry = new PassRegistry();
  registerBufferizationPasses(registry);
  parsePassPipeline(module.context, 'builtin.module(pim-bufferize,pim-plan-memory,pim-verify-memory)', registry)!.run(module);
  return parseModule(printOperation(module));
}

const cases: [string, () => Operation][] = [
  ...['one-core-vmm', 'two-core-send-recv', 'host-sync-wait', 'data-movement', 'array-groups'].map(
    (n) => [n, () => parseModule(fixture(`programs/${n}.mlir`))] as [string, () => Operation],
  ),
  ...fs
    .readdirSync(TENSOR_STREAMS)
    .filter((f) => f.endsWith('.mlir'))
    .sort()
    .map((f) => [`bufferization/${f}`, () => planned(f)] as [string, () => Operation]),
];

(CHIPTEST ? describe : describe.skip)('pimsim-nn runs the emitted bundles with pim-sim\'s figures', () => {
  const target = defaultTarget();
  let dir = '';
  let arch = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codegen-pimsim-'));
    arch = path.join(dir, 'arch', 'arch.json');
    saveTarget(target, arch);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(cases)('%s', (name, build) => {
    const r = emitBundle(build(), target);
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    const bundleDir = path.join(dir, name.replace(/[/.]/g, '_'));
    writeBundle(bundleDir, r.bundle);
    const inputs = Object.fromEntries(r.bundle.inputs.map((t, k) => [t.name, randomValues(t.shape.reduce((a, b) => a * b, 1), k + 1)]));
    const ours = simulate(r.bundle, inputs, target);
    const report = execFileSync(CHIPTEST!, [bundleDir, arch, '--instruction-mode=directory'], { encoding: 'utf8', timeout: 120000 });
    const latencyMs = Number(/- latency:\s+([0-9.e+-]+) ms/.exec(report)![1]);
    const energyPj = Number(/- average energy:\s+([0-9.e+-]+) pJ/.exec(report)![1]);
    expect(Math.round(latencyMs * 1e6)).toBe(ours.latencyNs);
    expect(Math.abs(energyPj - ours.energyPj)).toBeLessThanOrEqual(1e-6 * Math.max(1, ours.energyPj));
  });
});
