/**
 * Where the importer's crossbar size comes from. Gemm/MatMul weights are tiled at import time
 * (see the README, "Gemm tiling") onto crossbars of the target machine's
 * `matrix_config.xbar_size`, with the tiling function plan-lowering uses for convolutions
 * (spatial-dialect's `tileWeightMatrix`), so the two stages cannot tile differently. The
 * target wins: a `crossbarSize` option that differs from the target's is an error.
 */
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { LoweringMessages as LM, type OnnxDiagnostic } from '../diagnostics';

/** What the importer reads from a target machine: its configuration (pim-target's `Target` has it). */
export interface CrossbarTarget {
  readonly config: HardwareConfig;
}

/** The crossbar geometry weights are tiled onto. */
export interface CrossbarShape {
  /** Crossbar rows R (inputs of one `spat.wvmm` tile). */
  readonly rows: number;
  /** Crossbar columns C (outputs of one tile). */
  readonly columns: number;
}

/**
 * The crossbar rows of pim-target's default configuration (128): the default tile size. Written
 * out rather than read from `defaultHardwareConfig()`, so that importing a model does not load
 * pim-target; test/crossbar-target.test.ts checks that the two agree.
 */
export const DEFAULT_CROSSBAR_SIZE: number = 128;

/** The crossbar shape of a hardware configuration (`matrix_config.xbar_size`). */
export function crossbarShapeOf(config: HardwareConfig): CrossbarShape {
  const [rows, columns] = config.chip_config.core_config.matrix_config.xbar_size;
  return { rows, columns };
}

/**
 * The crossbar shape of an import: the target's when there is one (a `crossbarSize` that
 * differs is an error naming both), else `crossbarSize` x `crossbarSize`, else the default.
 */
export function resolveCrossbarShape(file: string, crossbarSize: number | undefined, target: CrossbarTarget | undefined): { shape: CrossbarShape } | { error: OnnxDiagnostic } {
  if (crossbarSize !== undefined && !(Number.isSafeInteger(crossbarSize) && crossbarSize >= 1)) {
    return { error: { severity: 'error', location: { file }, message: LM.badCrossbarSize(crossbarSize) } };
  }
  if (target) {
    const shape = crossbarShapeOf(target.config);
    if (crossbarSize !== undefined && (crossbarSize !== shape.rows || crossbarSize !== shape.columns)) {
      return { error: { severity: 'error', location: { file }, message: LM.crossbarSizeConflict(crossbarSize, shape.rows, shape.columns) } };
    }
    return { shape };
  }
  const size = crossbarSize ?? DEFAULT_CROSSBAR_SIZE;
  return { shape: { rows: size, columns: size } };
}
