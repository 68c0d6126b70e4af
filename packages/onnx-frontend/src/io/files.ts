/**
 * Reading models and tensors from the file system (Node.js): the external data reader for a
 * model folder, and convenience wrappers over the in-memory readers.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Messages, type OnnxDiagnostic } from '../diagnostics';
import type { OnnxTensor } from '../onnx/model';
import { type ReadOnnxOptions, type ReadOnnxResult, readOnnxModel } from '../onnx/read-model';
import type { ExternalDataReader } from '../onnx/tensor';
import { readTensorProto } from './tensor-proto-file';

/**
 * An {@link ExternalDataReader} for files in `dir` (the model's folder). Reads only the byte
 * ranges asked for; keeps no file open between calls.
 */
export function nodeExternalDataReader(dir: string): ExternalDataReader {
  const resolve = (rel: string): string => path.join(dir, ...rel.split('/'));
  return {
    size(rel) {
      try {
        const st = fs.statSync(resolve(rel));
        return st.isFile() ? st.size : 'not a regular file';
      } catch (e) {
        return (e as NodeJS.ErrnoException).code ?? String(e);
      }
    },
    read(rel, offset, length) {
      const fd = fs.openSync(resolve(rel), 'r');
      try {
        const out = new Uint8Array(length);
        let done = 0;
        while (done < length) {
          const n = fs.readSync(fd, out, done, length - done, offset + done);
          if (n <= 0) break;
          done += n;
        }
        return out;
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}

function readBytes(file: string, diagnostics: OnnxDiagnostic[]): Uint8Array | undefined {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    diagnostics.push({ severity: 'error', location: { file }, message: Messages.cannotReadFile((e as NodeJS.ErrnoException).code ?? String(e)) });
    return undefined;
  }
}

/**
 * Reads and validates an `.onnx` file; external data files are looked up next to it.
 *
 * @example
 * const { model, diagnostics } = readOnnxFile('models/mnist-8/model.onnx');
 */
export function readOnnxFile(file: string, options: Omit<ReadOnnxOptions, 'file'> = {}): ReadOnnxResult {
  const diagnostics: OnnxDiagnostic[] = [];
  const bytes = readBytes(file, diagnostics);
  if (!bytes) return { model: undefined, diagnostics };
  return readOnnxModel(bytes, { external: nodeExternalDataReader(path.dirname(file)), ...options, file });
}

/** Reads a serialized TensorProto file (`input_0.pb` of the ONNX test layout). */
export function readTensorProtoFile(file: string): { tensor: OnnxTensor | undefined; diagnostics: OnnxDiagnostic[] } {
  const diagnostics: OnnxDiagnostic[] = [];
  const bytes = readBytes(file, diagnostics);
  if (!bytes) return { tensor: undefined, diagnostics };
  return readTensorProto(bytes, file);
}

