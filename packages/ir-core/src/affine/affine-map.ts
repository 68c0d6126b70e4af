import type { MLIRContext } from '../ir/context';
import {
  AffineBinaryExpr,
  AffineConstantExpr,
  AffineDimExpr,
  AffineSymbolExpr,
  getAffineDimExpr,
  type AffineExpr,
  ceilDivInt,
  floorDivInt,
  modInt,
} from './affine-expr';

let nextMapId = 1;

function exprListKey(exprs: readonly AffineExpr[]): string {
  let key = '';
  for (let i = 0; i < exprs.length; i++) key += (i ? ',' : '') + exprs[i].id;
  return key;
}

/**
 * `(d0, d1)[s0] -> (d0 + s0, d1)`: a uniqued affine map with `numDims` dimensions,
 * `numSymbols` symbols and a list of result expressions.
 */
export class AffineMap {
  readonly id: number = nextMapId++;
  private constructor(
    readonly context: MLIRContext,
    readonly numDims: number,
    readonly numSymbols: number,
    readonly results: readonly AffineExpr[],
  ) {}

  /** The uniqued map. */
  static get(context: MLIRContext, numDims: number, numSymbols: number, results: readonly AffineExpr[]): AffineMap {
    return context.unique(
      `am:${numDims}:${numSymbols}:${exprListKey(results)}`,
      () => new AffineMap(context, numDims, numSymbols, Object.freeze([...results])),
    );
  }

  /** `(d0, ..., dn-1) -> (d0, ..., dn-1)`. */
  static identity(context: MLIRContext, numDims: number): AffineMap {
    const results: AffineExpr[] = [];
    for (let i = 0; i < numDims; i++) results.push(getAffineDimExpr(context, i));
    return AffineMap.get(context, numDims, 0, results);
  }

  /** True for `(d0, ..., dn-1) -> (d0, ..., dn-1)` with no symbols. */
  get isIdentity(): boolean {
    if (this.numSymbols !== 0 || this.results.length !== this.numDims) return false;
    return this.results.every((r, i) => r instanceof AffineDimExpr && r.position === i);
  }

  /**
   * Applies the map to integer dimension and symbol values. Returns undefined on a division
   * or modulo by a non-positive value, or a dimension/symbol count mismatch.
   */
  evaluate(dims: readonly number[], symbols: readonly number[] = []): number[] | undefined {
    if (dims.length !== this.numDims || symbols.length !== this.numSymbols) return undefined;
    const out: number[] = [];
    for (const r of this.results) {
      const v = evaluateAffineExpr(r, dims, symbols);
      if (v === undefined) return undefined;
      out.push(v === 0 ? 0 : v); // no -0

    }
    return out;
  }
}

/**
 * Evaluates an affine expression on integer values (MLIR semantics: floordiv/ceildiv round
 * toward -inf/+inf, mod is non-negative). Undefined for a non-positive divisor or an
 * out-of-range dimension/symbol.
 */
export function evaluateAffineExpr(expr: AffineExpr, dims: readonly number[], symbols: readonly number[]): number | undefined {
  if (expr instanceof AffineConstantExpr) return expr.value;
  if (expr instanceof AffineDimExpr) return dims[expr.position];
  if (expr instanceof AffineSymbolExpr) return symbols[expr.position];
  if (expr instanceof AffineBinaryExpr) {
    const l = evaluateAffineExpr(expr.lhs, dims, symbols);
    const r = evaluateAffineExpr(expr.rhs, dims, symbols);
    if (l === undefined || r === undefined) return undefined;
    switch (expr.kind) {
      case 'add':
        return l + r;
      case 'mul':
        return l * r;
      case 'floordiv':
        return r < 1 ? undefined : floorDivInt(l, r);
      case 'ceildiv':
        return r < 1 ? undefined : ceilDivInt(l, r);
      case 'mod':
        return r < 1 ? undefined : modInt(l, r);
    }
  }
  return undefined;
}

/**
 * `affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>`: constraints `expr >= 0` or `expr == 0`
 * (`isEquality[i]`).
 */
export class IntegerSet {
  readonly id: number = nextMapId++;
  private constructor(
    readonly context: MLIRContext,
    readonly numDims: number,
    readonly numSymbols: number,
    readonly constraints: readonly AffineExpr[],
    readonly isEquality: readonly boolean[],
  ) {}

  static get(
    context: MLIRContext,
    numDims: number,
    numSymbols: number,
    constraints: readonly AffineExpr[],
    isEquality: readonly boolean[],
  ): IntegerSet {
    return context.unique(
      `is:${numDims}:${numSymbols}:${exprListKey(constraints)}:${isEquality.map((e) => (e ? 1 : 0)).join('')}`,
      () => new IntegerSet(context, numDims, numSymbols, Object.freeze([...constraints]), Object.freeze([...isEquality])),
    );
  }

  /** True when the point satisfies every constraint. */
  contains(dims: readonly number[], symbols: readonly number[] = []): boolean {
    for (let i = 0; i < this.constraints.length; i++) {
      const v = evaluateAffineExpr(this.constraints[i], dims, symbols);
      if (v === undefined) return false;
      if (this.isEquality[i] ? v !== 0 : v < 0) return false;
    }
    return true;
  }
}
