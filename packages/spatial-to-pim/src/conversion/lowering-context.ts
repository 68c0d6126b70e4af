/**
 * What the `spat-to-pim` conversion patterns share: the target, the function's host buffers,
 * the statistics, index constants cached at the top of each stream, and helpers for static
 * shapes and byte sizes, index arithmetic (folded when static) and the contiguous runs of a
 * slice. Every helper builds through the builder it is given (the conversion rewriter), so the
 * conversion driver tracks what it creates.
 */
import {
  AddIOp,
  ConstantOp,
  DYNAMIC,
  FloatType,
  IndexType,
  IntegerAttr,
  IntegerType,
  MulIOp,
  RankedTensorType,
  type Attribute,
  type Block,
  type Location,
  type MLIRContext,
  type OpBuilder,
  type Operation,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { createEmpty, readSliceLists } from '@raptor-pim/upstream-dialects';
import { SpatToPimMessages as M } from '../diagnostics';
import { evaluateStaticIndex as evaluateStatic } from '@raptor-pim/upstream-dialects';

/** A static number or an SSA `index` value. */
export type IndexOrValue = number | Value;

/**
 * One piece of a row-major slice: `bytes` contiguous bytes at `delta` bytes after the slice
 * base, or (with `gather`) `gather.length` single elements `gather.stride` elements apart.
 */
export interface SliceRun {
  readonly delta: number;
  readonly bytes: number;
  readonly gather?: { readonly length: number; readonly stride: number };
}

/** The contiguous runs of a slice and its base byte offset (static or an `index` value). */
export interface SliceRuns {
  readonly base: IndexOrValue;
  readonly runs: readonly SliceRun[];
}

/** Host memory of the converted function: graph outputs and the pipeline host-slot buffer. */
export interface HostBuffers {
  /** The host-slot buffer (`memref<Nxi8>`) when the schedule uses host slots. */
  readonly slots: Value | undefined;
  /** Where the scheduled compute results land in the graph output buffers. */
  readonly outputs: ReadonlyMap<Value, readonly HostPlacementRef[]>;
}

/** A part of a compute result stored into a graph output buffer (see `HostPlacement`). */
export interface HostPlacementRef {
  readonly out: Value;
  readonly source?: { readonly offsets: readonly number[]; readonly sizes: readonly number[] };
  readonly sourceByte?: number;
  readonly dest?: { readonly offsets: readonly number[]; readonly sizes: readonly number[] };
  readonly destByte?: number;
  readonly bytes?: number;
}

/** Counters the conversion reports as pass statistics. */
export interface ConversionCounters {
  hostLoads: number;
  hostStores: number;
  copies: number;
  transfers: number;
  vectorOps: number;
  matrixOps: number;
  /** Reshapes and layout conversions lowered without a copy (the producer writes the new shape, or the value is kept). */
  aliases: number;
  /** Iterations of static `scf.for` loops unrolled into the stream. */
  unrolledIterations: number;
}

/** Bytes per element of a static element type (f32 = 4, i8 = 1, index = 8). */
export function elementBytes(type: Type): number | undefined {
  if (type instanceof FloatType) return Math.ceil(type.width / 8);
  if (type instanceof IntegerType) return Math.ceil(type.width / 8);
  if (type instanceof IndexType) return 8;
  return undefined;
}

/** The empty binding environment of static evaluation. */
export const NO_BINDINGS: ReadonlyMap<Value, number> = new Map();

/** Static tensor facts per (uniqued) type. */
const STATIC_TENSORS = new WeakMap<Type, { shape: readonly number[]; elementBytes: number; bytes: number } | null>();

/** The shape and byte size of a static ranked tensor type, or undefined. */
export function staticTensor(type: Type): { shape: readonly number[]; elementBytes: number; bytes: number } | undefined {
  const hit = STATIC_TENSORS.get(type);
  if (hit !== undefined) return hit ?? undefined;
  const info = computeStaticTensor(type);
  STATIC_TENSORS.set(type, info ?? null);
  return info;
}

function computeStaticTensor(type: Type): { shape: readonly number[]; elementBytes: number; bytes: number } | undefined {
  if (!(type instanceof RankedTensorType)) return undefined;
  if (type.shape.some((d) => d === DYNAMIC || d < 0)) return undefined;
  const eb = elementBytes(type.elementType);
  if (eb === undefined) return undefined;
  return { shape: type.shape, elementBytes: eb, bytes: type.shape.reduce((a, b) => a * b, 1) * eb };
}

/** The shared state of one function's conversion (see the file comment). */
export class LoweringContext {
  /** Ops a pattern reported a diagnostic for (so the driver's generic failure is not repeated). */
  readonly reported = new Set<Operation>();
  /** Body constants hoisted before the streams of the function, by value (uniqued attribute, type included): each is hoisted once. */
  readonly hoistedConstants = new Map<Attribute, Operation>();
  private readonly constants = new Map<Block, { values: Map<number, Value>; last: Operation | null }>();
  private readonly index: IndexType;
  private readonly i32Type: IntegerType;
  private readonly i32s = new Map<number, IntegerAttr>();

  constructor(
    readonly context: MLIRContext,
    /** The target configuration. */
    readonly config: HardwareConfig,
    /** Host buffers of the function. */
    readonly host: HostBuffers,
    /** Statistics. */
    readonly counters: ConversionCounters,
  ) {
    this.index = IndexType.get(context);
    this.i32Type = IntegerType.get(context, 32);
  }

  /** Reports `message` at `op` (once); returns false for `return ctx.error(...)` in a pattern. */
  error(op: Operation, message: string): false {
    if (!this.reported.has(op)) op.emitError(message);
    this.reported.add(op);
    return false;
  }

  /** True when a pattern already reported a diagnostic for an op named `name` at `location`. */
  wasReported(name: string, location: Location): boolean {
    for (const op of this.reported) if (op.name === name && op.location === location) return true;
    return false;
  }

  /** An `index` constant at the top of the block `b` inserts into (cached per block). */
  constant(b: OpBuilder, n: number): Value {
    const block = b.insertionBlock!;
    let cache = this.constants.get(block);
    if (!cache) this.constants.set(block, (cache = { values: new Map(), last: null }));
    const hit = cache.values.get(n);
    if (hit) return hit;
    const ip = b.saveInsertionPoint();
    if (cache.last) b.setInsertionPointAfter(cache.last);
    else b.setInsertionPointToStart(block);
    const view = ConstantOp.build(b, { value: IntegerAttr.get(this.index, n), result: this.index }, block.parentOp!.location);
    b.restoreInsertionPoint(ip);
    cache.last = view.op;
    cache.values.set(n, view.result);
    return view.result;
  }

  /** Forgets the cached constants of `block` (after a rolled-back conversion). */
  forget(block: Block): void {
    this.constants.delete(block);
  }

  /** An i32 attribute (sizes and lengths of pim ops), cached per value. */
  i32(n: number): IntegerAttr {
    let a = this.i32s.get(n);
    if (!a) this.i32s.set(n, (a = IntegerAttr.get(this.i32Type, n)));
    return a;
  }

  /** An i64 attribute. */
  i64(n: number): IntegerAttr {
    return IntegerAttr.get(IntegerType.get(this.context, 64), n);
  }

  /** A fresh destination of `type` (`tensor.empty`). */
  empty(b: OpBuilder, type: Type, loc: Location): Value {
    return createEmpty(b, loc, type as RankedTensorType);
  }

  /** `x` as a number when it is statically known. */
  fold(x: IndexOrValue): IndexOrValue {
    if (typeof x === 'number') return x;
    const n = evaluateStatic(x, NO_BINDINGS);
    return n === undefined ? x : n;
  }

  /** `a + b` on index values, folded when static. */
  add(b: OpBuilder, a: IndexOrValue, c: IndexOrValue, loc: Location): IndexOrValue {
    a = this.fold(a);
    c = this.fold(c);
    if (typeof a === 'number' && typeof c === 'number') return a + c;
    if (a === 0) return c;
    if (c === 0) return a;
    return b.create({ name: AddIOp.name, location: loc, operands: [this.materialize(b, a), this.materialize(b, c)], resultTypes: [this.index] }).getResult(0);
  }

  /** `a * k` for a static factor `k`, folded when static. */
  scale(b: OpBuilder, a: IndexOrValue, k: number, loc: Location): IndexOrValue {
    a = this.fold(a);
    if (typeof a === 'number') return a * k;
    if (k === 0) return 0;
    if (k === 1) return a;
    return b.create({ name: MulIOp.name, location: loc, operands: [a, this.constant(b, k)], resultTypes: [this.index] }).getResult(0);
  }

  /** `x` as an `index` value. */
  materialize(b: OpBuilder, x: IndexOrValue): Value {
    return typeof x === 'number' ? this.constant(b, x) : x;
  }

  /**
   * Mixed offsets (static numbers, the given values for the dynamic ones) and static sizes of a
   * tensor slice op, or undefined after a diagnostic (dynamic sizes, non-unit strides).
   */
  sliceLists(op: Operation, dynamicOffsets: readonly Value[]): { offsets: IndexOrValue[]; sizes: number[]; strides: number[] } | undefined {
    const lists = readSliceLists(op);
    if (lists.strides.some((s) => s === DYNAMIC || s < 1)) {
      this.error(op, M.nonUnitStride(op.name));
      return undefined;
    }
    if (lists.sizes.some((s) => s === DYNAMIC)) {
      this.error(op, M.dynamicShape(op.name, 'dynamic sizes'));
      return undefined;
    }
    let k = 0;
    const offsets = lists.offsets.map((o) => (o === DYNAMIC ? dynamicOffsets[k++]! : o));
    return { offsets, sizes: [...lists.sizes], strides: [...lists.strides] };
  }

  /**
   * The pieces of the slice `offsets`/`sizes`/`steps` (steps: the slice's element strides, 1 by
   * default) of a row-major buffer of `shape` with `eb`-byte elements, in row-major order of the
   * slice: the innermost dimensions the slice covers completely merge into one contiguous run;
   * a strided dimension gives one run per index, or one gather (`pim.vmv`) when its runs are
   * single elements and `allowGather` is set.
   */
  sliceRuns(
    b: OpBuilder,
    shape: readonly number[],
    offsets: readonly IndexOrValue[],
    sizes: readonly number[],
    eb: number,
    loc: Location,
    steps: readonly number[] = sizes.map(() => 1),
    allowGather = false,
  ): SliceRuns {
    const rank = shape.length;
    const strides = new Array<number>(rank).fill(1);
    for (let d = rank - 2; d >= 0; d--) strides[d] = strides[d + 1]! * shape[d + 1]!;
    let base: IndexOrValue = 0;
    for (let d = 0; d < rank; d++) base = this.add(b, base, this.scale(b, offsets[d]!, strides[d]! * eb, loc), loc);
    let p = rank - 1;
    while (p > 0 && sizes[p] === shape[p] && steps[p] === 1) p--;
    let inner = 1;
    for (let d = p + 1; d < rank; d++) inner *= sizes[d]!;
    const runs: SliceRun[] = [];
    const contiguous = steps[p] === 1;
    let gather = !contiguous && inner === 1 && allowGather && sizes[p]! > 1;
    // Outer dimensions iterated run by run: 0..p-1, and p itself when strided (not gathered).
    let last = contiguous || gather ? p : p + 1;
    let gatherDim = p;
    if (allowGather && !gather && (contiguous ? sizes[p]! * inner : inner) === 1) {
      // Single-element runs: gather along the innermost outer dimension with more than one index.
      let q = last - 1;
      while (q >= 0 && sizes[q] === 1) q--;
      if (q >= 0) {
        gather = true;
        gatherDim = q;
        last = q;
      }
    }
    const outer = sizes.slice(0, last);
    const idx = new Array<number>(last).fill(0);
    const total = outer.reduce((x, y) => x * y, 1);
    const runElements = contiguous ? sizes[p]! * inner : inner;
    for (let r = 0; r < total; r++) {
      let delta = 0;
      for (let d = 0; d < last; d++) delta += idx[d]! * steps[d]! * strides[d]!;
      const g = gatherDim;
      if (gather) runs.push({ delta: delta * eb, bytes: sizes[g]! * eb, gather: { length: sizes[g]!, stride: steps[g]! * strides[g]! } });
      else runs.push({ delta: delta * eb, bytes: runElements * eb });
      for (let d = last - 1; d >= 0; d--) {
        if (++idx[d]! < outer[d]!) break;
        idx[d] = 0;
      }
    }
    return { base, runs };
  }
}
