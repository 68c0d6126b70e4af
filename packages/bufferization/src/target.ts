/**
 * The target machine of the passes: the pass context value `'raptor.target'` (a `Target` or a
 * bare `HardwareConfig`, set by the compiler), else {@link defaultTarget}.
 */
import { definePassContextKey, type Pass } from '@raptor-pim/ir-core';
import { defaultTarget, type HardwareConfig, type Target } from '@raptor-pim/pim-target';

/** The pass context key of the target. */
export const TargetKey = definePassContextKey<Target | HardwareConfig>('raptor.target');

/** The hardware configuration `pass` compiles for. */
export function targetConfigOf(pass: Pass): HardwareConfig {
  const t = pass.getContext(TargetKey);
  if (t === undefined) return defaultTarget().config;
  return 'config' in t ? t.config : t;
}

/** Local memory capacity and allocation alignment of `config`. */
export function localMemoryOf(config: HardwareConfig): { capacity: number; alignment: number } {
  return {
    capacity: config.chip_config.core_config.local_memory_config.memory_size,
    alignment: config.raptor_config.local_memory_alignment,
  };
}
