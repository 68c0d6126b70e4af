/**
 * (b) Functional mvmul throughput of the simulator against onnxruntime-node's MatMul on the
 * same matrices (one intra-op thread), as a ratio.
 *
 * The simulator runs N mvmul instructions on one array group of 4 crossbars holding a
 * 128 x 512 f32 matrix W (128 inputs, 512 outputs per mvmul); onnxruntime runs MatMul on
 * X[N, 128] x W[128, 512] once (batched, its best case) and as N single-row calls.
 */
import { runFunctional, compileProgram } from '@raptor-pim/pim-sim';
import type { Instruction } from '@raptor-pim/pim-target';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');

const N = Number(process.argv[2] ?? 2000);
const ROWS = 128;
const XBARS = 4;
const COLS = 128 * XBARS;

function rand(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 4294967296 - 0.5;
  }
  return out;
}

// --- a minimal ONNX model: Y = MatMul(X[n,128], W[128,COLS]) with both as graph inputs ---
function varint(v: number): number[] {
  const out: number[] = [];
  while (v > 127) {
    out.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
const field = (no: number, wire: number) => varint((no << 3) | wire);
const bytesField = (no: number, b: number[]) => [...field(no, 2), ...varint(b.length), ...b];
const strField = (no: number, s: string) => bytesField(no, [...Buffer.from(s)]);
const intField = (no: number, v: number) => [...field(no, 0), ...varint(v)];
function valueInfo(name: string, dims: (number | string)[]): number[] {
  const dimBytes = dims.flatMap((d) => bytesField(1, typeof d === 'number' ? intField(1, d) : strField(2, d)));
  const tensorType = [...intField(1, 1), ...bytesField(2, dimBytes)];
  return [...strField(1, name), ...bytesField(2, bytesField(1, tensorType))];
}
function matmulModel(): Uint8Array {
  const node = [...strField(1, 'X'), ...strField(1, 'W'), ...strField(2, 'Y'), ...strField(4, 'MatMul')];
  const graph = [
    ...bytesField(1, node),
    ...strField(2, 'g'),
    ...bytesField(11, valueInfo('X', ['n', ROWS])),
    ...bytesField(11, valueInfo('W', [ROWS, COLS])),
    ...bytesField(12, valueInfo('Y', ['n', COLS])),
  ];
  return Uint8Array.from([...intField(1, 8), ...bytesField(8, [...strField(1, ''), ...intField(2, 13)]), ...bytesField(7, graph)]);
}

async function main(): Promise<void> {
  const X = rand(N * ROWS, 1);
  const W = rand(ROWS * COLS, 2);

  // Simulator: the inputs are already in local memory (loaded once from global memory), so
  // the run is N mvmuls; each reads one 128-element row of X and writes 512 outputs.
  const program: Instruction[] = [{ op: 'setbw', ibiw: 32, obiw: 32 }, { op: 'sldi', rd: 0, imm: 0 }, { op: 'sldi', rd: 1, imm: 0 }];
  program.push({ op: 'sldi', rd: 2, imm: 0 }, { op: 'ld', rd: 2, rs1: 0, size: N * ROWS * 4, offsetSelect: 0, offsetValue: 0 });
  program.push({ op: 'sldi', rd: 3, imm: N * ROWS * 4 });
  for (let i = 0; i < N; i++) {
    program.push({ op: 'sldi', rd: 2, imm: i * ROWS * 4 });
    program.push({ op: 'mvmul', rd: 3, rs1: 2, mbiw: 8, relu: false, group: 0 });
  }
  const globalImage = new Uint8Array(X.buffer.slice(0));
  const machine = { xbarRows: ROWS, xbarCols: 128, cellPrecision: 8, localSize: N * ROWS * 4 + COLS * 4, globalSize: N * ROWS * 4, elementType: 'f32' as const };
  const input = { programs: [compileProgram(program)], groups: [[XBARS]], weights: [[{ rows: ROWS, cols: COLS, data: W }]], globalImage };
  runFunctional(machine, input); // warm-up
  const simRuns = 3;
  let simBest = Infinity;
  let last: ReturnType<typeof runFunctional> | undefined;
  for (let r = 0; r < simRuns; r++) {
    const t = process.hrtime.bigint();
    last = runFunctional(machine, input);
    simBest = Math.min(simBest, Number(process.hrtime.bigint() - t) / 1e9);
  }
  if (last?.error) throw new Error(last.error.message);

  const session = await ort.InferenceSession.create(matmulModel(), { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' });
  const w = new ort.Tensor('float32', W, [ROWS, COLS]);
  const batched = async () => (await session.run({ X: new ort.Tensor('float32', X, [N, ROWS]), W: w })).Y.data as Float32Array;
  let y = await batched(); // warm-up
  let ortBest = Infinity;
  for (let r = 0; r < 5; r++) {
    const t = process.hrtime.bigint();
    y = await batched();
    ortBest = Math.min(ortBest, Number(process.hrtime.bigint() - t) / 1e9);
  }
  const rowsT = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await session.run({ X: new ort.Tensor('float32', X.subarray(i * ROWS, (i + 1) * ROWS), [1, ROWS]), W: w });
  const ortRows = Number(process.hrtime.bigint() - rowsT) / 1e9;

  // Same numbers: the last mvmul's output against row N-1 of onnxruntime's result.
  const local = last!.locals[0].f32;
  const base = (N * ROWS * 4) / 4;
  let maxErr = 0;
  for (let j = 0; j < COLS; j++) maxErr = Math.max(maxErr, Math.abs(local[base + j] - y[(N - 1) * COLS + j]));

  const macs = N * ROWS * COLS;
  const g = (s: number) => (macs / s / 1e9).toFixed(3);
  console.log(`matrices: X[${N}, ${ROWS}] x W[${ROWS}, ${COLS}] (f32), ${macs / 1e6} M MACs; max |difference| ${maxErr.toExponential(2)}`);
  console.log(`simulator (functional pass, ${N} mvmul on a ${XBARS}-crossbar group): ${(simBest * 1e3).toFixed(1)} ms, ${g(simBest)} GMAC/s`);
  console.log(`onnxruntime MatMul batched, 1 thread:                        ${(ortBest * 1e3).toFixed(1)} ms, ${g(ortBest)} GMAC/s`);
  console.log(`onnxruntime MatMul one row per call, 1 thread:               ${(ortRows * 1e3).toFixed(1)} ms, ${g(ortRows)} GMAC/s`);
  console.log(`ratio (simulator time / onnxruntime batched): ${(simBest / ortBest).toFixed(2)}x slower (target <= 10x)`);
  console.log(`ratio (simulator time / onnxruntime per row): ${(simBest / ortRows).toFixed(2)}x`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
