import { MemRefType, UnrankedMemRefType } from './builtin-types';
import { defineOpInterface, implement, type InterfaceImplementation } from './interfaces';
import type { Operation } from './operation';
import { Traits } from './traits';
import type { Value } from './value';

/** What an op does to a value or a resource (MLIR's `MemoryEffects::{Read,Write,Allocate,Free}`). */
export type MemoryEffectKind = 'read' | 'write' | 'allocate' | 'free';

/**
 * Something effects act on besides a value (MLIR's `SideEffects::Resource`): the default
 * memory, the automatic allocation scope, or a dialect's own state such as PIM channels or
 * event registers. Resources are interned by name ({@link defineSideEffectResource}).
 */
export class SideEffectResource {
  /** @internal Use {@link defineSideEffectResource}. */
  constructor(
    /** The resource's name (`pim.channel`). */
    readonly name: string,
  ) {}
}

const resources = new Map<string, SideEffectResource>();

/** The resource named `name` (created on first use; the same object for the same name). */
export function defineSideEffectResource(name: string): SideEffectResource {
  let r = resources.get(name);
  if (!r) resources.set(name, (r = new SideEffectResource(name)));
  return r;
}

/** Memory not otherwise named (MLIR's `DefaultResource`): buffers, host memory. */
export const DefaultResource = defineSideEffectResource('<Default>');
/** Stack-like allocations freed at the end of the enclosing scope (`memref.alloca`). */
export const AutomaticAllocationScopeResource = defineSideEffectResource('AutomaticAllocationScope');

/** One effect of an op: its kind, the resource, and the value it acts on (if any). */
export interface MemoryEffect {
  /** Read, write, allocate or free. */
  readonly kind: MemoryEffectKind;
  /** The resource acted on. */
  readonly resource: SideEffectResource;
  /** The value acted on (a buffer operand, an allocated result), or undefined for the whole resource. */
  readonly value?: Value;
}

function effect(kind: MemoryEffectKind, on?: Value | SideEffectResource, resource?: SideEffectResource): MemoryEffect {
  if (on instanceof SideEffectResource) return { kind, resource: on };
  return on ? { kind, resource: resource ?? DefaultResource, value: on } : { kind, resource: resource ?? DefaultResource };
}

/**
 * Effect constructors: `MemoryEffects.read(value)`, `MemoryEffects.write(ChannelResource)`,
 * `MemoryEffects.allocate(result, AutomaticAllocationScopeResource)`, ...
 */
export const MemoryEffects = {
  /** Reads `on` (a value in `resource`, default {@link DefaultResource}, or a whole resource). */
  read: (on?: Value | SideEffectResource, resource?: SideEffectResource): MemoryEffect => effect('read', on, resource),
  /** Writes `on`. */
  write: (on?: Value | SideEffectResource, resource?: SideEffectResource): MemoryEffect => effect('write', on, resource),
  /** Allocates `on` (usually a result of the op). */
  allocate: (on?: Value | SideEffectResource, resource?: SideEffectResource): MemoryEffect => effect('allocate', on, resource),
  /** Frees `on`. */
  free: (on?: Value | SideEffectResource, resource?: SideEffectResource): MemoryEffect => effect('free', on, resource),
} as const;

/**
 * An op that lists its memory effects (MLIR's `MemoryEffectOpInterface`). Ops with `Pure` or
 * `NoMemoryEffect` have none; ops with `RecursiveMemoryEffects` add those of the ops nested in
 * them; an op with neither the interface nor such a trait may have any effect (unknown).
 */
export interface MemoryEffectOpInterfaceImpl {
  /** The effects of `op` (possibly empty). */
  getEffects(op: Operation): readonly MemoryEffect[];
}
/** See {@link MemoryEffectOpInterfaceImpl}. */
export const MemoryEffectOpInterface = defineOpInterface<MemoryEffectOpInterfaceImpl>('MemoryEffectOpInterface');

/**
 * The interface entry for an op definition's `interfaces` list.
 *
 * @example
 * ```ts
 * defineOp({ name: 'pim.send', ..., interfaces: [memoryEffects((op) => [MemoryEffects.write(ChannelResource)])] });
 * ```
 */
export function memoryEffects(getEffects: (op: Operation) => readonly MemoryEffect[]): InterfaceImplementation {
  return implement(MemoryEffectOpInterface, { getEffects });
}

/** True for a buffer type (ranked or unranked memref): the values effects on storage act on. */
export function isBufferValue(v: Value): boolean {
  return v.type instanceof MemRefType || v.type instanceof UnrankedMemRefType;
}

/**
 * Read effects on the buffer-typed `reads` and write effects on the buffer-typed `writes`
 * (tensor operands have value semantics: no effect). For destination-style ops that accept
 * tensors or memrefs.
 */
export function bufferEffects(reads: readonly (Value | undefined)[], writes: readonly (Value | undefined)[]): MemoryEffect[] {
  const out: MemoryEffect[] = [];
  for (const v of reads) if (v && isBufferValue(v)) out.push(MemoryEffects.read(v));
  for (const v of writes) if (v && isBufferValue(v)) out.push(MemoryEffects.write(v));
  return out;
}

function collectEffects(op: Operation, out: MemoryEffect[]): boolean {
  if (!op.isRegistered) return false;
  if (op.hasTrait(Traits.Pure) || op.hasTrait(Traits.NoMemoryEffect)) return true;
  const impl = op.getInterface(MemoryEffectOpInterface);
  if (impl) out.push(...impl.getEffects(op));
  const recursive = op.hasTrait(Traits.RecursiveMemoryEffects);
  if (!impl && !recursive) return op.hasTrait(Traits.ReturnLike) && op.numRegions === 0;
  if (recursive) {
    for (const r of op.regions) {
      for (let b = r.firstBlock; b; b = b.next) {
        for (let o = b.firstOp; o; o = o.next) if (!collectEffects(o, out)) return false;
      }
    }
  }
  return true;
}

/**
 * The memory effects of `op` (MLIR's `getEffectsRecursively`): `[]` for `Pure` /
 * `NoMemoryEffect` ops, the interface's list, plus the nested ops' effects for
 * `RecursiveMemoryEffects`; `undefined` when unknown (an unregistered op, or an op that
 * declares nothing: it may do anything).
 */
export function getMemoryEffects(op: Operation): MemoryEffect[] | undefined {
  const out: MemoryEffect[] = [];
  return collectEffects(op, out) ? out : undefined;
}

/** True when `op` has no memory effects at all (known, and none, nested ops included). */
export function isMemoryEffectFree(op: Operation): boolean {
  if (op.hasTrait(Traits.Pure) || op.hasTrait(Traits.NoMemoryEffect)) return true;
  const e = getMemoryEffects(op);
  return e !== undefined && e.length === 0;
}

/** True when `op` may have an effect of `kind` (on `resource`, if given); unknown ops may. */
export function mayHaveEffect(op: Operation, kind: MemoryEffectKind, resource?: SideEffectResource): boolean {
  const e = getMemoryEffects(op);
  if (e === undefined) return true;
  return e.some((x) => x.kind === kind && (resource === undefined || x.resource === resource));
}

/**
 * True when erasing `op` (if unused) changes nothing observable (MLIR's
 * `wouldOpBeTriviallyDead` on effects): every effect is a read, or the allocation of one of
 * its own results. Write and free effects (stores, sends, syncs, deallocations) keep it.
 */
export function hasOnlyRemovableEffects(op: Operation): boolean {
  const e = getMemoryEffects(op);
  if (e === undefined) return false;
  return e.every((x) => x.kind === 'read' || (x.kind === 'allocate' && x.value !== undefined && x.value.definingOp === op));
}
