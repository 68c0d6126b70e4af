/**
 * `affine.apply`: applies a one-result affine map to index operands (dimensions first, then
 * symbols). Custom form `affine.apply #map(%d0, %d1)[%s0]`; folds to a constant when every
 * operand is constant, and to the operand when the map is a single dimension or symbol.
 */
import {
  AffineConstantExpr,
  AffineDimExpr,
  AffineMapAttr,
  AffineMapAttrConstraint,
  AffineSymbolExpr,
  defineOp,
  Index,
  IndexType,
  IntegerAttr,
  prop,
  single,
  Traits,
  variadic,
  type Attribute,
  type UnresolvedOperand,
  type Value,
} from '@raptor-pim/ir-core';
import { addAttributes, parseAttrDictInto, printAttrDict, resolveIndices } from '../memref/asm';
import { AffineMessages as M } from './diagnostics';
import { getAffineScope, isValidDim, isValidSymbol } from './scope';

/** `affine.apply`. */
export const ApplyOp = defineOp({
  name: 'affine.apply',
  summary: 'affine apply operation',
  operands: { mapOperands: variadic(Index) },
  results: { result: single(Index) },
  attributes: { map: prop(AffineMapAttrConstraint) },
  traits: [Traits.Pure],
  verify(view) {
    const map = view.map.value;
    if (view.mapOperands.length !== map.numDims + map.numSymbols) {
      view.emitOpError(M.operandCount);
      return false;
    }
    if (map.results.length !== 1) {
      view.emitOpError(M.oneResult);
      return false;
    }
    // MLIR 22: a valid dimension that is not a valid symbol may not sit in a symbol position.
    // Operands that are neither (like scf.forall lane variables) are accepted in both positions.
    const scope = getAffineScope(view.op);
    for (const operand of view.mapOperands.slice(map.numDims)) {
      if (isValidDim(operand, scope) && !isValidSymbol(operand, scope)) {
        view.op.emitError(M.dimensionalOperandAsSymbol);
        return false;
      }
    }
    return true;
  },
  fold(view, operands) {
    const map = view.map.value;
    if (map.results.length !== 1) return null;
    const expr = map.results[0]!;
    if (expr instanceof AffineDimExpr) return [view.mapOperands[expr.position]!];
    if (expr instanceof AffineSymbolExpr) return [view.mapOperands[map.numDims + expr.position]!];
    const index = IndexType.get(view.op.context);
    if (expr instanceof AffineConstantExpr) return [IntegerAttr.get(index, expr.value)];
    const values: number[] = [];
    for (const a of operands) {
      if (!(a instanceof IntegerAttr)) return null;
      values.push(Number(a.value));
    }
    const r = map.evaluate(values.slice(0, map.numDims), values.slice(map.numDims));
    return r ? [IntegerAttr.get(index, r[0]!)] : null;
  },
  parse(parser, state) {
    const loc = parser.getCurrentLocation();
    const attr = parser.parseAttribute();
    if (!attr) return false;
    if (!(attr instanceof AffineMapAttr)) {
      parser.emitError(M.expectedMap, loc);
      return false;
    }
    const dims = parser.parseOperandList('paren');
    if (!dims) return false;
    let syms: UnresolvedOperand[] | undefined = [];
    if (parser.parseOptionalLSquare()) {
      syms = [];
      if (!parser.parseOptionalRSquare()) {
        do {
          const o = parser.parseOperand();
          if (!o) return false;
          syms.push(o);
        } while (parser.parseOptionalComma());
        if (!parser.parseRSquare()) return false;
      }
    }
    if (attr.value.numDims !== dims.length || attr.value.numSymbols !== syms.length) {
      parser.emitError(`custom op '${state.name}' ` + M.dimSymbolMismatch, parser.getNameLocation());
      return false;
    }
    if (!parseAttrDictInto(parser, state)) return false;
    const vals: Value[] = [];
    if (!resolveIndices(parser, [...dims, ...syms], vals)) return false;
    state.operands = vals;
    state.resultTypes = [IndexType.get(state.context)];
    addAttributes(state, [{ name: 'map', value: attr as Attribute }], ['map']);
    return true;
  },
  print(op, p) {
    const mapAttr = ApplyOp.get(op).map;
    const map = mapAttr.value;
    p.print(' ');
    p.printAttribute(mapAttr);
    p.print('(');
    p.printOperands(op.operands.slice(0, map.numDims));
    p.print(')');
    if (map.numSymbols) {
      p.print('[');
      p.printOperands(op.operands.slice(map.numDims));
      p.print(']');
    }
    printAttrDict(p, op, ['map']);
  },
});
