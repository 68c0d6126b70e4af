import { KernelMessages } from '../../diagnostics';
import { kernelFail, kernelOk, shapeSize, validateTensor } from './tensor';
import type { F32Tensor, KernelResult } from './tensor';

/** The binary element-wise operations of {@link elementwiseBinary}. */
export type BinaryKind = 'add' | 'sub' | 'mul' | 'div' | 'max' | 'min';

/**
 * The numpy/ONNX multidirectional broadcast of two shapes: align trailing axes; each pair of
 * sizes must be equal or contain a 1. Returns the result shape, or `undefined` if incompatible.
 *
 * @example broadcastShapes([2, 1, 4], [3, 1]) -> [2, 3, 4]
 */
export function broadcastShapes(lhs: readonly number[], rhs: readonly number[]): number[] | undefined {
  const rank = Math.max(lhs.length, rhs.length);
  const out = new Array<number>(rank);
  for (let i = 0; i < rank; i++) {
    const a = i < rank - lhs.length ? 1 : lhs[i - (rank - lhs.length)]!;
    const b = i < rank - rhs.length ? 1 : rhs[i - (rank - rhs.length)]!;
    if (a === b || b === 1) out[i] = a;
    else if (a === 1) out[i] = b;
    else return undefined;
  }
  return out;
}

/** Strides of `shape` aligned to `outShape`, with 0 on broadcast (size-1 or missing) axes. */
function broadcastStrides(shape: readonly number[], outShape: readonly number[]): Int32Array {
  const rank = outShape.length;
  const strides = new Int32Array(rank);
  let stride = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    const d = i + rank - shape.length;
    strides[d] = shape[i] === 1 ? 0 : stride;
    stride *= shape[i]!;
  }
  return strides;
}

/** Applies `kind` to `n` pairs `a[ia + k*sa]`, `b[ib + k*sb]`, writing `out[io + k]`. */
function binaryRow(
  kind: BinaryKind,
  a: Float32Array,
  ia: number,
  sa: number,
  b: Float32Array,
  ib: number,
  sb: number,
  out: Float32Array,
  io: number,
  n: number,
): void {
  switch (kind) {
    case 'add':
      for (let k = 0; k < n; k++) out[io + k] = a[ia + k * sa]! + b[ib + k * sb]!;
      return;
    case 'sub':
      for (let k = 0; k < n; k++) out[io + k] = a[ia + k * sa]! - b[ib + k * sb]!;
      return;
    case 'mul':
      for (let k = 0; k < n; k++) out[io + k] = a[ia + k * sa]! * b[ib + k * sb]!;
      return;
    case 'div':
      for (let k = 0; k < n; k++) out[io + k] = a[ia + k * sa]! / b[ib + k * sb]!;
      return;
    case 'max':
      for (let k = 0; k < n; k++) {
        const x = a[ia + k * sa]!;
        const y = b[ib + k * sb]!;
        out[io + k] = x !== x || y !== y ? NaN : x > y ? x : y;
      }
      return;
    case 'min':
      for (let k = 0; k < n; k++) {
        const x = a[ia + k * sa]!;
        const y = b[ib + k * sb]!;
        out[io + k] = x !== x || y !== y ? NaN : x < y ? x : y;
      }
      return;
  }
}

const BINARY_KINDS: readonly string[] = ['add', 'sub', 'mul', 'div', 'max', 'min'];

/**
 * A binary element-wise operation with numpy broadcasting (ONNX `Add`/`Sub`/`Mul`/`Div`/`Max`/`Min`;
 * `spat.vadd`/`vsub`/`vmul`/`vmax` and `pim.vv*` are the equal-shape case). Each result is the
 * f32-rounded result of the exact operation, so add/sub/mul/div match IEEE f32 bit for bit;
 * max/min propagate NaN.
 *
 * Fails when the shapes are not broadcast-compatible.
 *
 * @example elementwiseBinary('add', createTensor([2, 1], [1, 2]), createTensor([3], [10, 20, 30]))
 * // -> shape [2, 3], data [11, 21, 31, 12, 22, 32]
 */
export function elementwiseBinary(kind: BinaryKind, lhs: F32Tensor, rhs: F32Tensor): KernelResult<F32Tensor> {
  const kernel = kind;
  if (!BINARY_KINDS.includes(kind)) return kernelFail(KernelMessages.attributeValue('elementwiseBinary', 'kind', String(kind), BINARY_KINDS.join(' | ')));
  const problem = validateTensor(kernel, 'lhs', lhs) ?? validateTensor(kernel, 'rhs', rhs);
  if (problem !== undefined) return kernelFail(problem);
  const outShape = broadcastShapes(lhs.shape, rhs.shape);
  if (outShape === undefined) return kernelFail(KernelMessages.notBroadcastable(kernel, lhs.shape, rhs.shape));
  const total = shapeSize(outShape);
  const out = new Float32Array(total);
  if (total === 0) return kernelOk({ shape: outShape, data: out });
  const rank = outShape.length;
  if (rank === 0 || (lhs.data.length === total && rhs.data.length === total)) {
    binaryRow(kind, lhs.data, 0, 1, rhs.data, 0, 1, out, 0, total);
    return kernelOk({ shape: outShape, data: out });
  }
  const sa = broadcastStrides(lhs.shape, outShape);
  const sb = broadcastStrides(rhs.shape, outShape);
  const last = rank - 1;
  const rowLength = outShape[last]!;
  const counter = new Int32Array(rank);
  let o = 0;
  for (;;) {
    let ia = 0;
    let ib = 0;
    for (let d = 0; d < last; d++) {
      ia += counter[d]! * sa[d]!;
      ib += counter[d]! * sb[d]!;
    }
    binaryRow(kind, lhs.data, ia, sa[last]!, rhs.data, ib, sb[last]!, out, o, rowLength);
    o += rowLength;
    let d = last - 1;
    while (d >= 0) {
      counter[d]++;
      if (counter[d]! < outShape[d]!) break;
      counter[d] = 0;
      d--;
    }
    if (d < 0) break;
  }
  return kernelOk({ shape: outShape, data: out });
}

/** `lhs + rhs` with numpy broadcasting; see {@link elementwiseBinary}. */
export function add(lhs: F32Tensor, rhs: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseBinary('add', lhs, rhs);
}

/** `lhs - rhs` with numpy broadcasting; see {@link elementwiseBinary}. */
export function sub(lhs: F32Tensor, rhs: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseBinary('sub', lhs, rhs);
}

/** `lhs * rhs` with numpy broadcasting; see {@link elementwiseBinary}. */
export function mul(lhs: F32Tensor, rhs: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseBinary('mul', lhs, rhs);
}

/** `lhs / rhs` with numpy broadcasting (IEEE: x/0 = +Infinity, -Infinity or NaN); see {@link elementwiseBinary}. */
export function div(lhs: F32Tensor, rhs: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseBinary('div', lhs, rhs);
}

/** Element-wise maximum with numpy broadcasting (`spat.vmax`, `pim.vvmax`); NaN propagates. */
export function maximum(lhs: F32Tensor, rhs: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseBinary('max', lhs, rhs);
}

/** Element-wise minimum with numpy broadcasting; NaN propagates. */
export function minimum(lhs: F32Tensor, rhs: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseBinary('min', lhs, rhs);
}

/**
 * Adds a scalar or per-channel bias to an NCHW tensor (`spat.bias_add_plan`). The bias shapes
 * the reference allows are rank-0 `[]` (scalar), `[C]`, `[1, C]` and `[1, C, 1, 1]`; every one
 * of the non-scalar forms adds `bias[c]` to channel `c` (note that `[C]` therefore does not
 * follow numpy broadcasting, which would align it with W). Any other shape fails.
 *
 * @example biasAdd(x, createTensor([2], [0.5, -1])) // x: [1, 2, 3, 4]; channel 0 += 0.5, channel 1 -= 1
 */
export function biasAdd(input: F32Tensor, bias: F32Tensor): KernelResult<F32Tensor> {
  const kernel = 'biasAdd';
  const problem = validateTensor(kernel, 'input', input, 4) ?? validateTensor(kernel, 'bias', bias);
  if (problem !== undefined) return kernelFail(problem);
  const [n, c, h, w] = input.shape as [number, number, number, number];
  const s = bias.shape;
  const isScalar = s.length === 0;
  const isChannel =
    (s.length === 1 && s[0] === c) ||
    (s.length === 2 && s[0] === 1 && s[1] === c) ||
    (s.length === 4 && s[0] === 1 && s[1] === c && s[2] === 1 && s[3] === 1);
  if (!isScalar && !isChannel) {
    return kernelFail(KernelMessages.biasShape(kernel, s, `[] (scalar), [${c}], [1, ${c}] or [1, ${c}, 1, 1]`));
  }
  const out = new Float32Array(input.data.length);
  const plane = h * w;
  const x = input.data;
  for (let b = 0; b < n; b++) {
    for (let ch = 0; ch < c; ch++) {
      const v = isScalar ? bias.data[0]! : bias.data[ch]!;
      const base = (b * c + ch) * plane;
      for (let i = 0; i < plane; i++) out[base + i] = x[base + i]! + v;
    }
  }
  return kernelOk({ shape: input.shape.slice(), data: out });
}

/** The unary element-wise operations of {@link elementwiseUnary}. */
export type UnaryKind = 'relu' | 'leaky_relu' | 'sigmoid' | 'tanh' | 'hard_sigmoid' | 'clip' | 'silu' | 'neg' | 'exp';

/** Parameters of the parameterised unary operations (ONNX attribute defaults apply). */
export interface UnaryParameters {
  /** LeakyRelu slope (default 0.01) or HardSigmoid slope (default 0.2). */
  readonly alpha?: number;
  /** HardSigmoid offset (default 0.5). */
  readonly beta?: number;
  /** Clip lower bound (default -Infinity). */
  readonly min?: number;
  /** Clip upper bound (default +Infinity). */
  readonly max?: number;
}

const UNARY_KINDS: readonly string[] = ['relu', 'leaky_relu', 'sigmoid', 'tanh', 'hard_sigmoid', 'clip', 'silu', 'neg', 'exp'];

/**
 * A unary element-wise operation, evaluated in f64 and rounded to f32 once per element:
 * - `relu`: `x < 0 ? 0 : x` (NaN propagates) - `spat.relu`, `pim.vrelu`
 * - `leaky_relu`: `x < 0 ? alpha * x : x`
 * - `sigmoid`: `1 / (1 + exp(-x))` - `spat.sigmoid`, `pim.vsigm`
 * - `tanh`: `tanh(x)` - `pim.vtanh`
 * - `hard_sigmoid`: `max(0, min(1, alpha * x + beta))`
 * - `clip`: `min(max(x, min), max)` (onnxruntime's order: `max` wins when `min > max`)
 * - `silu`: `x / (1 + exp(-x))` - `spat.silu_plan`
 * - `neg`: `-x`; `exp`: `exp(x)`
 */
export function elementwiseUnary(kind: UnaryKind, input: F32Tensor, parameters: UnaryParameters = {}): KernelResult<F32Tensor> {
  if (!UNARY_KINDS.includes(kind)) return kernelFail(KernelMessages.attributeValue('elementwiseUnary', 'kind', String(kind), UNARY_KINDS.join(' | ')));
  const problem = validateTensor(kind, 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const x = input.data;
  const n = x.length;
  const out = new Float32Array(n);
  switch (kind) {
    case 'relu':
      for (let i = 0; i < n; i++) {
        const v = x[i]!;
        out[i] = v < 0 ? 0 : v;
      }
      break;
    case 'leaky_relu': {
      const alpha = parameters.alpha ?? 0.01;
      const a = Math.fround(alpha);
      for (let i = 0; i < n; i++) {
        const v = x[i]!;
        out[i] = v < 0 ? a * v : v;
      }
      break;
    }
    case 'sigmoid':
      for (let i = 0; i < n; i++) out[i] = 1 / (1 + Math.exp(-x[i]!));
      break;
    case 'tanh':
      for (let i = 0; i < n; i++) out[i] = Math.tanh(x[i]!);
      break;
    case 'hard_sigmoid': {
      const a = Math.fround(parameters.alpha ?? 0.2);
      const b = Math.fround(parameters.beta ?? 0.5);
      for (let i = 0; i < n; i++) {
        const v = a * x[i]! + b;
        out[i] = v < 0 ? 0 : v > 1 ? 1 : v;
      }
      break;
    }
    case 'clip': {
      const lo = parameters.min ?? -Infinity;
      const hi = parameters.max ?? Infinity;
      for (let i = 0; i < n; i++) {
        let v = x[i]!;
        if (v < lo) v = lo;
        if (v > hi) v = hi;
        out[i] = v;
      }
      break;
    }
    case 'silu':
      for (let i = 0; i < n; i++) {
        const v = x[i]!;
        out[i] = v / (1 + Math.exp(-v));
      }
      break;
    case 'neg':
      for (let i = 0; i < n; i++) out[i] = -x[i]!;
      break;
    case 'exp':
      for (let i = 0; i < n; i++) out[i] = Math.exp(x[i]!);
      break;
  }
  return kernelOk({ shape: input.shape.slice(), data: out });
}

/** `max(x, 0)` per element (`spat.relu`, `spat.relu_plan`, `pim.vrelu`). */
export function relu(input: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseUnary('relu', input);
}

/** `x < 0 ? alpha * x : x` per element (ONNX `LeakyRelu`, default alpha 0.01). */
export function leakyRelu(input: F32Tensor, alpha = 0.01): KernelResult<F32Tensor> {
  return elementwiseUnary('leaky_relu', input, { alpha });
}

/** `1 / (1 + exp(-x))` per element (`spat.sigmoid`, `pim.vsigm`). */
export function sigmoid(input: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseUnary('sigmoid', input);
}

/** `tanh(x)` per element (`pim.vtanh`). */
export function tanh(input: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseUnary('tanh', input);
}

/** `max(0, min(1, alpha * x + beta))` per element (ONNX `HardSigmoid`, defaults 0.2 and 0.5). */
export function hardSigmoid(input: F32Tensor, alpha = 0.2, beta = 0.5): KernelResult<F32Tensor> {
  return elementwiseUnary('hard_sigmoid', input, { alpha, beta });
}

/** `min(max(x, min), max)` per element (ONNX `Clip`; unbounded by default). */
export function clip(input: F32Tensor, min = -Infinity, max = Infinity): KernelResult<F32Tensor> {
  return elementwiseUnary('clip', input, { min, max });
}

/** `x * sigmoid(x)` per element (`spat.silu_plan`). */
export function silu(input: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseUnary('silu', input);
}

/** `-x` per element. */
export function neg(input: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseUnary('neg', input);
}

/** `exp(x)` per element. */
export function exp(input: F32Tensor): KernelResult<F32Tensor> {
  return elementwiseUnary('exp', input);
}
