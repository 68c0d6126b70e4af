import type { MLIRContext } from '../ir/context';

let nextExprId = 1;

/** The kinds of affine expressions, as MLIR names them. */
export type AffineExprKind = 'add' | 'mul' | 'mod' | 'floordiv' | 'ceildiv' | 'constant' | 'dim' | 'symbol';

/** The binary kinds. */
export type AffineBinaryKind = 'add' | 'mul' | 'mod' | 'floordiv' | 'ceildiv';

/**
 * An affine expression, uniqued in its context (compare with `===`). Build binary expressions
 * with {@link AffineExpr.add} and friends: they apply MLIR's construction-time simplifications
 * (constant folding, constants to the right, `d0 * 2 + d0` -> `d0 * 3`, ...), so parsed and
 * built expressions print exactly as MLIR prints them.
 */
export abstract class AffineExpr {
  /** A unique small integer per expression, for uniquing keys. */
  readonly id: number = nextExprId++;
  abstract readonly kind: AffineExprKind;
  constructor(readonly context: MLIRContext) {}

  /** `this + other` with MLIR's simplifications. */
  add(other: AffineExpr | number): AffineExpr {
    const rhs = toExpr(this.context, other);
    return simplifyAdd(this, rhs) ?? binary(this.context, 'add', this, rhs);
  }
  /** `this - other` (that is `this + other * -1`). */
  sub(other: AffineExpr | number): AffineExpr {
    return this.add(toExpr(this.context, other).neg());
  }
  /** `this * other` with MLIR's simplifications. */
  mul(other: AffineExpr | number): AffineExpr {
    const rhs = toExpr(this.context, other);
    return simplifyMul(this, rhs) ?? binary(this.context, 'mul', this, rhs);
  }
  /** `-this` (that is `this * -1`). */
  neg(): AffineExpr {
    return this.mul(-1);
  }
  /** `this floordiv other`. */
  floorDiv(other: AffineExpr | number): AffineExpr {
    const rhs = toExpr(this.context, other);
    return simplifyFloorDiv(this, rhs) ?? binary(this.context, 'floordiv', this, rhs);
  }
  /** `this ceildiv other`. */
  ceilDiv(other: AffineExpr | number): AffineExpr {
    const rhs = toExpr(this.context, other);
    return simplifyCeilDiv(this, rhs) ?? binary(this.context, 'ceildiv', this, rhs);
  }
  /** `this mod other`. */
  mod(other: AffineExpr | number): AffineExpr {
    const rhs = toExpr(this.context, other);
    return simplifyMod(this, rhs) ?? binary(this.context, 'mod', this, rhs);
  }

  /** True when the expression uses no dimension (only symbols and constants). */
  get isSymbolicOrConstant(): boolean {
    switch (this.kind) {
      case 'constant':
      case 'symbol':
        return true;
      case 'dim':
        return false;
      default: {
        const b = this as unknown as AffineBinaryExpr;
        return b.lhs.isSymbolicOrConstant && b.rhs.isSymbolicOrConstant;
      }
    }
  }

  /** True for pure affine expressions (mul/div/mod only by constants). */
  get isPureAffine(): boolean {
    if (!(this instanceof AffineBinaryExpr)) return true;
    const { lhs, rhs } = this;
    if (this.kind === 'add') return lhs.isPureAffine && rhs.isPureAffine;
    if (this.kind === 'mul')
      return lhs.isPureAffine && rhs.isPureAffine && (lhs instanceof AffineConstantExpr || rhs instanceof AffineConstantExpr);
    return lhs.isPureAffine && rhs instanceof AffineConstantExpr;
  }

  /** The largest integer known to divide the expression (MLIR's `getLargestKnownDivisor`). */
  get largestKnownDivisor(): number {
    switch (this.kind) {
      case 'constant':
        return Math.abs((this as unknown as AffineConstantExpr).value);
      case 'mul': {
        const b = this as unknown as AffineBinaryExpr;
        return b.lhs.largestKnownDivisor * b.rhs.largestKnownDivisor;
      }
      case 'add':
      case 'mod': {
        const b = this as unknown as AffineBinaryExpr;
        return gcd(b.lhs.largestKnownDivisor, b.rhs.largestKnownDivisor);
      }
      default:
        return 1;
    }
  }

  /** Substitutes dimensions and symbols (missing replacements keep the original). */
  replaceDimsAndSymbols(dims: readonly AffineExpr[], symbols: readonly AffineExpr[]): AffineExpr {
    if (this instanceof AffineDimExpr) return this.position < dims.length ? dims[this.position] : this;
    if (this instanceof AffineSymbolExpr) return this.position < symbols.length ? symbols[this.position] : this;
    if (this instanceof AffineBinaryExpr) {
      const l = this.lhs.replaceDimsAndSymbols(dims, symbols);
      const r = this.rhs.replaceDimsAndSymbols(dims, symbols);
      if (l === this.lhs && r === this.rhs) return this;
      return getAffineBinaryExpr(this.kind, l, r);
    }
    return this;
  }
}

/** `d<position>`. */
export class AffineDimExpr extends AffineExpr {
  readonly kind = 'dim' as const;
  /** @internal */
  constructor(
    context: MLIRContext,
    readonly position: number,
  ) {
    super(context);
  }
}

/** `s<position>`. */
export class AffineSymbolExpr extends AffineExpr {
  readonly kind = 'symbol' as const;
  /** @internal */
  constructor(
    context: MLIRContext,
    readonly position: number,
  ) {
    super(context);
  }
}

/** An integer constant (int64 in MLIR; a safe JS integer here). */
export class AffineConstantExpr extends AffineExpr {
  readonly kind = 'constant' as const;
  /** @internal */
  constructor(
    context: MLIRContext,
    readonly value: number,
  ) {
    super(context);
  }
}

/** `lhs op rhs` for add, mul, mod, floordiv, ceildiv (subtraction is `lhs + rhs * -1`). */
export class AffineBinaryExpr extends AffineExpr {
  /** @internal */
  constructor(
    context: MLIRContext,
    readonly kind: AffineBinaryKind,
    readonly lhs: AffineExpr,
    readonly rhs: AffineExpr,
  ) {
    super(context);
  }
}

/** The uniqued `d<position>`. */
export function getAffineDimExpr(context: MLIRContext, position: number): AffineDimExpr {
  return context.unique(`ae.d:${position}`, () => new AffineDimExpr(context, position));
}

/** The uniqued `s<position>`. */
export function getAffineSymbolExpr(context: MLIRContext, position: number): AffineSymbolExpr {
  return context.unique(`ae.s:${position}`, () => new AffineSymbolExpr(context, position));
}

/** The uniqued constant expression. */
export function getAffineConstantExpr(context: MLIRContext, value: number): AffineConstantExpr {
  const v = value === 0 ? 0 : value; // fold -0
  return context.unique(`ae.c:${v}`, () => new AffineConstantExpr(context, v));
}

/** Builds `lhs kind rhs` with MLIR's simplifications (like `mlir::getAffineBinaryOpExpr`). */
export function getAffineBinaryExpr(kind: AffineBinaryKind, lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  switch (kind) {
    case 'add':
      return lhs.add(rhs);
    case 'mul':
      return lhs.mul(rhs);
    case 'mod':
      return lhs.mod(rhs);
    case 'floordiv':
      return lhs.floorDiv(rhs);
    case 'ceildiv':
      return lhs.ceilDiv(rhs);
  }
}

function binary(context: MLIRContext, kind: AffineBinaryKind, lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  return context.unique(`ae.${kind}:${lhs.id}:${rhs.id}`, () => new AffineBinaryExpr(context, kind, lhs, rhs));
}

function toExpr(context: MLIRContext, e: AffineExpr | number): AffineExpr {
  return typeof e === 'number' ? getAffineConstantExpr(context, e) : e;
}

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/** Floor division of integers (MLIR's `floorDiv`). */
export function floorDivInt(lhs: number, rhs: number): number {
  return Math.floor(lhs / rhs);
}
/** Ceiling division of integers (MLIR's `ceilDiv`). */
export function ceilDivInt(lhs: number, rhs: number): number {
  return Math.ceil(lhs / rhs);
}
/** Non-negative modulo for a positive divisor (MLIR's `mod`). */
export function modInt(lhs: number, rhs: number): number {
  const m = lhs % rhs;
  return m < 0 ? m + rhs : m === 0 ? 0 : m;
}

function constOf(e: AffineExpr): number | undefined {
  return e instanceof AffineConstantExpr ? e.value : undefined;
}

function simplifyAdd(lhs: AffineExpr, rhs: AffineExpr): AffineExpr | undefined {
  const ctx = lhs.context;
  const lc = constOf(lhs);
  const rc = constOf(rhs);
  if (lc !== undefined && rc !== undefined) {
    const sum = lc + rc;
    if (!Number.isSafeInteger(sum)) return undefined;
    return getAffineConstantExpr(ctx, sum);
  }
  // Constants and symbolic terms go to the right.
  if (lc !== undefined || (lhs.isSymbolicOrConstant && !rhs.isSymbolicOrConstant)) return rhs.add(lhs);
  if (rc === 0) return lhs;
  const lBin = lhs instanceof AffineBinaryExpr ? lhs : undefined;
  // (d0 + 2) + 3 -> d0 + 5
  if (lBin && rc !== undefined && lBin.kind === 'add') {
    const lrc = constOf(lBin.rhs);
    if (lrc !== undefined) return lBin.lhs.add(lrc + rc);
  }
  // c1 * e + c2 * e -> (c1 + c2) * e
  let c1 = 1;
  let first: AffineExpr = lhs;
  if (lBin && lBin.kind === 'mul' && lBin.rhs instanceof AffineConstantExpr) {
    c1 = lBin.rhs.value;
    first = lBin.lhs;
  }
  const rBin = rhs instanceof AffineBinaryExpr ? rhs : undefined;
  let c2 = 1;
  let second: AffineExpr = rhs;
  if (rBin && rBin.kind === 'mul' && rBin.rhs instanceof AffineConstantExpr) {
    c2 = rBin.rhs.value;
    second = rBin.lhs;
  }
  if (first === second) return first.mul(c1 + c2);
  // (d0 + 2) + d1 -> (d0 + d1) + 2
  if (lBin && lBin.kind === 'add') {
    const lrc = constOf(lBin.rhs);
    if (lrc !== undefined) return lBin.lhs.add(rhs).add(lrc);
  }
  // expr - q * (expr floordiv q) -> expr mod q
  if (!rBin) return undefined;
  const lrhs = rBin.lhs;
  const rrhs = rBin.rhs;
  const rrc = constOf(rrhs);
  if (rrc === -1 && lrhs instanceof AffineBinaryExpr && lrhs.kind === 'mul') {
    const llrhs = lrhs.lhs;
    const rlrhs = lrhs.rhs;
    if (!(llrhs instanceof AffineBinaryExpr) || llrhs.kind !== 'floordiv') return undefined;
    if (llrhs.rhs === rlrhs && lhs === llrhs.lhs) return lhs.mod(rlrhs);
  }
  if (!(lrhs instanceof AffineBinaryExpr) || lrhs.kind !== 'floordiv') return undefined;
  if (rBin.kind !== 'mul') return undefined;
  const divisor = constOf(lrhs.rhs);
  if (lhs === lrhs.lhs && divisor !== undefined && rrc !== undefined && divisor === -rrc && divisor > 0) {
    return lhs.mod(lrhs.rhs);
  }
  return undefined;
}

function simplifyMul(lhs: AffineExpr, rhs: AffineExpr): AffineExpr | undefined {
  const ctx = lhs.context;
  const lc = constOf(lhs);
  const rc = constOf(rhs);
  if (lc !== undefined && rc !== undefined) {
    const p = lc * rc;
    if (!Number.isSafeInteger(p)) return undefined;
    return getAffineConstantExpr(ctx, p);
  }
  if (!rhs.isSymbolicOrConstant || lc !== undefined) {
    // Only swap when that puts a symbolic/constant term on the right.
    if (lhs.isSymbolicOrConstant) return rhs.mul(lhs);
    return undefined; // non-affine product of two dimensional terms: kept as is
  }
  if (rc === 1) return lhs;
  if (rc === 0) return rhs;
  const lBin = lhs instanceof AffineBinaryExpr ? lhs : undefined;
  if (lBin && rc !== undefined && lBin.kind === 'mul') {
    const lrc = constOf(lBin.rhs);
    if (lrc !== undefined) return lBin.lhs.mul(lrc * rc);
  }
  if (lBin && lBin.kind === 'mul') {
    const lrc = constOf(lBin.rhs);
    if (lrc !== undefined) return lBin.lhs.mul(rhs).mul(lrc);
  }
  return undefined;
}

function simplifyFloorDiv(lhs: AffineExpr, rhs: AffineExpr): AffineExpr | undefined {
  const rc = constOf(rhs);
  if (rc === undefined || rc < 1) return undefined;
  const lc = constOf(lhs);
  if (lc !== undefined) return getAffineConstantExpr(lhs.context, floorDivInt(lc, rc));
  if (rc === 1) return lhs;
  const lBin = lhs instanceof AffineBinaryExpr ? lhs : undefined;
  if (lBin && lBin.kind === 'mul') {
    const lrc = constOf(lBin.rhs);
    if (lrc !== undefined && lrc % rc === 0) return lBin.lhs.mul(lrc / rc);
  }
  if (lBin && lBin.kind === 'add') {
    const llDiv = lBin.lhs.largestKnownDivisor;
    const lrDiv = lBin.rhs.largestKnownDivisor;
    if (llDiv % rc === 0 || lrDiv % rc === 0) return lBin.lhs.floorDiv(rc).add(lBin.rhs.floorDiv(rc));
  }
  return undefined;
}

function simplifyCeilDiv(lhs: AffineExpr, rhs: AffineExpr): AffineExpr | undefined {
  const rc = constOf(rhs);
  if (rc === undefined || rc < 1) return undefined;
  const lc = constOf(lhs);
  if (lc !== undefined) return getAffineConstantExpr(lhs.context, ceilDivInt(lc, rc));
  if (rc === 1) return lhs;
  const lBin = lhs instanceof AffineBinaryExpr ? lhs : undefined;
  if (lBin && lBin.kind === 'mul') {
    const lrc = constOf(lBin.rhs);
    if (lrc !== undefined && lrc % rc === 0) return lBin.lhs.mul(lrc / rc);
  }
  return undefined;
}

function simplifyMod(lhs: AffineExpr, rhs: AffineExpr): AffineExpr | undefined {
  const rc = constOf(rhs);
  if (rc === undefined || rc < 1) return undefined;
  const lc = constOf(lhs);
  if (lc !== undefined) return getAffineConstantExpr(lhs.context, modInt(lc, rc));
  if (lhs.largestKnownDivisor % rc === 0) return getAffineConstantExpr(lhs.context, 0);
  const lBin = lhs instanceof AffineBinaryExpr ? lhs : undefined;
  if (lBin && lBin.kind === 'add') {
    if (lBin.lhs.largestKnownDivisor % rc === 0) return lBin.rhs.mod(rc);
    if (lBin.rhs.largestKnownDivisor % rc === 0) return lBin.lhs.mod(rc);
  }
  if (lBin && lBin.kind === 'mod') {
    const inner = constOf(lBin.rhs);
    if (inner !== undefined && inner >= 1 && modInt(inner, rc) === 0) return lBin.lhs.mod(rc);
  }
  return undefined;
}
