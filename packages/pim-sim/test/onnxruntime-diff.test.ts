/**
 * Differential tests of the functional kernels against onnxruntime-node (one intra-op thread).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { simulateBundle } from '@raptor-pim/pim-sim';
import { f32Bytes, image, makeBundle, randomFloats, tensor, loadPrologue } from './helpers';
import { singleNodeModel } from './onnx-model';

jest.setTimeout(120000);

let worker: ChildProcess | undefined;
let nextId = 0;
const pending = new Map<number, (reply: { data?: Float32Array; error?: string }) => void>();

function ortWorker(): ChildProcess {
  if (worker) return worker;
  worker = fork(path.join(__dirname, 'support/ort-worker.cjs'), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  worker.on('message', (m: { id: number; data?: Float32Array; error?: string }) => {
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  return worker;
}

afterAll(() => {
  worker?.kill();
});

/** onnxruntime's result of the single-node model `op` on `inputs` (run in a child process). */
function reference(op: string, inputs: Record<string, Float32Array>, dims: Record<string, number[]>, outDims: number[]): Promise<Float32Array> {
  const model = singleNodeModel(
    op,
    Object.keys(inputs).map((name) => ({ name, dims: dims[name] })),
    outDims,
  );
  const feeds: Record<string, { data: Float32Array; dims: number[] }> = {};
  for (const [name, data] of Object.entries(inputs)) feeds[name] = { data, dims: dims[name] };
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, (reply) => (reply.error !== undefined ? reject(new Error(reply.error)) : resolve(Float32Array.from(reply.data!))));
    ortWorker().send({ id, model, feeds });
  });
}

/** Runs `opLine` with A at local 0 and B at local 1024 (len elements each), result at local 2048. */
function simulate(opLine: string, a: Float32Array, b: Float32Array, outCount: number): Float32Array {
  const len = a.length;
  const r = simulateBundle(
    makeBundle({
      cores: [
        `
        ${loadPrologue(len * 4)}
        sldi r4, 0
        sldi r5, 4096
        sldi r3, 1024
        ld r3, r4, size=${len * 4}
        sldi r6, 2048
        ${opLine}
        sldi r8, 0
        sldi r9, 8192
        st r8, r6, size=${outCount * 4}
      `,
      ],
      memory: image(8192, [
        [0, f32Bytes(a)],
        [4096, f32Bytes(b)],
      ]),
      outputs: [tensor('y', 8192, [outCount])],
    }),
  );
  if (!r.ok) throw new Error(r.error!.message);
  return r.outputs[0].array.data as Float32Array;
}

function maxDiff(x: ArrayLike<number>, y: ArrayLike<number>): number {
  expect(x.length).toBe(y.length);
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i] - y[i]));
  return m;
}

const LEN = 200;
const A = randomFloats(LEN, 21).map((v) => v * 4);
const B = randomFloats(LEN, 22).map((v) => v * 4);

describe('element-wise kernels against onnxruntime', () => {
  test.each([
    ['vvadd r6, r2, r3, len=200', 'Add', 0],
    ['vvsub r6, r2, r3, len=200', 'Sub', 0],
    ['vvmul r6, r2, r3, len=200', 'Mul', 0],
    ['vvmax r6, r2, r3, len=200', 'Max', 0],
  ] as const)('%s = %s', async (line, op, tol) => {
    const want = await reference(op, { A, B }, { A: [LEN], B: [LEN] }, [LEN]);
    expect(maxDiff(simulate(line, A, B, LEN), want)).toBeLessThanOrEqual(tol);
  });

  test.each([
    ['vrelu r6, r2, len=200', 'Relu', 0],
    ['vtanh r6, r2, len=200', 'Tanh', 1e-6],
    ['vsigm r6, r2, len=200', 'Sigmoid', 1e-6],
    ['vsoftmax r6, r2, len=200', 'Softmax', 1e-6],
  ] as const)('%s = %s', async (line, op, tol) => {
    const want = await reference(op, { A }, { A: [1, LEN] }, [1, LEN]);
    expect(maxDiff(simulate(line, A, B, LEN), want)).toBeLessThanOrEqual(tol);
  });
});

test('mvmul on a 2-crossbar group = MatMul', async () => {
  const x = randomFloats(128, 31);
  const w = randomFloats(128 * 256, 32);
  const want = await reference('MatMul', { X: x, W: w }, { X: [1, 128], W: [128, 256] }, [1, 256]);
  const r = simulateBundle(
    makeBundle({
      cores: [
        `
        ${loadPrologue(512)}
        sldi r6, 1024
        mvmul r6, r2, mbiw=8, relu=0, group=0
        sldi r8, 0
        sldi r9, 8192
        st r8, r6, size=1024
      `,
      ],
      groups: [[2]],
      memory: image(8192, [[0, f32Bytes(x)]]),
      weights: [{ core: 0, group: 0, rows: 128, cols: 256, elementType: 'f32', data: f32Bytes(w) }],
      outputs: [tensor('y', 8192, [256])],
    }),
  );
  expect(r.error).toBeUndefined();
  expect(maxDiff(r.outputs[0].array.data as Float32Array, want)).toBeLessThanOrEqual(1e-5);
});
