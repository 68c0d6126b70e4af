/**
 * Interpreter rules of the `pim` ops that compute or move device-local data: the vector ops
 * (ISA section 5.4 semantics: computed in double precision, rounded by the destination's
 * element type on store; vvdmul/vavg accumulate in double and store once; softmax subtracts the
 * maximum), `pim.vmm`, `pim.vmv`, `pim.transpose`, `pim.concat` and the byte copies
 * `pim.memcp`, `pim.memcp_hd`, `pim.memcp_dh`. Each returns the updated destination: memrefs
 * are written in place, tensors yield a new value that keeps the destination's other bytes.
 */
import {
  IntegerAttr,
  ArrayAttr,
  type ShapedValue,
  type ExecutionContext,
  type InterpreterRule,
  type Operation,
  type RuntimeValue,
  type RuleResult,
} from '@raptor-pim/ir-core';
import { PimMessages as M } from '../diagnostics';
import { byteSize, bytesOf, elementBytes, inBounds, isShaped, readNumbers, writable, writeNumbers } from './storage';

function shapedOperands(ctx: ExecutionContext, op: Operation, operands: readonly RuntimeValue[], indices: readonly number[]) {
  const out = [];
  for (const i of indices) {
    const v = operands[i];
    if (!isShaped(v)) return ctx.fail(op, M.shape(op.name, `operand #${i} is not a tensor or memref value`));
    out.push(v);
  }
  return out;
}

function staticInt(
  ctx: ExecutionContext,
  op: Operation,
  v: RuntimeValue | undefined,
  what: string
): number | ReturnType<ExecutionContext['fail']> {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  return ctx.fail(op, M.notStatic(op.name, what));
}

function intProp(op: Operation, name: string): number {
  const a = op.getProperty(name);
  return a instanceof IntegerAttr ? Number(a.value) : NaN;
}

function unary(compute: (x: readonly number[]) => number[], single = false): InterpreterRule {
  return (ctx, op, operands) => {
    const vals = shapedOperands(ctx, op, operands, [0, 1]);
    if (!Array.isArray(vals)) return vals;
    const [x, dst] = vals as [ShapedValue, ShapedValue];
    const xs = readNumbers(x);
    if (xs.length === 0) return ctx.fail(op, M.shape(op.name, 'the input is empty'));
    const ys = compute(xs);
    const need = single ? 1 : ys.length;
    if (dst.numElements < need) return ctx.fail(op, M.outOfBounds(op.name, 'destination', 0, need * elementBytes(dst), byteSize(dst)));
    const out = writable(dst);
    writeNumbers(out, ys);
    return [out];
  };
}

function binary(compute: (a: readonly number[], b: readonly number[]) => number[], single = false): InterpreterRule {
  return (ctx, op, operands) => {
    const vals = shapedOperands(ctx, op, operands, [0, 1, 2]);
    if (!Array.isArray(vals)) return vals;
    const [a, b, dst] = vals as ShapedValue[];
    const as = readNumbers(a!);
    const bs = readNumbers(b!);
    // Code generation reads both inputs for the full lhs length.
    if (bs.length < as.length) return ctx.fail(op, M.outOfBounds(op.name, 'rhs', 0, as.length * elementBytes(b!), byteSize(b!)));
    const ys = compute(as, bs);
    const need = single ? 1 : ys.length;
    if (dst!.numElements < need) return ctx.fail(op, M.outOfBounds(op.name, 'destination', 0, need * elementBytes(dst!), byteSize(dst!)));
    const out = writable(dst!);
    writeNumbers(out, ys);
    return [out];
  };
}

const map2 = (f: (x: number, y: number) => number) => (a: readonly number[], b: readonly number[]) => a.map((x, i) => f(x, b[i]!));

/** `pim.vrelu`: max(x, 0). */
export const vreluRule = unary((x) => x.map((v) => (v > 0 ? v : 0)));
/** `pim.vsigm`: 1 / (1 + exp(-x)). */
export const vsigmRule = unary((x) => x.map((v) => 1 / (1 + Math.exp(-v))));
/** `pim.vtanh`: tanh(x). */
export const vtanhRule = unary((x) => x.map((v) => Math.tanh(v)));
/** `pim.vsoftmax`: exp(x - max) / sum. */
export const vsoftmaxRule = unary((x) => {
  let max = -Infinity;
  for (const v of x) if (v > max) max = v;
  const e = x.map((v) => Math.exp(v - max));
  let s = 0;
  for (const v of e) s += v;
  return e.map((v) => v / s);
});
/** `pim.vavg`: sum(x) / |x| into element 0. */
export const vavgRule = unary((x) => {
  let s = 0;
  for (const v of x) s += v;
  return [s / x.length];
}, true);
/** `pim.vvadd`. */
export const vvaddRule = binary(map2((x, y) => x + y));
/** `pim.vvsub`. */
export const vvsubRule = binary(map2((x, y) => x - y));
/** `pim.vvmul`. */
export const vvmulRule = binary(map2((x, y) => x * y));
/** `pim.vvmax`. */
export const vvmaxRule = binary(map2((x, y) => (x > y ? x : y)));
/** `pim.vvdmul`: sum_i lhs[i] * rhs[i] into element 0. */
export const vvdmulRule = binary((a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return [s];
}, true);

/** `pim.vmm`: y[j] = sum_i x[i] * W[i][j]; an input narrower than the weight reads zero padding. */
export const vmmRule: InterpreterRule = (ctx, op, operands) => {
  const vals = shapedOperands(ctx, op, operands, [0, 1, 2]);
  if (!Array.isArray(vals)) return vals;
  const [w, x, dst] = vals as ShapedValue[];
  const [n, m] = [w!.shape[0]!, w!.shape[1]!];
  const xs = readNumbers(x!);
  if (xs.length > n) return ctx.fail(op, M.shape(op.name, `input width ${xs.length} exceeds the ${n} weight rows`));
  if (dst!.numElements < m) return ctx.fail(op, M.outOfBounds(op.name, 'destination', 0, m * elementBytes(dst!), byteSize(dst!)));
  const ws = readNumbers(w!);
  const ys = new Array<number>(m).fill(0);
  for (let i = 0; i < xs.length; i++) for (let j = 0; j < m; j++) ys[j] += xs[i]! * ws[i * m + j]!;
  const out = writable(dst!);
  writeNumbers(out, ys);
  return [out];
};

/** Copies `size` bytes between two values; `dstIdx`/`srcIdx` are the buffer operand indices. */
function byteCopy(
  ctx: ExecutionContext,
  op: Operation,
  dst: ShapedValue,
  src: ShapedValue,
  dstOffset: number,
  srcOffset: number,
  size: number
): RuleResult {
  for (const [what, v] of [
    ['destination offset', dstOffset],
    ['source offset', srcOffset],
    ['size', size],
  ] as const) {
    if (v < 0) return ctx.fail(op, M.negative(op.name, what, v));
  }
  if (!inBounds(srcOffset, size, byteSize(src))) return ctx.fail(op, M.outOfBounds(op.name, 'source', srcOffset, size, byteSize(src)));
  if (!inBounds(dstOffset, size, byteSize(dst))) return ctx.fail(op, M.outOfBounds(op.name, 'destination', dstOffset, size, byteSize(dst)));
  const out = writable(dst);
  const from = bytesOf(src);
  const to = bytesOf(out);
  if (!from || !to) return ctx.fail(op, M.shape(op.name, 'storage is not contiguous'));
  to.set(from.slice(srcOffset, srcOffset + size), dstOffset);
  return [out];
}

/** `pim.memcp`, `pim.memcp_hd`, `pim.memcp_dh`: operands (dst, src, dstOffset, srcOffset). */
export const memcpRule: InterpreterRule = (ctx, op, operands) => {
  const vals = shapedOperands(ctx, op, operands, [0, 1]);
  if (!Array.isArray(vals)) return vals;
  const dOff = staticInt(ctx, op, operands[2], 'the destination offset');
  if (typeof dOff !== 'number') return dOff;
  const sOff = staticInt(ctx, op, operands[3], 'the source offset');
  if (typeof sOff !== 'number') return sOff;
  return byteCopy(ctx, op, vals[0]!, vals[1]!, dOff, sOff, intProp(op, 'size'));
};

/** `pim.vmv`: operands (target, source, dstOffset, srcOffset, stride); strided element gather. */
export const vmvRule: InterpreterRule = (ctx, op, operands) => {
  const vals = shapedOperands(ctx, op, operands, [0, 1]);
  if (!Array.isArray(vals)) return vals;
  const [dst, src] = vals as ShapedValue[];
  const ints: number[] = [];
  for (const [i, what] of [
    [2, 'the destination offset'],
    [3, 'the source offset'],
    [4, 'the stride'],
  ] as const) {
    const v = staticInt(ctx, op, operands[i], what);
    if (typeof v !== 'number') return v;
    if (v < 0) return ctx.fail(op, M.negative(op.name, what, v));
    ints.push(v);
  }
  const [dOff, sOff, stride] = ints as [number, number, number];
  const len = intProp(op, 'length');
  const eb = elementBytes(src!);
  if (elementBytes(dst!) !== eb) return ctx.fail(op, M.shape(op.name, 'source and target element sizes differ'));
  const srcSpan = len > 0 ? ((len - 1) * stride + 1) * eb : 0;
  if (!inBounds(sOff, srcSpan, byteSize(src!))) return ctx.fail(op, M.outOfBounds(op.name, 'source', sOff, srcSpan, byteSize(src!)));
  if (!inBounds(dOff, len * eb, byteSize(dst!))) return ctx.fail(op, M.outOfBounds(op.name, 'destination', dOff, len * eb, byteSize(dst!)));
  const out = writable(dst!);
  const from = bytesOf(src!);
  const to = bytesOf(out);
  if (!from || !to) return ctx.fail(op, M.shape(op.name, 'storage is not contiguous'));
  const gathered = new Uint8Array(len * eb);
  for (let i = 0; i < len; i++) gathered.set(from.subarray(sOff + i * stride * eb, sOff + (i * stride + 1) * eb), i * eb);
  to.set(gathered, dOff);
  return [out];
};

/** `pim.transpose`: y[i_0..i_n] = x[j] with j[permutation[d]] = i_d. */
export const transposeRule: InterpreterRule = (ctx, op, operands) => {
  const vals = shapedOperands(ctx, op, operands, [0, 1]);
  if (!Array.isArray(vals)) return vals;
  const [x, dst] = vals as ShapedValue[];
  const permAttr = op.getProperty('permutation');
  const perm = permAttr instanceof ArrayAttr ? permAttr.elements.map((e) => (e instanceof IntegerAttr ? Number(e.value) : NaN)) : [];
  const rank = x!.shape.length;
  const seen = new Set(perm);
  if (perm.length !== rank || seen.size !== rank || perm.some((p) => !(p >= 0 && p < rank))) {
    return ctx.fail(op, M.shape(op.name, `permutation [${perm.join(', ')}] is not a permutation of ${rank} dimensions`));
  }
  const outShape = perm.map((p) => x!.shape[p]!);
  if (dst!.shape.length !== rank || outShape.some((d, i) => d !== dst!.shape[i])) {
    return ctx.fail(
      op,
      M.shape(op.name, `destination shape [${dst!.shape.join(', ')}] is not the permuted input shape [${outShape.join(', ')}]`)
    );
  }
  const out = writable(dst!);
  const idx = new Array<number>(rank).fill(0);
  const src = new Array<number>(rank).fill(0);
  for (let k = 0; k < out.numElements; k++) {
    for (let d = 0; d < rank; d++) src[perm[d]!] = idx[d]!;
    out.set(idx, x!.get(src));
    for (let d = rank - 1; d >= 0; d--) {
      if (++idx[d]! < outShape[d]!) break;
      idx[d] = 0;
    }
  }
  return [out];
};

/** `pim.concat`: inputs joined along `axis` into the destination. */
export const concatRule: InterpreterRule = (ctx, op, operands) => {
  const n = operands.length - 1;
  const vals = shapedOperands(
    ctx,
    op,
    operands,
    operands.map((_v, i) => i)
  );
  if (!Array.isArray(vals)) return vals;
  const dst = vals[n]!;
  const axis = intProp(op, 'axis');
  const rank = dst.shape.length;
  let at = 0;
  const out = writable(dst);
  for (let i = 0; i < n; i++) {
    const x = vals[i]!;
    if (x.shape.length !== rank || x.shape.some((d, k) => k !== axis && d !== dst.shape[k])) {
      return ctx.fail(
        op,
        M.shape(op.name, `input #${i} shape [${x.shape.join(', ')}] does not fit destination [${dst.shape.join(', ')}] along axis ${axis}`)
      );
    }
    if (at + x.shape[axis]! > dst.shape[axis]!) return ctx.fail(op, M.shape(op.name, `inputs exceed the destination along axis ${axis}`));
    const idx = new Array<number>(rank).fill(0);
    for (let k = 0; k < x.numElements; k++) {
      const target = idx.slice();
      target[axis] = target[axis]! + at;
      out.set(target, x.get(idx));
      for (let d = rank - 1; d >= 0; d--) {
        if (++idx[d]! < x.shape[d]!) break;
        idx[d] = 0;
      }
    }
    at += x.shape[axis]!;
  }
  return [out];
};

/** The data rules by op name. */
export const PIM_DATA_RULES: Readonly<Record<string, InterpreterRule>> = {
  'pim.vrelu': vreluRule,
  'pim.vsigm': vsigmRule,
  'pim.vtanh': vtanhRule,
  'pim.vsoftmax': vsoftmaxRule,
  'pim.vavg': vavgRule,
  'pim.vvadd': vvaddRule,
  'pim.vvsub': vvsubRule,
  'pim.vvmul': vvmulRule,
  'pim.vvmax': vvmaxRule,
  'pim.vvdmul': vvdmulRule,
  'pim.vmm': vmmRule,
  'pim.vmv': vmvRule,
  'pim.transpose': transposeRule,
  'pim.concat': concatRule,
  'pim.memcp': memcpRule,
  'pim.memcp_hd': memcpRule,
  'pim.memcp_dh': memcpRule,
};
