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

/** Name of the key holding the target machine (a pim-target {@link Target}: configuration and NoC table). */
export const TARGET_CONTEXT_KEY_NAME = 'raptor.target';

/**
 * The target machine every pass reads its hardware numbers from (crossbar size, core count,
 * memory sizes, latencies). Set by `compile({ target })` and `raptor opt --target FILE`;
 * `defaultTarget()` otherwise.
 */
export const TargetKey: PassContextKey<Target> = definePassContextKey<Target>(TARGET_CONTEXT_KEY_NAME);
