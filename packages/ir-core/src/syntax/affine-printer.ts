import { AffineBinaryExpr, AffineConstantExpr, AffineDimExpr, AffineSymbolExpr, type AffineExpr } from '../affine/affine-expr';
import type { AffineMap, IntegerSet } from '../affine/affine-map';

const SPELLING: Record<string, string> = { mul: ' * ', floordiv: ' floordiv ', ceildiv: ' ceildiv ', mod: ' mod ' };

/** Appends MLIR's spelling of `expr` to `out` (parentheses and subtraction exactly as MLIR prints). */
export function printAffineExprTo(out: string[], expr: AffineExpr, strong = false): void {
  if (expr instanceof AffineDimExpr) {
    out.push('d' + expr.position);
    return;
  }
  if (expr instanceof AffineSymbolExpr) {
    out.push('s' + expr.position);
    return;
  }
  if (expr instanceof AffineConstantExpr) {
    out.push(String(expr.value));
    return;
  }
  const bin = expr as AffineBinaryExpr;
  const { lhs, rhs } = bin;
  if (bin.kind !== 'add') {
    if (strong) out.push('(');
    if (rhs instanceof AffineConstantExpr && bin.kind === 'mul' && rhs.value === -1) {
      out.push('-');
      printAffineExprTo(out, lhs, true);
      if (strong) out.push(')');
      return;
    }
    printAffineExprTo(out, lhs, true);
    out.push(SPELLING[bin.kind]);
    printAffineExprTo(out, rhs, true);
    if (strong) out.push(')');
    return;
  }
  if (strong) out.push('(');
  if (rhs instanceof AffineBinaryExpr && rhs.kind === 'mul' && rhs.rhs instanceof AffineConstantExpr) {
    const c = rhs.rhs.value;
    if (c === -1) {
      printAffineExprTo(out, lhs, false);
      out.push(' - ');
      printAffineExprTo(out, rhs.lhs, rhs.lhs.kind === 'add');
      if (strong) out.push(')');
      return;
    }
    if (c < -1) {
      printAffineExprTo(out, lhs, false);
      out.push(' - ');
      printAffineExprTo(out, rhs.lhs, true);
      out.push(' * ' + String(-c));
      if (strong) out.push(')');
      return;
    }
  }
  if (rhs instanceof AffineConstantExpr && rhs.value < 0) {
    printAffineExprTo(out, lhs, false);
    out.push(' - ' + String(-rhs.value));
    if (strong) out.push(')');
    return;
  }
  printAffineExprTo(out, lhs, false);
  out.push(' + ');
  printAffineExprTo(out, rhs, false);
  if (strong) out.push(')');
}

function printDimsAndSymbols(out: string[], numDims: number, numSymbols: number): void {
  out.push('(');
  for (let i = 0; i < numDims; i++) out.push(i ? ', d' + i : 'd' + i);
  out.push(')');
  if (numSymbols) {
    out.push('[');
    for (let i = 0; i < numSymbols; i++) out.push(i ? ', s' + i : 's' + i);
    out.push(']');
  }
}

/** Appends `(d0)[s0] -> (...)`. */
export function printAffineMapTo(out: string[], map: AffineMap): void {
  printDimsAndSymbols(out, map.numDims, map.numSymbols);
  out.push(' -> (');
  map.results.forEach((r, i) => {
    if (i) out.push(', ');
    printAffineExprTo(out, r);
  });
  out.push(')');
}

/** Appends `(d0)[s0] : (d0 - s0 >= 0, d0 == 0)` (an empty set prints `(0 == 0)` as MLIR). */
export function printIntegerSetTo(out: string[], set: IntegerSet): void {
  printDimsAndSymbols(out, set.numDims, set.numSymbols);
  out.push(' : (');
  if (set.constraints.length === 0) out.push('0 == 0');
  set.constraints.forEach((c, i) => {
    if (i) out.push(', ');
    printAffineExprTo(out, c);
    out.push(set.isEquality[i] ? ' == 0' : ' >= 0');
  });
  out.push(')');
}

/** MLIR's spelling of an affine expression. */
export function affineExprToString(expr: AffineExpr): string {
  const out: string[] = [];
  printAffineExprTo(out, expr);
  return out.join('');
}
/** MLIR's spelling of an affine map (without `affine_map<...>`). */
export function affineMapToString(map: AffineMap): string {
  const out: string[] = [];
  printAffineMapTo(out, map);
  return out.join('');
}
/** MLIR's spelling of an integer set (without `affine_set<...>`). */
export function integerSetToString(set: IntegerSet): string {
  const out: string[] = [];
  printIntegerSetTo(out, set);
  return out.join('');
}
