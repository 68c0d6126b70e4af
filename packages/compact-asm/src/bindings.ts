import type { Location, OpAsmArgument, OpAsmParser, OpAsmPrinter, Type, UnresolvedOperand, Value } from '@raptor-pim/ir-core';
import { CompactAsmMessages as M } from './diagnostics';
import { parseCompactResultTypes, parseCompactTypeList, printCompactResultTypes, printDelimitedCompactTypeList } from './type-repetition';

/** The binding lists `[%w] = [%x] (%a) = (%y)` as parsed (types not known yet). */
export interface BindingLists {
  /** Body names of the weights (`[%w]`). */
  readonly weightArgs: OpAsmArgument[];
  /** Outer weight values (`= [%x]`). */
  readonly weights: UnresolvedOperand[];
  /** Body names of the inputs (`(%a)`). */
  readonly inputArgs: OpAsmArgument[];
  /** Outer input values (`= (%y)`). */
  readonly inputs: UnresolvedOperand[];
  /** Where the lists start (for count diagnostics). */
  readonly location: Location;
}

function parseOneBinding(
  parser: OpAsmParser,
  delimiter: 'square' | 'paren',
  what: string,
): { args: OpAsmArgument[]; values: UnresolvedOperand[] } | undefined {
  const at = parser.getCurrentLocation();
  const args = parser.parseArgumentList(delimiter);
  if (!args || !parser.parseEqual()) return undefined;
  const values = parser.parseOperandList(delimiter);
  if (!values) return undefined;
  if (args.length !== values.length) {
    parser.emitError(M.bindingCountMismatch(what, args.length, values.length), at);
    return undefined;
  }
  return { args, values };
}

/**
 * Parses `[%w, ...] = [%x, ...] (%a, ...) = (%y, ...)`: weight bindings in square brackets,
 * then input bindings in parentheses; each side of a binding has the same length.
 */
export function parseBindingLists(parser: OpAsmParser): BindingLists | undefined {
  const location = parser.getCurrentLocation();
  const w = parseOneBinding(parser, 'square', 'weight');
  if (!w) return undefined;
  const i = parseOneBinding(parser, 'paren', 'input');
  if (!i) return undefined;
  return { weightArgs: w.args, weights: w.values, inputArgs: i.args, inputs: i.values, location };
}

/** Prints `[%w] = [%x] (%a) = (%y)` from body arguments and outer values. */
export function printBindingLists(
  printer: OpAsmPrinter,
  weightArgs: readonly Value[],
  weights: readonly Value[],
  inputArgs: readonly Value[],
  inputs: readonly Value[],
): void {
  printer.print('[');
  printer.printOperands(weightArgs);
  printer.print('] = [');
  printer.printOperands(weights);
  printer.print('] (');
  printer.printOperands(inputArgs);
  printer.print(') = (');
  printer.printOperands(inputs);
  printer.print(')');
}

/** The binding signature `[W...] (I...) -> R` in compact form. */
export interface BindingTypes {
  readonly weightTypes: Type[];
  readonly inputTypes: Type[];
  readonly resultTypes: Type[];
}

/** Parses `[T x2] (U) -> R` (weights, inputs, results; compact type lists). */
export function parseBindingTypes(parser: OpAsmParser): BindingTypes | undefined {
  const weightTypes = parseCompactTypeList(parser, 'square');
  if (!weightTypes) return undefined;
  const inputTypes = parseCompactTypeList(parser, 'paren');
  if (!inputTypes || !parser.parseArrow()) return undefined;
  const resultTypes = parseCompactResultTypes(parser);
  if (!resultTypes) return undefined;
  return { weightTypes, inputTypes, resultTypes };
}

/** Prints `[T x2] (U) -> R` in canonical compact form. */
export function printBindingTypes(
  printer: OpAsmPrinter,
  weightTypes: readonly Type[],
  inputTypes: readonly Type[],
  resultTypes: readonly Type[],
): void {
  printDelimitedCompactTypeList(printer, weightTypes, '[', ']');
  printer.print(' ');
  printDelimitedCompactTypeList(printer, inputTypes, '(', ')');
  printer.print(' -> ');
  printCompactResultTypes(printer, resultTypes);
}

/**
 * Resolves the outer values of `bindings` against `types` (appending weights then inputs to
 * `operands`) and gives every body argument its type. Diagnoses count mismatches.
 */
export function resolveBindings(
  parser: OpAsmParser,
  bindings: BindingLists,
  types: BindingTypes,
  operands: Value[],
): boolean {
  if (types.weightTypes.length !== bindings.weights.length) {
    parser.emitError(M.bindingTypeCountMismatch('weight', types.weightTypes.length, bindings.weights.length), bindings.location);
    return false;
  }
  if (types.inputTypes.length !== bindings.inputs.length) {
    parser.emitError(M.bindingTypeCountMismatch('input', types.inputTypes.length, bindings.inputs.length), bindings.location);
    return false;
  }
  if (!parser.resolveOperands(bindings.weights, types.weightTypes, operands, bindings.location)) return false;
  if (!parser.resolveOperands(bindings.inputs, types.inputTypes, operands, bindings.location)) return false;
  bindings.weightArgs.forEach((a, k) => (a.type = types.weightTypes[k]));
  bindings.inputArgs.forEach((a, k) => (a.type = types.inputTypes[k]));
  return true;
}

/** Parses `shared_outs(%o, ...)` when the keyword is present; `null` when absent. */
export function parseOptionalSharedOuts(parser: OpAsmParser): OpAsmArgument[] | null | undefined {
  if (parser.parseOptionalKeyword('shared_outs') === null) return null;
  return parser.parseArgumentList('paren');
}

/** Prints `shared_outs(%o, ...)`. */
export function printSharedOuts(printer: OpAsmPrinter, outs: readonly Value[]): void {
  printer.print('shared_outs(');
  printer.printOperands(outs);
  printer.print(')');
}
