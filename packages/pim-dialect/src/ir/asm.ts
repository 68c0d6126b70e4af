/**
 * Assembly helpers shared by the `pim` ops: the attribute dictionary that holds properties
 * (the reference prints `{size = 16 : i32}` in custom form, `<{size = 16 : i32}>` in generic
 * form), SSA operand lists with a fixed count and the type helpers.
 */
import {
  MemRefType,
  RankedTensorType,
  formatType,
  isDynamic,
  typeConstraint,
  type Attribute,
  type NamedAttribute,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type Type,
  type UnresolvedOperand,
  type Value,
} from '@raptor-pim/ir-core';
export { isDynamic };
import { PimMessages as M } from '../diagnostics';

/** A ranked tensor or a memref (the storage kinds of pim buffers). */
export const TensorOrMemRef = typeConstraint('tensor or memref', (t) => t instanceof RankedTensorType || t instanceof MemRefType);

/** The shape of a ranked tensor or memref (undefined otherwise). */
export function shapeOf(t: Type): readonly number[] | undefined {
  return t instanceof RankedTensorType || t instanceof MemRefType ? t.shape : undefined;
}

/** The element type of a ranked tensor or memref. */
export function elementOf(t: Type): Type | undefined {
  return t instanceof RankedTensorType || t instanceof MemRefType ? t.elementType : undefined;
}

/** `'tensor'`, `'memref'` or `'other'`. */
export function kindOf(t: Type): 'tensor' | 'memref' | 'other' {
  return t instanceof RankedTensorType ? 'tensor' : t instanceof MemRefType ? 'memref' : 'other';
}

/** Sets a property on a parser state. */
export function setStateProperty(state: OperationState, name: string, value: Attribute): void {
  const props = state.properties instanceof Map ? new Map(state.properties) : new Map(Object.entries(state.properties ?? {}));
  props.set(name, value);
  state.properties = props;
}

/**
 * Parses an optional `{...}` dictionary and stores the entries named in `propertyNames` as
 * properties, the others as discardable attributes. Returns the parsed names (or undefined).
 */
export function parseAttrDictWithProperties(
  p: OpAsmParser,
  state: OperationState,
  propertyNames: readonly string[]
): NamedAttribute[] | undefined {
  const list = p.parseOptionalAttrDict();
  if (!list) return undefined;
  const attrs = state.attributes instanceof Map ? new Map(state.attributes) : new Map(Object.entries(state.attributes ?? {}));
  for (const { name, value } of list) {
    if (propertyNames.includes(name)) setStateProperty(state, name, value);
    else attrs.set(name, value);
  }
  state.attributes = attrs;
  return list;
}

/** Prints properties and attributes merged in one sorted `{...}` dictionary (minus `elided`). */
export function printAttrDictWithProperties(op: Operation, p: OpAsmPrinter, elided: readonly string[] = []): void {
  const all: NamedAttribute[] = [];
  for (const [name, value] of op.properties) if (!elided.includes(name) && name !== 'operandSegmentSizes') all.push({ name, value });
  for (const [name, value] of op.attributes) if (!elided.includes(name)) all.push({ name, value });
  all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  p.printOptionalAttrDict(all);
}

/** Parses `n` operands inside `delimiter`. */
export function parseOperands(p: OpAsmParser, delimiter: 'square' | 'paren', n: number): UnresolvedOperand[] | undefined {
  return p.parseOperandList(delimiter, n) ?? undefined;
}

/** Resolves operands in order against `types`; returns false after a diagnostic. */
export function resolveAll(p: OpAsmParser, list: readonly UnresolvedOperand[], types: readonly Type[], out: Value[]): boolean {
  for (let i = 0; i < list.length; i++) if (!p.resolveOperand(list[i]!, types[i]!, out)) return false;
  return true;
}

/** Formats a type for diagnostics. */
export function fmt(t: Type): string {
  return formatType(t);
}

/** Checks that `dst` and `result` have the same kind, element type and shape. */
export function verifyDestinationResult(op: Operation, what: string, dst: Type, result: Type): boolean {
  if (kindOf(dst) !== kindOf(result) || elementOf(dst) !== elementOf(result) || !sameShape(shapeOf(dst), shapeOf(result))) {
    op.emitOpError(M.destinationResult(what, fmt(dst), fmt(result)));
    return false;
  }
  return true;
}

/** Equal shapes (both defined). */
export function sameShape(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((d, i) => d === b[i]);
}
