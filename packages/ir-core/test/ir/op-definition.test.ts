import { Block, Diagnostic, Operation, Region, StringAttr, verify } from '../../src';
import { defineOp, optional, single, variadic } from '../../src/ir/op-definition';
import { AddOp, ConstOp, FuncOp, ReturnOp, SegOp, testContext } from './test-dialect';

function capture(ctx: ReturnType<typeof testContext>['ctx'], body: () => boolean): { ok: boolean; messages: string[]; diags: Diagnostic[] } {
  const { result, diagnostics } = ctx.diagnostics.capture(body);
  return { ok: result, messages: diagnostics.map((d) => d.message), diags: diagnostics };
}

describe('defineOp', () => {
  test('group ranges without segment sizes: the one non-single group takes what the single ones leave', () => {
    const { ctx, i32, loc } = testContext();
    const Mid = defineOp({ name: 'test.range_mid', operands: { a: single(), b: variadic(), c: single() }, results: { r: optional() } });
    const blk = new Block([i32, i32, i32, i32], [loc(), loc(), loc(), loc()]);
    const args = blk.arguments;
    const range = (n: number, resultCount: number): unknown[] => {
      const op = Operation.create({ context: ctx, name: 'test.range_mid', location: loc(), operands: args.slice(0, n), resultTypes: new Array(resultCount).fill(i32) });
      return [0, 1, 2].map((g) => Mid.getOperandGroupRange(op, g)).concat([Mid.getResultGroupRange(op, 0)]);
    };
    expect(range(4, 1)).toEqual([[0, 1], [1, 2], [3, 1], [0, 1]]);
    expect(range(2, 0)).toEqual([[0, 1], [1, 0], [1, 1], [0, 0]]);
    expect(range(1, 0)).toEqual([null, null, null, [0, 0]]);
    const Singles = defineOp({ name: 'test.range_singles', operands: { a: single(), b: single() } });
    const two = Operation.create({ context: ctx, name: 'test.range_singles', location: loc(), operands: args.slice(0, 2) });
    expect([0, 1].map((g) => Singles.getOperandGroupRange(two, g))).toEqual([[0, 1], [1, 1]]);
    const one = Operation.create({ context: ctx, name: 'test.range_singles', location: loc(), operands: args.slice(0, 1) });
    expect([0, 1].map((g) => Singles.getOperandGroupRange(one, g))).toEqual([[0, 1], null]);
  });

  test('build + typed accessors + registered definition', () => {
    const { ctx, i32, loc, int, b } = testContext();
    const block = new Block();
    b.setInsertionPointToEnd(block);
    const c = ConstOp.build(b, { value: int(3), result: i32 }, loc());
    const add = AddOp.build(b, { lhs: c.result, rhs: c.result, result: i32 }, loc());
    expect(add.op.isRegistered).toBe(true);
    expect(add.lhs).toBe(c.result);
    expect(c.value.value).toBe(3n);
    expect(AddOp.match(c.op)).toBeUndefined();
    expect(add.op.getProperty('value')).toBeUndefined();
    expect(c.op.getProperty('value')).toBe(int(3));
    const seg = SegOp.build(b, { a: c.result, b: [c.result, c.result], c: undefined }, loc());
    expect(seg.b).toHaveLength(2);
    expect(seg.c).toBeUndefined();
    expect(seg.op.getProperty('operandSegmentSizes')).toBeDefined();
    expect(capture(ctx, () => verify(seg.op)).ok).toBe(true);
  });

  test('verification order: counts before attributes before types', () => {
    const { ctx, i32, i64, loc } = testContext();
    const blk = new Block([i32, i64], [loc(), loc()]);
    // wrong count and missing attribute: count reported first
    const bad = Operation.create({ context: ctx, name: 'test.const', location: loc(), operands: [blk.getArgument(0)], resultTypes: [i32] });
    blk.push(bad);
    expect(capture(ctx, () => verify(bad)).messages).toEqual(["'test.const' op requires zero operands"]);
    const noAttr = Operation.create({ context: ctx, name: 'test.const', location: loc(), resultTypes: [i32] });
    blk.push(noAttr);
    expect(capture(ctx, () => verify(noAttr)).messages).toEqual(["'test.const' op requires attribute 'value'"]);
    noAttr.setProperty('value', StringAttr.get(ctx, 'x'));
    expect(capture(ctx, () => verify(noAttr)).messages).toEqual([
      "'test.const' op attribute 'value' failed to satisfy constraint: 64-bit signless integer attribute",
    ]);
    const add = Operation.create({
      context: ctx,
      name: 'test.add',
      location: loc(),
      operands: [blk.getArgument(0), blk.getArgument(1)],
      resultTypes: [i32],
    });
    blk.push(add);
    expect(capture(ctx, () => verify(add)).messages).toEqual(["'test.add' op requires the same type for all operands and results"]);
  });

  test('segment sizes are checked like MLIR', () => {
    const { ctx, i32, loc, seg } = testContext();
    const blk = new Block([i32], [loc()]);
    const x = blk.getArgument(0);
    const mk = (sizes: number[] | undefined, n: number) => {
      const o = Operation.create({
        context: ctx,
        name: 'test.seg',
        location: loc(),
        operands: Array(n).fill(x),
        properties: sizes ? { operandSegmentSizes: seg(sizes) } : {},
      });
      blk.push(o);
      return capture(ctx, () => verify(o)).messages;
    };
    expect(mk(undefined, 1)).toEqual(["'test.seg' op requires dense i32 array attribute 'operandSegmentSizes'"]);
    expect(mk([1, 1], 2)).toEqual(["'test.seg' op 'operandSegmentSizes' attribute for specifying operand segments must have 3 elements, but got 2"]);
    expect(mk([1, 2, 0], 2)).toEqual([
      "'test.seg' op operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'",
    ]);
    expect(mk([1, 0, 2], 3)).toEqual(["'test.seg' op operand group starting at #1 requires 0 or 1 element, but found 2"]);
    expect(mk([1, 3, 1], 5)).toEqual([]);
  });

  test('HasParent and custom messages', () => {
    const { ctx, loc, b } = testContext();
    const region = new Region();
    const blk = new Block();
    region.push(blk);
    const outer = Operation.create({ context: ctx, name: 'test.print', location: loc(), regions: [region] });
    b.setInsertionPointToEnd(blk);
    const ret = ReturnOp.build(b, { values: [] }, loc());
    expect(capture(ctx, () => verify(ret.op)).messages).toEqual(["'test.return' op expects parent op 'test.func'"]);
    void outer;
    void FuncOp;
  });
});
