/**
 * The memref execution rules for ir-core's {@link InterpreterRegistry}: memrefs are ir-core
 * `ShapedValue` buffers (kind `buffer`) whose typed arrays are views of the byte buffers of
 * {@link MemRefInterpreter}, so other dialects' rules can read and write them, while the memref
 * rules keep byte-level semantics (`memref.view`), bounds checks and allocation state (use
 * after `memref.dealloc`, double free).
 */
import {
  IntegerType,
  ShapedValue,
  Yield,
  FloatType,
  IndexType,
  type ElementArray,
  type ExecutionContext,
  type InterpreterRegistry,
  type InterpreterRule,
  type Operation,
  type RuntimeValue as CoreValue,
  type Type,
} from '@raptor-pim/ir-core';
import { MemRefMessages as M } from '../diagnostics';
import { elementCodec, MemRefBuffer, MemRefDescriptor } from './buffer';
import { MemRefInterpreter, type RuntimeValue } from './interpreter';

type TypedArrayCtor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => ElementArray;

/** The typed-array constructor ir-core uses for `type` (see ir-core's `arrayKindFor`). */
function typedArrayFor(type: Type): TypedArrayCtor | undefined {
  if (type instanceof FloatType) return type.kind === 'f64' ? Float64Array : type.kind === 'f32' ? Float32Array : undefined;
  if (type instanceof IndexType) return Float64Array;
  if (type instanceof IntegerType) {
    const w = type.width;
    const u = type.isUnsigned;
    if (w === 1 || w === 8) return u || w === 1 ? Uint8Array : Int8Array;
    if (w === 16) return u ? Uint16Array : Int16Array;
    if (w === 32) return u ? Uint32Array : Int32Array;
    if (w === 64) return u ? BigUint64Array : BigInt64Array;
  }
  return undefined;
}

/** Per-run state: the memref interpreter and the buffer <-> ShapedValue correspondence. */
class MemRefRunState {
  readonly interp = new MemRefInterpreter();
  readonly buffers = new WeakMap<ArrayBufferLike, MemRefBuffer>();
  readonly shaped = new WeakMap<MemRefDescriptor, ShapedValue>();
  readonly descriptors = new WeakMap<ShapedValue, MemRefDescriptor>();
  globalsLoaded = new WeakSet<Operation>();

  toDescriptor(v: ShapedValue): MemRefDescriptor | string {
    const known = this.descriptors.get(v);
    if (known) return known;
    const codec = elementCodec(v.elementType);
    if (!codec) return M.elementType(String(v.elementType.id));
    const data = v.data;
    let buf = this.buffers.get(data.buffer);
    if (!buf) {
      buf = new MemRefBuffer(new Uint8Array(data.buffer, 0, data.buffer.byteLength), 'external');
      this.buffers.set(data.buffer, buf);
    }
    const d = new MemRefDescriptor(buf, v.elementType, codec, v.offset, [...v.shape], [...v.strides], data.byteOffset);
    this.descriptors.set(v, d);
    this.shaped.set(d, v);
    return d;
  }

  toShaped(d: MemRefDescriptor): ShapedValue | string {
    const known = this.shaped.get(d);
    if (known) return known;
    const Ctor = typedArrayFor(d.elementType);
    if (!Ctor) return M.elementType(String(d.elementType.id));
    if (d.byteShift % d.codec.bytes !== 0) return M.unalignedView(d.codec.bytes, d.byteShift);
    this.buffers.set(d.buffer.bytes.buffer, d.buffer);
    const start = d.buffer.bytes.byteOffset + d.byteShift;
    const data = new Ctor(d.buffer.bytes.buffer, start, Math.floor((d.buffer.byteLength - d.byteShift) / d.codec.bytes));
    const v = new ShapedValue('buffer', d.elementType, [...d.sizes], data, [...d.strides], d.offset);
    this.shaped.set(d, v);
    this.descriptors.set(v, d);
    return v;
  }
}

const STATE_KEY = Symbol('memref-run-state');

function stateOf(ctx: ExecutionContext): MemRefRunState {
  const st = ctx.interpreter.state;
  let s = st.get(STATE_KEY) as MemRefRunState | undefined;
  if (!s) {
    s = new MemRefRunState();
    st.set(STATE_KEY, s);
  }
  return s;
}

function toLocal(s: MemRefRunState, v: CoreValue): RuntimeValue | string {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof ShapedValue) return v.kind === 'buffer' ? s.toDescriptor(v) : M.tensorForMemRef;
  return M.unexpectedObject(v.runtimeKind);
}

function toCore(s: MemRefRunState, v: RuntimeValue, type: Type): CoreValue | string {
  if (v instanceof MemRefDescriptor) return s.toShaped(v);
  if (type instanceof IntegerType && type.width > 32) return BigInt(Math.trunc(v));
  if (type instanceof IntegerType && type.width === 1) return v & 1;
  return v;
}

/** Loads the `memref.global`s of the enclosing module the first time a global is needed. */
function ensureGlobals(s: MemRefRunState, op: Operation): string | undefined {
  let top: Operation = op;
  for (let p = op.getParentOp(); p; p = p.getParentOp()) top = p;
  if (s.globalsLoaded.has(top)) return undefined;
  s.globalsLoaded.add(top);
  for (const r of top.regions) {
    for (let b = r.firstBlock; b; b = b.next) {
      const res = s.interp.loadGlobals(b);
      if (!res.ok) return res.error.message;
    }
  }
  return undefined;
}

const generic: InterpreterRule = (ctx, op, operands) => {
  const s = stateOf(ctx);
  if (op.name === 'memref.get_global') {
    const g = ensureGlobals(s, op);
    if (g) return ctx.fail(op, g);
  }
  for (let i = 0; i < operands.length; i++) {
    const v = toLocal(s, operands[i]!);
    if (typeof v === 'string') return ctx.fail(op, v);
    s.interp.bind(op.getOperand(i), v);
  }
  if (op.name === 'memref.store' && typeof operands[0] === 'bigint') {
    // Exact 64-bit integer stores.
    const m = s.interp.valueOf(op.getOperand(1)) as MemRefDescriptor;
    if (m.buffer.readOnly) return ctx.fail(op, M.constantGlobalWrite(m.buffer.id));
    const w = s.interp.tryWrite(m, operands.slice(2).map((x) => Number(x)), operands[0], op);
    return w ? ctx.fail(op, w.message) : [];
  }
  const err = s.interp.execute(op);
  if (err) return ctx.fail(op, err.message);
  const out: CoreValue[] = [];
  for (const r of op.results) {
    const v = s.interp.valueOf(r)!;
    // 64-bit integer loads are re-read exactly (bigint).
    if (op.name === 'memref.load' && r.type instanceof IntegerType && r.type.width > 32) {
      const m = s.interp.valueOf(op.getOperand(0)) as MemRefDescriptor;
      out.push(s.interp.readExact(m, op.operands.slice(1).map((x) => s.interp.valueOf(x) as number), op));
      continue;
    }
    const c = toCore(s, v, r.type);
    if (typeof c === 'string') return ctx.fail(op, c);
    out.push(c);
  }
  return out;
};

const allocaScope: InterpreterRule = (ctx, op) => {
  const s = stateOf(ctx);
  s.interp.pushScope();
  try {
    return ctx.runRegion(op.regions[0]!, []);
  } finally {
    s.interp.popScope();
  }
};

const genericAtomicRMW: InterpreterRule = (ctx, op, operands) => {
  const s = stateOf(ctx);
  const m = toLocal(s, operands[0]!);
  if (!(m instanceof MemRefDescriptor)) return ctx.fail(op, typeof m === 'string' ? m : M.unknownValue('the memref of memref.generic_atomic_rmw'));
  const idx = operands.slice(1).map((x) => Number(x));
  const t = op.getResult(0).type;
  const old = s.interp.tryReadExact(m, idx, op);
  if (!('value' in old)) return ctx.fail(op, old.message);
  const r = ctx.runRegion(op.regions[0]!, [t instanceof IntegerType && t.width > 32 ? BigInt(old.value) : old.value]);
  if (!Array.isArray(r)) return r as ReturnType<InterpreterRule>;
  const nv = (r as readonly CoreValue[])[0];
  if (typeof nv !== 'number' && typeof nv !== 'bigint') return ctx.fail(op, M.atomicOnNonScalar);
  const w = s.interp.tryWrite(m, idx, nv, op);
  if (w) return ctx.fail(op, w.message);
  // As the LLVM lowering (cmpxchg loop), the result is the value before the update.
  return [old.value];
};

/** Every memref op's rule, by op name. */
export const MEMREF_INTERPRETER_RULES: Readonly<Record<string, InterpreterRule>> = {
  'memref.alloca_scope': allocaScope,
  'memref.alloca_scope.return': (_ctx, _op, operands) => new Yield(operands),
  'memref.atomic_yield': (_ctx, _op, operands) => new Yield(operands),
  'memref.generic_atomic_rmw': genericAtomicRMW,
  ...Object.fromEntries(
    [
      'alloc',
      'alloca',
      'assume_alignment',
      'atomic_rmw',
      'cast',
      'collapse_shape',
      'copy',
      'dealloc',
      'dim',
      'distinct_objects',
      'dma_start',
      'dma_wait',
      'expand_shape',
      'extract_aligned_pointer_as_index',
      'extract_strided_metadata',
      'get_global',
      'global',
      'load',
      'memory_space_cast',
      'prefetch',
      'rank',
      'realloc',
      'reinterpret_cast',
      'reshape',
      'store',
      'subview',
      'transpose',
      'view',
    ].map((n) => [`memref.${n}`, generic]),
  ),
};

/**
 * Registers the memref rules in an ir-core interpreter registry.
 * @example
 * ```ts
 * const registry = new InterpreterRegistry();
 * registerBuiltinInterpreterRules(registry);
 * registerMemRefInterpreterRules(registry);
 * const result = new Interpreter(registry).runFunction(module, 'main', []);
 * ```
 */
export function registerMemRefInterpreterRules(registry: InterpreterRegistry): void {
  registry.registerAll(MEMREF_INTERPRETER_RULES);
}

