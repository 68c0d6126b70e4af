import { Block, MLIRContext, Operation, Region, StringAttr, SymbolRefAttr, SymbolTable, verify, type Value } from '../../src';
import { AddOp, BrOp, ConstOp, FuncOp, GraphOp, ModuleOp, ReturnOp, testContext } from './test-dialect';
import { TestLoc } from './helpers';

function messages(ctx: MLIRContext, op: Operation): string[] {
  const { diagnostics } = ctx.diagnostics.capture(() => verify(op));
  return diagnostics.map((d) => [d.message, ...d.notes.map((n) => `note: ${n.message}`)].join(' | '));
}

function func(t: ReturnType<typeof testContext>, name: string, argTypes = [] as ReturnType<typeof testContext>['i32'][]) {
  const f = FuncOp.build(t.b, { sym_name: StringAttr.get(t.ctx, name) }, t.loc(name));
  const entry = new Block(argTypes, argTypes.map(() => t.loc()));
  f.body.push(entry);
  return { f, entry };
}

describe('verifier', () => {
  test('valid module with symbols, branches and returns', () => {
    const t = testContext();
    const mod = ModuleOp.build(t.b, {}, t.loc());
    const body = new Block();
    mod.body.push(body);
    t.b.setInsertionPointToEnd(body);
    const { f, entry } = func(t, 'main', [t.i32]);
    const next = new Block([t.i32], [t.loc()]);
    f.body.push(next);
    t.b.setInsertionPointToEnd(entry);
    const c = ConstOp.build(t.b, { value: t.int(1), result: t.i32 }, t.loc());
    const s = AddOp.build(t.b, { lhs: entry.getArgument(0), rhs: c.result, result: t.i32 }, t.loc());
    BrOp.build(t.b, { args: [s.result], dest: next }, t.loc());
    t.b.setInsertionPointToEnd(next);
    ReturnOp.build(t.b, { values: [next.getArgument(0)] }, t.loc());
    t.b.setInsertionPointToEnd(body);
    func(t, 'other').entry.push(Operation.create({ context: t.ctx, name: 'test.return', location: t.loc() }));
    expect(messages(t.ctx, mod.op)).toEqual([]);
    expect(SymbolTable.lookupSymbolIn(mod.op, 'other')).toBeDefined();
    expect(SymbolTable.lookupNearestSymbolFrom(s.op, SymbolRefAttr.get(t.ctx, 'main'))).toBe(f.op);
    expect(new SymbolTable(mod.op).names).toEqual(['main', 'other']);
  });

  test('use before def in the same block', () => {
    const t = testContext();
    const { f, entry } = func(t, 'f');
    t.b.setInsertionPointToEnd(entry);
    const c = ConstOp.build(t.b, { value: t.int(1), result: t.i32 }, t.loc());
    const a = AddOp.build(t.b, { lhs: c.result, rhs: c.result, result: t.i32 }, t.loc());
    ReturnOp.build(t.b, { values: [] }, t.loc());
    c.op.moveAfter(a.op);
    expect(messages(t.ctx, f.op)).toEqual([
      'operand #0 does not dominate this use | note: operand defined here (op in the same block)',
    ]);
  });

  test('dominance across blocks (diamond) via the dominator tree', () => {
    const t = testContext();
    const { f, entry } = func(t, 'f', [t.i32]);
    const [l, r, join] = [new Block(), new Block(), new Block()];
    f.body.push(l);
    f.body.push(r);
    f.body.push(join);
    t.b.setInsertionPointToEnd(entry);
    t.b.create({ name: 'test.cond_br', location: t.loc(), operands: [entry.getArgument(0)], successors: [l, r] });
    t.b.setInsertionPointToEnd(l);
    const inL = ConstOp.build(t.b, { value: t.int(1), result: t.i32 }, t.loc());
    BrOp.build(t.b, { args: [], dest: join }, t.loc());
    t.b.setInsertionPointToEnd(r);
    BrOp.build(t.b, { args: [], dest: join }, t.loc());
    t.b.setInsertionPointToEnd(join);
    const use = AddOp.build(t.b, { lhs: entry.getArgument(0), rhs: entry.getArgument(0), result: t.i32 }, t.loc());
    ReturnOp.build(t.b, { values: [] }, t.loc());
    expect(messages(t.ctx, f.op)).toEqual([]);
    use.op.setOperand(1, inL.result);
    expect(messages(t.ctx, f.op)).toEqual([
      'operand #1 does not dominate this use | note: operand defined here (op in the same region)',
    ]);
  });

  test('terminators, successor arguments, isolation', () => {
    const t = testContext();
    const { f, entry } = func(t, 'f', [t.i32]);
    t.b.setInsertionPointToEnd(entry);
    const c = ConstOp.build(t.b, { value: t.int(1), result: t.i32 }, t.loc());
    expect(messages(t.ctx, f.op)[0]).toMatch(/^block with no terminator, has /);
    const next = new Block([t.i32, t.i32], [t.loc(), t.loc()]);
    f.body.push(next);
    const br = BrOp.build(t.b, { args: [c.result], dest: next }, t.loc());
    t.b.setInsertionPointToEnd(next);
    ReturnOp.build(t.b, { values: [] }, t.loc());
    expect(messages(t.ctx, f.op)).toEqual(['branch has 1 operands for successor #0, but target block has 2']);
    br.op.erase();
    next.erase();
    t.b.setInsertionPointToEnd(entry);
    const inner = func(t, 'inner');
    t.b.setInsertionPointToEnd(inner.entry);
    AddOp.build(t.b, { lhs: c.result, rhs: c.result, result: t.i32 }, t.loc());
    ReturnOp.build(t.b, { values: [] }, t.loc());
    t.b.setInsertionPointToEnd(entry);
    ReturnOp.build(t.b, { values: [] }, t.loc());
    expect(messages(t.ctx, f.op)).toEqual([
      "'test.add' op using value defined outside the region | note: required by region isolation constraints",
    ]);
  });

  test('symbol redefinition and unregistered ops', () => {
    const t = testContext();
    const mod = ModuleOp.build(t.b, {}, t.loc());
    const body = new Block();
    mod.body.push(body);
    t.b.setInsertionPointToEnd(body);
    for (const name of ['a', 'a']) {
      const { entry } = func(t, name);
      entry.push(Operation.create({ context: t.ctx, name: 'test.return', location: t.loc() }));
    }
    expect(messages(t.ctx, mod.op)).toEqual(["redefinition of symbol named 'a' | note: see existing symbol definition here"]);
    const ctx = t.ctx;
    const lone = Operation.create({ context: ctx, name: 'foo.bar', location: new TestLoc(ctx, 'u') });
    expect(messages(ctx, lone)[0]).toMatch(/^'foo.bar' op created with unregistered dialect/);
    ctx.allowUnregisteredDialects = true;
    expect(messages(ctx, lone)).toEqual([]);
    const unknownTest = Operation.create({ context: ctx, name: 'test.unknown', location: new TestLoc(ctx, 'u') });
    expect(messages(ctx, unknownTest)).toEqual([
      "unregistered operation 'test.unknown' found in dialect ('test') that does not allow unknown operations",
    ]);
  });

  test('graph regions allow forward references', () => {
    const t = testContext();
    const g = GraphOp.build(t.b, {}, t.loc());
    const blk = new Block();
    g.body.push(blk);
    t.b.setInsertionPointToEnd(blk);
    const c = ConstOp.build(t.b, { value: t.int(1), result: t.i32 }, t.loc());
    const a = AddOp.build(t.b, { lhs: c.result, rhs: c.result, result: t.i32 }, t.loc());
    c.op.moveAfter(a.op);
    expect(messages(t.ctx, g.op)).toEqual([]);
  });

  test('10,000-deep nested regions verify without stack overflow', () => {
    const t = testContext();
    t.ctx.allowUnregisteredDialects = true;
    const root = Operation.create({ context: t.ctx, name: 'x.n', location: t.loc(), regions: 1 });
    let cur = root;
    let val: Value | null = null;
    for (let i = 0; i < 10000; i++) {
      const b = new Block();
      cur.getRegion(0).push(b);
      const c = Operation.create({ context: t.ctx, name: 'x.c', location: t.loc(), resultTypes: [t.i32], operands: val ? [val] : [] });
      b.push(c);
      val = c.getResult(0);
      const n = Operation.create({ context: t.ctx, name: 'x.n', location: t.loc(), regions: 1 });
      b.push(n);
      cur = n;
    }
    expect(messages(t.ctx, root)).toEqual([]);
    void Region;
  });
});
