/** The built-in strategies. */
import type { Scheduler } from '../scheduler';
import { latencyScheduler } from './latency';
import { layerSequentialScheduler } from './layer-sequential';
import { throughputScheduler } from './throughput';

/** The built-in strategies (the first is the default). */
export const BUILTIN_SCHEDULERS: readonly Scheduler[] = [throughputScheduler, layerSequentialScheduler, latencyScheduler];

/** The built-in strategy called `name`. */
export function builtinScheduler(name: string): Scheduler | undefined {
  return BUILTIN_SCHEDULERS.find((s) => s.name === name);
}

export { latencyScheduler, layerSequentialScheduler, throughputScheduler };
