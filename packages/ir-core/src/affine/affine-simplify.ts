import {
  AffineBinaryExpr,
  AffineConstantExpr,
  AffineDimExpr,
  AffineSymbolExpr,
  getAffineConstantExpr,
  getAffineDimExpr,
  getAffineSymbolExpr,
  type AffineExpr,
} from './affine-expr';
import { AffineMap, IntegerSet } from './affine-map';
import type { MLIRContext } from '../ir/context';

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * MLIR's `SimpleAffineExprFlattener` for pure affine expressions: every expression becomes a
 * row `[dims..., symbols..., locals..., constant]`, where locals stand for floordiv/ceildiv
 * results (mod is `e - c * (e floordiv c)`).
 */
class Flattener {
  readonly localExprs: AffineExpr[] = [];
  private readonly stack: number[][] = [];
  numLocals = 0;
  constructor(
    private readonly context: MLIRContext,
    readonly numDims: number,
    readonly numSymbols: number,
  ) {}

  private get width(): number {
    return this.numDims + this.numSymbols + this.numLocals + 1;
  }
  private get constIndex(): number {
    return this.width - 1;
  }
  private get localStart(): number {
    return this.numDims + this.numSymbols;
  }

  /** Flattens `expr` (post-order, iterative); returns undefined for non-pure-affine input. */
  flatten(expr: AffineExpr): number[] | undefined {
    type Item = { e: AffineExpr; visited: boolean };
    const work: Item[] = [{ e: expr, visited: false }];
    while (work.length) {
      const item = work.pop()!;
      const e = item.e;
      if (e instanceof AffineBinaryExpr && !item.visited) {
        work.push({ e, visited: true }, { e: e.rhs, visited: false }, { e: e.lhs, visited: false });
        continue;
      }
      const row = new Array<number>(this.width).fill(0);
      if (e instanceof AffineDimExpr) {
        row[e.position] = 1;
        this.stack.push(row);
      } else if (e instanceof AffineSymbolExpr) {
        row[this.numDims + e.position] = 1;
        this.stack.push(row);
      } else if (e instanceof AffineConstantExpr) {
        row[this.constIndex] = e.value;
        this.stack.push(row);
      } else if (e instanceof AffineBinaryExpr) {
        const rhs = this.stack.pop()!;
        const lhs = this.stack[this.stack.length - 1];
        if (e.kind === 'add') {
          for (let i = 0; i < lhs.length; i++) lhs[i] += rhs[i];
        } else {
          if (!(e.rhs instanceof AffineConstantExpr)) return undefined; // semi-affine
          const c = rhs[this.constIndex];
          if (e.kind === 'mul') {
            for (let i = 0; i < lhs.length; i++) lhs[i] *= c;
          } else if (c <= 0) return undefined;
          else if (e.kind === 'mod') this.visitMod(lhs, c);
          else this.visitDiv(lhs, c, e.kind === 'ceildiv');
        }
      }
    }
    return this.stack.pop();
  }

  private exprOf(row: readonly number[]): AffineExpr {
    return getAffineExprFromFlatForm(this.context, row, this.numDims, this.numSymbols, this.localExprs);
  }

  private findLocal(e: AffineExpr): number {
    return this.localExprs.indexOf(e);
  }

  private addLocal(e: AffineExpr): void {
    this.localExprs.push(e);
    const at = this.localStart + this.numLocals;
    for (const row of this.stack) row.splice(at, 0, 0);
    this.numLocals++;
  }

  private visitMod(lhs: number[], c: number): void {
    if (lhs.every((v) => v % c === 0)) {
      lhs.fill(0);
      return;
    }
    let g = c;
    for (const v of lhs) g = gcd(g, v);
    const dividend = lhs.map((v) => v / g);
    const divisor = c / g;
    const floorDiv = this.exprOf(dividend).floorDiv(getAffineConstantExpr(this.context, divisor));
    const loc = this.findLocal(floorDiv);
    if (loc === -1) {
      this.addLocal(floorDiv);
      lhs[this.localStart + this.numLocals - 1] = -c;
    } else lhs[this.localStart + loc] -= c;
  }

  private visitDiv(lhs: number[], c: number, isCeil: boolean): void {
    let g = Math.abs(c);
    for (const v of lhs) g = gcd(g, v);
    if (g !== 1) for (let i = 0; i < lhs.length; i++) lhs[i] = lhs[i] / g;
    const divisor = c / g;
    if (divisor === 1) return;
    const a = this.exprOf(lhs);
    const b = getAffineConstantExpr(this.context, divisor);
    const divExpr = isCeil ? a.ceilDiv(b) : a.floorDiv(b);
    let loc = this.findLocal(divExpr);
    if (loc === -1) {
      this.addLocal(divExpr);
      loc = this.numLocals - 1;
    }
    lhs.fill(0);
    lhs[this.localStart + loc] = 1;
  }
}

/**
 * MLIR's `getAffineExprFromFlatForm`: rebuilds `sum(coeff * id) + locals + constant` in the
 * canonical order (dims, symbols, locals, constant) through the simplifying constructors.
 */
export function getAffineExprFromFlatForm(
  context: MLIRContext,
  flat: readonly number[],
  numDims: number,
  numSymbols: number,
  localExprs: readonly AffineExpr[],
): AffineExpr {
  let expr: AffineExpr = getAffineConstantExpr(context, 0);
  for (let j = 0; j < numDims + numSymbols; j++) {
    if (flat[j] === 0) continue;
    const id = j < numDims ? getAffineDimExpr(context, j) : getAffineSymbolExpr(context, j - numDims);
    expr = expr.add(id.mul(flat[j]));
  }
  for (let j = numDims + numSymbols; j < flat.length - 1; j++) {
    if (flat[j] === 0) continue;
    expr = expr.add(localExprs[j - numDims - numSymbols].mul(flat[j]));
  }
  const c = flat[flat.length - 1];
  if (c !== 0) expr = expr.add(c);
  return expr;
}

/**
 * MLIR's `simplifyAffineExpr` for pure affine expressions: flattens to a sum of dims,
 * symbols, floordiv/ceildiv terms and a constant, cancels what cancels (`d0 + d1 - d0` ->
 * `d1`, `(d0 floordiv 2) * 2 + d0 mod 2` -> `d0`) and rebuilds in canonical order.
 * Semi-affine expressions (products of dims and symbols) are returned unchanged (a known limit).
 */
export function simplifyAffineExpr(expr: AffineExpr, numDims: number, numSymbols: number): AffineExpr {
  if (!expr.isPureAffine) return expr;
  const f = new Flattener(expr.context, numDims, numSymbols);
  const flat = f.flatten(expr);
  if (!flat) return expr;
  return getAffineExprFromFlatForm(expr.context, flat, numDims, numSymbols, f.localExprs);
}

/** Simplifies every result of `map` (MLIR's `simplifyAffineMap`). */
export function simplifyAffineMap(map: AffineMap): AffineMap {
  return AffineMap.get(
    map.context,
    map.numDims,
    map.numSymbols,
    map.results.map((r) => simplifyAffineExpr(r, map.numDims, map.numSymbols)),
  );
}

/** Simplifies every constraint of `set`. */
export function simplifyIntegerSet(set: IntegerSet): IntegerSet {
  return IntegerSet.get(
    set.context,
    set.numDims,
    set.numSymbols,
    set.constraints.map((c) => simplifyAffineExpr(c, set.numDims, set.numSymbols)),
    set.isEquality,
  );
}
