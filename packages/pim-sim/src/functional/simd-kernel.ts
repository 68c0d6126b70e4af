/**
 * A WebAssembly SIMD kernel for the f32 matrix-vector product of `mvmul`:
 * y[j] = Σ_i x[i] · W[i, j] over a row-major `rows × cols` block.
 *
 * The module is assembled here from its instructions (no toolchain, no binary blob): one
 * exported function `mvm(x, w, y, rows, cols)` over an imported memory. It walks the columns
 * in blocks of 32 (eight `f32x4` accumulators held across all rows: each row adds x[i]
 * broadcast times eight vectors of W's row), then in blocks of 4. Every product and sum is
 * rounded to f32 and the summation runs row by row per column, so results can differ from a
 * float64 dot product in the last bits (well within 1e-5 for the simulator's sizes).
 *
 * Node 20 runs 128-bit wasm SIMD; where it is missing {@link createSimdKernel} returns
 * undefined and the caller keeps its JavaScript loop.
 */

// --- a tiny assembler: just the instructions and sections this kernel needs --------------

function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

function sleb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const I32 = 0x7f;
const V128 = 0x7b;

/** Instruction encoders (wasm core and SIMD opcodes). */
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  i32Const: (v: number) => [0x41, ...sleb(v)],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  i32GtS: [0x4a],
  i32Eqz: [0x45],
  f32Load: (offset: number) => [0x2a, 0x02, ...uleb(offset)],
  v128Load: (offset: number) => [0xfd, ...uleb(0x00), 0x04, ...uleb(offset)],
  v128Store: (offset: number) => [0xfd, ...uleb(0x0b), 0x04, ...uleb(offset)],
  v128Zero: [0xfd, ...uleb(0x0c), ...new Array<number>(16).fill(0)],
  f32x4Splat: [0xfd, ...uleb(0x13)],
  f32x4Add: [0xfd, ...uleb(0xe4)],
  f32x4Mul: [0xfd, ...uleb(0xe6)],
};

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))];
}

// Locals of mvm: parameters, then i32 scratch, then v128 accumulators.
const X = 0;
const W = 1;
const Y = 2;
const ROWS = 3;
const COLS = 4;
const J = 5;
const I = 6;
const WP = 7;
const XP = 8;
const STRIDE_BYTES = 9;
const ACC = 10; // 10..17
const XV = 18;

/**
 * One column block of `lanes` (32, 16 or 4) columns: accumulators over all rows, then stored.
 * Runs while J + lanes <= COLS. Assumes ROWS > 0 (the row loop runs at least once).
 */
function columnBlocks(lanes: 4 | 16 | 32): number[] {
  const vectors = lanes / 4;
  const body: number[] = [];
  body.push(...op.block, ...op.loop);
  // if (J + lanes > COLS) break
  body.push(...op.get(J), ...op.i32Const(lanes), ...op.i32Add, ...op.get(COLS), ...op.i32GtS, ...op.brIf(1));
  for (let k = 0; k < vectors; k++) body.push(...op.v128Zero, ...op.set(ACC + k));
  // WP = W + J * 4; XP = X; I = ROWS
  body.push(...op.get(W), ...op.get(J), ...op.i32Const(4), ...op.i32Mul, ...op.i32Add, ...op.set(WP));
  body.push(...op.get(X), ...op.set(XP), ...op.get(ROWS), ...op.set(I));
  body.push(...op.loop);
  body.push(...op.get(XP), ...op.f32Load(0), ...op.f32x4Splat, ...op.set(XV));
  for (let k = 0; k < vectors; k++) {
    body.push(...op.get(ACC + k), ...op.get(XV), ...op.get(WP), ...op.v128Load(16 * k), ...op.f32x4Mul, ...op.f32x4Add, ...op.set(ACC + k));
  }
  body.push(...op.get(WP), ...op.get(STRIDE_BYTES), ...op.i32Add, ...op.set(WP));
  body.push(...op.get(XP), ...op.i32Const(4), ...op.i32Add, ...op.set(XP));
  body.push(...op.get(I), ...op.i32Const(1), ...op.i32Sub, ...op.set(I));
  body.push(...op.get(I), ...op.i32Eqz, ...op.i32Eqz, ...op.brIf(0), ...op.end);
  // store y[J .. J + lanes)
  for (let k = 0; k < vectors; k++) {
    body.push(...op.get(Y), ...op.get(J), ...op.i32Const(4), ...op.i32Mul, ...op.i32Add, ...op.get(ACC + k), ...op.v128Store(16 * k));
  }
  body.push(...op.get(J), ...op.i32Const(lanes), ...op.i32Add, ...op.set(J), ...op.br(0), ...op.end, ...op.end);
  return body;
}

/** The module's bytes: `(import "env" "memory" (memory 1))`, `(export "mvm" (func ...))`. */
export function simdKernelModuleBytes(): Uint8Array {
  const type = section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]);
  const imports = section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 1]);
  const funcs = section(3, [1, 0]);
  const exports = section(7, [1, ...name('mvm'), 0x00, 0]);
  const code: number[] = [];
  // locals: 5 i32 (J, I, WP, XP, STRIDE_BYTES), 9 v128 (ACC0..7, XV)
  code.push(2, 5, I32, 9, V128);
  code.push(...op.get(COLS), ...op.i32Const(4), ...op.i32Mul, ...op.set(STRIDE_BYTES));
  code.push(...op.i32Const(0), ...op.set(J));
  code.push(...columnBlocks(32), ...columnBlocks(4), ...op.end);
  const body = [...uleb(code.length), ...code];
  const codeSection = section(10, [1, ...body]);
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imports, ...funcs, ...exports, ...codeSection]);
}

/** What {@link createSimdKernel} returns: the product on f32 data with the kernel's memory. */
export interface SimdKernel {
  /**
   * y = x · W for a row-major `rows × cols` f32 block (`cols` a multiple of 4, `rows > 0`):
   * x is `src[xAt .. xAt + rows)`, y is written to `dst[yAt .. yAt + cols)` (element indices).
   * `weights` is copied into the kernel's memory once per block object (cached by identity).
   */
  mvm(weights: Float32Array, rows: number, cols: number, src: Float32Array, xAt: number, dst: Float32Array, yAt: number): void;
}

/** The part of the host's WebAssembly API used here (the package compiles without DOM types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, WasmMemory>>) => { readonly exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
let compiled: object | null | undefined;

function kernelModule(): object | undefined {
  if (compiled === undefined) {
    const bytes = simdKernelModuleBytes();
    compiled = wasm !== undefined && wasm.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled ?? undefined;
}

const PAGE = 65536;

/** Instantiates the kernel (one memory per instance), or undefined without wasm SIMD. */
export function createSimdKernel(): SimdKernel | undefined {
  const module = kernelModule();
  if (!module || !wasm) return undefined;
  const memory = new wasm.Memory({ initial: 1 });
  const instance = new wasm.Instance(module, { env: { memory } });
  const mvm = instance.exports.mvm as (x: number, w: number, y: number, rows: number, cols: number) => void;
  const placed = new WeakMap<Float32Array, number>();
  let top = 0; // bump allocator for weight blocks; the scratch area for x and y sits above it
  let f32 = new Float32Array(memory.buffer);
  const reserve = (bytes: number): void => {
    if (bytes > memory.buffer.byteLength) {
      memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
      f32 = new Float32Array(memory.buffer);
    }
  };
  return {
    mvm(weights, rows, cols, src, xSrc, dst, yDst) {
      let w = placed.get(weights);
      if (w === undefined) {
        w = top;
        top += Math.ceil((rows * cols * 4) / 16) * 16;
        reserve(top);
        f32.set(weights.subarray(0, rows * cols), w / 4);
        placed.set(weights, w);
      }
      const xAt = top;
      const yAt = xAt + Math.ceil((rows * 4) / 16) * 16;
      reserve(yAt + cols * 4);
      const m = f32;
      const xi = xAt >> 2;
      for (let i = 0; i < rows; i++) m[xi + i] = src[xSrc + i];
      mvm(xAt, w, yAt, rows, cols);
      const yi = yAt >> 2;
      for (let j = 0; j < cols; j++) dst[yDst + j] = m[yi + j];
    },
  };
}
