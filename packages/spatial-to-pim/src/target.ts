/**
 * The target machine a pass compiles for: the pass context value `'raptor.target'` (set by the
 * compiler or `raptor opt --target`), else {@link defaultTarget}. One function, so no pass of
 * this package reads a hardware number from anywhere else.
 */
import { definePassContextKey, type Pass } from '@raptor-pim/ir-core';
import { defaultTarget, type HardwareConfig, type Target } from '@raptor-pim/pim-target';

/** The pass context key of the target (a `Target` or a bare `HardwareConfig`). */
export const TargetKey = definePassContextKey<Target | HardwareConfig>('raptor.target');

/** The hardware configuration `pass` compiles for. */
export function targetConfigOf(pass: Pass): HardwareConfig {
  const t = pass.getContext(TargetKey);
  if (t === undefined) return defaultTarget().config;
  return 'config' in t ? t.config : t;
}
