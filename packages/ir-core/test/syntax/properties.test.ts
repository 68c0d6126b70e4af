import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  AffineMap,
  AffineMapAttr,
  ArrayAttr,
  ComplexType,
  DYNAMIC,
  DenseArrayAttr,
  DenseElementsAttr,
  DictionaryAttr,
  FileLineColLoc,
  FloatAttr,
  FloatType,
  FunctionType,
  IndexType,
  IntegerAttr,
  IntegerType,
  MLIRContext,
  MemRefType,
  NameLoc,
  NoneType,
  RankedTensorType,
  StridedLayoutAttr,
  StringAttr,
  SymbolRefAttr,
  TupleType,
  TypeAttr,
  UnitAttr,
  UnrankedMemRefType,
  UnrankedTensorType,
  VectorType,
  createDenseStorage,
  getAffineConstantExpr,
  getAffineDimExpr,
  getAffineSymbolExpr,
  parseAttribute,
  parseSourceString,
  parseType,
  printAttribute,
  printType,
  type AffineExpr,
  type Attribute,
  type Type,
} from '@raptor-pim/ir-core';

const ctx = new MLIRContext();
ctx.allowUnregisteredDialects = true;

const floatKinds = ['f16', 'bf16', 'f32', 'f64'] as const;

const scalarType: fc.Arbitrary<Type> = fc.oneof(
  fc.record({ w: fc.constantFrom(1, 4, 8, 16, 32, 64, 17, 128), s: fc.constantFrom('signless', 'signed', 'unsigned') as fc.Arbitrary<'signless' | 'signed' | 'unsigned'> }).map(({ w, s }) => IntegerType.get(ctx, w, s)),
  fc.constantFrom(...floatKinds, 'f80', 'f128', 'tf32', 'f8E4M3FN', 'f8E5M2').map((k) => FloatType.get(ctx, k)),
  fc.constant(IndexType.get(ctx)),
);

const dims = fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(DYNAMIC)), { maxLength: 4 });
const staticDims = fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 });

const { type: anyType } = fc.letrec<{ type: Type }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarType,
    fc.constant(NoneType.get(ctx)),
    scalarType.map((t) => ComplexType.get(ctx, t)),
    fc.array(tie('type'), { maxLength: 3 }).map((ts) => TupleType.get(ctx, ts)),
    fc.tuple(fc.array(tie('type'), { maxLength: 2 }), fc.array(tie('type'), { maxLength: 2 })).map(([i, r]) => FunctionType.get(ctx, i, r)),
    fc.tuple(dims, scalarType).map(([d, t]) => RankedTensorType.get(ctx, d, t)),
    scalarType.map((t) => UnrankedTensorType.get(ctx, t)),
    fc.tuple(fc.array(fc.tuple(fc.integer({ min: 1, max: 16 }), fc.boolean()), { minLength: 0, maxLength: 3 }), scalarType).map(([d, t]) =>
      VectorType.get(ctx, d.map((x) => x[0]), t, d.map((x) => x[1])),
    ),
    fc.tuple(dims, scalarType, fc.boolean(), fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined })).map(([d, t, strided, space]) =>
      MemRefType.get(
        ctx,
        d,
        t,
        strided ? StridedLayoutAttr.get(ctx, d.length ? DYNAMIC : 0, d.map((_, i) => (i % 2 ? DYNAMIC : i + 1))) : undefined,
        space === undefined ? undefined : IntegerAttr.get(IntegerType.get(ctx, 64), space),
      ),
    ),
    scalarType.map((t) => UnrankedMemRefType.get(ctx, t, IntegerAttr.get(IntegerType.get(ctx, 64), 2))),
  ),
}));

function affineExpr(depth: number): fc.Arbitrary<AffineExpr> {
  const leaf = fc.oneof(
    fc.integer({ min: 0, max: 2 }).map((i) => getAffineDimExpr(ctx, i) as AffineExpr),
    fc.integer({ min: 0, max: 1 }).map((i) => getAffineSymbolExpr(ctx, i) as AffineExpr),
    fc.integer({ min: -9, max: 9 }).map((c) => getAffineConstantExpr(ctx, c) as AffineExpr),
  );
  if (depth === 0) return leaf;
  const sub = affineExpr(depth - 1);
  return fc.oneof(
    leaf,
    fc.tuple(sub, sub).map(([a, b]) => a.add(b)),
    fc.tuple(sub, sub).map(([a, b]) => a.sub(b)),
    fc.tuple(sub, fc.integer({ min: -5, max: 5 })).map(([a, c]) => a.mul(c)),
    sub.map((a) => a.mul(getAffineSymbolExpr(ctx, 0))),
    fc.tuple(sub, fc.integer({ min: 1, max: 7 }), fc.constantFrom('floordiv', 'ceildiv', 'mod')).map(([a, c, k]) =>
      k === 'floordiv' ? a.floorDiv(c) : k === 'ceildiv' ? a.ceilDiv(c) : a.mod(c),
    ),
  );
}

const intAttr = fc
  .record({ w: fc.constantFrom(1, 8, 16, 32, 64), s: fc.constantFrom('signless', 'signed', 'unsigned') as fc.Arbitrary<'signless' | 'signed' | 'unsigned'>, v: fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }) })
  .map(({ w, s, v }) => IntegerAttr.get(IntegerType.get(ctx, w, s), v) as Attribute);

const floatAttr = fc
  .tuple(fc.constantFrom(...floatKinds), fc.oneof(fc.double(), fc.float().map((x) => x), fc.integer({ min: -1000, max: 1000 }).map((x) => x / 8)))
  .map(([k, v]) => FloatAttr.get(FloatType.get(ctx, k), v) as Attribute);

const denseAttr = fc
  .tuple(staticDims, fc.constantFrom('i1', 'i8', 'i32', 'si16', 'ui8', 'i64', 'f32', 'f64', 'f16', 'bf16', 'index', 'i24'), fc.boolean(), fc.integer({ min: 0, max: 1000000 }))
  .map(([shape, et, big, seed]) => {
    const s = big ? [...shape, 37] : shape;
    const ty = (parseType(ctx, et) as IntegerType | FloatType | IndexType);
    const type = RankedTensorType.get(ctx, s, ty);
    const n = s.reduce((a, b) => a * b, 1);
    const data = createDenseStorage(ty, n);
    let x = seed;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const v = ty instanceof FloatType ? (x % 2001) / 16 - 60 : ty instanceof IntegerType && ty.width === 1 ? x % 2 : (x % 200) - (ty instanceof IntegerType && ty.isUnsigned ? 0 : 100);
      if (data instanceof BigInt64Array || data instanceof BigUint64Array) data[i] = BigInt(v);
      else data[i] = v;
    }
    return DenseElementsAttr.get(type, data) as Attribute;
  });

const keyName = fc.oneof(fc.stringMatching(/^[a-z_][a-z0-9_.$]{0,6}$/), fc.string({ minLength: 1, maxLength: 5 }));

const { attr: anyAttr } = fc.letrec<{ attr: Attribute }>((tie) => ({
  attr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    intAttr,
    floatAttr,
    fc.string({ maxLength: 8 }).map((s) => StringAttr.get(ctx, s) as Attribute),
    fc.string({ unit: 'binary', maxLength: 4 }).map((s) => StringAttr.get(ctx, s, IntegerType.get(ctx, 32)) as Attribute),
    fc.constant(UnitAttr.get(ctx) as Attribute),
    anyType.map((t) => TypeAttr.get(t) as Attribute),
    fc.array(tie('attr'), { maxLength: 3 }).map((a) => ArrayAttr.get(ctx, a) as Attribute),
    fc.uniqueArray(fc.tuple(keyName, tie('attr')), { maxLength: 3, selector: (e) => e[0] }).map((es) =>
      DictionaryAttr.get(ctx, es.map(([name, value]) => ({ name, value }))) as Attribute,
    ),
    fc.array(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), { maxLength: 4 }).map((v) => DenseArrayAttr.i64(ctx, v) as Attribute),
    fc.array(fc.float(), { maxLength: 3 }).map((v) => DenseArrayAttr.getFloats(FloatType.f32(ctx), v) as Attribute),
    fc.tuple(keyName, fc.array(keyName, { maxLength: 2 })).map(([r, n]) => SymbolRefAttr.get(ctx, r, n) as Attribute),
    denseAttr,
    // Maps built through the API may be non-canonical (as in MLIR): normalize once through text.
    fc.tuple(fc.array(affineExpr(3), { maxLength: 3 })).map(([rs]) => parseAttribute(ctx, printAttribute(AffineMapAttr.get(AffineMap.get(ctx, 3, 2, rs))))!),
    fc.tuple(fc.string({ maxLength: 5 }), fc.nat(99), fc.nat(99)).map(([f, l, c]) => NameLoc.get(ctx, 'n', FileLineColLoc.get(ctx, f, l, c)) as Attribute),
  ),
}));

describe('print -> parse returns the identical (uniqued) object', () => {
  it('types', () => {
    fc.assert(
      fc.property(anyType, (t) => {
        const text = printType(t);
        const back = parseType(ctx, text);
        if (back !== t) throw new Error(`round trip changed ${text} -> ${back ? printType(back) : 'parse error'}`);
      }),
      { numRuns: 400 },
    );
  });

  it('attributes', () => {
    fc.assert(
      fc.property(anyAttr.map((a) => ({ a, toString: () => printAttribute(a) })), ({ a }) => {
        const text = printAttribute(a);
        const back = parseAttribute(ctx, text);
        if (back !== a) throw new Error(`round trip changed ${text} -> ${back ? printAttribute(back) : 'parse error'}`);
        return true;
      }),
      { numRuns: 400 },
    );
  });
});

describe('affine simplification preserves values', () => {
  it('printing and re-parsing a map keeps its value on random points', () => {
    fc.assert(
      fc.property(fc.array(affineExpr(4), { minLength: 1, maxLength: 3 }), fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 5, maxLength: 5 }), (rs, pt) => {
        const map = AffineMap.get(ctx, 3, 2, rs);
        const back = (parseAttribute(ctx, `affine_map<${printAttribute(AffineMapAttr.get(map)).slice(11, -1)}>`) as AffineMapAttr).value;
        const symbols = pt.slice(3).map((s) => Math.abs(s) + 1);
        expect(back.evaluate(pt.slice(0, 3), symbols)).toEqual(map.evaluate(pt.slice(0, 3), symbols));
      }),
      { numRuns: 300 },
    );
  });
});

describe('mutated inputs never throw', () => {
  const dir = path.resolve(__dirname, '../fixtures/roundtrip');
  const corpus = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.mlir'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
  const alphabet = '"%^#!@()[]{}<>:,=-0123456789x?.abcdefi \n/\\';

  it('random byte edits give a module or diagnostics, quickly', () => {
    fc.assert(
      fc.property(
        fc.nat(corpus.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(alphabet.length - 1), fc.constantFrom('replace', 'insert', 'delete')), { minLength: 1, maxLength: 6 }),
        (which, edits) => {
          let text = corpus[which];
          for (const [pos, ch, kind] of edits) {
            const p = text.length ? pos % text.length : 0;
            if (kind === 'replace') text = text.slice(0, p) + alphabet[ch] + text.slice(p + 1);
            else if (kind === 'insert') text = text.slice(0, p) + alphabet[ch] + text.slice(p);
            else text = text.slice(0, p) + text.slice(p + 1);
          }
          const c = new MLIRContext();
          c.allowUnregisteredDialects = true;
          const start = Date.now();
          const { result, diagnostics } = c.diagnostics.capture(() => parseSourceString(c, text, { filename: 'm.mlir' }));
          expect(Date.now() - start).toBeLessThan(2000);
          expect(result !== undefined || diagnostics.length > 0).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
