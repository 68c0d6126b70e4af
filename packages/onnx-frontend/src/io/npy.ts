/**
 * NumPy `.npy` files (format versions 1-3, C order, little-endian): reader and writer for
 * float32, float64, int64, int32, uint8 and bool tensors.
 */
import { Messages, type OnnxDiagnostic } from '../diagnostics';
import { OnnxDataType, dataFromBytes, dataTypeName, dataTypeSize } from '../onnx/dtypes';
import type { OnnxTensor } from '../onnx/model';

const DESCR_TO_TYPE: Record<string, number> = {
  '<f4': OnnxDataType.FLOAT,
  '<f8': OnnxDataType.DOUBLE,
  '<i8': OnnxDataType.INT64,
  '<i4': OnnxDataType.INT32,
  '|u1': OnnxDataType.UINT8,
  '<u1': OnnxDataType.UINT8,
  '|b1': OnnxDataType.BOOL,
  '<b1': OnnxDataType.BOOL,
};
const TYPE_TO_DESCR: Record<number, string> = {
  [OnnxDataType.FLOAT]: '<f4',
  [OnnxDataType.DOUBLE]: '<f8',
  [OnnxDataType.INT64]: '<i8',
  [OnnxDataType.INT32]: '<i4',
  [OnnxDataType.UINT8]: '|u1',
  [OnnxDataType.BOOL]: '|b1',
};

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/**
 * Parses a `.npy` file. Returns the tensor (named `name`) or diagnostics; never throws.
 *
 * @example
 * const { tensor } = readNpy(fs.readFileSync('output_0.npy'));
 */
export function readNpy(bytes: Uint8Array, file = '<memory>', name = ''): { tensor: OnnxTensor | undefined; diagnostics: OnnxDiagnostic[] } {
  const diagnostics: OnnxDiagnostic[] = [];
  const fail = (message: string, byteOffset = 0): { tensor: undefined; diagnostics: OnnxDiagnostic[] } => {
    diagnostics.push({ severity: 'error', location: { file, byteOffset }, message });
    return { tensor: undefined, diagnostics };
  };
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) return fail(Messages.npyMagic());
  const major = bytes[6]!;
  if (major < 1 || major > 3) return fail(Messages.npyVersion(major), 6);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLen: number;
  let start: number;
  if (major === 1) {
    headerLen = view.getUint16(8, true);
    start = 10;
  } else {
    if (bytes.length < 12) return fail(Messages.npyHeader('truncated header length'), 8);
    headerLen = view.getUint32(8, true);
    start = 12;
  }
  if (start + headerLen > bytes.length) return fail(Messages.npyHeader('header runs past the end of the file'), 8);
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) return fail(Messages.npyHeader(`cannot parse ${JSON.stringify(header.trim())}`), start);
  if (fortran === 'True') return fail(Messages.npyFortran(), start);
  const dtype = DESCR_TO_TYPE[descr];
  if (dtype === undefined) return fail(Messages.npyDtype(descr), start);
  const parts = shapeText.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const dims: number[] = [];
  for (const p of parts) {
    if (!/^\d+$/.test(p)) return fail(Messages.npyHeader(`bad dimension '${p}'`), start);
    dims.push(Number(p));
  }
  const count = dims.reduce((a, b) => a * b, 1);
  const dataStart = start + headerLen;
  const expected = count * dataTypeSize(dtype);
  if (bytes.length - dataStart !== expected) return fail(Messages.npyLength(bytes.length - dataStart, expected), dataStart);
  return { tensor: { name, dataType: dtype, dims, data: dataFromBytes(dtype, bytes.subarray(dataStart)) }, diagnostics };
}

/** True if {@link writeNpy} can write tensors of this ONNX data type. */
export function isNpyWritable(dataType: number): boolean {
  return TYPE_TO_DESCR[dataType] !== undefined;
}

/**
 * Serializes a tensor as a `.npy` file (version 1, or 2 when the header needs it). Throws only
 * for data types {@link isNpyWritable} rejects (a caller bug).
 */
export function writeNpy(tensor: Pick<OnnxTensor, 'dataType' | 'dims' | 'data'>): Uint8Array {
  const descr = TYPE_TO_DESCR[tensor.dataType];
  if (descr === undefined) throw new Error(`internal: writeNpy of unsupported ${dataTypeName(tensor.dataType)}`);
  const shape = tensor.dims.length === 1 ? `(${tensor.dims[0]},)` : `(${tensor.dims.join(', ')})`;
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  // NumPy leaves room for the first axis to grow to 21 digits; do the same for identical files.
  if (tensor.dims.length > 0) dict += ' '.repeat(Math.max(0, 21 - String(tensor.dims[0]).length));
  let version = 1;
  let prefix = 10;
  if (dict.length + 1 + prefix > 65535) {
    version = 2;
    prefix = 12;
  }
  const total = Math.ceil((prefix + dict.length + 1) / 64) * 64;
  dict = dict.padEnd(total - prefix - 1, ' ') + '\n';
  const body = new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  const out = new Uint8Array(total + body.length);
  out.set(MAGIC, 0);
  out[6] = version;
  out[7] = 0;
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, dict.length, true);
  else view.setUint32(8, dict.length, true);
  for (let i = 0; i < dict.length; i++) out[prefix + i] = dict.charCodeAt(i);
  out.set(body, total);
  return out;
}
