/**
 * The assembly of the reassociation reshapes, shared by `memref.collapse_shape` /
 * `memref.expand_shape` and `tensor.collapse_shape` / `tensor.expand_shape` (MLIR's
 * `ReshapeOpsUtils`): `%src [[0, 1], [2]] [output_shape [...]] attr-dict : type into type`.
 * Each dialect keeps its own verification and type parsing.
 */
import type { Attribute, OpAsmParser, OpAsmPrinter, Operation, OperationState, Type, Value } from '@raptor-pim/ir-core';
import {
  addAttributes,
  parseAttrDictInto,
  parseDynamicIndexList,
  parseReassociation,
  printAttrDict,
  printDynamicIndexList,
  printReassociation,
  readReassociation,
  readStaticArray,
  reassociationAttr,
  resolveIndices,
  staticArray,
} from './memref/asm';

/** How one dialect spells the parts of a reshape that differ. */
export interface ReshapeSyntax {
  /** `expand_shape` (with `output_shape [...]`) or `collapse_shape`. */
  readonly expand: boolean;
  /** Parses the source or result type (after `:` and after `into`). */
  parseType(parser: OpAsmParser): Type | undefined;
  /** The message when `output_shape` is missing; the parser's "expected 'output_shape'" when absent. */
  missingOutputShape?(state: OperationState): string;
}

/** Parses a reshape as `syntax` says into `state`. */
export function parseReshape(parser: OpAsmParser, state: OperationState, syntax: ReshapeSyntax): boolean {
  const src = parser.parseOperand();
  if (!src) return false;
  const groups = parseReassociation(parser);
  if (!groups) return false;
  let shape: ReturnType<typeof parseDynamicIndexList>;
  if (syntax.expand) {
    if (!parser.parseOptionalKeyword('output_shape')) {
      if (syntax.missingOutputShape) parser.emitError(syntax.missingOutputShape(state));
      else parser.parseKeyword('output_shape');
      return false;
    }
    shape = parseDynamicIndexList(parser);
    if (!shape) return false;
  }
  if (!parseAttrDictInto(parser, state) || !parser.parseColon()) return false;
  const st = syntax.parseType(parser);
  if (!st || !parser.parseKeyword('into')) return false;
  const dt = syntax.parseType(parser);
  if (!dt) return false;
  const vals: Value[] = [];
  if (!parser.resolveOperand(src, st, vals) || (shape && !resolveIndices(parser, shape.operands, vals))) return false;
  state.operands = vals;
  state.resultTypes = [dt];
  const attrs: { name: string; value: Attribute }[] = [{ name: 'reassociation', value: reassociationAttr(state.context, groups) }];
  if (shape)
    attrs.push({
      name: 'static_output_shape',
      value: staticArray(state.context, shape.statics),
    });
  addAttributes(state, attrs, ['reassociation', 'static_output_shape']);
  return true;
}

/** Prints a reshape (`output_shape [...]` when it has `static_output_shape`). */
export function printReshape(op: Operation, p: OpAsmPrinter): void {
  p.print(' ');
  p.printOperand(op.getOperand(0));
  p.print(' ');
  printReassociation(p, readReassociation(op.getAttr('reassociation')) ?? []);
  const outputShape = op.getAttr('static_output_shape');
  if (outputShape) {
    p.print(' output_shape ');
    printDynamicIndexList(p, readStaticArray(outputShape), op.operands.slice(1));
  }
  printAttrDict(p, op, ['reassociation', 'static_output_shape']);
  p.print(' : ');
  p.printType(op.getOperand(0).type);
  p.print(' into ');
  p.printType(op.getResult(0).type);
}
