/** Test support: output shapes of a model as onnxruntime computes them (see ort-shapes-worker.cjs). */
import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';

let worker: ChildProcess | undefined;
let nextId = 0;
/** Requests waiting for an answer, with the worker they were sent to. */
const pending = new Map<number, { child: ChildProcess; done: (r: number[][] | string) => void }>();

function ortWorker(): ChildProcess {
  if (worker) return worker;
  const child = fork(path.join(__dirname, 'ort-shapes-worker.cjs'), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (m: { id: number; dims?: number[][]; error?: string }) => {
    const entry = pending.get(m.id);
    pending.delete(m.id);
    entry?.done(m.error ?? m.dims!);
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

/** Runs `model` on zero inputs of the given shapes; resolves to output dims or an error text. */
export function ortOutputShapes(model: Uint8Array, feeds: { name: string; dims: number[] }[]): Promise<number[][] | string> {
  const id = nextId++;
  return new Promise((resolve) => {
    const child = ortWorker();
    pending.set(id, { child, done: resolve });
    child.send({ id, model, feeds });
  });
}

/** Stops the worker (call in afterAll). */
export function stopOrtWorker(): void {
  worker?.kill();
  worker = undefined;
}
