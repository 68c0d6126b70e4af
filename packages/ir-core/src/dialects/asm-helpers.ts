/**
 * Small pieces of custom assembly shared by the builtin, func and arith ops: the merged
 * attribute dictionary of ODS's `attr-dict` (inherent attributes not printed elsewhere plus
 * discardable ones) and splitting a parsed dictionary back into properties and attributes.
 */
import type { Attribute } from '../ir/attribute';
import type { NamedAttribute } from '../ir/builtin-attributes';
import type { Operation, OperationState } from '../ir/operation';
import type { OpAsmPrinter } from '../syntax/op-asm';

/** Properties then discardable attributes of `op`, as one list (MLIR's `getAttrs()`). */
export function allAttributes(op: Operation): NamedAttribute[] {
  const out: NamedAttribute[] = [];
  for (const [name, value] of op.properties) out.push({ name, value });
  for (const [name, value] of op.attributes) out.push({ name, value });
  return out;
}

/** ODS `attr-dict`: prints every attribute of `op` except `elided` (nothing when none remain). */
export function printAttrDict(printer: OpAsmPrinter, op: Operation, elided: readonly string[] = []): void {
  printer.printOptionalAttrDict(allAttributes(op), elided);
}

/** ODS `attr-dict-with-keyword`. */
export function printAttrDictWithKeyword(printer: OpAsmPrinter, op: Operation, elided: readonly string[] = []): void {
  printer.printOptionalAttrDictWithKeyword(allAttributes(op), elided);
}

/** The properties and attributes maps of a state being parsed (created on first use). */
export function stateMaps(state: OperationState): { properties: Map<string, Attribute>; attributes: Map<string, Attribute> } {
  if (!(state.properties instanceof Map)) state.properties = new Map(Object.entries(state.properties ?? {}));
  if (!(state.attributes instanceof Map)) state.attributes = new Map(Object.entries(state.attributes ?? {}));
  return { properties: state.properties as Map<string, Attribute>, attributes: state.attributes as Map<string, Attribute> };
}

/**
 * Adds a parsed `attr-dict` to `state`: names in `inherent` become properties (as MLIR moves
 * inherent attributes written in the dictionary into properties), the rest discardable.
 */
export function addParsedAttributes(state: OperationState, list: readonly NamedAttribute[], inherent: ReadonlySet<string>): void {
  const { properties, attributes } = stateMaps(state);
  for (const { name, value } of list) (inherent.has(name) ? properties : attributes).set(name, value);
}
