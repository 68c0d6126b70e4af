/**
 * Where the layout planner's passes read the target machine from: the pass context key
 * `raptor.target` (a pim-target `Target`, set by the compiler and `raptor opt --target`), or
 * `defaultTarget()` when the pass runs without one.
 */
import { definePassContextKey, type Pass, type PassContextKey } from '@raptor-pim/ir-core';
import { defaultTarget, type HardwareConfig, type Target } from '@raptor-pim/pim-target';

/** The pass context key of the target (same name and type as the compiler's `TargetKey`). */
export const TargetKey: PassContextKey<Target> = definePassContextKey<Target>('raptor.target');

/** The hardware configuration `pass` runs for. */
export function targetOf(pass: Pass): HardwareConfig {
  return pass.getContext(TargetKey)?.config ?? defaultTarget().config;
}
