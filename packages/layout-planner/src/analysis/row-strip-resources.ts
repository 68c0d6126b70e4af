/**
 * The target resources the row-strip gates read, derived from a pim-target
 * {@link HardwareConfig} (never literals: hardware-defaults.md).
 */
import type { HardwareConfig } from '@raptor-pim/pim-target';

/** What a row-strip lowering needs to know about the machine. */
export interface RowStripResources {
  /** Crossbar rows R (`matrix_config.xbar_size[0]`): input elements of one `spat.wvmm` tile. */
  readonly crossbarRows: number;
  /** Crossbar columns C (`matrix_config.xbar_size[1]`): output elements of one tile. */
  readonly crossbarColumns: number;
  /** Crossbars of one core (`matrix_config.xbar_array_count`). */
  readonly crossbarsPerCore: number;
  /** Cores of the chip (`chip_config.core_cnt`). */
  readonly coreCount: number;
  /** Bytes of one core's local memory (`local_memory_config.memory_size`). */
  readonly localMemoryBytes: number;
  /**
   * Bytes of one activation element in local memory: the wider of `raptor_config.input_bits`
   * and `raptor_config.output_bits`, rounded up to whole bytes.
   */
  readonly elementBytes: number;
}

/**
 * The row-strip resources of `config`.
 *
 * @example
 * const r = rowStripResources(defaultTarget().config); // crossbarRows 128, localMemoryBytes 65536, elementBytes 2
 */
export function rowStripResources(config: HardwareConfig): RowStripResources {
  const core = config.chip_config.core_config;
  const matrix = core.matrix_config;
  return {
    crossbarRows: matrix.xbar_size[0],
    crossbarColumns: matrix.xbar_size[1],
    crossbarsPerCore: matrix.xbar_array_count,
    coreCount: config.chip_config.core_cnt,
    localMemoryBytes: core.local_memory_config.memory_size,
    elementBytes: Math.ceil(Math.max(config.raptor_config.input_bits, config.raptor_config.output_bits) / 8),
  };
}
