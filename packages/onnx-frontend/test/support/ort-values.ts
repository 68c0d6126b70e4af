/** Test support: output values of a model as onnxruntime computes them (see ort-values-worker.cjs). */
import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';

/** One float32 tensor (graph input feed or output). */
export interface OrtTensor {
  readonly dims: number[];
  readonly data: Float32Array;
}

let worker: ChildProcess | undefined;
let nextId = 0;
const pending = new Map<number, { child: ChildProcess; done: (r: OrtTensor[] | string) => void }>();

function ortWorker(): ChildProcess {
  if (worker) return worker;
  const child = fork(path.join(__dirname, 'ort-values-worker.cjs'), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (m: { id: number; outputs?: { dims: number[]; data: Float32Array }[]; error?: string }) => {
    const entry = pending.get(m.id);
    pending.delete(m.id);
    entry?.done(m.error ?? m.outputs!.map((o) => ({ dims: [...o.dims], data: Float32Array.from(o.data) })));
  });
  child.on('exit', () => {
    for (const [id, entry] of pending) {
      if (entry.child !== child) continue;
      pending.delete(id);
      entry.done('onnxruntime worker exited');
    }
    if (worker === child) worker = undefined;
  });
  worker = child;
  return child;
}

/** Runs `model` in onnxruntime on float32 `feeds`; resolves to the outputs or an error text. */
export function ortRun(model: Uint8Array, feeds: { name: string; dims: number[]; data: Float32Array }[]): Promise<OrtTensor[] | string> {
  const id = nextId++;
  return new Promise((resolve) => {
    const child = ortWorker();
    pending.set(id, { child, done: resolve });
    child.send({ id, model, feeds: feeds.map((f) => ({ name: f.name, dims: f.dims, data: Float32Array.from(f.data) })) });
  });
}

/** Stops the worker (call in afterAll). */
export function stopOrtValuesWorker(): void {
  worker?.kill();
  worker = undefined;
}
