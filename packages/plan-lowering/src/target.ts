/**
 * Where `spat-lower-plans` reads the machine from: the pass context's `raptor.target` (set by
 * the compiler and `raptor opt --target`), else pim-target's `defaultTarget()`. Hardware
 * numbers (the crossbar size) come only from here, never literals.
 */
import { definePassContextKey, type Pass, type PassContextKey } from '@raptor-pim/ir-core';
import { defaultTarget, type HardwareConfig, type Target } from '@raptor-pim/pim-target';

/** The pass-context key of the target machine (interned by name, shared with the compiler). */
export const TargetKey: PassContextKey<Target> = definePassContextKey<Target>('raptor.target');

/** The crossbar geometry the lowering tiles weights onto. */
export interface CrossbarShape {
  /** Crossbar rows R (inputs of one `spat.wvmm` tile). */
  readonly rows: number;
  /** Crossbar columns C (outputs of one tile). */
  readonly columns: number;
}

/** The target `pass` runs for: the pass context's `raptor.target`, else `defaultTarget()`. */
export function targetOf(pass: Pass): Target {
  return pass.getContext(TargetKey) ?? defaultTarget();
}

/** The crossbar size (`matrix_config.xbar_size`) of `config`. */
export function crossbarShapeOf(config: HardwareConfig): CrossbarShape {
  const [rows, columns] = config.chip_config.core_config.matrix_config.xbar_size;
  return { rows, columns };
}
