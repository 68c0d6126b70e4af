/**
 * (a) Simulated instructions per second and (c) peak memory for a generated vector-heavy
 * 64-core program of 1M instructions (functional + timing passes, latency mode).
 */
import { simulateBundle } from '@raptor-pim/pim-sim';
import { vectorHeavyBundle } from './generate';

const total = Number(process.argv[2] ?? 1_000_000);
const bundle = vectorHeavyBundle(total);
const cores = bundle.coreCount;
const instructions = bundle.programs.reduce((a, p) => a + p.length, 0);

(globalThis as { gc?: () => void }).gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let peakHeap = 0;
let peakRss = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakRss = Math.max(peakRss, m.rss);
};
const t0 = process.hrtime.bigint();
const result = simulateBundle(bundle, { onProgress: sample });
const t1 = process.hrtime.bigint();
sample();
const timingOnlyStart = process.hrtime.bigint();
const timingOnly = simulateBundle(bundle, { timingOnly: true });
const t2 = process.hrtime.bigint();
if (!result.ok || !timingOnly.ok) {
  console.error(result.error?.message ?? timingOnly.error?.message);
  process.exit(1);
}
const seconds = Number(t1 - t0) / 1e9;
const timingSeconds = Number(t2 - timingOnlyStart) / 1e9;
const mib = (b: number) => (b / 1048576).toFixed(1);
console.log(`bundle: ${cores} cores, ${instructions} instructions (vector ops of 64 f32 elements, ring send/recv every 64 ops)`);
console.log(`simulated latency: ${result.timing!.latencyNs} ns, energy ${result.timing!.energyPj.toFixed(0)} pJ`);
console.log(`(a) functional + timing: ${seconds.toFixed(2)} s -> ${(instructions / seconds / 1e6).toFixed(2)} M instructions/s`);
console.log(`    timing only:          ${timingSeconds.toFixed(2)} s -> ${(instructions / timingSeconds / 1e6).toFixed(2)} M instructions/s`);
console.log(`(c) peak RSS ${mib(Math.max(peakRss, process.resourceUsage().maxRSS * 1024))} MiB (process maximum), peak heap used ${mib(peakHeap)} MiB (before the run: ${mib(heapBefore)} MiB); target < 1024 MiB`);

