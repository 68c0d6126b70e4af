/**
 * Timing-pass speed alone (pre-decoded programs, best of 4 runs in one process), for
 * comparing engine changes on a loaded machine. Usage: node tools/bench/pim-sim/run-ts.mjs timing-ab.ts [instructions]
 */
import { compileProgram, runTiming, deriveParams, denseNetwork, runFunctional } from '@raptor-pim/pim-sim';
import { vectorHeavyBundle } from './generate';

const bundle = vectorHeavyBundle(Number(process.argv[2] ?? 1_000_000));
const target = bundle.target!;
const progs = bundle.programs.map((p) => compileProgram(p));
const params = deriveParams(target.config);
const net = denseNetwork(target.network, bundle.coreCount, params.globalSwitchId);
const n = progs.reduce((a, p) => a + p.length, 0);
const best = (f: () => unknown): number => {
  let b = Infinity;
  for (let r = 0; r < 4; r++) {
    const t = process.hrtime.bigint();
    f();
    b = Math.min(b, Number(process.hrtime.bigint() - t) / 1e9);
  }
  return b;
};
const timing = best(() => runTiming(params, net, progs, bundle.arrayGroupMap));
const functional = best(() =>
  runFunctional(
    { xbarRows: params.xbarRows, xbarCols: params.xbarCols, cellPrecision: params.cellPrecision, localSize: params.local.size, globalSize: params.global.size, elementType: 'f32' },
    { programs: progs, groups: bundle.arrayGroupMap },
  ),
);
console.log(`${n} instructions: timing pass ${timing.toFixed(3)} s (${(n / timing / 1e6).toFixed(2)} M/s), functional pass ${functional.toFixed(3)} s (${(n / functional / 1e6).toFixed(2)} M/s)`);
