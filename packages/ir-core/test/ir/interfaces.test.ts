import {
  Block,
  Operation,
  ParallelCombiningOpInterface,
  StringAttr,
  SymbolRefAttr,
  SymbolTable,
  Traits,
  anyRegion,
  defineDialect,
  defineOp,
  hasParallelCombiningParent,
  implement,
  prop,
  StrAttr,
  verify,
} from '../../src';
import { testContext } from './test-dialect';

const InParallel = defineOp({
  name: 'par.in_parallel',
  regions: { body: anyRegion() },
  traits: [Traits.NoTerminator, Traits.SingleBlock],
  interfaces: [
    implement(ParallelCombiningOpInterface, {
      getRegion: (op) => op.getRegion(0),
      getYieldingOps: (op) => op.getRegion(0).firstBlock?.operations ?? [],
    }),
  ],
});
const OtherParent = defineOp({ name: 'par.other', regions: { body: anyRegion() }, traits: [Traits.NoTerminator, Traits.SingleBlock] });
const InsertSlice = defineOp({
  name: 'par.insert',
  verify(op) {
    if (hasParallelCombiningParent(op.op)) return true;
    op.emitOpError(`expected ParallelCombiningOpInterface parent, got: '${op.op.getParentOp()?.name ?? 'none'}'`);
    return false;
  },
});
const Wrapper = defineOp({
  name: 'par.implicit',
  regions: { body: anyRegion() },
  traits: [Traits.SingleBlockImplicitTerminator('par.end')],
});
const Sym = defineOp({ name: 'par.table', attributes: { sym_name: prop(StrAttr) }, regions: { body: anyRegion() }, traits: [Traits.SymbolTable, Traits.Symbol, Traits.NoTerminator, Traits.SingleBlock] });

function ctx() {
  const t = testContext();
  t.ctx.registerDialect(defineDialect({ namespace: 'par', operations: [InParallel, OtherParent, InsertSlice, Wrapper, Sym] }));
  return t;
}

function messages(t: ReturnType<typeof ctx>, op: Operation): string[] {
  return t.ctx.diagnostics.capture(() => verify(op)).diagnostics.map((d) => [d.message, ...d.notes.map((n) => n.message)].join(' | '));
}

describe('interfaces and traits', () => {
  test('an op accepts any parent implementing ParallelCombiningOpInterface', () => {
    const t = ctx();
    for (const [parent, ok] of [
      [InParallel, true],
      [OtherParent, false],
    ] as const) {
      const p = parent.build(t.b, {}, t.loc());
      const blk = new Block();
      p.body.push(blk);
      t.b.setInsertionPointToEnd(blk);
      InsertSlice.build(t.b, {}, t.loc());
      expect(messages(t, p.op)).toEqual(ok ? [] : ["'par.insert' op expected ParallelCombiningOpInterface parent, got: 'par.other'"]);
      expect(p.op.getInterface(ParallelCombiningOpInterface) !== undefined).toBe(ok);
    }
  });

  test('SingleBlockImplicitTerminator names the expected terminator', () => {
    const t = ctx();
    t.ctx.allowUnregisteredDialects = true;
    const w = Wrapper.build(t.b, {}, t.loc());
    const blk = new Block();
    w.body.push(blk);
    blk.push(Operation.create({ context: t.ctx, name: 'x.other', location: t.loc() }));
    expect(messages(t, w.op)).toEqual([
      "'par.implicit' op expects regions to end with 'par.end', found 'x.other' | in custom textual format, the absence of terminator implies 'par.end'",
    ]);
  });

  test('nested symbol references resolve through nested tables', () => {
    const t = ctx();
    const outer = Sym.build(t.b, { sym_name: StringAttr.get(t.ctx, 'outer') }, t.loc());
    const ob = new Block();
    outer.body.push(ob);
    t.b.setInsertionPointToEnd(ob);
    const inner = Sym.build(t.b, { sym_name: StringAttr.get(t.ctx, 'inner') }, t.loc());
    const ib = new Block();
    inner.body.push(ib);
    t.b.setInsertionPointToEnd(ib);
    const leaf = Sym.build(t.b, { sym_name: StringAttr.get(t.ctx, 'leaf') }, t.loc());
    leaf.body.push(new Block());
    expect(SymbolTable.lookupSymbolIn(outer.op, SymbolRefAttr.get(t.ctx, 'inner', ['leaf']))).toBe(leaf.op);
    expect(SymbolTable.lookupSymbolIn(outer.op, SymbolRefAttr.get(t.ctx, 'inner', ['nope']))).toBeUndefined();
    expect(SymbolTable.lookupNearestSymbolFrom(leaf.op, 'inner')).toBe(inner.op);
    expect(messages(t, outer.op)).toEqual([]);
  });

  test('see current operation note when enabled', () => {
    const t = ctx();
    t.ctx.printOpOnDiagnostic = true;
    const w = InParallel.build(t.b, {}, t.loc());
    const d = t.ctx.diagnostics.capture(() => w.op.emitOpError('bad')).diagnostics[0]!;
    expect(d.message).toBe("'par.in_parallel' op bad");
    expect(d.notes[0]!.message).toMatch(/^see current operation:/);
    expect(d.notes[0]!.message).toContain('"par.in_parallel"()');
  });
});

describe('dialect interfaces', () => {
  test('a dialect provides an interface looked up by key', async () => {
    const { defineDialectInterface, getDialectInterface } = await import('../../src');
    interface Inliner {
      isLegalToInline(op: Operation): boolean;
    }
    const InlinerInterface = defineDialectInterface<Inliner>('DialectInlinerInterface');
    const d = defineDialect({ namespace: 'inl', interfaces: [implement(InlinerInterface, { isLegalToInline: () => true })] });
    expect(getDialectInterface(d, InlinerInterface)?.isLegalToInline(undefined as unknown as Operation)).toBe(true);
    expect(getDialectInterface(defineDialect({ namespace: 'none' }), InlinerInterface)).toBeUndefined();
  });
});
