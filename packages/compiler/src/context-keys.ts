/**
 * The pass-context keys the compiler fills before a pipeline runs. Keys are interned by name in
 * ir-core, so a stage package reads the same value by defining the key with the same name and
 * type (it must not import the compiler):
 *
 * ```ts
 * const TargetKey = definePassContextKey<Target>('raptor.target'); // Target from @raptor-pim/pim-target
 * const target = this.getContext(TargetKey);
 * ```
 */
import { definePassContextKey, type PassContextKey } from '@raptor-pim/ir-core';
import type { Target } from '@raptor-pim/pim-target';
import type { SchedulerSelection } from './scheduler';

/** Name of the key holding the target machine (a pim-target {@link Target}: configuration and NoC table). */
export const TARGET_CONTEXT_KEY_NAME = 'raptor.target';

/** Name of the key holding the scheduler the `raptor-schedule` pass runs. */
export const SCHEDULER_CONTEXT_KEY_NAME = 'raptor.scheduler';

/**
 * The target machine every pass reads its hardware numbers from (crossbar size, core count,
 * memory sizes, latencies). Set by `compile({ target })` and `raptor opt --target FILE`;
 * `defaultTarget()` otherwise.
 */
export const TargetKey: PassContextKey<Target> = definePassContextKey<Target>(TARGET_CONTEXT_KEY_NAME);

/** The scheduler (and its options) that `raptor-schedule` runs; set by `compile({ scheduler })`. */
export const SchedulerKey: PassContextKey<SchedulerSelection> = definePassContextKey<SchedulerSelection>(SCHEDULER_CONTEXT_KEY_NAME);
