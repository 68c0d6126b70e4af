/**
 * NumPy `.npy` files as ONNX tensors: pim-target's codec (`readNpyHeader`/`encodeNpy`, the
 * toolchain's one `.npy` reader and writer, byte-identical to `np.save`, versions 1-3 read)
 * for float32, float64, int64, int32, uint8 and bool tensors, with this package's messages.
 */
import type * as PimTarget from '@raptor-pim/pim-target';
import type { NpyDtype } from '@raptor-pim/pim-target';
import { Messages, type OnnxDiagnostic } from '../diagnostics';
import { OnnxDataType, dataFromBytes, dataTypeName } from '../onnx/dtypes';
import type { OnnxTensor } from '../onnx/model';

let codec: typeof PimTarget | undefined;
/**
 * pim-target (its `.npy` codec), loaded on first use: importing a model reads no `.npy` file,
 * and loading the package is about 3 ms of a `raptor import`'s start-up.
 */
function npyCodec(): typeof PimTarget {
  return (codec ??= require('@raptor-pim/pim-target') as typeof PimTarget);
}

const TYPE_OF_DTYPE: Partial<Record<NpyDtype, number>> = {
  f32: OnnxDataType.FLOAT,
  f64: OnnxDataType.DOUBLE,
  i64: OnnxDataType.INT64,
  i32: OnnxDataType.INT32,
  u8: OnnxDataType.UINT8,
  bool: OnnxDataType.BOOL,
};
const DTYPE_OF_TYPE: Record<number, NpyDtype> = {
  [OnnxDataType.FLOAT]: 'f32',
  [OnnxDataType.DOUBLE]: 'f64',
  [OnnxDataType.INT64]: 'i64',
  [OnnxDataType.INT32]: 'i32',
  [OnnxDataType.UINT8]: 'u8',
  [OnnxDataType.BOOL]: 'bool',
};

/**
 * Parses a `.npy` file. Returns the tensor (named `name`) or diagnostics; never throws.
 *
 * @example
 * const { tensor } = readNpy(fs.readFileSync('output_0.npy'));
 */
export function readNpy(bytes: Uint8Array, file = '<memory>', name = ''): { tensor: OnnxTensor | undefined; diagnostics: OnnxDiagnostic[] } {
  const fail = (message: string, byteOffset: number): { tensor: undefined; diagnostics: OnnxDiagnostic[] } => ({
    tensor: undefined,
    diagnostics: [{ severity: 'error', location: { file, byteOffset }, message }],
  });
  const r = npyCodec().readNpyHeader(bytes);
  const headerStart = bytes[6] === 1 ? 10 : 12;
  if (!r.ok) {
    const e = r.error;
    switch (e.code) {
      case 'npy-bad-magic':
        return fail(Messages.npyMagic(), e.byteOffset);
      case 'npy-bad-version':
        return fail(Messages.npyVersion(e.version!), e.byteOffset);
      case 'npy-truncated-header-length':
        return fail(Messages.npyHeader('truncated header length'), e.byteOffset);
      case 'npy-truncated-header':
        return fail(Messages.npyHeader('header runs past the end of the file'), e.byteOffset);
      case 'npy-malformed-header':
        return fail(Messages.npyHeader(`cannot parse ${JSON.stringify(e.header!.trim())}`), e.byteOffset);
      case 'npy-fortran-order':
        return fail(Messages.npyFortran(), e.byteOffset);
      case 'npy-unsupported-dtype':
        return fail(Messages.npyDtype(e.descr!), e.byteOffset);
      case 'npy-bad-dimension':
        return fail(Messages.npyHeader(`bad dimension '${e.dimension!}'`), e.byteOffset);
      case 'npy-short-data':
        return fail(Messages.npyLength(e.have!, e.need!), e.byteOffset);
      default:
        return fail(Messages.npyHeader(e.message), e.byteOffset);
    }
  }
  const h = r.header;
  const dataType = TYPE_OF_DTYPE[h.dtype];
  if (dataType === undefined) return fail(Messages.npyDtype(h.descr), headerStart);
  const have = bytes.length - h.dataOffset;
  if (have !== h.dataBytes) return fail(Messages.npyLength(have, h.dataBytes), h.dataOffset);
  return { tensor: { name, dataType, dims: h.shape, data: dataFromBytes(dataType, bytes.subarray(h.dataOffset)) }, diagnostics: [] };
}

/** True if {@link writeNpy} can write tensors of this ONNX data type. */
export function isNpyWritable(dataType: number): boolean {
  return DTYPE_OF_TYPE[dataType] !== undefined;
}

/**
 * Serializes a tensor as a `.npy` file, byte-identical to `np.save` (version 1, or 2 when the
 * header needs it). Throws only for data types {@link isNpyWritable} rejects (a caller bug).
 */
export function writeNpy(tensor: Pick<OnnxTensor, 'dataType' | 'dims' | 'data'>): Uint8Array {
  const dtype = DTYPE_OF_TYPE[tensor.dataType];
  if (dtype === undefined) throw new Error(`internal: writeNpy of unsupported ${dataTypeName(tensor.dataType)}`);
  return npyCodec().encodeNpy({ dtype, shape: tensor.dims, data: tensor.data });
}
