/**
 * Custom-assembly building blocks shared by memref ops (and the tensor and scf ops written in
 * the same forms): MLIR's `custom<DynamicIndexList>`, reassociation lists, operand/type
 * helpers, the assembly forms several ops share and the i64 sentinel conversion.
 */
import {
  ArrayAttr,
  DenseArrayAttr,
  DYNAMIC,
  IndexType,
  IntegerAttr,
  IntegerType,
  formatType,
  lookupOpDefinition,
  MemRefType,
  type Attribute,
  type MLIRContext,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type Type,
  type UnresolvedOperand,
  type Value,
} from '@raptor-pim/ir-core';
import { MemRefMessages as M } from './diagnostics';

/** MLIR's `ShapedType::kDynamic` as stored in `array<i64: ...>` (INT64_MIN). */
export const I64_DYNAMIC = -(2n ** 63n);
const I64_DYNAMIC_NUMBER = Number(I64_DYNAMIC);

/** `array<i64: ...>` from static values, {@link DYNAMIC} becoming INT64_MIN. */
export function staticArray(context: MLIRContext, values: readonly number[]): DenseArrayAttr {
  return DenseArrayAttr.i64(
    context,
    // Numbers go through as they are: DenseArrayAttr shares the bigints of small values.
    values.includes(DYNAMIC) ? values.map((v) => (v === DYNAMIC ? I64_DYNAMIC : v)) : values,
  );
}

/** The values of an `array<i64: ...>`, INT64_MIN becoming {@link DYNAMIC}. */
export function readStaticArray(attr: Attribute | undefined): number[] {
  if (!(attr instanceof DenseArrayAttr)) return [];
  // Attributes are uniqued and immutable: interpreters read these lists on every slice they run,
  // so the converted list is computed once per attribute (callers get their own copy).
  let known = staticArrayCache.get(attr);
  if (!known) {
    known = (attr.values as readonly (bigint | number)[]).map((v) =>
      typeof v === 'number' ? (v === I64_DYNAMIC_NUMBER ? DYNAMIC : v) : v === I64_DYNAMIC ? DYNAMIC : Number(v),
    );
    staticArrayCache.set(attr, known);
  }
  return known.slice();
}
const staticArrayCache = new WeakMap<DenseArrayAttr, number[]>();

/** The reassociation `[[0, 1], [2]]` as arrays of numbers; undefined when malformed. */
export function readReassociation(attr: Attribute | undefined): number[][] | undefined {
  if (!(attr instanceof ArrayAttr)) return undefined;
  const out: number[][] = [];
  for (const g of attr.elements) {
    if (!(g instanceof ArrayAttr)) return undefined;
    const group: number[] = [];
    for (const e of g.elements) {
      if (!(e instanceof IntegerAttr)) return undefined;
      group.push(Number(e.value));
    }
    out.push(group);
  }
  return out;
}

/** Builds the reassociation attribute `[[0, 1], [2]]` (i64 integers, as MLIR stores them). */
export function reassociationAttr(context: MLIRContext, groups: readonly (readonly number[])[]): ArrayAttr {
  const i64 = IntegerType.get(context, 64);
  return ArrayAttr.get(
    context,
    groups.map((g) => ArrayAttr.get(context, g.map((v) => IntegerAttr.get(i64, v)))),
  );
}

/** A parsed `[%a, 4, %b]` list: SSA operands and the static values (dynamic = {@link DYNAMIC}). */
export interface DynamicIndexList {
  readonly operands: readonly UnresolvedOperand[];
  readonly statics: number[];
}

/**
 * Parses `[` (ssa-use | integer) list `]` (MLIR's `parseDynamicIndexList`; `scf.forall`'s bounds
 * use parentheses).
 */
export function parseDynamicIndexList(parser: OpAsmParser, delimiter: 'square' | 'paren' = 'square'): DynamicIndexList | undefined {
  // Most lists are all static: the operand array is only allocated for a dynamic entry.
  let operands: UnresolvedOperand[] | undefined;
  const statics: number[] = [];
  const ok = parser.parseCommaSeparatedList(delimiter, () => {
    const operand = parser.parseOptionalOperand();
    if (operand === undefined) return false;
    if (operand !== null) {
      (operands ??= []).push(operand);
      statics.push(DYNAMIC);
      return true;
    }
    const v = parser.parseInteger();
    if (v === undefined) return false;
    statics.push(v);
    return true;
  });
  return ok ? { operands: operands ?? NO_INDEX_OPERANDS, statics } : undefined;
}

const NO_INDEX_OPERANDS: readonly UnresolvedOperand[] = Object.freeze([]);

/** Prints `[%a, 4, %b]` from the static values and the dynamic operands. */
export function printDynamicIndexList(printer: OpAsmPrinter, statics: readonly number[], dynamics: readonly Value[]): void {
  printer.print('[');
  let d = 0;
  for (let i = 0; i < statics.length; i++) {
    if (i) printer.print(', ');
    const v = statics[i]!;
    if (v === DYNAMIC) {
      const val = dynamics[d++];
      if (val) printer.printOperand(val);
      else printer.print('<<missing>>');
    } else printer.print(String(v));
  }
  printer.print(']');
}

/** Parses `[[0, 1], [2]]`. */
export function parseReassociation(parser: OpAsmParser): number[][] | undefined {
  const groups: number[][] = [];
  const ok = parser.parseCommaSeparatedList('square', () => {
    const g: number[] = [];
    const inner = parser.parseCommaSeparatedList('square', () => {
      const v = parser.parseInteger();
      if (v === undefined) return false;
      g.push(v);
      return true;
    });
    groups.push(g);
    return inner;
  });
  return ok ? groups : undefined;
}

/** Prints `[[0, 1], [2]]`. */
export function printReassociation(printer: OpAsmPrinter, groups: readonly (readonly number[])[]): void {
  printer.print('[' + groups.map((g) => '[' + g.join(', ') + ']').join(', ') + ']');
}

/** The index type of the parser's context. */
export function indexType(context: MLIRContext): IndexType {
  return IndexType.get(context);
}

/** Resolves `operands` all as `index`. */
export function resolveIndices(parser: OpAsmParser, operands: readonly UnresolvedOperand[], out: Value[]): boolean {
  return parser.resolveOperands(operands, IndexType.get(parser.context), out);
}

/** Parses `: type` and checks it is a ranked memref. */
export function parseColonMemRef(parser: OpAsmParser): MemRefType | undefined {
  const loc = parser.getCurrentLocation();
  const t = parser.parseColonType();
  if (t === undefined) return undefined;
  if (!(t instanceof MemRefType)) {
    parser.emitError(M.invalidTypeKind(typeText(t)), loc);
    return undefined;
  }
  return t;
}

/** Parses a type and checks it is a ranked memref. */
export function parseMemRefType(parser: OpAsmParser): MemRefType | undefined {
  const loc = parser.getCurrentLocation();
  const t = parser.parseType();
  if (t === undefined) return undefined;
  if (!(t instanceof MemRefType)) {
    parser.emitError(M.invalidTypeKind(typeText(t)), loc);
    return undefined;
  }
  return t;
}

function typeText(t: Type): string {
  return `'${formatType(t)}'`;
}

/** Parses the attribute dictionary and stores it in `state` (inherent names go to properties). */
export function parseAttrDictInto(parser: OpAsmParser, state: OperationState, inherent?: readonly string[]): boolean {
  const attrs = parser.parseOptionalAttrDict();
  if (attrs === undefined) return false;
  if (attrs.length === 0) return true;
  addAttributes(state, attrs, inherent ?? lookupOpDefinition(state.context, state.name)?.inherentAttrNames ?? NO_NAMES);
  return true;
}

const NO_NAMES: readonly string[] = [];

/**
 * Maps created here for an {@link OperationState} under construction: the next helper call
 * adds to them in place instead of copying (a caller's own map is never modified).
 */
const ownMaps = new WeakSet<Map<string, Attribute>>();

/** `state`'s properties or attributes as a map this module may modify. */
function ownMap(m: OperationState['properties']): Map<string, Attribute> {
  if (m instanceof Map && ownMaps.has(m as Map<string, Attribute>)) return m as Map<string, Attribute>;
  const own = new Map<string, Attribute>();
  if (m instanceof Map) for (const [k, v] of m as ReadonlyMap<string, Attribute>) own.set(k, v);
  else if (m !== undefined) for (const k of Object.keys(m)) own.set(k, (m as Readonly<Record<string, Attribute>>)[k]!);
  ownMaps.add(own);
  return own;
}

/** Adds parsed `name = value` entries to `state`: names in `inherent` become properties. */
export function addAttributes(
  state: OperationState,
  attrs: readonly { name: string; value: Attribute }[],
  inherent: readonly string[] | ReadonlySet<string>,
): void {
  let props: Map<string, Attribute> | undefined;
  let disc: Map<string, Attribute> | undefined;
  for (const a of attrs) {
    const isInherent = Array.isArray(inherent) ? (inherent as readonly string[]).includes(a.name) : (inherent as ReadonlySet<string>).has(a.name);
    if (isInherent) (props ??= ownMap(state.properties)).set(a.name, a.value);
    else (disc ??= ownMap(state.attributes)).set(a.name, a.value);
  }
  if (props) state.properties = props;
  if (disc) state.attributes = disc;
}

/** Sets one property on `state`. */
export function setProperty(state: OperationState, name: string, value: Attribute): void {
  const props = ownMap(state.properties);
  props.set(name, value);
  state.properties = props;
}

/** Prints ` {attrs}` for the op's properties and attributes except `elided` (sorted, as MLIR). */
export function printAttrDict(printer: OpAsmPrinter, op: Operation, elided: readonly string[] = []): void {
  const all = new Map<string, Attribute>();
  for (const [k, v] of op.properties) all.set(k, v);
  for (const [k, v] of op.attributes) all.set(k, v);
  printer.printOptionalAttrDict(all, ['operandSegmentSizes', 'resultSegmentSizes', ...elided]);
}

/** Sets `operandSegmentSizes` on `state`. */
export function setSegments(state: OperationState, sizes: readonly number[]): void {
  setProperty(state, 'operandSegmentSizes', DenseArrayAttr.i32(state.context, sizes));
}

/** Prints `%memref[%i, %j]`. */
export function printIndexed(printer: OpAsmPrinter, memref: Value, indices: readonly Value[]): void {
  printer.printOperand(memref);
  printer.print('[');
  printer.printOperands(indices);
  printer.print(']');
}

/** Prints ` {attrs} : type` (the attribute dictionary without `elided`, then the type). */
export function printAttrDictColonType(printer: OpAsmPrinter, op: Operation, type: Type, elided: readonly string[] = []): void {
  printAttrDict(printer, op, elided);
  printer.print(' : ');
  printer.printType(type);
}

/** Prints ` : source-type to result-type` of an op with one source operand and one result. */
export function printSourceToResultTypes(printer: OpAsmPrinter, op: Operation): void {
  printer.print(' : ');
  printer.printType(op.getOperand(0).type);
  printer.print(' to ');
  printer.printType(op.getResult(0).type);
}

/** Parses the cast form `%source {attrs} : source-type to result-type` (`memref.cast`, `tensor.cast`). */
export function parseCastLike(parser: OpAsmParser, state: OperationState): boolean {
  const s = parser.parseOperand();
  if (!s || !parseAttrDictInto(parser, state)) return false;
  const st = parser.parseColonType();
  if (!st || !parser.parseKeyword('to')) return false;
  const dt = parser.parseType();
  if (!dt) return false;
  const vals: Value[] = [];
  if (!parser.resolveOperand(s, st, vals)) return false;
  state.operands = vals;
  state.resultTypes = [dt];
  return true;
}

/** Prints the cast form of {@link parseCastLike}. */
export function printCastLike(op: Operation, printer: OpAsmPrinter): void {
  printer.print(' ');
  printer.printOperand(op.getOperand(0));
  printAttrDict(printer, op);
  printSourceToResultTypes(printer, op);
}

/** Parses `%operand {attrs} : type` (`memref.dealloc`, `memref.atomic_yield`); sets no result. */
export function parseOperandColonType(parser: OpAsmParser, state: OperationState): boolean {
  const v = parser.parseOperand();
  if (!v || !parseAttrDictInto(parser, state)) return false;
  const t = parser.parseColonType();
  if (!t) return false;
  const vals: Value[] = [];
  if (!parser.resolveOperand(v, t, vals)) return false;
  state.operands = vals;
  return true;
}

/** Prints the form of {@link parseOperandColonType}. */
export function printOperandColonType(op: Operation, printer: OpAsmPrinter): void {
  printer.print(' ');
  printer.printOperand(op.getOperand(0));
  printAttrDictColonType(printer, op, op.getOperand(0).type);
}

/** Parses the dim form `{attrs} %source, %index : source-type` (`memref.dim`, `tensor.dim`); the result is an index. */
export function parseDimLike(parser: OpAsmParser, state: OperationState): boolean {
  if (!parseAttrDictInto(parser, state)) return false;
  const s = parser.parseOperand();
  if (!s || !parser.parseComma()) return false;
  const i = parser.parseOperand();
  if (!i) return false;
  const t = parser.parseColonType();
  if (!t) return false;
  const vals: Value[] = [];
  if (!parser.resolveOperand(s, t, vals) || !parser.resolveOperand(i, IndexType.get(parser.context), vals)) return false;
  state.operands = vals;
  state.resultTypes = [IndexType.get(parser.context)];
  return true;
}

/** Prints the dim form of {@link parseDimLike}. */
export function printDimLike(op: Operation, printer: OpAsmPrinter): void {
  printAttrDict(printer, op);
  printer.print(' ');
  printer.printOperand(op.getOperand(0));
  printer.print(', ');
  printer.printOperand(op.getOperand(1));
  printer.print(' : ');
  printer.printType(op.getOperand(0).type);
}

/** Prints a terminator's `{attrs}` then, when it has operands, ` %a, %b : type-a, type-b`. */
export function printTerminatorOperands(printer: OpAsmPrinter, op: Operation): void {
  printAttrDict(printer, op);
  if (op.numOperands) {
    printer.print(' ');
    printer.printOperands(op.operands);
    printer.print(' : ');
    printer.printTypes(op.operands.map((v) => v.type));
  }
}
