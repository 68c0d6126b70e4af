/**
 * What every plan-lowering pattern shares: the target's hardware configuration and crossbar
 * size, the failure flag of the current run, and statistics.
 */
import type { Operation } from '@raptor-pim/ir-core';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import type { CrossbarShape } from '../target';

/** The state of one lowering run. */
export interface LoweringEnv {
  /** The target configuration (gates read it). */
  readonly config: HardwareConfig;
  /** The crossbar size weights are tiled onto. */
  readonly crossbar: CrossbarShape;
  /** Set when a pattern reported a diagnostic. */
  failed: boolean;
  /** Plans lowered. */
  loweredPlans: number;
  /** Materializations lowered. */
  loweredMaterializations: number;
}

/** A fresh environment for `config`. */
export function createLoweringEnv(config: HardwareConfig, crossbar: CrossbarShape): LoweringEnv {
  return { config, crossbar, failed: false, loweredPlans: 0, loweredMaterializations: 0 };
}

/** Reports `message` on `op` (`'spat.x_plan' op ...`), marks the run failed, returns false. */
export function refuse(env: LoweringEnv, op: Operation, message: string): false {
  op.emitOpError(message);
  env.failed = true;
  return false;
}
