import fc from 'fast-check';
import {
  Block,
  IntegerAttr,
  Operation,
  StringAttr,
  applyPatternsGreedily,
  createPattern,
  verify,
  type Value,
} from '../../src';
import { AddOp, BrOp, ConstOp, FuncOp, MulOp, PrintOp, ReturnOp, testContext } from '../ir/test-dialect';

function makeFunc(t: ReturnType<typeof testContext>) {
  const f = FuncOp.build(t.b, { sym_name: StringAttr.get(t.ctx, 'f') }, t.loc());
  const entry = new Block([t.i32], [t.loc()]);
  f.body.push(entry);
  t.b.setInsertionPointToEnd(entry);
  return { f, entry, x: entry.getArgument(0) };
}
const names = (b: Block) => b.operations.map((o) => o.name);

describe('greedy driver', () => {
  test('folds constants, erases dead ops, applies x + 0 -> x', () => {
    const t = testContext();
    const { f, entry, x } = makeFunc(t);
    const c1 = ConstOp.build(t.b, { value: t.int(2), result: t.i32 }, t.loc()).result;
    const c2 = ConstOp.build(t.b, { value: t.int(3), result: t.i32 }, t.loc()).result;
    const s = AddOp.build(t.b, { lhs: c1, rhs: c2, result: t.i32 }, t.loc()).result; // 5
    const z = ConstOp.build(t.b, { value: t.int(0), result: t.i32 }, t.loc()).result;
    const y = AddOp.build(t.b, { lhs: x, rhs: z, result: t.i32 }, t.loc()).result; // x
    AddOp.build(t.b, { lhs: x, rhs: x, result: t.i32 }, t.loc()); // dead
    PrintOp.build(t.b, { values: [s, y] }, t.loc());
    ReturnOp.build(t.b, { values: [] }, t.loc());
    const r = applyPatternsGreedily(f.op, []);
    expect(r.converged).toBe(true);
    expect(names(entry)).toEqual(['test.const', 'test.print', 'test.return']);
    const print = entry.operations[1]!;
    expect((ConstOp.get(print.getOperand(0).definingOp!).value as IntegerAttr).value).toBe(5n);
    expect(print.getOperand(1)).toBe(x);
    expect(verify(f.op)).toBe(true);
  });

  test('patterns by benefit, listener hooks, convergence limit', () => {
    const t = testContext();
    const { f, entry, x } = makeFunc(t);
    const two = ConstOp.build(t.b, { value: t.int(2), result: t.i32 }, t.loc()).result;
    const m = MulOp.build(t.b, { lhs: x, rhs: two, result: t.i32 }, t.loc()).result;
    PrintOp.build(t.b, { values: [m] }, t.loc());
    ReturnOp.build(t.b, { values: [] }, t.loc());
    const applied: string[] = [];
    const low = createPattern({ root: MulOp, benefit: 1, debugName: 'low', matchAndRewrite: () => (applied.push('low'), false) });
    const high = createPattern({
      root: MulOp,
      benefit: 2,
      debugName: 'mul2-to-add',
      matchAndRewrite(op, rw) {
        const v = MulOp.get(op);
        const c = v.rhs.definingOp;
        if (!c || !ConstOp.isInstance(c) || ConstOp.get(c).value.value !== 2n) return rw.notifyMatchFailure(op, 'not * 2');
        applied.push('high');
        rw.replaceOp(op, AddOp.build(rw, { lhs: v.lhs, rhs: v.lhs, result: t.i32 }, op.location).op);
        return true;
      },
    });
    const events: string[] = [];
    const r = applyPatternsGreedily(f.op, [low, high], {
      listener: {
        notifyOperationErased: (op) => void events.push(`erased ${op.name}`),
        notifyOperationInserted: (op) => void events.push(`inserted ${op.name}`),
        notifyOperationReplaced: (op) => void events.push(`replaced ${op.name}`),
      },
    });
    expect(r.converged).toBe(true);
    expect(applied[0]).toBe('high');
    expect(names(entry)).toEqual(['test.add', 'test.print', 'test.return']);
    expect(events).toEqual(['inserted test.add', 'replaced test.mul', 'erased test.mul', 'erased test.const']);

    // A pattern that always changes something never converges.
    const flip = createPattern({
      root: 'test.print',
      matchAndRewrite(op, rw) {
        rw.modifyOpInPlace(op, () => op.setDiscardableAttr('n', IntegerAttr.get(t.i64, Number((op.getAttr('n') as IntegerAttr | undefined)?.value ?? 0n) + 1)));
        return true;
      },
    });
    const r2 = applyPatternsGreedily(f.op, [flip], { maxIterations: 3, maxNumRewrites: 50 });
    expect(r2.converged).toBe(false);
    expect(r2.iterations).toBe(3);
  });

  test('property: folding preserves the value of random constant expressions', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.nat(), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 25 }), (spec) => {
        const t = testContext();
        const { f, entry } = makeFunc(t);
        const vals: Value[] = [];
        const ref: bigint[] = [];
        for (const [c, i, j, isConst] of spec) {
          if (isConst || vals.length === 0) {
            vals.push(ConstOp.build(t.b, { value: t.int(c), result: t.i32 }, t.loc()).result);
            ref.push(BigInt.asIntN(32, BigInt(c)));
          } else {
            const a = i % vals.length;
            const b2 = j % vals.length;
            vals.push(AddOp.build(t.b, { lhs: vals[a]!, rhs: vals[b2]!, result: t.i32 }, t.loc()).result);
            ref.push(BigInt.asIntN(32, ref[a]! + ref[b2]!));
          }
        }
        PrintOp.build(t.b, { values: [vals[vals.length - 1]!] }, t.loc());
        ReturnOp.build(t.b, { values: [] }, t.loc());
        const r = applyPatternsGreedily(f.op, []);
        expect(r.converged).toBe(true);
        const print = entry.operations.find((o) => o.name === 'test.print')!;
        const c = print.getOperand(0).definingOp as Operation;
        expect(c.name).toBe('test.const');
        expect(BigInt.asIntN(32, (c.getAttr('value') as IntegerAttr).value)).toBe(ref[ref.length - 1]);
        expect(entry.numOperations).toBe(3);
      }),
      { numRuns: 60 },
    );
  });
});

describe('region simplification', () => {
  test('unreachable blocks are erased (and only with simplification on)', () => {
    for (const enabled of [true, false]) {
      const t = testContext();
      const { f, entry } = makeFunc(t);
      const live = new Block();
      const orphan = new Block([t.i32], [t.loc()]);
      f.body.push(live);
      f.body.push(orphan);
      t.b.setInsertionPointToEnd(entry);
      BrOp.build(t.b, { args: [], dest: live }, t.loc());
      t.b.setInsertionPointToEnd(live);
      ReturnOp.build(t.b, { values: [] }, t.loc());
      t.b.setInsertionPointToEnd(orphan);
      PrintOp.build(t.b, { values: [orphan.getArgument(0)] }, t.loc());
      BrOp.build(t.b, { args: [], dest: live }, t.loc());
      const r = applyPatternsGreedily(f.op, [], { enableRegionSimplification: enabled });
      expect(r.converged).toBe(true);
      expect(f.body.numBlocks).toBe(enabled ? 2 : 3);
      expect(live.predecessors.length).toBe(enabled ? 1 : 2);
      expect(live.predecessors.includes(orphan)).toBe(!enabled);
      expect(verify(f.op)).toBe(true);
    }
  });
});
