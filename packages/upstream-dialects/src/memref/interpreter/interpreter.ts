/**
 * Execution rules of the memref dialect. Memrefs are byte buffers with strided descriptors;
 * out-of-bounds accesses, uses after `memref.dealloc` and double frees are reported as
 * runtime errors (never silently wrong values).
 *
 * {@link MemRefInterpreter} owns the byte buffers and their allocation state. The rules in
 * `rules.ts` plug it into ir-core's interpreter framework (memrefs there are `ShapedValue`
 * views of these buffers); used on its own, it runs the ops of a block in order and delegates
 * non-memref ops to a caller-supplied {@link ScalarOpHandler} (e.g. `arith` rules).
 */
import {
  AffineMapAttr,
  DenseElementsAttr,
  FloatAttr,
  IntegerAttr,
  MemRefType,
  StringAttr,
  SymbolRefAttr,
  TypeAttr,
  type Block,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import { readReassociation, readStaticArray } from '../asm';
import { MemRefMessages as M } from '../diagnostics';
import { getStridesAndOffset, isDyn, permutationOf } from '../layout';
import { atomicKindName, dmaStartLayout } from '../ops/access';
import { elementCodec, forEachIndex, MemRefBuffer, MemRefDescriptor } from './buffer';

/** A runtime value: a scalar (integers, index and floats as numbers) or a memref. */
export type RuntimeValue = number | MemRefDescriptor;

/** A runtime error: the message and the op that failed. */
export interface MemRefRuntimeError {
  readonly message: string;
  readonly op: Operation | undefined;
}

/** The outcome of running ops: the yielded/returned values, or an error. */
export type RunResult = { readonly ok: true; readonly values: RuntimeValue[] } | { readonly ok: false; readonly error: MemRefRuntimeError };

/**
 * Executes one non-memref op: returns its result values, or a message string on failure, or
 * `undefined` when the op is unknown to the handler.
 */
export type ScalarOpHandler = (op: Operation, operands: readonly RuntimeValue[], interp: MemRefInterpreter) => RuntimeValue[] | string | undefined;

class RuntimeFailure {
  constructor(
    readonly message: string,
    readonly op: Operation | undefined,
  ) {}
}

function fail(message: string, op?: Operation): never {
  throw new RuntimeFailure(message, op);
}

/** Options of {@link MemRefInterpreter}. */
export interface MemRefInterpreterOptions {
  /** Evaluates ops of other dialects (arith, ...). */
  readonly scalarHandler?: ScalarOpHandler;
}

/**
 * Runs memref programs. Values live in an environment keyed by SSA value; `memref.global`
 * ops seen by {@link loadGlobals} back `memref.get_global`.
 *
 * @example
 * ```ts
 * const interp = new MemRefInterpreter({ scalarHandler });
 * const r = interp.runBlock(funcBody, [arg0]);
 * if (!r.ok) console.error(r.error.message);
 * ```
 */
export class MemRefInterpreter {
  /** Global buffers by symbol name. */
  readonly globals = new Map<string, MemRefDescriptor>();
  private readonly env = new Map<Value, RuntimeValue>();
  private readonly scopes: MemRefBuffer[][] = [];
  private readonly scalarHandler: ScalarOpHandler | undefined;

  constructor(options: MemRefInterpreterOptions = {}) {
    this.scalarHandler = options.scalarHandler;
  }

  /** Allocates a buffer for a statically shaped memref type (for program arguments). */
  allocate(type: MemRefType, sizes: readonly number[] = type.shape, origin: 'alloc' | 'external' = 'external'): MemRefDescriptor | MemRefRuntimeError {
    try {
      return this.allocateDescriptor(type, sizes, origin, undefined);
    } catch (e) {
      if (e instanceof RuntimeFailure) return { message: e.message, op: e.op };
      throw e;
    }
  }

  /** Creates the buffers of every `memref.global` directly inside `block`. */
  loadGlobals(block: Block): RunResult {
    return this.guard(() => {
      for (let o = block.firstOp; o; o = o.next) if (o.name === 'memref.global') this.defineGlobal(o);
      return [];
    });
  }

  /**
   * Runs `block` with `args` bound to its arguments, stopping at its terminator, whose
   * operand values are returned. Allocas of the block are freed at the end.
   */
  runBlock(block: Block, args: readonly RuntimeValue[] = []): RunResult {
    return this.guard(() => this.execBlock(block, args));
  }

  /** The runtime value bound to `v` (after a run). */
  valueOf(v: Value): RuntimeValue | undefined {
    return this.env.get(v);
  }

  /** Reads element `indices` of `m` (bounds- and liveness-checked). */
  read(m: MemRefDescriptor, indices: readonly number[], op?: Operation): number {
    const at = this.address(m, indices, op, op?.name ?? 'read');
    return m.codec.read(m.buffer.view, at);
  }

  /** Writes element `indices` of `m` (bounds- and liveness-checked). */
  write(m: MemRefDescriptor, indices: readonly number[], value: number, op?: Operation): void {
    const at = this.address(m, indices, op, op?.name ?? 'write');
    m.codec.write(m.buffer.view, at, value);
  }

  /** Reads element `indices` exactly (64-bit integers as bigint), checked like {@link read}. */
  readExact(m: MemRefDescriptor, indices: readonly number[], op?: Operation): number | bigint {
    const at = this.address(m, indices, op, op?.name ?? 'read');
    return m.codec.readExact(m.buffer.view, at);
  }

  /** As {@link readExact}, returning the failure instead of throwing. */
  tryReadExact(m: MemRefDescriptor, indices: readonly number[], op?: Operation): { value: number | bigint } | MemRefRuntimeError {
    try {
      return { value: this.readExact(m, indices, op) };
    } catch (e) {
      if (e instanceof RuntimeFailure) return { message: e.message, op: e.op };
      throw e;
    }
  }

  /** As {@link write}, returning the failure (or undefined) instead of throwing. */
  tryWrite(m: MemRefDescriptor, indices: readonly number[], value: number | bigint, op?: Operation): MemRefRuntimeError | undefined {
    try {
      const at = this.address(m, indices, op, op?.name ?? 'write');
      m.codec.write(m.buffer.view, at, value);
      return undefined;
    } catch (e) {
      if (e instanceof RuntimeFailure) return { message: e.message, op: e.op };
      throw e;
    }
  }

  /** Binds `value` to the runtime value `rv` (used by the ir-core interpreter adapter). */
  bind(value: Value, rv: RuntimeValue): void {
    this.env.set(value, rv);
  }

  /**
   * Executes one op whose operands are bound (see {@link bind}); returns the failure, or
   * undefined on success (results are then bound). Region ops run their bodies here.
   */
  execute(op: Operation): MemRefRuntimeError | undefined {
    try {
      this.exec(op);
      return undefined;
    } catch (e) {
      if (e instanceof RuntimeFailure) return { message: e.message, op: e.op };
      throw e;
    }
  }

  /** Opens an automatic allocation scope (allocas made until {@link popScope} die with it). */
  pushScope(): void {
    this.scopes.push([]);
  }

  /** Closes the innermost allocation scope, freeing its allocas. */
  popScope(): void {
    for (const b of this.scopes.pop() ?? []) b.freed = true;
  }

  /** All elements of `m` in row-major order. */
  toArray(m: MemRefDescriptor): number[] {
    const out: number[] = [];
    forEachIndex(m.sizes, (idx) => out.push(this.read(m, idx)));
    return out;
  }

  // ---------------------------------------------------------------- internals

  private guard(fn: () => RuntimeValue[]): RunResult {
    try {
      return { ok: true, values: fn() };
    } catch (e) {
      if (e instanceof RuntimeFailure) return { ok: false, error: { message: e.message, op: e.op } };
      throw e;
    }
  }

  private execBlock(block: Block, args: readonly RuntimeValue[]): RuntimeValue[] {
    for (let i = 0; i < block.numArguments; i++) this.env.set(block.getArgument(i), args[i]!);
    this.scopes.push([]);
    try {
      for (let o = block.firstOp; o; o = o.next) {
        if (o.next === null && isTerminatorLike(o)) return o.operands.map((v) => this.get(v, o));
        this.exec(o);
      }
      return [];
    } finally {
      for (const b of this.scopes.pop()!) b.freed = true;
    }
  }

  private get(v: Value, op: Operation): RuntimeValue {
    const r = this.env.get(v);
    if (r === undefined) fail(M.unknownValue(`an operand of ${op.name}`), op);
    return r;
  }
  private mem(v: Value, op: Operation): MemRefDescriptor {
    const r = this.get(v, op);
    if (!(r instanceof MemRefDescriptor)) fail(M.unknownValue(`a memref operand of ${op.name}`), op);
    return r;
  }
  private num(v: Value, op: Operation): number {
    const r = this.get(v, op);
    if (typeof r !== 'number') fail(M.unknownValue(`a scalar operand of ${op.name}`), op);
    return r;
  }
  private nums(vs: readonly Value[], op: Operation): number[] {
    return vs.map((v) => this.num(v, op));
  }

  private checkLive(m: MemRefDescriptor, op: Operation | undefined, what: string): void {
    if (m.buffer.freed) fail(M.useAfterFree(what, m.buffer.id), op);
  }

  private address(m: MemRefDescriptor, indices: readonly number[], op: Operation | undefined, what: string): number {
    this.checkLive(m, op, what);
    if (indices.length !== m.rank) fail(M.outOfBounds(what, indices, m.sizes), op);
    for (let i = 0; i < indices.length; i++) {
      const x = indices[i]!;
      if (!(x >= 0 && x < m.sizes[i]!)) fail(M.outOfBounds(what, indices, m.sizes), op);
    }
    const e = m.linearIndex(indices);
    if (e < 0 || e >= m.bufferElements) fail(M.outOfBuffer(what, e, m.bufferElements), op);
    return m.byteOffsetOf(e);
  }

  private allocateDescriptor(type: MemRefType, sizes: readonly number[], origin: 'alloc' | 'alloca' | 'global' | 'external', op: Operation | undefined): MemRefDescriptor {
    const codec = elementCodec(type.elementType);
    if (!codec) fail(M.elementType(String(type.elementType.id)), op);
    for (const s of sizes) if (s < 0) fail(M.negativeSize(op?.name ?? 'allocate', s), op);
    const so = getStridesAndOffset(type);
    // Allocations are laid out contiguously; a static non-identity strided layout is honoured
    // by sizing the buffer to cover its largest element.
    let strides: number[];
    let offset = 0;
    if (so && so.strides.every((s) => !isDyn(s)) && !isDyn(so.offset)) {
      strides = [...so.strides];
      offset = so.offset;
    } else {
      strides = new Array<number>(sizes.length);
      let run = 1;
      for (let i = sizes.length - 1; i >= 0; i--) {
        strides[i] = run;
        run *= sizes[i]!;
      }
    }
    let maxElem = offset;
    let empty = false;
    for (let i = 0; i < sizes.length; i++) {
      if (sizes[i] === 0) empty = true;
      maxElem += (sizes[i]! - 1) * Math.max(0, strides[i]!);
    }
    const elems = empty ? 0 : maxElem + 1;
    const buf = new MemRefBuffer(elems * codec.bytes, origin);
    if (origin === 'alloca') this.scopes[this.scopes.length - 1]?.push(buf);
    const d = new MemRefDescriptor(buf, type.elementType, codec, offset, [...sizes], strides);
    buf.allocation = d;
    return d;
  }

  private defineGlobal(op: Operation): void {
    const name = op.getAttr('sym_name');
    const t = op.getAttr('type');
    if (!(name instanceof StringAttr) || !(t instanceof TypeAttr) || !(t.value instanceof MemRefType)) return;
    const d = this.allocateDescriptor(t.value, t.value.shape, 'global', op);
    const init = op.getAttr('initial_value');
    if (init instanceof DenseElementsAttr) {
      let i = 0;
      forEachIndex(d.sizes, (idx) => {
        const v = init.data[init.isSplat ? 0 : i++];
        this.write(d, idx, typeof v === 'bigint' ? Number(v) : (v as number), op);
      });
    }
    if (op.getAttr('constant')) d.buffer.readOnly = true;
    this.globals.set(name.value, d);
  }

  private set(op: Operation, values: readonly RuntimeValue[]): void {
    for (let i = 0; i < values.length; i++) this.env.set(op.getResult(i), values[i]!);
  }

  private exec(op: Operation): void {
    if (!op.name.startsWith('memref.')) {
      const h = this.scalarHandler;
      const operands = op.operands.map((v) => this.get(v, op));
      const r = h ? h(op, operands, this) : undefined;
      if (r === undefined) fail(M.unsupportedInterp(op.name), op);
      if (typeof r === 'string') fail(r, op);
      this.set(op, r);
      return;
    }
    switch (op.name) {
      case 'memref.alloc':
      case 'memref.alloca': {
        const t = op.getResult(0).type as MemRefType;
        const nSizes = op.definition!.getOperandGroupRange(op, 0)![1];
        const dyn = this.nums(op.operands.slice(0, nSizes), op);
        let k = 0;
        const sizes = t.shape.map((d) => (isDyn(d) ? dyn[k++]! : d));
        this.set(op, [this.allocateDescriptor(t, sizes, op.name === 'memref.alloc' ? 'alloc' : 'alloca', op)]);
        return;
      }
      case 'memref.alloca_scope': {
        this.set(op, this.execBlock(op.regions[0]!.firstBlock!, []));
        return;
      }
      case 'memref.dealloc': {
        const m = this.mem(op.getOperand(0), op);
        if (m.buffer.origin !== 'alloc') fail(M.deallocNotAllocated(m.buffer.id), op);
        if (m.buffer.freed) fail(M.doubleFree(m.buffer.id), op);
        const base = m.buffer.allocation;
        if (base && !base.sameView(m)) fail(M.deallocView(m.buffer.id), op);
        m.buffer.freed = true;
        return;
      }
      case 'memref.realloc': {
        const m = this.mem(op.getOperand(0), op);
        this.checkLive(m, op, op.name);
        const t = op.getResult(0).type as MemRefType;
        const n = isDyn(t.shape[0]!) ? this.num(op.getOperand(1), op) : t.shape[0]!;
        const d = this.allocateDescriptor(t, [n], 'alloc', op);
        const keep = Math.min(n, m.sizes[0]!);
        for (let i = 0; i < keep; i++) this.write(d, [i], this.read(m, [i], op), op);
        m.buffer.freed = true;
        this.set(op, [d]);
        return;
      }
      case 'memref.load': {
        const m = this.mem(op.getOperand(0), op);
        this.set(op, [this.read(m, this.nums(op.operands.slice(1), op), op)]);
        return;
      }
      case 'memref.store': {
        const m = this.mem(op.getOperand(1), op);
        if (m.buffer.readOnly) fail(M.constantGlobalWrite(m.buffer.id), op);
        this.write(m, this.nums(op.operands.slice(2), op), this.num(op.getOperand(0), op), op);
        return;
      }
      case 'memref.prefetch': {
        const m = this.mem(op.getOperand(0), op);
        this.address(m, this.nums(op.operands.slice(1), op), op, op.name);
        return;
      }
      case 'memref.copy': {
        const s = this.mem(op.getOperand(0), op);
        const d = this.mem(op.getOperand(1), op);
        if (s.sizes.length !== d.sizes.length || s.sizes.some((x, i) => x !== d.sizes[i]))
          fail(M.copyShapeMismatch(s.sizes, d.sizes), op);
        const vals: number[] = [];
        forEachIndex(s.sizes, (idx) => vals.push(this.read(s, idx, op)));
        let i = 0;
        forEachIndex(d.sizes, (idx) => this.write(d, idx, vals[i++]!, op));
        return;
      }
      case 'memref.atomic_rmw': {
        const m = this.mem(op.getOperand(1), op);
        const idx = this.nums(op.operands.slice(2), op);
        const v = this.num(op.getOperand(0), op);
        const old = this.read(m, idx, op);
        const nv = applyAtomic(atomicKindName(op) ?? '', old, v);
        this.write(m, idx, nv, op);
        // Like the LLVM lowering (llvm.atomicrmw), the result is the value before the update.
        this.set(op, [old]);
        return;
      }
      case 'memref.generic_atomic_rmw': {
        const m = this.mem(op.getOperand(0), op);
        const idx = this.nums(op.operands.slice(1), op);
        const old = this.read(m, idx, op);
        const out = this.execBlock(op.regions[0]!.firstBlock!, [old]);
        this.write(m, idx, out[0] as number, op);
        // The lowering's cmpxchg loop yields the value read before the successful exchange.
        this.set(op, [old]);
        return;
      }
      case 'memref.subview': {
        const m = this.mem(op.getOperand(0), op);
        this.checkLive(m, op, op.name);
        const { offsets, sizes, strides } = this.mixed(op);
        for (let i = 0; i < m.rank; i++) {
          if (sizes[i]! < 0) fail(M.negativeSize(op.name, sizes[i]!), op);
          if (sizes[i] === 0) continue;
          const last = offsets[i]! + (sizes[i]! - 1) * strides[i]!;
          if (offsets[i]! < 0 || offsets[i]! >= m.sizes[i]! || last < 0 || last >= m.sizes[i]!)
            fail(M.subviewRuntimeOutOfBounds(i, offsets[i]!, sizes[i]!, strides[i]!, m.sizes[i]!), op);
        }
        let off = m.offset;
        const fullStrides: number[] = [];
        for (let i = 0; i < m.rank; i++) {
          off += offsets[i]! * m.strides[i]!;
          fullStrides.push(m.strides[i]! * strides[i]!);
        }
        const t = op.getResult(0).type as MemRefType;
        const [keptSizes, keptStrides] = dropUnitDims(sizes, fullStrides, t.shape);
        this.set(op, [m.with(off, keptSizes, keptStrides)]);
        return;
      }
      case 'memref.reinterpret_cast': {
        const m = this.mem(op.getOperand(0), op);
        this.checkLive(m, op, op.name);
        const { offsets, sizes, strides } = this.mixed(op);
        this.set(op, [m.with(offsets[0]!, sizes, strides)]);
        return;
      }
      case 'memref.view': {
        const m = this.mem(op.getOperand(0), op);
        this.checkLive(m, op, op.name);
        const shift = this.num(op.getOperand(1), op);
        const t = op.getResult(0).type as MemRefType;
        const dyn = this.nums(op.operands.slice(2), op);
        let k = 0;
        const sizes = t.shape.map((d) => (isDyn(d) ? dyn[k++]! : d));
        const codec = elementCodec(t.elementType);
        if (!codec) fail(M.elementType(String(t.elementType.id)), op);
        const strides: number[] = new Array(sizes.length);
        let run = 1;
        for (let i = sizes.length - 1; i >= 0; i--) {
          strides[i] = run;
          run *= sizes[i]!;
        }
        const base = m.byteShift + (m.offset + 0) * m.codec.bytes + shift;
        const needed = base + run * codec.bytes;
        if (shift < 0 || needed > m.buffer.byteLength) fail(M.viewOutOfBounds(needed, m.buffer.byteLength), op);
        this.set(op, [new MemRefDescriptor(m.buffer, t.elementType, codec, 0, sizes, strides, base)]);
        return;
      }
      case 'memref.cast':
      case 'memref.memory_space_cast':
      case 'memref.assume_alignment': {
        const m = this.mem(op.getOperand(0), op);
        const t = op.getResult(0).type;
        if (t instanceof MemRefType) this.checkShape(op, m, t);
        this.set(op, [m]);
        return;
      }
      case 'memref.distinct_objects': {
        this.set(op, op.operands.map((v) => this.mem(v, op)));
        return;
      }
      case 'memref.transpose': {
        const m = this.mem(op.getOperand(0), op);
        const map = op.getAttr('permutation');
        const perm = map instanceof AffineMapAttr ? permutationOf(map.value) : [];
        this.set(op, [m.with(m.offset, perm.map((p) => m.sizes[p]!), perm.map((p) => m.strides[p]!))]);
        return;
      }
      case 'memref.collapse_shape': {
        const m = this.mem(op.getOperand(0), op);
        const groups = readReassociation(op.getAttr('reassociation')) ?? [];
        const sizes: number[] = [];
        const strides: number[] = [];
        for (const g of groups) {
          let n = 1;
          for (const d of g) n *= m.sizes[d]!;
          sizes.push(n);
          let last = g[g.length - 1]!;
          for (let k = g.length - 1; k > 0 && m.sizes[g[k]!] === 1; k--) last = g[k - 1]!;
          strides.push(m.strides[last]!);
          // Contiguity of the group at runtime.
          for (let k = g.length - 1; k > 0; k--) {
            if (m.sizes[g[k - 1]!] === 1) continue;
            let inner = 1;
            for (let j = k; j < g.length; j++) inner *= m.sizes[g[j]!]!;
            const innermost = m.strides[g[g.length - 1]!]!;
            if (m.sizes[g[k]!]! > 1 && m.strides[g[k - 1]!] !== innermost * inner)
              fail(M.collapseNotContiguous(g), op);
          }
        }
        this.set(op, [m.with(m.offset, sizes, strides)]);
        return;
      }
      case 'memref.expand_shape': {
        const m = this.mem(op.getOperand(0), op);
        const groups = readReassociation(op.getAttr('reassociation')) ?? [];
        const statics = readStaticArray(op.getAttr('static_output_shape'));
        const dyn = this.nums(op.operands.slice(1), op);
        let k = 0;
        const sizes = statics.map((d) => (isDyn(d) ? dyn[k++]! : d));
        const strides = new Array<number>(sizes.length).fill(1);
        groups.forEach((g, gi) => {
          let prod = 1;
          for (const d of g) prod *= sizes[d]!;
          if (prod !== m.sizes[gi]) fail(M.expandGroupSize(gi, prod, m.sizes[gi]!), op);
          let cur = m.strides[gi]!;
          for (let j = g.length - 1; j >= 0; j--) {
            strides[g[j]!] = cur;
            cur *= sizes[g[j]!]!;
          }
        });
        this.set(op, [m.with(m.offset, sizes, strides)]);
        return;
      }
      case 'memref.reshape': {
        const m = this.mem(op.getOperand(0), op);
        const shapeM = this.mem(op.getOperand(1), op);
        const sizes = this.toArrayChecked(shapeM, op);
        const n = sizes.reduce((a, b) => a * b, 1);
        if (n !== m.numElements) fail(M.reshapeRuntimeCount(sizes, n, m.numElements), op);
        const strides: number[] = new Array(sizes.length);
        let run = 1;
        for (let i = sizes.length - 1; i >= 0; i--) {
          strides[i] = run;
          run *= sizes[i]!;
        }
        this.set(op, [m.with(m.offset, sizes, strides)]);
        return;
      }
      case 'memref.dim': {
        const m = this.mem(op.getOperand(0), op);
        const i = this.num(op.getOperand(1), op);
        if (!(i >= 0 && i < m.rank)) fail(M.dimOutOfRange(i, m.rank), op);
        this.set(op, [m.sizes[i]!]);
        return;
      }
      case 'memref.rank':
        this.set(op, [this.mem(op.getOperand(0), op).rank]);
        return;
      case 'memref.extract_strided_metadata': {
        const m = this.mem(op.getOperand(0), op);
        const base = new MemRefDescriptor(m.buffer, m.elementType, m.codec, 0, [], [], m.byteShift);
        this.set(op, [base, m.offset, ...m.sizes, ...m.strides]);
        return;
      }
      case 'memref.extract_aligned_pointer_as_index': {
        const m = this.mem(op.getOperand(0), op);
        // A synthetic address: buffers live 1 MiB apart, 64-byte aligned.
        this.set(op, [m.buffer.id * 0x100000 + m.byteShift]);
        return;
      }
      case 'memref.get_global': {
        const name = op.getAttr('name');
        const g = name instanceof SymbolRefAttr ? this.globals.get(name.root) : undefined;
        if (!g) fail(M.globalNotFound(name instanceof SymbolRefAttr ? name.root : '?'), op);
        this.set(op, [g]);
        return;
      }
      case 'memref.global':
        this.defineGlobal(op);
        return;
      case 'memref.dma_start': {
        const l = dmaStartLayout(op);
        if (!l) fail(M.unsupportedInterp(op.name), op);
        const ops = op.operands;
        const src = this.mem(ops[0]!, op);
        const dst = this.mem(ops[l.dstMemRefIndex]!, op);
        const si = this.nums(ops.slice(1, 1 + l.srcRank), op);
        const di = this.nums(ops.slice(l.dstMemRefIndex + 1, l.dstMemRefIndex + 1 + l.dstRank), op);
        const n = this.num(ops[l.numElementsIndex]!, op);
        // Elements are transferred in row-major order starting at the given indices.
        const srcStart = rowMajor(si, src.sizes);
        const dstStart = rowMajor(di, dst.sizes);
        for (let e = 0; e < n; e++) {
          this.write(dst, unRowMajor(dstStart + e, dst.sizes, op), this.read(src, unRowMajor(srcStart + e, src.sizes, op), op), op);
        }
        const tag = this.mem(ops[l.tagMemRefIndex]!, op);
        this.write(tag, this.nums(ops.slice(l.tagMemRefIndex + 1, l.tagMemRefIndex + 1 + l.tagRank), op), n, op);
        return;
      }
      case 'memref.dma_wait': {
        const tag = this.mem(op.getOperand(0), op);
        this.read(tag, this.nums(op.operands.slice(1, op.numOperands - 1), op), op);
        return;
      }
      default:
        fail(M.unsupportedInterp(op.name), op);
    }
  }

  private toArrayChecked(m: MemRefDescriptor, op: Operation): number[] {
    const out: number[] = [];
    forEachIndex(m.sizes, (idx) => out.push(this.read(m, idx, op)));
    return out;
  }

  private mixed(op: Operation): { offsets: number[]; sizes: number[]; strides: number[] } {
    const def = op.definition!;
    const groups = [1, 2, 3].map((g) => {
      const r = def.getOperandGroupRange(op, g)!;
      return this.nums(op.operands.slice(r[0], r[0] + r[1]), op);
    });
    const fill = (name: string, dyn: number[]) => {
      let k = 0;
      return readStaticArray(op.getAttr(name)).map((v) => (isDyn(v) ? dyn[k++]! : v));
    };
    return { offsets: fill('static_offsets', groups[0]!), sizes: fill('static_sizes', groups[1]!), strides: fill('static_strides', groups[2]!) };
  }

  private checkShape(op: Operation, m: MemRefDescriptor, t: MemRefType): void {
    if (t.rank !== m.rank) fail(M.runtimeRank(op.name, m.rank, t.rank), op);
    for (let i = 0; i < t.rank; i++) {
      const d = t.shape[i]!;
      if (!isDyn(d) && d !== m.sizes[i]) fail(M.dynamicMismatch(op.name, `size of dimension ${i}`, d, m.sizes[i]!), op);
    }
    const so = getStridesAndOffset(t);
    if (so) {
      if (!isDyn(so.offset) && so.offset !== m.offset) fail(M.dynamicMismatch(op.name, 'offset', so.offset, m.offset), op);
      for (let i = 0; i < t.rank; i++) {
        const s = so.strides[i]!;
        if (!isDyn(s) && t.shape[i] !== 1 && s !== m.strides[i]) fail(M.dynamicMismatch(op.name, `stride of dimension ${i}`, s, m.strides[i]!), op);
      }
    }
  }
}

function isTerminatorLike(op: Operation): boolean {
  return (
    op.name === 'memref.alloca_scope.return' ||
    op.name === 'memref.atomic_yield' ||
    op.name === 'func.return' ||
    op.name.endsWith('.yield') ||
    op.name.endsWith('.return')
  );
}

/**
 * Drops the unit dimensions of a rank-reducing subview: keeps the dimensions matched by the
 * result shape, greedily from the left (as the verifier's rank-reduction mask).
 */
function dropUnitDims(sizes: readonly number[], strides: readonly number[], resultShape: readonly number[]): [number[], number[]] {
  if (resultShape.length === sizes.length) return [[...sizes], [...strides]];
  const ks: number[] = [];
  const kt: number[] = [];
  let r = 0;
  for (let i = 0; i < sizes.length; i++) {
    const want = resultShape[r];
    const matches = r < resultShape.length && (isDyn(want!) || want === sizes[i]);
    const mustDrop = sizes[i] === 1 && sizes.length - i > resultShape.length - r;
    if (matches && !(mustDrop && want !== 1)) {
      ks.push(sizes[i]!);
      kt.push(strides[i]!);
      r++;
    }
  }
  return [ks, kt];
}

function rowMajor(idx: readonly number[], sizes: readonly number[]): number {
  let e = 0;
  for (let i = 0; i < sizes.length; i++) e = e * sizes[i]! + idx[i]!;
  return e;
}
function unRowMajor(e: number, sizes: readonly number[], op: Operation): number[] {
  const idx = new Array<number>(sizes.length);
  for (let i = sizes.length - 1; i >= 0; i--) {
    idx[i] = e % sizes[i]!;
    e = Math.floor(e / sizes[i]!);
  }
  if (e !== 0) fail(M.transferPastEnd(op.name, sizes), op);
  return idx;
}

function applyAtomic(kind: string, old: number, v: number): number {
  switch (kind) {
    case 'addf':
    case 'addi':
      return old + v;
    case 'mulf':
    case 'muli':
      return old * v;
    case 'assign':
      return v;
    case 'maximumf':
      return Number.isNaN(old) || Number.isNaN(v) ? NaN : Math.max(old, v);
    case 'maxnumf':
      return Number.isNaN(old) ? v : Number.isNaN(v) ? old : Math.max(old, v);
    case 'minimumf':
      return Number.isNaN(old) || Number.isNaN(v) ? NaN : Math.min(old, v);
    case 'minnumf':
      return Number.isNaN(old) ? v : Number.isNaN(v) ? old : Math.min(old, v);
    case 'maxs':
      return Math.max(old, v);
    case 'mins':
      return Math.min(old, v);
    case 'maxu':
      return Math.max(old >>> 0, v >>> 0);
    case 'minu':
      return Math.min(old >>> 0, v >>> 0);
    case 'andi':
      return old & v;
    case 'ori':
      return old | v;
    case 'xori':
      return old ^ v;
    default:
      return fail(M.unknownAtomicKind(kind));
  }
}

/**
 * A minimal scalar handler for tests and examples: `arith.constant` (integer/float/index),
 * `arith.addf/addi/mulf/muli/subf/subi`. Returns undefined for other ops.
 */
export const basicArithHandler: ScalarOpHandler = (op, operands) => {
  if (op.name === 'arith.constant') {
    const v = op.getAttr('value');
    if (v instanceof IntegerAttr) return [Number(v.value)];
    if (v instanceof FloatAttr) return [v.value];
    return 'arith.constant: unsupported value';
  }
  const [a, b] = operands as number[];
  switch (op.name) {
    case 'arith.addf':
    case 'arith.addi':
      return [a! + b!];
    case 'arith.subf':
    case 'arith.subi':
      return [a! - b!];
    case 'arith.mulf':
    case 'arith.muli':
      return [a! * b!];
    default:
      return undefined;
  }
};

