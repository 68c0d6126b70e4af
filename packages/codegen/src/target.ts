/**
 * Where code generation gets its target machine from (one function, so the source can change
 * in one place): an explicit target handed to a pass or to `emitBundle`, else the pass
 * context value under `'raptor.target'` (set by the compiler on its pass manager), else
 * pim-target's {@link defaultTarget}.
 */
import { definePassContextKey, type Pass } from '@raptor-pim/ir-core';
import { defaultTarget, type HardwareConfig, type Target } from '@raptor-pim/pim-target';

/** The pass-context key name the compiler stores the target under. */
export const TARGET_CONTEXT_KEY = 'raptor.target';

/** A target as the compiler may store it: a full {@link Target} or only its configuration. */
export type TargetLike = Target | HardwareConfig;

/** The pass-context key of the target (a {@link Target} or a bare {@link HardwareConfig}). */
export const TargetContextKey = definePassContextKey<TargetLike>(TARGET_CONTEXT_KEY);

/** Normalizes a {@link TargetLike} to a {@link Target} (a bare configuration gets the default target's NoC table). */
export function toTarget(value: TargetLike): Target {
  if ('config' in value) return value;
  return { config: value, network: defaultTarget().network };
}

/**
 * The target code generation uses: `explicit` when given, else the default machine of
 * hardware-defaults.md (pim-target's `defaultTarget()`).
 */
export function resolveCodegenTarget(explicit?: TargetLike): Target {
  return explicit ? toTarget(explicit) : defaultTarget();
}

/**
 * The target a codegen pass runs for: `explicit` (given to the pass's constructor), else the
 * pass manager's `'raptor.target'` context value, else the default target.
 */
export function passTarget(pass: Pass, explicit?: TargetLike): Target {
  return resolveCodegenTarget(explicit ?? pass.getContext(TargetContextKey));
}
