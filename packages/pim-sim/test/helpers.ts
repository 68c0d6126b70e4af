/**
 * Test helpers: bundles from assembler text, a small target, and f32/i32 byte packing.
 */
import { assemble, createBundle, emptyNetworkTable, pimsimDefaultConfig } from '@raptor-pim/pim-target';
import type { ElementType, ProgramBundle, Target, TensorLocation, WeightBlock } from '@raptor-pim/pim-target';
import * as path from 'node:path';

/** The shared spec folder beside the repository checkout (or $RAPTOR_SHARED). */
export const SHARED = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');

/** A small target: 8 cores, 128x128 crossbars of 8-bit cells, latency mode, 64 KiB local memory. */
export function testTarget(edit?: (t: Target) => void): Target {
  const config = pimsimDefaultConfig();
  config.chip_config.core_cnt = 8;
  config.chip_config.core_config.matrix_config.xbar_array_count = 64;
  config.chip_config.core_config.matrix_config.cell_precision = 8;
  config.chip_config.core_config.matrix_config.period = 1;
  config.chip_config.core_config.local_memory_config.memory_size = 64 * 1024;
  config.chip_config.global_memory_config.memory_size = 1024 * 1024;
  config.sim_config.sim_mode = 1;
  config.raptor_config.allow_vsoftmax = true;
  const network = emptyNetworkTable();
  for (let s = -10; s < 8; s++) {
    if (s < 0 && s !== -10) continue;
    const lat = new Map<number, number>();
    const en = new Map<number, number>();
    for (let d = -10; d < 8; d++) {
      if ((d < 0 && d !== -10) || d === s) continue;
      lat.set(d, 10);
      en.set(d, 1);
    }
    network.latency.set(s, lat);
    network.energy.set(s, en);
  }
  const t: Target = { config, network };
  edit?.(t);
  return t;
}

/** Assembles program text; throws (test failure) on assembler errors. */
export function asm(text: string) {
  const r = assemble(text);
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.instructions;
}

/** Options of {@link makeBundle}. */
export interface BundleSpec {
  cores: string[];
  groups?: number[][];
  memory?: Uint8Array;
  inputs?: TensorLocation[];
  outputs?: TensorLocation[];
  weights?: WeightBlock[];
  target?: Target;
}

/** Builds a bundle from per-core assembler text. */
export function makeBundle(spec: BundleSpec): ProgramBundle {
  const b = createBundle(spec.cores.length);
  b.programs = spec.cores.map((c) => asm(c));
  b.arrayGroupMap = spec.groups ?? spec.cores.map(() => [1]);
  if (spec.memory) b.memoryImage = spec.memory;
  b.inputs = spec.inputs ?? [];
  b.outputs = spec.outputs ?? [];
  b.weights = spec.weights ?? [];
  b.target = spec.target ?? testTarget();
  return b;
}

/** Little-endian bytes of f32 values. */
export function f32Bytes(values: ArrayLike<number>): Uint8Array {
  return new Uint8Array(Float32Array.from(values).buffer);
}

/** Little-endian bytes of i32 values. */
export function i32Bytes(values: ArrayLike<number>): Uint8Array {
  return new Uint8Array(Int32Array.from(values).buffer);
}

/** A tensor location. */
export function tensor(name: string, address: number, shape: number[], elementType: ElementType = 'f32'): TensorLocation {
  return { name, address, shape, elementType };
}

/** A global-memory image with `parts` placed at their addresses. */
export function image(size: number, parts: [number, Uint8Array][]): Uint8Array {
  const m = new Uint8Array(size);
  for (const [addr, bytes] of parts) m.set(bytes, addr);
  return m;
}

/** Deterministic pseudo-random floats in [-1, 1). */
export function randomFloats(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    out[i] = (s / 4294967296) * 2 - 1;
  }
  return out;
}

/**
 * The opening most test programs share: f32 width (`setbw 32/32`), the global register pair
 * r0:r1 set to `global` (r0 the high word, 0 here), r2 to the local address `local`, and an
 * `ld` of `bytes` bytes from that global address to that local one. Ends without a newline.
 */
export function loadPrologue(bytes: number | string, { global = 0, local = 0 }: { global?: number; local?: number } = {}): string {
  return `setbw ibiw=32, obiw=32\nsldi r0, 0\nsldi r1, ${global}\nsldi r2, ${local}\nld r2, r0, size=${bytes}`;
}
