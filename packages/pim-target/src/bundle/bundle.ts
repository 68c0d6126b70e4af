/**
 * The program bundle (pim-isa.md, decision 1): what codegen writes and pim-sim reads.
 *
 * On disk a bundle is a directory that pimsim-nn can run in directory mode:
 * - `config.json`: `{"core_cnt": N, "array_group_map": {"core0": [xbars per group], ...}}`
 * - `core_<id>.pim` (PIMB v1) for every core, optionally `core_<id>.json`
 * and, ignored by pimsim-nn (names not starting with `core_`):
 * - `manifest.json`: format version, target configuration, model inputs/outputs in global
 *   memory, and the index of the two data files below
 * - `network.json`: the target's NoC table (when it has one)
 * - `memory.bin`: the initial global-memory image, from address 0
 * - `weights.bin`: crossbar contents, one row-major block per (core, array group)
 *
 * A plain pimsim-nn program directory (only `config.json` and core files) is a valid bundle
 * without target, tensors, memory image or weights.
 */
import type { Target } from '../config/hardware-config';
import type { Instruction } from '../isa/instruction';

/** Element types of tensors and weight blocks (little-endian). */
export type ElementType = 'f32' | 'f16' | 'bf16' | 'f64' | 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64';

/** Size in bytes of one element of each type. */
export const ELEMENT_SIZE: { readonly [T in ElementType]: number } = {
  f32: 4,
  f16: 2,
  bf16: 2,
  f64: 8,
  i8: 1,
  u8: 1,
  i16: 2,
  u16: 2,
  i32: 4,
  u32: 4,
  i64: 8,
};

/** Whether `name` is an {@link ElementType}. */
export function isElementType(name: unknown): name is ElementType {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(ELEMENT_SIZE, name);
}

/** Where a model input or output lives in global memory. */
export interface TensorLocation {
  /** The model's name for the tensor. */
  name: string;
  /** Byte address in global memory. */
  address: number;
  /** Element type. */
  elementType: ElementType;
  /** Shape (row-major, densely packed). */
  shape: number[];
}

/** The weights programmed into one array group: a row-major `rows × cols` matrix. */
export interface WeightBlock {
  /** Core id. */
  core: number;
  /** Array-group index in `arrayGroupMap[core]`. */
  group: number;
  /** Rows (the mvmul input length). */
  rows: number;
  /** Columns (the mvmul output length). */
  cols: number;
  /** Element type of the stored values. */
  elementType: ElementType;
  /** `rows × cols × ELEMENT_SIZE[elementType]` bytes, little-endian, row-major. */
  data: Uint8Array;
}

/** A program bundle in memory. */
export interface ProgramBundle {
  /** Number of cores (`config.json` `core_cnt`). */
  coreCount: number;
  /** Crossbars per array group for every core (`array_group_map["core<id>"]`). */
  arrayGroupMap: number[][];
  /** The program of every core (index = core id). */
  programs: Instruction[][];
  /** File each program was read from (diagnostics name it); `core_<id>.pim` when absent. */
  sources?: string[];
  /** Target configuration and NoC table from `manifest.json`; absent for a plain pimsim-nn directory. */
  target?: Target;
  /** Model inputs in global memory. */
  inputs: TensorLocation[];
  /** Model outputs in global memory. */
  outputs: TensorLocation[];
  /** Initial global-memory bytes from address 0 (the rest is zero); absent = all zero. */
  memoryImage?: Uint8Array;
  /** Crossbar contents. */
  weights: WeightBlock[];
  /** Free-form producer string written to the manifest (e.g. `raptor 0.1.0`). */
  producer?: string;
}

/** The manifest format identifier. */
export const MANIFEST_FORMAT = 'raptor-pim-bundle';
/** The manifest format version this package reads and writes. */
export const MANIFEST_VERSION = 1;
/** File names of a bundle. */
export const BUNDLE_FILES = {
  config: 'config.json',
  manifest: 'manifest.json',
  memory: 'memory.bin',
  weights: 'weights.bin',
  network: 'network.json',
} as const;

/** The file name of core `id`'s program in a format. */
export function coreFileName(id: number, format: 'pim' | 'json'): string {
  return `core_${id}.${format}`;
}

/** Number of bytes a tensor occupies (product of the shape × element size). */
export function tensorByteSize(tensor: Pick<TensorLocation, 'shape' | 'elementType'>): number {
  return tensor.shape.reduce((a, b) => a * b, 1) * ELEMENT_SIZE[tensor.elementType];
}

/** An empty bundle of `coreCount` cores with empty programs and no array groups. */
export function createBundle(coreCount: number): ProgramBundle {
  return {
    coreCount,
    arrayGroupMap: Array.from({ length: coreCount }, () => []),
    programs: Array.from({ length: coreCount }, () => []),
    inputs: [],
    outputs: [],
    weights: [],
  };
}
