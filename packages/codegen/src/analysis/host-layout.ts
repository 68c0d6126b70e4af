/**
 * The host (global) memory layout: every host buffer a core stream touches, at its address in
 * global memory.
 *
 * Host buffers are the entry function's memref arguments, memref allocations at function
 * level (host slots, returned outputs), constant tensors of the function that streams read as
 * host data (`pim.memcp_hd` sources) and `memref.global`s read through `memref.get_global`.
 * The addresses bufferization's `pim-plan-memory` records are kept: `pim.host_arg_addresses`
 * (one per argument) on the function, `pim.host_address` on a host `memref.alloc`, on a host
 * constant (and on a `memref.global`); buffers without one are laid out after the planned ones in program order,
 * 4-byte aligned.
 */
import {
  ArrayAttr,
  DenseArrayAttr,
  DenseElementsAttr,
  DictionaryAttr,
  IntegerAttr,
  IntegerType,
  MemRefType,
  RankedTensorType,
  StringAttr,
  Traits,
  type Attribute,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import { FuncOp } from '@raptor-pim/ir-core';
import { AllocOp, GetGlobalOp, GlobalOp } from '@raptor-pim/upstream-dialects';
import { isHostOperand } from '@raptor-pim/pim-dialect';
import { CodegenMessages as M } from '../diagnostics';
import { elementBytes, staticByteSize } from './types';
import type { Reporter } from './reporter';

/** The attribute holding the planned local address of a `memref.alloc` inside a core. */
export const ADDRESS_ATTR = 'pim.address';
/** The attribute holding the planned global address of a host `memref.alloc` or `memref.global`. */
export const HOST_ADDRESS_ATTR = 'pim.host_address';
/** The function attribute listing the planned global address of every argument. */
export const HOST_ARG_ADDRESSES_ATTR = 'pim.host_arg_addresses';
/** The argument attribute naming a model input or output (optional). */
export const NAME_ATTR = 'pim.name';

/** One buffer in global memory. */
export interface HostBuffer {
  /** A printable name (`%arg0`, `@weights`, `host slot #2`). */
  readonly name: string;
  /** Byte address in global memory. */
  readonly address: number;
  /** Size in bytes. */
  readonly bytes: number;
  /** The buffer's type (a tensor type for a host constant). */
  readonly type: MemRefType | RankedTensorType;
  /** The function argument index, for arguments. */
  readonly argument?: number;
  /** The tensor name from a `pim.name` argument attribute, if any. */
  readonly tensorName?: string;
  /** Initial contents (a `memref.global` with an initial value). */
  readonly initialValue?: DenseElementsAttr;
  /** The op or argument owner to report at. */
  readonly reportAt: Operation;
}

/** The host memory layout of a module. */
export class HostLayout {
  private readonly byValue = new Map<Value, HostBuffer>();
  private readonly bySymbol = new Map<string, HostBuffer>();
  /** Every host buffer in address order. */
  readonly buffers: HostBuffer[] = [];
  /** One past the highest byte used. */
  end = 0;

  /** The host buffer a root value (argument, host alloc, get_global result) stands for. */
  lookup(value: Value): HostBuffer | undefined {
    const direct = this.byValue.get(value);
    if (direct) return direct;
    const def = value.definingOp;
    const get = def ? GetGlobalOp.match(def) : undefined;
    return get ? this.bySymbol.get(get.name.root) : undefined;
  }

  /** Builds the layout of `func` (the entry function) in `module`. */
  static build(module: Operation, func: Operation, globalSize: number, report: Reporter): HostLayout {
    const layout = new HostLayout();
    type Pending = Omit<HostBuffer, 'address'> & { planned?: number; key?: Value; symbol?: string };
    const pending: Pending[] = [];
    const view = FuncOp.match(func);
    const entry = func.regions[0]?.firstBlock;
    const argAttrs = view?.arg_attrs;
    const argAddresses = func.getDiscardableAttr(HOST_ARG_ADDRESSES_ATTR);
    const planned = argAddresses instanceof DenseArrayAttr ? (argAddresses.values as readonly (number | bigint)[]).map(Number) : undefined;
    const args = entry?.arguments ?? [];
    if (argAddresses !== undefined && (!planned || planned.length !== args.length)) {
      report.error(func, M.hostArgAddresses(planned?.length, args.length));
    }
    args.forEach((arg, i) => {
      if (!(arg.type instanceof MemRefType)) return;
      const dict = argAttrs instanceof ArrayAttr ? argAttrs.elements[i] : undefined;
      const entries = dict instanceof DictionaryAttr ? dict.entries : [];
      const name = entries.find((e) => e.name === NAME_ATTR)?.value;
      const tensorName = name instanceof StringAttr ? name.value : undefined;
      const at = planned?.length === args.length ? planned[i] : undefined;
      const address = at === undefined ? undefined : addressOf(IntegerAttr.get(IntegerType.get(func.context, 64), at), `%arg${i}`, func, report);
      pending.push({
        name: `%arg${i}`,
        bytes: staticByteSize(arg.type) ?? 0,
        type: arg.type,
        argument: i,
        ...(tensorName !== undefined ? { tensorName } : {}),
        reportAt: func,
        key: arg,
        ...(address !== undefined ? { planned: address } : {}),
      });
    });
    let slot = 0;
    let constant = 0;
    for (let o = entry?.firstOp ?? null; o; o = o.next) {
      if (isHostConstant(o)) {
        const type = o.getResult(0).type as RankedTensorType;
        const name = `host constant #${constant++}`;
        const planned = addressOf(o.getDiscardableAttr(HOST_ADDRESS_ATTR), name, o, report);
        const value = o.getProperty('value') ?? o.getAttr('value');
        pending.push({
          name,
          bytes: staticByteSize(type) ?? 0,
          type,
          reportAt: o,
          key: o.getResult(0),
          ...(value instanceof DenseElementsAttr ? { initialValue: value } : {}),
          ...(planned !== undefined ? { planned } : {}),
        });
        continue;
      }
      const alloc = AllocOp.match(o);
      if (!alloc || !(o.getResult(0).type instanceof MemRefType)) continue;
      const type = o.getResult(0).type as MemRefType;
      const name = `host slot #${slot++}`;
      const planned = addressOf(o.getDiscardableAttr(HOST_ADDRESS_ATTR), name, o, report);
      pending.push({ name, bytes: staticByteSize(type) ?? 0, type, reportAt: o, key: o.getResult(0), ...(planned !== undefined ? { planned } : {}) });
    }
    const usedGlobals = new Set<string>();
    module.walk((o) => {
      const g = GetGlobalOp.match(o);
      if (g) usedGlobals.add(g.name.root);
    });
    for (let o = module.regions[0]?.firstBlock?.firstOp ?? null; o; o = o.next) {
      const g = GlobalOp.match(o);
      if (!g || !usedGlobals.has(g.sym_name.value)) continue;
      const type = g.type.value as MemRefType;
      const name = `@${g.sym_name.value}`;
      const planned = addressOf(o.getDiscardableAttr(HOST_ADDRESS_ATTR), name, o, report);
      const init = g.initial_value;
      pending.push({
        name,
        bytes: staticByteSize(type) ?? 0,
        type,
        reportAt: o,
        symbol: g.sym_name.value,
        ...(init instanceof DenseElementsAttr ? { initialValue: init } : {}),
        ...(planned !== undefined ? { planned } : {}),
      });
    }
    // Planned buffers first (as given), then the rest after the highest planned byte.
    let next = 0;
    for (const p of pending) if (p.planned !== undefined) next = Math.max(next, p.planned + p.bytes);
    const placed: HostBuffer[] = [];
    for (const p of pending) {
      let address = p.planned;
      if (address === undefined) {
        address = align(next, 4);
        next = address + p.bytes;
      } else if (address % 4 !== 0) {
        report.error(p.reportAt, M.hostMisaligned(p.name, address));
      }
      const { planned: _planned, key, symbol, ...rest } = p;
      const buffer: HostBuffer = { ...rest, address };
      placed.push(buffer);
      if (key) layout.byValue.set(key, buffer);
      if (symbol) layout.bySymbol.set(symbol, buffer);
    }
    placed.sort((a, b) => a.address - b.address || a.name.localeCompare(b.name));
    for (let i = 1; i < placed.length; i++) {
      const a = placed[i - 1]!;
      const b = placed[i]!;
      if (b.address < a.address + a.bytes && a.bytes > 0 && b.bytes > 0) report.error(b.reportAt, M.hostOverlap(a.name, b.name));
    }
    layout.buffers.push(...placed);
    layout.end = placed.reduce((m, b) => Math.max(m, b.address + b.bytes), 0);
    if (layout.end > globalSize) report.error(func, M.hostTooBig(layout.end, globalSize));
    return layout;
  }
}

/** A constant tensor of the function that a stream reads as host data (a `pim.memcp_hd` source). */
function isHostConstant(op: Operation): boolean {
  if (!op.hasTrait(Traits.ConstantLike) || op.numResults !== 1 || !(op.getResult(0).type instanceof RankedTensorType)) return false;
  for (let u = op.getResult(0).firstUse; u; u = u.nextUse) if (isHostOperand(u.owner, u.index)) return true;
  return false;
}

function align(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

function addressOf(attr: Attribute | undefined, name: string, at: Operation, report: Reporter): number | undefined {
  if (attr === undefined) return undefined;
  if (attr instanceof IntegerAttr && attr.value >= 0n && attr.value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(attr.value);
  report.error(at, M.hostAddressNotPlanned(name));
  return undefined;
}

/** Bytes of one element of a host buffer (for the manifest's tensors). */
export function hostElementBytes(buffer: HostBuffer): number | undefined {
  return elementBytes(buffer.type.elementType);
}
