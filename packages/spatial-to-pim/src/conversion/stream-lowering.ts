/**
 * The state of lowering scheduled Spatial bodies into one PIM core stream: the builder at the
 * end of the stream, the value mapping (Spatial body value -> PIM stream value), lazily loaded
 * host inputs, cached index constants, and the helpers every conversion pattern shares (static
 * shapes and byte sizes, index arithmetic, contiguous runs of a slice).
 */
import {
  AddIOp,
  ConstantOp,
  DYNAMIC,
  FloatType,
  IndexType,
  IntegerAttr,
  IntegerType,
  IRMapping,
  OpBuilder,
  MulIOp,
  RankedTensorType,
  Traits,
  type Block,
  type MLIRContext,
  type Operation,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import { MemcpHdOp } from '@raptor-pim/pim-dialect';
import { createEmpty, readSliceLists } from '@raptor-pim/upstream-dialects';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { SpatToPimMessages as M } from '../diagnostics';
import { evaluateStatic } from './static-index';

/** A static number or an SSA `index` value. */
export type IndexOrValue = number | Value;

/** One contiguous run of a row-major slice: `bytes` bytes at `delta` bytes after the slice base. */
export interface SliceRun {
  readonly delta: number;
  readonly bytes: number;
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
  /** Graph output buffers keyed by the scheduled compute result they receive. */
  readonly outputs: ReadonlyMap<Value, Value>;
}

/** Counters the conversion reports as pass statistics. */
export interface ConversionCounters {
  hostLoads: number;
  hostStores: number;
  copies: number;
  transfers: number;
  vectorOps: number;
  matrixOps: number;
}

/** Bytes per element of a static element type (f32 = 4, i8 = 1, index = 8). */
export function elementBytes(type: Type): number | undefined {
  if (type instanceof FloatType) return Math.ceil(type.width / 8);
  if (type instanceof IntegerType) return Math.ceil(type.width / 8);
  if (type instanceof IndexType) return 8;
  return undefined;
}

/** The shape and byte size of a static ranked tensor type, or undefined. */
export function staticTensor(type: Type): { shape: readonly number[]; elementBytes: number; bytes: number } | undefined {
  if (!(type instanceof RankedTensorType)) return undefined;
  if (type.shape.some((d) => d === DYNAMIC || d < 0)) return undefined;
  const eb = elementBytes(type.elementType);
  if (eb === undefined) return undefined;
  return { shape: type.shape, elementBytes: eb, bytes: type.shape.reduce((a, b) => a * b, 1) * eb };
}

/** Lowers the bodies placed on one stream (a `pim.core` or the common body of a `pim.core_batch`). */
export class StreamLowering {
  /** Builder at the end of the stream body. */
  readonly b: OpBuilder;
  /** Spatial value -> stream value. */
  readonly mapping = new IRMapping();
  /** Compute input arguments bound to host inputs (loaded on first use). */
  readonly hostBound = new Map<Value, Value>();
  /** Static values of Spatial block arguments (the lane of an expanded batch lane). */
  readonly bindings = new Map<Value, number>();
  /** True once a pattern reported an error. */
  failed = false;
  private readonly constants = new Map<number, Value>();
  private lastConstant: Operation | null = null;
  private readonly index: IndexType;

  constructor(
    readonly context: MLIRContext,
    /** The stream body block. */
    readonly block: Block,
    /** The target configuration. */
    readonly config: HardwareConfig,
    /** Host buffers of the function. */
    readonly host: HostBuffers,
    /** Statistics. */
    readonly counters: ConversionCounters,
  ) {
    this.b = OpBuilder.atBlockEnd(block, context);
    this.index = IndexType.get(context);
  }

  /** Reports `message` at `op` and marks the stream failed; returns false for `return s.error(...)`. */
  error(op: Operation, message: string): false {
    op.emitError(message);
    this.failed = true;
    return false;
  }

  /** Records that `from` (Spatial) is `to` in the stream. */
  map(from: Value, to: Value): void {
    this.mapping.map(from, to);
  }

  /** The stream value of `v`; loads a host-bound input on first use. */
  value(v: Value, at: Operation): Value {
    const m = this.mapping.lookupOrNull(v);
    if (m) return m;
    const host = this.hostBound.get(v);
    if (host) {
      const info = staticTensor(v.type)!;
      const dst = createEmpty(this.b, at.location, v.type as RankedTensorType);
      const loaded = MemcpHdOp.build(
        this.b,
        { dst, src: host, dstOffset: this.constant(0), srcOffset: this.constant(0), output: v.type, size: this.i32(info.bytes) },
        at.location,
      ).output;
      this.counters.hostLoads++;
      this.mapping.map(v, loaded);
      return loaded;
    }
    const def = v.definingOp;
    if (def && (def.hasTrait(Traits.ConstantLike) || def.name.endsWith('.constant'))) return v; // captured constant
    throw new Error(`internal error: spat-to-pim found no stream value for an operand of '${at.name}'`);
  }

  /** The host buffer `v` is bound to when it has not been loaded yet (slices read it directly). */
  unloadedHost(v: Value): Value | undefined {
    return this.mapping.contains(v) ? undefined : this.hostBound.get(v);
  }

  /** An `index` constant at the top of the stream (cached). */
  constant(n: number): Value {
    const hit = this.constants.get(n);
    if (hit) return hit;
    const cb = new OpBuilder(this.context);
    if (this.lastConstant) cb.setInsertionPointAfter(this.lastConstant);
    else cb.setInsertionPointToStart(this.block);
    const view = ConstantOp.build(cb, { value: IntegerAttr.get(this.index, n), result: this.index }, this.block.parentOp!.location);
    this.lastConstant = view.op;
    this.constants.set(n, view.result);
    return view.result;
  }

  /** An i32 attribute (sizes and lengths of pim ops). */
  i32(n: number): IntegerAttr {
    return IntegerAttr.get(IntegerType.get(this.context, 32), n);
  }

  /** An i64 attribute. */
  i64(n: number): IntegerAttr {
    return IntegerAttr.get(IntegerType.get(this.context, 64), n);
  }

  /** A fresh destination of `type` (`tensor.empty`). */
  empty(type: Type, at: Operation): Value {
    return createEmpty(this.b, at.location, type as RankedTensorType);
  }

  /** `a + b` on index values, folded when both are static. */
  add(a: IndexOrValue, b: IndexOrValue, at: Operation): IndexOrValue {
    a = this.fold(a);
    b = this.fold(b);
    if (typeof a === 'number' && typeof b === 'number') return a + b;
    if (a === 0) return b;
    if (b === 0) return a;
    return this.b.create({ name: AddIOp.name, location: at.location, operands: [this.materialize(a), this.materialize(b)], resultTypes: [this.index] }).getResult(0);
  }

  /** `a * k` on an index value and a static factor, folded when static. */
  scale(a: IndexOrValue, k: number, at: Operation): IndexOrValue {
    a = this.fold(a);
    if (typeof a === 'number') return a * k;
    if (k === 0) return 0;
    if (k === 1) return a;
    return this.b.create({ name: MulIOp.name, location: at.location, operands: [a, this.constant(k)], resultTypes: [this.index] }).getResult(0);
  }

  /** `x` as a number when it is a constant of the stream. */
  fold(x: IndexOrValue): IndexOrValue {
    if (typeof x === 'number') return x;
    const n = evaluateStatic(x, this.bindings);
    return n === undefined ? x : n;
  }

  /** `x` as an `index` value. */
  materialize(x: IndexOrValue): Value {
    return typeof x === 'number' ? this.constant(x) : x;
  }

  /**
   * Mixed offsets (static numbers, stream values for the dynamic ones) and static sizes of a
   * tensor slice op, or undefined after a diagnostic (dynamic sizes, non-unit strides).
   */
  sliceLists(op: Operation, dynamicOffsets: readonly Value[]): { offsets: IndexOrValue[]; sizes: number[] } | undefined {
    const lists = readSliceLists(op);
    if (lists.sizes.some((s) => s === DYNAMIC) || lists.strides.some((s) => s !== 1)) {
      this.error(op, lists.strides.some((s) => s !== 1) ? M.nonUnitStride(op.name) : M.dynamicShape(op.name, 'dynamic sizes'));
      return undefined;
    }
    let k = 0;
    const offsets = lists.offsets.map((o) => (o === DYNAMIC ? this.value(dynamicOffsets[k++]!, op) : o));
    return { offsets, sizes: [...lists.sizes] };
  }

  /**
   * The contiguous runs of the slice `offsets`/`sizes` of a row-major buffer of `shape` with
   * `eb`-byte elements: the innermost dimensions that the slice covers completely merge into
   * one run; every combination of the outer indices is one run.
   */
  sliceRuns(shape: readonly number[], offsets: readonly IndexOrValue[], sizes: readonly number[], eb: number, at: Operation): SliceRuns {
    const rank = shape.length;
    const strides = new Array<number>(rank).fill(1);
    for (let d = rank - 2; d >= 0; d--) strides[d] = strides[d + 1]! * shape[d + 1]!;
    let base: IndexOrValue = 0;
    for (let d = 0; d < rank; d++) base = this.add(base, this.scale(offsets[d]!, strides[d]! * eb, at), at);
    let p = rank - 1;
    while (p > 0 && sizes[p] === shape[p]) p--;
    let runElements = 1;
    for (let d = p; d < rank; d++) runElements *= sizes[d]!;
    const runs: SliceRun[] = [];
    const outer = sizes.slice(0, p);
    const idx = new Array<number>(p).fill(0);
    const total = outer.reduce((a, b) => a * b, 1);
    for (let r = 0; r < total; r++) {
      let delta = 0;
      for (let d = 0; d < p; d++) delta += idx[d]! * strides[d]!;
      runs.push({ delta: delta * eb, bytes: runElements * eb });
      for (let d = p - 1; d >= 0; d--) {
        if (++idx[d]! < outer[d]!) break;
        idx[d] = 0;
      }
    }
    return { base, runs };
  }
}
