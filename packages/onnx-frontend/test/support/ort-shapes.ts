/** Test support: output shapes of a model as onnxruntime computes them (see ort-worker.cjs). */
import { createOrtWorkerClient } from './ort-worker-client';

const client = createOrtWorkerClient();

/** Runs `model` on zero inputs of the given shapes; resolves to output dims or an error text. */
export async function ortOutputShapes(model: Uint8Array, feeds: { name: string; dims: number[] }[]): Promise<number[][] | string> {
  const outputs = await client.run(model, feeds, false);
  return typeof outputs === 'string' ? outputs : outputs.map((o) => o.dims);
}

/** Stops the worker (call in afterAll). */
export function stopOrtWorker(): void {
  client.stop();
}
