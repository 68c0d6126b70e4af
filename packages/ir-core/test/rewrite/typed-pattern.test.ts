import { Block, IntegerType, MLIRContext, Operation, PatternRewriter, StringAttr, UnknownLoc, applyPatternsGreedily, createPattern, type Value } from '../../src';
import { AddOp, FuncOp, MulOp, PrintOp, ReturnOp, testContext } from '../ir/test-dialect';

function makeFunc(t: ReturnType<typeof testContext>) {
  const f = FuncOp.build(t.b, { sym_name: StringAttr.get(t.ctx, 'f') }, t.loc());
  const entry = new Block([t.i32, t.i32], [t.loc(), t.loc()]);
  f.body.push(entry);
  t.b.setInsertionPointToEnd(entry);
  return { f, entry, x: entry.getArgument(0), y: entry.getArgument(1) };
}

describe('typed patterns (createPattern(Def, fn))', () => {
  test('the callback gets the typed view; the greedy driver applies it', () => {
    const t = testContext();
    const { f, entry, x, y } = makeFunc(t);
    const m = MulOp.build(t.b, { lhs: x, rhs: y, result: t.i32 }, t.loc()).result;
    PrintOp.build(t.b, { values: [m] }, t.loc());
    ReturnOp.build(t.b, { values: [] }, t.loc());
    const seen: Value[][] = [];
    // mul(x, y) -> add(x, y) (nonsense arithmetic, but it exercises the typed view).
    const mulToAdd = createPattern(MulOp, (op, rewriter) => {
      seen.push([op.lhs, op.rhs]);
      const add = AddOp.build(rewriter, { lhs: op.lhs, rhs: op.rhs, result: op.result.type }, op.location);
      rewriter.replaceOp(op.op, [add.result]);
      return true;
    });
    expect(mulToAdd.rootName).toBe('test.mul');
    expect(mulToAdd.debugName).toBe('test.mul');
    expect(mulToAdd.rootDefinition).toBe(MulOp);
    const r = applyPatternsGreedily(f.op, [mulToAdd]);
    expect(r.numRewrites).toBe(1);
    expect(seen).toEqual([[x, y]]);
    expect(entry.operations.map((o) => o.name)).toEqual(['test.add', 'test.print', 'test.return']);
  });

  test('benefit and debug name options; higher benefit wins', () => {
    const t = testContext();
    const { f, entry, x, y } = makeFunc(t);
    MulOp.build(t.b, { lhs: x, rhs: y, result: t.i32 }, t.loc());
    PrintOp.build(t.b, { values: [entry.firstOp!.getResult(0)] }, t.loc());
    ReturnOp.build(t.b, { values: [] }, t.loc());
    const order: string[] = [];
    const low = createPattern(MulOp, () => (order.push('low'), false), { benefit: 1, debugName: 'low' });
    const high = createPattern(MulOp, () => (order.push('high'), false), { benefit: 5, debugName: 'high' });
    expect(high.debugName).toBe('high');
    applyPatternsGreedily(f.op, [low, high], { maxIterations: 1 });
    expect(order).toEqual(['high', 'low']);
  });

  test('an unregistered op of the same name never reaches the callback', () => {
    const ctx = new MLIRContext();
    ctx.allowUnregisteredDialects = true;
    const i32 = IntegerType.get(ctx, 32);
    const block = new Block([i32], [UnknownLoc.get(ctx)]);
    const x = block.getArgument(0);
    const fake = Operation.create({ context: ctx, name: 'test.mul', location: UnknownLoc.get(ctx), operands: [x, x], resultTypes: [i32] });
    block.push(fake);
    expect(fake.isRegistered).toBe(false);
    let called = 0;
    const p = createPattern(MulOp, () => (called++, true));
    expect(p.matchAndRewrite(fake, new PatternRewriter(ctx))).toBe(false);
    expect(called).toBe(0);
  });
});
