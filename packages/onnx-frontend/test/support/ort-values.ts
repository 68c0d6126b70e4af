/** Test support: output values of a model as onnxruntime computes them (see ort-worker.cjs). */
import { createOrtWorkerClient } from './ort-worker-client';

/** One float32 tensor (graph input feed or output). */
export interface OrtTensor {
  readonly dims: number[];
  readonly data: Float32Array;
}

const client = createOrtWorkerClient();

/** Runs `model` in onnxruntime on float32 `feeds`; resolves to the outputs or an error text. */
export async function ortRun(model: Uint8Array, feeds: { name: string; dims: number[]; data: Float32Array }[]): Promise<OrtTensor[] | string> {
  const outputs = await client.run(
    model,
    feeds.map((f) => ({ name: f.name, dims: f.dims, data: Float32Array.from(f.data) })),
    true,
  );
  return typeof outputs === 'string' ? outputs : outputs.map((o) => ({ dims: [...o.dims], data: Float32Array.from(o.data!) }));
}

/** Stops the worker (call in afterAll). */
export function stopOrtValuesWorker(): void {
  client.stop();
}
