/** Test support: a client of ort-worker.cjs, one child process that runs models in onnxruntime. */
import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';

/** One graph input: float32 values, or zeros when `data` is absent. */
export interface OrtFeed {
  readonly name: string;
  readonly dims: number[];
  readonly data?: Float32Array;
}

/** One graph output as the worker returns it (`data` only when values were asked for). */
export interface OrtWorkerOutput {
  readonly dims: number[];
  readonly data?: Float32Array;
}

/** A worker process started on first use, restarted after it exits. */
export interface OrtWorkerClient {
  /** Runs `model` on `feeds`; resolves to the outputs or an error text. */
  run(model: Uint8Array, feeds: readonly OrtFeed[], withValues: boolean): Promise<OrtWorkerOutput[] | string>;
  /** Stops the worker (call in afterAll). */
  stop(): void;
}

/** A client with its own worker process. */
export function createOrtWorkerClient(): OrtWorkerClient {
  let worker: ChildProcess | undefined;
  let nextId = 0;
  /** Requests waiting for an answer, with the worker they were sent to. */
  const pending = new Map<number, { child: ChildProcess; done: (r: OrtWorkerOutput[] | string) => void }>();

  function ortWorker(): ChildProcess {
    if (worker) return worker;
    const child = fork(path.join(__dirname, 'ort-worker.cjs'), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m: { id: number; outputs?: OrtWorkerOutput[]; error?: string }) => {
      const entry = pending.get(m.id);
      pending.delete(m.id);
      entry?.done(m.error ?? m.outputs!);
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

  return {
    run(model, feeds, withValues) {
      const id = nextId++;
      return new Promise((resolve) => {
        const child = ortWorker();
        pending.set(id, { child, done: resolve });
        child.send({ id, model, feeds, withValues });
      });
    },
    stop() {
      worker?.kill();
      worker = undefined;
    },
  };
}
