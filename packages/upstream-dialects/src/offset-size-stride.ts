/**
 * The mixed static/dynamic offset, size and stride lists of view-like ops, as MLIR's
 * `OffsetSizeAndStrideOpInterface` stores them: `static_offsets`, `static_sizes`,
 * `static_strides` properties (INT64_MIN marks a dynamic entry) plus three variadic `index`
 * operand groups. One reader, writer, parser and printer for every op that has them
 * (`memref.subview`, `memref.reinterpret_cast`, `tensor.extract_slice`, `tensor.insert_slice`,
 * `tensor.parallel_insert_slice`); each dialect keeps its own verification rules.
 */
import { DYNAMIC } from '@raptor-pim/ir-core';
import type { OpAsmParser, OpAsmPrinter, Operation, OperationState, UnresolvedOperand, Value } from '@raptor-pim/ir-core';
import {
  addAttributes,
  parseDynamicIndexList,
  printAttrDict,
  printDynamicIndexList,
  readStaticArray,
  resolveIndices,
  setSegments,
  staticArray,
} from './memref/asm';
import { MemRefMessages as M } from './memref/diagnostics';

/** The static offsets, sizes and strides of a view-like op (`DYNAMIC` marks dynamic entries). */
export interface MixedOffsetSizeStride {
  readonly offsets: readonly number[];
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
}

/** The property names of the three static lists, in order. */
export const OFFSET_SIZE_STRIDE_PROPERTIES = ['static_offsets', 'static_sizes', 'static_strides'] as const;

/** Reads `static_offsets`, `static_sizes`, `static_strides` of `op`. */
export function readOffsetSizeStride(op: Operation): MixedOffsetSizeStride {
  return {
    offsets: readStaticArray(op.getAttr('static_offsets')),
    sizes: readStaticArray(op.getAttr('static_sizes')),
    strides: readStaticArray(op.getAttr('static_strides')),
  };
}

/** Stores the three static lists as properties of `state`. */
export function setOffsetSizeStride(state: OperationState, lists: MixedOffsetSizeStride): void {
  addAttributes(
    state,
    [
      { name: 'static_offsets', value: staticArray(state.context, lists.offsets) },
      { name: 'static_sizes', value: staticArray(state.context, lists.sizes) },
      { name: 'static_strides', value: staticArray(state.context, lists.strides) },
    ],
    OFFSET_SIZE_STRIDE_PROPERTIES,
  );
}

/** The numbers of dynamic offset, size and stride operands of `op`, whose first `fixed` operand groups are not indices. */
export function offsetSizeStrideCounts(op: Operation, fixed: number): [number, number, number] {
  const def = op.definition!;
  const count = (group: number) => def.getOperandGroupRange(op, group)?.[1] ?? 0;
  return [count(fixed), count(fixed + 1), count(fixed + 2)];
}

/** The dynamic offset/size/stride operands of `op`, whose first `fixed` operands are not indices. */
export function offsetSizeStrideOperands(op: Operation, fixed: number): { offsets: Value[]; sizes: Value[]; strides: Value[] } {
  const [no, ns] = offsetSizeStrideCounts(op, fixed);
  const dyn = op.operands.slice(fixed);
  return { offsets: dyn.slice(0, no), sizes: dyn.slice(no, no + ns), strides: dyn.slice(no + ns) };
}

/** Parsed offset, size and stride lists: the unresolved dynamic operands and the static values. */
export interface ParsedOffsetSizeStride {
  readonly operands: readonly (readonly UnresolvedOperand[])[];
  readonly lists: MixedOffsetSizeStride;
}

/**
 * How the three lists are spelled: `plain` is `[offsets] [sizes] [strides]` (subview and the
 * tensor slices), `labelled` is `offset: [o], sizes: [s], strides: [t]` (reinterpret_cast).
 */
export type OffsetSizeStrideSyntax = 'plain' | 'labelled';

const LABELS = ['offset', 'sizes', 'strides'] as const;

/** Parses the three lists (MLIR's three `custom<DynamicIndexList>`), spelled as `syntax` says. */
export function parseOffsetSizeStride(parser: OpAsmParser, syntax: OffsetSizeStrideSyntax = 'plain'): ParsedOffsetSizeStride | undefined {
  const parsed = [];
  for (let i = 0; i < 3; i++) {
    if (syntax === 'labelled') {
      if (i > 0 && !parser.parseComma()) return undefined;
      if (!parser.parseKeyword(LABELS[i]!) || !parser.parseColon()) return undefined;
    }
    const list = parseDynamicIndexList(parser);
    if (!list) return undefined;
    parsed.push(list);
  }
  const [o, s, t] = parsed as [(typeof parsed)[0], (typeof parsed)[0], (typeof parsed)[0]];
  return { operands: [o.operands, s.operands, t.operands], lists: { offsets: o.statics, sizes: s.statics, strides: t.statics } };
}

/**
 * Resolves the dynamic entries as `index` after the `leading` operands (one per operand group)
 * and stores the operands, the static lists and the segment sizes in `state`.
 */
export function finishOffsetSizeStride(parser: OpAsmParser, state: OperationState, leading: Value[], parsed: ParsedOffsetSizeStride): boolean {
  const fixed = leading.length;
  const vals = leading;
  for (const group of parsed.operands) if (!resolveIndices(parser, group, vals)) return false;
  state.operands = vals;
  setOffsetSizeStride(state, parsed.lists);
  const sizes = new Array<number>(fixed + parsed.operands.length).fill(1);
  for (let i = 0; i < parsed.operands.length; i++) sizes[fixed + i] = parsed.operands[i]!.length;
  setSegments(state, sizes);
  return true;
}

/** Prints the three lists of an op with `fixed` leading operands, spelled as `syntax` says, then `{attrs}`. */
export function printOffsetSizeStride(p: OpAsmPrinter, op: Operation, fixed: number, syntax: OffsetSizeStrideSyntax = 'plain'): void {
  const lists = readOffsetSizeStride(op);
  const dyn = offsetSizeStrideOperands(op, fixed);
  const groups = [
    [lists.offsets, dyn.offsets],
    [lists.sizes, dyn.sizes],
    [lists.strides, dyn.strides],
  ] as const;
  groups.forEach(([statics, values], i) => {
    if (syntax === 'labelled') p.print(`${i > 0 ? ', ' : ''}${LABELS[i]}: `);
    else if (i > 0) p.print(' ');
    printDynamicIndexList(p, statics, values);
  });
  printAttrDict(p, op, OFFSET_SIZE_STRIDE_PROPERTIES);
}

const NO_VALUES: readonly Value[] = Object.freeze([]);

/**
 * The static list (DYNAMIC for each value) and the dynamic operands of `list`. An all-static
 * list (what importers build, one slice per op) is returned as it is, with no operands: the
 * static array attribute reads it without a copy.
 */
export function splitMixedList(list: readonly (number | Value)[]): { statics: readonly number[]; dynamics: readonly Value[] } {
  let allStatic = true;
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== 'number') {
      allStatic = false;
      break;
    }
  }
  if (allStatic) return { statics: list as readonly number[], dynamics: NO_VALUES };
  const statics: number[] = [];
  const dynamics: Value[] = [];
  for (const x of list) {
    if (typeof x === 'number') statics.push(x);
    else {
      statics.push(DYNAMIC);
      dynamics.push(x);
    }
  }
  return { statics, dynamics };
}

const LIST_NAMES = ['offsets', 'sizes', 'strides'] as const;
const ENTRY_NAMES = ['offset', 'size', 'stride'] as const;

/**
 * MLIR's `OffsetSizeAndStrideOpInterface` verification: list lengths (`singleOffset`: one
 * offset, as `memref.reinterpret_cast`; `rank`: every list has that many entries, as the tensor
 * slices), the number of dynamic entries of each list against `dynCounts`, non-negative static
 * offsets and sizes. Emits the first violation on `op`.
 */
export function verifyOffsetSizeStride(
  op: Operation,
  lists: MixedOffsetSizeStride,
  dynCounts: readonly number[],
  shape: { readonly singleOffset?: boolean; readonly rank?: number },
): boolean {
  const n = [lists.offsets.length, lists.sizes.length, lists.strides.length];
  if (!shape.singleOffset && n[0] !== n[1]) {
    op.emitError(M.mixedRank('offsets', 'sizes', n[0]!, n[1]!));
    return false;
  }
  if (n[1] !== n[2]) {
    op.emitError(M.mixedRank('sizes', 'strides', n[1]!, n[2]!));
    return false;
  }
  if (shape.singleOffset && n[0] !== 1) {
    op.emitError(M.rankedEntryCount(1, 'offset', n[0]!));
    return false;
  }
  const all = [lists.offsets, lists.sizes, lists.strides];
  for (let i = 0; i < 3; i++) {
    if (shape.rank !== undefined && all[i]!.length !== shape.rank) {
      op.emitError(M.rankedEntryCount(shape.rank, ENTRY_NAMES[i]!, all[i]!.length));
      return false;
    }
    const dyn = all[i]!.filter((v) => v === DYNAMIC).length;
    if (dyn !== dynCounts[i]) {
      op.emitError(M.dynamicEntryCount(LIST_NAMES[i]!, dynCounts[i]!, dyn));
      return false;
    }
  }
  for (let i = 0; i < 2; i++)
    for (const v of all[i]!)
      if (v !== DYNAMIC && v < 0) {
        op.emitError(M.nonNegative(LIST_NAMES[i]!, v));
        return false;
      }
  return true;
}
