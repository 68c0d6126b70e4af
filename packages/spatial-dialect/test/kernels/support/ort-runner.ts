/**
 * Test support: runs one ONNX node in onnxruntime-node (one intra-op thread, graph
 * optimizations disabled) and compares outputs with the tolerance policy of docs/kernels.md.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { F32Tensor } from '../../../src';
import { buildSingleNodeModel } from './onnx-model-builder';
import type { OnnxAttributeValue, OnnxInitializer } from './onnx-model-builder';

/** A runtime (non-initializer) input of the node. */
export interface OrtInput {
  readonly name: string;
  readonly tensor: F32Tensor;
}

/** What to run: one node with runtime inputs, optional initializers and one float output. */
export interface OrtNodeRun {
  readonly opType: string;
  readonly nodeInputs: readonly string[];
  readonly inputs: readonly OrtInput[];
  readonly outputShape: readonly number[];
  readonly attributes?: Readonly<Record<string, OnnxAttributeValue>>;
  readonly initializers?: readonly OnnxInitializer[];
  readonly opset?: number;
}

interface WorkerResponse {
  readonly id: number;
  readonly dims?: number[];
  readonly data?: Float32Array;
  readonly error?: string;
}

/** How long one onnxruntime run may take before the request fails. */
const ORT_TIMEOUT_MS = 60_000;

/** Jest timeout for differential tests: many onnxruntime runs on a shared, loaded machine. */
export const DIFFERENTIAL_TEST_TIMEOUT_MS = 240_000;

let worker: ChildProcess | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (t: F32Tensor) => void; reject: (e: Error) => void }>();

/**
 * The onnxruntime child process (see ort-worker.cjs), started on first use. onnxruntime runs
 * there with `{ intraOpNumThreads: 1, graphOptimizationLevel: 'disabled' }`.
 */
function ortWorker(): ChildProcess {
  if (worker !== undefined) return worker;
  const child = fork(path.join(__dirname, 'ort-worker.cjs'), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (message: WorkerResponse) => {
    const entry = pending.get(message.id);
    if (entry === undefined) return;
    pending.delete(message.id);
    if (message.error !== undefined) entry.reject(new Error(`onnxruntime: ${message.error}`));
    else entry.resolve({ shape: message.dims!, data: Float32Array.from(message.data!) });
  });
  child.on('exit', () => {
    for (const entry of pending.values()) entry.reject(new Error('onnxruntime worker exited'));
    pending.clear();
    worker = undefined;
  });
  worker = child;
  return child;
}

/** Stops the onnxruntime child process started by {@link runOrtNode} (call in `afterAll`). */
export function stopOrt(): Promise<void> {
  const child = worker;
  if (child === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

/** Runs the node in onnxruntime and returns its single output. */
export function runOrtNode(run: OrtNodeRun): Promise<F32Tensor> {
  const model = buildSingleNodeModel({
    opType: run.opType,
    nodeInputs: run.nodeInputs,
    inputs: run.inputs.map((i) => ({ name: i.name, shape: i.tensor.shape })),
    outputs: [{ name: 'y', shape: run.outputShape }],
    attributes: run.attributes,
    initializers: run.initializers,
    opset: run.opset,
  });
  const id = nextId++;
  const feeds = run.inputs.map((i) => ({ name: i.name, dims: i.tensor.shape.slice(), data: i.tensor.data }));
  return new Promise((resolve, reject) => {
    const child = ortWorker();
    // A lost answer must fail the test, not hang it: give up (and restart the worker) after a while.
    const timer = setTimeout(() => {
      if (!pending.delete(id)) return;
      reject(new Error(`onnxruntime worker did not answer ${run.opType} within ${ORT_TIMEOUT_MS} ms`));
      child.kill();
    }, ORT_TIMEOUT_MS);
    timer.unref();
    pending.set(id, {
      resolve: (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    child.send({ id, model, feeds });
  });
}

/**
 * Compares `actual` with the onnxruntime `reference` under the kernel tolerance policy:
 * same shape, and per element `|a - r| <= 1e-5 * max|reference| + 1e-3 * |r|`. Returns a
 * description of the first mismatch, or `undefined`.
 */
export function compareWithReference(actual: F32Tensor, reference: F32Tensor, rtol = 1e-3, atolScale = 1e-5): string | undefined {
  if (actual.shape.length !== reference.shape.length || actual.shape.some((d, i) => d !== reference.shape[i])) {
    return `shape [${actual.shape.join(', ')}] != reference [${reference.shape.join(', ')}]`;
  }
  let maxAbs = 0;
  for (let i = 0; i < reference.data.length; i++) maxAbs = Math.max(maxAbs, Math.abs(reference.data[i]!));
  const atol = atolScale * maxAbs;
  for (let i = 0; i < reference.data.length; i++) {
    const a = actual.data[i]!;
    const r = reference.data[i]!;
    if (Number.isNaN(a) && Number.isNaN(r)) continue;
    if (!(Math.abs(a - r) <= atol + rtol * Math.abs(r))) {
      return `element ${i}: ${a} vs reference ${r} (atol ${atol}, rtol ${rtol})`;
    }
  }
  return undefined;
}

/** Deterministic pseudo-random f32 data in [-1, 1) from a seed (mulberry32). */
export function randomTensor(shape: readonly number[], seed: number, scale = 1): F32Tensor {
  let size = 1;
  for (const d of shape) size *= d;
  const data = new Float32Array(size);
  let s = seed >>> 0;
  for (let i = 0; i < size; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    data[i] = (((t ^ (t >>> 14)) >>> 0) / 4294967296 * 2 - 1) * scale;
  }
  return { shape: shape.slice(), data };
}
