/**
 * `.npy` files of simulator inputs and outputs: pim-target's codec (`decodeNpy`/`encodeNpy`,
 * byte-identical to `np.save`, versions 1.0-3.0 read) with the simulator's element types and
 * messages. Boolean arrays read as `u8` (one byte per element), as the bundle stores them.
 */
import { decodeNpy, encodeNpy, npyBytes, npyElementSize as elementSize, npyTypedArray, type NpyDtype as TargetNpyDtype, type NpyData } from '@raptor-pim/pim-target';
import { SIM_MESSAGES } from '../diagnostics';

/** Element types an {@link NpyArray} can hold (the bundle's element types). */
export type NpyDtype = Exclude<TargetNpyDtype, 'bool'>;

export type { NpyData };

/** An n-dimensional array read from or written to `.npy`. */
export interface NpyArray {
  /** Element type. */
  dtype: NpyDtype;
  /** Shape (C order). */
  shape: number[];
  /** Elements, row-major. */
  data: NpyData;
}

/** Bytes per element of a dtype. */
export function npyElementSize(dtype: NpyDtype): number {
  return elementSize(dtype);
}

/** Views `bytes` (copied, so alignment holds) as the typed array of `dtype`. */
export function typedFromBytes(dtype: NpyDtype, bytes: Uint8Array): NpyData {
  return npyTypedArray(dtype, bytes);
}

/** The little-endian bytes of an array's data. */
export function bytesOfData(data: NpyData): Uint8Array {
  return npyBytes(data);
}

/** The result of {@link readNpy}: the array or an error message. */
export type NpyReadResult = { ok: true; array: NpyArray } | { ok: false; message: string };

/** Parses a `.npy` file. Never throws. */
export function readNpy(bytes: Uint8Array): NpyReadResult {
  const r = decodeNpy(bytes);
  if (!r.ok) return { ok: false, message: SIM_MESSAGES.npyInvalid(r.error.message) };
  const { dtype, shape, data } = r.array;
  return { ok: true, array: { dtype: dtype === 'bool' ? 'u8' : dtype, shape, data } };
}

/** Serialises an array as `.npy`, byte-identical to NumPy's `np.save`. */
export function writeNpy(array: NpyArray): Uint8Array {
  return encodeNpy(array);
}
