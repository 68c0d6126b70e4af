/**
 * Strided-layout arithmetic of memref types, as MLIR computes it: strides and offset of a
 * layout (identity, `strided<...>`, affine maps), canonical strides, subview, collapse,
 * expand and transpose result types, cast compatibility.
 *
 * Dynamic values are the ir-core {@link DYNAMIC} sentinel (MLIR's `ShapedType::kDynamic`);
 * arithmetic saturates to dynamic as MLIR's `SaturatedInteger`.
 */
import {
  AffineBinaryExpr,
  AffineConstantExpr,
  AffineDimExpr,
  AffineMap,
  AffineMapAttr,
  AffineSymbolExpr,
  DYNAMIC,
  MemRefType,
  StridedLayoutAttr,
  UnrankedMemRefType,
  getAffineConstantExpr,
  getAffineDimExpr,
  getAffineSymbolExpr,
  type AffineExpr,
  type Attribute,
  type MLIRContext,
  type Type,
} from '@raptor-pim/ir-core';

/** Strides and offset of a strided memref. */
export interface StridesAndOffset {
  readonly strides: readonly number[];
  readonly offset: number;
}

/** True when `v` is the dynamic sentinel. */
export function isDyn(v: number): boolean {
  return v === DYNAMIC;
}

/** Saturated product (MLIR's `SaturatedInteger`: 0 times anything is 0, else dynamic wins). */
export function mulSat(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  return isDyn(a) || isDyn(b) ? DYNAMIC : a * b;
}

/** Saturated sum (dynamic if either side is dynamic). */
export function addSat(a: number, b: number): number {
  return isDyn(a) || isDyn(b) ? DYNAMIC : a + b;
}

/**
 * The canonical (row-major, contiguous) strides of `shape`: the innermost stride is 1, each
 * outer stride is the product of the inner sizes; a dynamic size makes every outer stride
 * dynamic (MLIR's `computeSuffixProduct` with saturation).
 */
export function canonicalStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let running = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = running;
    running = mulSat(running, shape[i]!);
  }
  return strides;
}

/**
 * True when `layout` is the identity layout (MLIR's `isIdentity()` of the layout's affine map):
 * absent, an identity affine map, or a strided layout whose map is the identity, which is
 * only `strided<[1]>` and `strided<[]>` with offset 0 (`(d0, d1) -> (d0 * 4 + d1)` is not).
 */
export function isIdentityLayout(layout: Attribute | undefined): boolean {
  if (layout === undefined) return true;
  if (layout instanceof AffineMapAttr) return layout.value.isIdentity;
  if (layout instanceof StridedLayoutAttr) {
    if (layout.offset !== 0) return false;
    return layout.strides.length === 0 || (layout.strides.length === 1 && layout.strides[0] === 1);
  }
  return false;
}

/**
 * Strides and offset of a ranked memref type (MLIR's `MemRefType::getStridesAndOffset`):
 * identity layouts give canonical strides and offset 0, `strided<>` layouts give their values,
 * and affine maps whose linearization is `sum(d_i * c_i) + c` give those coefficients
 * (symbols make the affected coefficient dynamic). Returns `undefined` for layouts that are
 * not strided (e.g. `(d0) -> (d0 floordiv 2)`).
 */
export function getStridesAndOffset(type: MemRefType): StridesAndOffset | undefined {
  const layout = type.layout;
  if (isIdentityLayout(layout)) return { strides: canonicalStrides(type.shape), offset: 0 };
  if (layout instanceof StridedLayoutAttr) {
    if (layout.strides.length !== type.rank) return undefined;
    return { strides: layout.strides, offset: layout.offset };
  }
  if (layout instanceof AffineMapAttr) return stridesOfAffineMap(layout.value, type.shape);
  return undefined;
}

/** A linear form `sum(dims[i] * d_i) + sum(syms[j] * s_j) + constant`; null when not linear. */
interface Linear {
  dims: number[];
  syms: number[];
  constant: number;
}

function linearize(e: AffineExpr, numDims: number, numSyms: number): Linear | null {
  if (e instanceof AffineConstantExpr) return { dims: new Array(numDims).fill(0), syms: new Array(numSyms).fill(0), constant: e.value };
  if (e instanceof AffineDimExpr) {
    const l = { dims: new Array(numDims).fill(0), syms: new Array(numSyms).fill(0), constant: 0 };
    l.dims[e.position] = 1;
    return l;
  }
  if (e instanceof AffineSymbolExpr) {
    const l = { dims: new Array(numDims).fill(0), syms: new Array(numSyms).fill(0), constant: 0 };
    l.syms[e.position] = 1;
    return l;
  }
  if (e instanceof AffineBinaryExpr) {
    if (e.kind === 'add') {
      const a = linearize(e.lhs, numDims, numSyms);
      const b = linearize(e.rhs, numDims, numSyms);
      if (!a || !b) return null;
      return {
        dims: a.dims.map((v, i) => v + b.dims[i]!),
        syms: a.syms.map((v, i) => v + b.syms[i]!),
        constant: a.constant + b.constant,
      };
    }
    if (e.kind === 'mul') {
      // `d0 * s0` is a dynamic stride: represent by marking the dim coefficient dynamic.
      const a = linearize(e.lhs, numDims, numSyms);
      const b = linearize(e.rhs, numDims, numSyms);
      if (!a || !b) return null;
      const aConst = a.dims.every((v) => v === 0) && a.syms.every((v) => v === 0);
      const bConst = b.dims.every((v) => v === 0) && b.syms.every((v) => v === 0);
      if (aConst || bConst) {
        const [k, x] = aConst ? [a.constant, b] : [b.constant, a];
        return { dims: x.dims.map((v) => mulSat(v, k)), syms: x.syms.map((v) => mulSat(v, k)), constant: mulSat(x.constant, k) };
      }
      const bSymOnly = b.dims.every((v) => v === 0);
      const aSymOnly = a.dims.every((v) => v === 0);
      if (bSymOnly || aSymOnly) {
        const [x] = bSymOnly ? [a] : [b];
        return {
          dims: x.dims.map((v) => (v === 0 ? 0 : DYNAMIC)),
          syms: x.syms.map((v) => (v === 0 ? 0 : DYNAMIC)),
          constant: x.constant === 0 ? 0 : DYNAMIC,
        };
      }
      return null;
    }
  }
  return null;
}

function stridesOfAffineMap(map: AffineMap, shape: readonly number[]): StridesAndOffset | undefined {
  if (map.numDims !== shape.length) return undefined;
  // Multi-result maps are linearized with the canonical strides of their results' extents,
  // which MLIR derives from the shape when the map has as many results as dims.
  let results = map.results;
  let expr: AffineExpr;
  if (results.length === 1) expr = results[0]!;
  else {
    if (results.length !== shape.length) return undefined;
    const strides = canonicalStrides(shape);
    let acc: AffineExpr = getAffineConstantExpr(map.context, 0);
    for (let i = 0; i < results.length; i++) {
      const s = strides[i]!;
      acc = acc.add(isDyn(s) ? results[i]!.mul(getAffineSymbolExpr(map.context, map.numSymbols + i)) : results[i]!.mul(s));
    }
    expr = acc;
    results = [expr];
  }
  const lin = linearize(expr, map.numDims, map.numSymbols + shape.length);
  if (!lin) return undefined;
  const offset = lin.syms.some((v) => v !== 0) ? DYNAMIC : lin.constant;
  return { strides: lin.dims, offset };
}

/** True when the ranked memref has a strided layout (MLIR's `isStrided`). */
export function isStrided(type: MemRefType): boolean {
  return getStridesAndOffset(type) !== undefined;
}

/** The `strided<[...], offset: N>` attribute (always explicit, as MLIR builds it). */
export function stridedLayout(context: MLIRContext, so: StridesAndOffset): StridedLayoutAttr {
  return StridedLayoutAttr.get(context, so.offset, so.strides);
}

/**
 * True when a strided layout equals the identity of `shape` (canonical strides, offset 0): MLIR
 * treats such types as equivalent in rank-reduction and cast checks.
 */
export function isCanonicalStrided(so: StridesAndOffset, shape: readonly number[]): boolean {
  if (so.offset !== 0) return false;
  const c = canonicalStrides(shape);
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 1) continue;
    if (so.strides[i] !== c[i]) return false;
  }
  return true;
}

// ------------------------------------------------------------------ subview

/** The static parts of a subview / reinterpret_cast: dynamic entries are {@link DYNAMIC}. */
export interface StaticSlice {
  readonly offsets: readonly number[];
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
}

/**
 * The non-rank-reduced result type of `memref.subview` (MLIR's `SubViewOp::inferResultType`):
 * sizes are the slice sizes, strides are `src_stride * slice_stride`, and the offset is
 * `src_offset + sum(slice_offset * src_stride)`, each saturating to dynamic. Undefined when the
 * source is not strided.
 */
export function inferSubViewResultType(source: MemRefType, slice: StaticSlice): MemRefType | undefined {
  const so = getStridesAndOffset(source);
  if (!so) return undefined;
  let offset = so.offset;
  const strides: number[] = [];
  for (let i = 0; i < slice.offsets.length; i++) {
    offset = addSat(offset, mulSat(slice.offsets[i]!, so.strides[i]!));
    strides.push(mulSat(slice.strides[i]!, so.strides[i]!));
  }
  return MemRefType.get(source.context, slice.sizes, source.elementType, stridedLayout(source.context, { strides, offset }), source.memorySpace);
}

/** Why a candidate type is not a (rank-reduced) version of the expected subview type. */
export type SliceVerification = 'success' | 'rank-too-large' | 'size-mismatch' | 'elem-type-mismatch' | 'mem-space-mismatch' | 'layout-mismatch';

/**
 * Which dimensions of `original` are dropped to obtain `reduced` (MLIR's
 * `computeRankReductionMask`): unit dimensions are dropped greedily from the left when they do
 * not match the next reduced dimension. Undefined when `reduced` is not a rank reduction.
 */
export function computeRankReductionMask(original: readonly number[], reduced: readonly number[]): Set<number> | undefined {
  const dropped = new Set<number>();
  let r = 0;
  for (let o = 0; o < original.length; o++) {
    if (r < reduced.length && original[o] === reduced[r]) {
      r++;
      continue;
    }
    if (original[o] !== 1) return undefined;
    dropped.add(o);
  }
  return r === reduced.length ? dropped : undefined;
}

/**
 * Checks that `candidate` is `expected` or a rank-reduced version of it (MLIR's
 * `isRankReducedType` for memrefs, strides of the dropped unit dimensions ignored).
 */
export function isRankReducedType(expected: MemRefType, candidate: MemRefType): SliceVerification {
  if (candidate.rank > expected.rank) return 'rank-too-large';
  const dropped = computeRankReductionMask(expected.shape, candidate.shape);
  if (!dropped) return 'size-mismatch';
  if (expected.elementType !== candidate.elementType) return 'elem-type-mismatch';
  if (expected.memorySpace !== candidate.memorySpace) return 'mem-space-mismatch';
  const e = getStridesAndOffset(expected);
  const c = getStridesAndOffset(candidate);
  if (!e || !c) return 'layout-mismatch';
  if (e.offset !== c.offset) return 'layout-mismatch';
  const kept = e.strides.filter((_, i) => !dropped.has(i));
  for (let i = 0; i < kept.length; i++) {
    // Unit dimensions of the result have meaningless strides.
    if (candidate.shape[i] === 1) continue;
    if (kept[i] !== c.strides[i]) return 'layout-mismatch';
  }
  return 'success';
}

// ------------------------------------------------------------------ collapse / expand

/**
 * The result layout of collapsing `source` by `reassociation` (MLIR's
 * `computeCollapsedLayoutMap`): each group takes the stride of its innermost non-unit dimension;
 * returns undefined when a group is statically known to be non-contiguous.
 */
export function computeCollapsedLayout(source: MemRefType, reassociation: readonly (readonly number[])[]): StridesAndOffset | undefined {
  const so = getStridesAndOffset(source);
  if (!so) return undefined;
  const shape = source.shape;
  const resultStrides: number[] = [];
  for (const group of reassociation) {
    if (group.length === 0) continue;
    let end = group.length;
    while (end > 1 && shape[group[end - 1]!] === 1) end--;
    const last = group[end - 1]!;
    resultStrides.push(!isDyn(shape[last]!) || end === 1 ? so.strides[last]! : DYNAMIC);
  }
  let ri = resultStrides.length - 1;
  for (let g = reassociation.length - 1; g >= 0; g--) {
    const group = reassociation[g]!;
    if (group.length === 0) continue;
    let stride = resultStrides[ri--]!;
    for (let k = group.length - 1; k >= 1; k--) {
      const idx = group[k]!;
      stride = mulSat(stride, shape[idx]!);
      const srcStride = so.strides[idx - 1]!;
      if (shape[idx - 1] === 1) continue;
      if (!isDyn(stride) && !isDyn(srcStride) && stride !== srcStride) return undefined;
    }
  }
  return { strides: resultStrides, offset: so.offset };
}

/** The expected result type of `memref.collapse_shape` (identity sources stay identity). */
export function computeCollapsedType(
  source: MemRefType,
  resultShape: readonly number[],
  reassociation: readonly (readonly number[])[],
): MemRefType | undefined {
  if (isIdentityLayout(source.layout)) return MemRefType.get(source.context, resultShape, source.elementType, undefined, source.memorySpace);
  const so = computeCollapsedLayout(source, reassociation);
  if (!so) return undefined;
  return MemRefType.get(source.context, resultShape, source.elementType, stridedLayout(source.context, so), source.memorySpace);
}

/**
 * The expected result type of `memref.expand_shape` (MLIR's `computeExpandedType`): each
 * source stride is split over its group from the innermost result dimension outwards.
 */
export function computeExpandedType(
  source: MemRefType,
  resultShape: readonly number[],
  reassociation: readonly (readonly number[])[],
): MemRefType | undefined {
  if (isIdentityLayout(source.layout)) return MemRefType.get(source.context, resultShape, source.elementType, undefined, source.memorySpace);
  const so = getStridesAndOffset(source);
  if (!so) return undefined;
  const strides = new Array<number>(resultShape.length).fill(1);
  for (let g = reassociation.length - 1; g >= 0; g--) {
    const group = reassociation[g]!;
    let current = so.strides[g]!;
    for (let k = group.length - 1; k >= 0; k--) {
      const dim = group[k]!;
      strides[dim] = current;
      current = mulSat(current, resultShape[dim]!);
    }
  }
  return MemRefType.get(source.context, resultShape, source.elementType, stridedLayout(source.context, { strides, offset: so.offset }), source.memorySpace);
}

// ------------------------------------------------------------------ transpose

/** True when `map` is a permutation of its dims (MLIR's `AffineMap::isPermutation`). */
export function isPermutation(map: AffineMap): boolean {
  if (map.numSymbols !== 0 || map.results.length !== map.numDims) return false;
  const seen = new Set<number>();
  for (const r of map.results) {
    if (!(r instanceof AffineDimExpr) || seen.has(r.position)) return false;
    seen.add(r.position);
  }
  return true;
}

/** The permutation of a permutation map (`perm[i]` = source dim of result dim `i`). */
export function permutationOf(map: AffineMap): number[] {
  return map.results.map((r) => (r as AffineDimExpr).position);
}

/**
 * The transposed type MLIR infers (`inferTransposeResultType`): permuted sizes and strides,
 * with the layout written as the affine map `(d0, ...)[s...] -> (sum(d_i * stride_i) + offset)`,
 * dynamic strides and offset becoming symbols, as MLIR prints it in diagnostics.
 */
export function inferTransposeResultType(source: MemRefType, permutation: AffineMap): MemRefType | undefined {
  const so = getStridesAndOffset(source);
  if (!so) return undefined;
  const perm = permutationOf(permutation);
  const shape = perm.map((p) => source.shape[p]!);
  const strides = perm.map((p) => so.strides[p]!);
  const ctx = source.context;
  let nSym = 0;
  // MLIR's makeStridedLinearLayoutMap builds `offset + d0 * stride0 + ...` (the offset symbol
  // first, then the dynamic strides). canonicalizeStridedLayout then flattens pure affine
  // expressions (dimension terms before the offset); semi-affine ones (a dynamic stride) keep
  // the construction order.
  const offsetExpr: AffineExpr = isDyn(so.offset) ? getAffineSymbolExpr(ctx, nSym++) : getAffineConstantExpr(ctx, so.offset);
  const terms: AffineExpr[] = [];
  for (let i = 0; i < strides.length; i++) {
    const s = strides[i]!;
    const d = getAffineDimExpr(ctx, i);
    terms.push(isDyn(s) ? d.mul(getAffineSymbolExpr(ctx, nSym++)) : d.mul(s));
  }
  let expr: AffineExpr;
  if (strides.some(isDyn)) {
    expr = offsetExpr;
    for (const t of terms) expr = expr.add(t);
  } else {
    expr = terms.length ? terms.slice(1).reduce((a, t) => a.add(t), terms[0]!).add(offsetExpr) : offsetExpr;
  }
  // MLIR's canonicalizeStridedLayout: the canonical contiguous layout becomes the identity.
  const canonical = canonicalStrides(shape);
  if (so.offset === 0 && strides.every((s, i) => s === canonical[i])) return MemRefType.get(ctx, shape, source.elementType, undefined, source.memorySpace);
  const map = AffineMap.get(ctx, shape.length, nSym, [expr]);
  return MemRefType.get(ctx, shape, source.elementType, AffineMapAttr.get(map), source.memorySpace);
}

/** Equal shape, element type, memory space, strides and offset (MLIR compares canonical strided forms). */
export function haveSameStridedForm(a: MemRefType, b: MemRefType): boolean {
  if (a.elementType !== b.elementType || a.memorySpace !== b.memorySpace || a.rank !== b.rank) return false;
  for (let i = 0; i < a.rank; i++) if (a.shape[i] !== b.shape[i]) return false;
  if (a.layout === b.layout) return true;
  const x = getStridesAndOffset(a);
  const y = getStridesAndOffset(b);
  if (!x || !y) return false;
  if (x.offset !== y.offset) return false;
  for (let i = 0; i < a.rank; i++) if (x.strides[i] !== y.strides[i]) return false;
  return true;
}

// ------------------------------------------------------------------ casts

/**
 * `memref.cast` compatibility (MLIR's `CastOp::areCastCompatible`): same element type and
 * memory space; ranked pairs need equal rank, compatible sizes, and compatible strides/offset
 * (a static value may become dynamic and back); unranked-to-unranked is rejected.
 */
export function areCastCompatible(a: Type, b: Type): boolean {
  if (a instanceof MemRefType && b instanceof MemRefType) {
    if (a.elementType !== b.elementType || a.memorySpace !== b.memorySpace || a.rank !== b.rank) return false;
    for (let i = 0; i < a.rank; i++) {
      const x = a.shape[i]!;
      const y = b.shape[i]!;
      if (!isDyn(x) && !isDyn(y) && x !== y) return false;
    }
    if (a.layout === b.layout) return true;
    const sa = getStridesAndOffset(a);
    const sb = getStridesAndOffset(b);
    if (!sa || !sb) return false;
    const compat = (x: number, y: number) => isDyn(x) || isDyn(y) || x === y;
    if (!compat(sa.offset, sb.offset)) return false;
    for (let i = 0; i < a.rank; i++) if (!compat(sa.strides[i]!, sb.strides[i]!)) return false;
    return true;
  }
  const ua = a instanceof UnrankedMemRefType;
  const ub = b instanceof UnrankedMemRefType;
  if (ua && ub) return false;
  if ((ua || a instanceof MemRefType) && (ub || b instanceof MemRefType)) {
    const ea = (a as MemRefType | UnrankedMemRefType).elementType;
    const eb = (b as MemRefType | UnrankedMemRefType).elementType;
    const ma = (a as MemRefType | UnrankedMemRefType).memorySpace;
    const mb = (b as MemRefType | UnrankedMemRefType).memorySpace;
    return ea === eb && ma === mb;
  }
  return false;
}

/**
 * `memref.memory_space_cast` compatibility: same element type, shape/rank and layout; the
 * memory spaces may differ.
 */
export function areMemorySpaceCastCompatible(a: Type, b: Type): boolean {
  if (a instanceof MemRefType && b instanceof MemRefType) {
    if (a.elementType !== b.elementType || a.rank !== b.rank || a.layout !== b.layout) return false;
    for (let i = 0; i < a.rank; i++) if (a.shape[i] !== b.shape[i]) return false;
    return true;
  }
  if (a instanceof UnrankedMemRefType && b instanceof UnrankedMemRefType) return a.elementType === b.elementType;
  return false;
}
