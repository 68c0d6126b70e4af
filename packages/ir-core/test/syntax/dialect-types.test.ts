import {
  MLIRContext,
  Type,
  parseSourceString,
  printOperation,
  printType,
  parseType,
  type DialectAsmParser,
  type DialectAsmPrinter,
  type Dialect,
} from '@raptor-pim/ir-core';

/** `!tdl.pair<A, B>`: a dialect type with parse/print hooks and an alias. */
class PairType extends Type {
  readonly dialectNamespace = 'tdl';
  private constructor(
    ctx: MLIRContext,
    readonly first: Type,
    readonly second: Type,
  ) {
    super(ctx);
  }
  static get(ctx: MLIRContext, a: Type, b: Type): PairType {
    return ctx.unique(`tdl.pair:${a.id}:${b.id}`, () => new PairType(ctx, a, b));
  }
}

const tdl: Dialect = {
  namespace: 'tdl',
  parseType(p: DialectAsmParser) {
    if (!p.parseKeyword('pair') || !p.parseLess()) return undefined;
    const a = p.parseType();
    if (!a || !p.parseComma()) return undefined;
    const b = p.parseType();
    if (!b || !p.parseGreater()) return undefined;
    return PairType.get(p.context, a, b);
  },
  printType(t: Type, p: DialectAsmPrinter) {
    if (!(t instanceof PairType)) return false;
    p.print('pair<');
    p.printType(t.first);
    p.print(', ');
    p.printType(t.second);
    p.print('>');
    return true;
  },
  getAlias(v) {
    return v instanceof PairType ? 'pair' : undefined;
  },
};

describe('dialect types through DialectAsm hooks', () => {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  ctx.registerDialect(tdl);

  it('parses and prints a dialect type', () => {
    const t = parseType(ctx, '!tdl.pair<i32, !tdl.pair<f32, index>>');
    expect(t).toBeInstanceOf(PairType);
    expect(printType(t!)).toBe('!tdl.pair<i32, !tdl.pair<f32, index>>');
    expect(parseType(ctx, printType(t!))).toBe(t);
  });

  it('gives aliases to dialect types, types before attributes, as MLIR sorts them', () => {
    const m = parseSourceString(ctx, '"t.a"() {m = affine_map<(d0) -> (d0 + 1)>} : () -> !tdl.pair<i32, i64>\n')!;
    expect(printOperation(m, { generic: true })).toBe(
      '!pair = !tdl.pair<i32, i64>\n#map = affine_map<(d0) -> (d0 + 1)>\n"builtin.module"() ({\n  %0 = "t.a"() {m = #map} : () -> !pair\n}) : () -> ()\n',
    );
  });

  it('keeps unknown dialect types verbatim', () => {
    const t = parseType(ctx, '!other.thing<"a>b", [1, (2)], {x}>');
    expect(printType(t!)).toBe('!other.thing<"a>b", [1, (2)], {x}>');
  });
});
