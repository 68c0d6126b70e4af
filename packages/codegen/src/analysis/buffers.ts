/**
 * Resolution of memref values to byte ranges: a planned local allocation (an `address`
 * attribute on `memref.alloc` inside a core), a host buffer (see {@link HostLayout}), or a
 * view of one (`memref.subview`, `collapse_shape`, `expand_shape`, `cast`,
 * `reinterpret_cast`), or the destination a pim op returns. Offsets are evaluated statically
 * in the stream's scope, so lane-dependent views resolve per lane.
 */
import {
  ArrayAttr,
  BlockArgument,
  DenseArrayAttr,
  IntegerAttr,
  MemRefType,
  OpResult,
  type Attribute,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import {
  AllocOp,
  AllocaOp,
  CastOp,
  CollapseShapeOp,
  ExpandShapeOp,
  ReinterpretCastOp,
  SubViewOp,
  computeRankReductionMask,
  isDyn as isDynamicSize,
} from '@raptor-pim/upstream-dialects';
import { getPimDestination } from '@raptor-pim/pim-dialect';
import { CodegenMessages as M } from '../diagnostics';
import { ADDRESS_ATTR, type HostBuffer } from './host-layout';
import type { StaticScope } from './static-eval';
import { elementBytes, staticElementCount, typeText } from './types';

/** Where a buffer lives. */
export type MemorySpace = 'local' | 'host';

/** A resolved memref: the byte range a view covers, in local or global memory. */
export interface BufferView {
  /** Local memory of the executing core, or global memory. */
  readonly space: MemorySpace;
  /** Byte address of the view's first element. */
  readonly address: number;
  /** The view's shape. */
  readonly shape: readonly number[];
  /** The view's strides, in elements. */
  readonly strides: readonly number[];
  /** Bytes of one element. */
  readonly elementBytes: number;
  /** The underlying allocation: its first byte and size (bounds checks). */
  readonly rootAddress: number;
  /** Size of the underlying allocation in bytes. */
  readonly rootBytes: number;
  /** The host buffer, for host views. */
  readonly host?: HostBuffer;
}

/** Number of elements of a view. */
export function viewElements(v: BufferView): number {
  return staticElementCount(v.shape) ?? 0;
}

/** Bytes a contiguous view covers. */
export function viewBytes(v: BufferView): number {
  return viewElements(v) * v.elementBytes;
}

/** True when the view is dense row-major (unit dimensions ignored). */
export function isContiguous(v: BufferView): boolean {
  let expected = 1;
  for (let i = v.shape.length - 1; i >= 0; i--) {
    const d = v.shape[i]!;
    if (d === 1) continue;
    if (v.strides[i] !== expected) return false;
    expected *= d;
  }
  return true;
}

/** Result of {@link resolveBuffer}: a view or the reason it is not one. */
export type Resolution = { readonly view: BufferView } | { readonly error: string; readonly at?: Operation };

/** What {@link resolveBuffer} needs from the stream. */
export interface BufferEnvironment {
  /** Static values of the stream (lane, loop variables). */
  readonly scope: StaticScope;
  /** Views bound by the walker (loop-carried memrefs). */
  readonly bound: ReadonlyMap<Value, BufferView>;
  /** Core body arguments bound to outer operands (batch inputs). */
  readonly outer: ReadonlyMap<Value, Value>;
  /** The host buffer a root value stands for. */
  readonly host: (value: Value) => HostBuffer | undefined;
  /** The op of the core stream (local allocations must be inside it). */
  readonly coreOp: Operation;
  /** Views of root buffers (allocations, host buffers) already resolved in this stream. */
  readonly roots: Map<Value, BufferView>;
}

/** MLIR's `kDynamic` in static offset/size/stride lists (an i64 minimum). */
const I64_DYNAMIC = -(2 ** 63);

/** True for the dynamic sentinel of a static offset/size/stride list. */
function isDyn(v: number): boolean {
  return v === I64_DYNAMIC || isDynamicSize(v);
}

function canonical(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  let run = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = run;
    run *= shape[i]!;
  }
  return s;
}

function ints(a: Attribute | undefined): number[] {
  return a instanceof DenseArrayAttr ? (a.values as readonly (number | bigint)[]).map(Number) : [];
}

function reassociation(a: Attribute | undefined): number[][] {
  if (!(a instanceof ArrayAttr)) return [];
  return a.elements.map((g) => (g instanceof ArrayAttr ? g.elements.map((e) => (e instanceof IntegerAttr ? Number(e.value) : -1)) : []));
}

/** Resolves `value` (a memref) to the bytes it covers in the environment's stream. */
export function resolveBuffer(value: Value, env: BufferEnvironment, what: string): Resolution {
  const bound = env.bound.get(value) ?? env.roots.get(value);
  if (bound) return { view: bound };
  if (value instanceof BlockArgument) {
    const outer = env.outer.get(value);
    if (outer) return resolveBuffer(outer, env, what);
  }
  const host = env.host(value);
  if (host) {
    const shape = host.type.shape;
    const view: BufferView = {
      space: 'host',
      address: host.address,
      shape,
      strides: canonical(shape),
      elementBytes: elementBytes(host.type.elementType) ?? 1,
      rootAddress: host.address,
      rootBytes: host.bytes,
      host,
    };
    env.roots.set(value, view);
    return { view };
  }
  const type = value.type;
  if (!(type instanceof MemRefType)) return { error: M.tensorOperand(what, typeText(type)) };
  if (type.shape.some((d) => d < 0)) return { error: M.dynamicShape(typeText(type)) };
  const eb = elementBytes(type.elementType);
  if (eb === undefined) return { error: M.unknownStorage(what) };
  if (!(value instanceof OpResult)) return { error: M.unknownStorage(what) };
  const op = value.definingOp;
  if (AllocOp.isInstance(op) || AllocaOp.isInstance(op)) {
    if (!env.coreOp.isAncestor(op)) return { error: M.unknownStorage(what) };
    const address = op.getDiscardableAttr(ADDRESS_ATTR);
    if (!(address instanceof IntegerAttr)) return { error: M.notPlanned(), at: op };
    const a = Number(address.value);
    const bytes = (staticElementCount(type.shape) ?? 0) * eb;
    const view: BufferView = { space: 'local', address: a, shape: type.shape, strides: canonical(type.shape), elementBytes: eb, rootAddress: a, rootBytes: bytes };
    env.roots.set(value, view);
    return { view };
  }
  const sub = SubViewOp.match(op);
  if (sub) {
    const src = resolveBuffer(sub.source, env, what);
    if (!('view' in src)) return src;
    const dyn = { offsets: [...sub.offsets], strides: [...sub.strides] };
    const staticOffsets = ints(sub.static_offsets);
    const staticSizes = ints(sub.static_sizes);
    const staticStrides = ints(sub.static_strides);
    const pick = (list: number[], dynamic: Value[], name: string): number[] | string => {
      const out: number[] = [];
      for (const s of list) {
        if (!isDyn(s)) {
          out.push(s);
          continue;
        }
        const v = dynamic.shift();
        const n = v ? env.scope.integer(v) : undefined;
        if (n === undefined) return M.notStatic(`subview ${name}`, '');
        out.push(n);
      }
      return out;
    };
    const offsets = pick(staticOffsets, dyn.offsets, 'offset');
    if (typeof offsets === 'string') return { error: offsets, at: op };
    const steps = pick(staticStrides, dyn.strides, 'stride');
    if (typeof steps === 'string') return { error: steps, at: op };
    const s = src.view;
    let offset = 0;
    offsets.forEach((o, i) => (offset += o * (s.strides[i] ?? 0)));
    const fullStrides = steps.map((st, i) => st * (s.strides[i] ?? 0));
    const dropped = computeRankReductionMask(staticSizes, type.shape) ?? new Set<number>();
    const strides = fullStrides.filter((_, i) => !dropped.has(i));
    return { view: { ...s, address: s.address + offset * s.elementBytes, shape: type.shape, strides } };
  }
  const collapse = CollapseShapeOp.match(op);
  if (collapse) {
    const src = resolveBuffer(collapse.src, env, what);
    if (!('view' in src)) return src;
    const s = src.view;
    const strides: number[] = [];
    for (const group of reassociation(collapse.reassociation)) {
      // A group collapses when its dimensions are contiguous among themselves.
      let expected = s.strides[group[group.length - 1]!] ?? 1;
      for (let k = group.length - 1; k >= 0; k--) {
        const d = group[k]!;
        if (s.shape[d] !== 1 && s.strides[d] !== expected) return { error: M.notContiguous(what), at: op };
        if (s.shape[d] !== 1) expected = s.strides[d]! * s.shape[d]!;
      }
      strides.push(s.strides[group[group.length - 1]!] ?? 1);
    }
    return { view: { ...s, shape: type.shape, strides } };
  }
  const expand = ExpandShapeOp.match(op);
  if (expand) {
    const src = resolveBuffer(expand.src, env, what);
    if (!('view' in src)) return src;
    const s = src.view;
    const strides = new Array<number>(type.shape.length).fill(1);
    reassociation(expand.reassociation).forEach((group, d) => {
      let run = s.strides[d] ?? 1;
      for (let k = group.length - 1; k >= 0; k--) {
        strides[group[k]!] = run;
        run *= type.shape[group[k]!]!;
      }
    });
    return { view: { ...s, shape: type.shape, strides } };
  }
  const cast = CastOp.match(op);
  if (cast) {
    const src = resolveBuffer(cast.source, env, what);
    return 'view' in src ? { view: { ...src.view, shape: type.shape } } : src;
  }
  const reinterpret = ReinterpretCastOp.match(op);
  if (reinterpret) {
    const src = resolveBuffer(reinterpret.source, env, what);
    if (!('view' in src)) return src;
    const offsets = ints(reinterpret.static_offsets);
    const strides = ints(reinterpret.static_strides);
    if (offsets.some(isDyn) || strides.some(isDyn)) return { error: M.notStatic('reinterpret_cast offset or stride', ''), at: op };
    const s = src.view;
    return { view: { ...s, address: s.rootAddress + (offsets[0] ?? 0) * s.elementBytes, shape: type.shape, strides } };
  }
  const dest = getPimDestination(op);
  if (dest) return resolveBuffer(dest, env, what);
  return { error: M.unknownStorage(what) };
}
