/**
 * What every plan-lowering pattern shares: the target's hardware configuration and crossbar
 * size, the failure flag of the current run, and statistics.
 */
import type { Operation } from '@raptor-pim/ir-core';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import type { CrossbarShape } from '../target';

/** Choices of a lowering run. */
export interface LowerPlansOptions {
  /**
   * Let a convolution compute several adjacent output pixels with one set of MVMs where its
   * filters leave crossbar columns free (default true; `analysis/pixel-packing.ts`).
   */
  readonly pixelPacking?: boolean;
  /**
   * Let one MVM drive all the column tiles of a convolution's row tile as one array group (one
   * weight `[rows, Cout]` per row tile) instead of one MVM per crossbar tile (default true).
   */
  readonly columnGroups?: boolean;
}

/** The state of one lowering run. */
export interface LoweringEnv {
  /** The target configuration (gates read it). */
  readonly config: HardwareConfig;
  /** The crossbar size weights are tiled onto. */
  readonly crossbar: CrossbarShape;
  /** Whether convolutions may pack several output pixels into one set of MVMs (`analysis/pixel-packing.ts`). */
  readonly pixelPacking: boolean;
  /** Whether a convolution's row tile spans its column tiles as one array group (one MVM). */
  readonly columnGroups: boolean;
  /** Set when a pattern reported a diagnostic. */
  failed: boolean;
  /** Plans lowered. */
  loweredPlans: number;
  /** Materializations lowered. */
  loweredMaterializations: number;
}

/** A fresh environment for `config` (pixel packing and column groups on unless `options` turns them off). */
export function createLoweringEnv(config: HardwareConfig, crossbar: CrossbarShape, options: LowerPlansOptions = {}): LoweringEnv {
  return { config, crossbar, pixelPacking: options.pixelPacking ?? true, columnGroups: options.columnGroups ?? true, failed: false, loweredPlans: 0, loweredMaterializations: 0 };
}

/** Reports `message` on `op` (`'spat.x_plan' op ...`), marks the run failed, returns false. */
export function refuse(env: LoweringEnv, op: Operation, message: string): false {
  op.emitOpError(message);
  env.failed = true;
  return false;
}
