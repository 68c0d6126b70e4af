import { Block, Operation, op, same, setup } from './helpers';
import { IRMapping } from '../../src/ir/ir-mapping';
import { WalkOrder, WalkResult } from '../../src/ir/walk';
import { Region } from '../../src/ir/region';

describe('use lists', () => {
  test('replaceAllUsesWith / hasOneUse / users', () => {
    const { ctx, i32 } = setup();
    const b = new Block();
    const a = op(ctx, b, 'a', [], [i32]);
    const c = op(ctx, b, 'c', [], [i32]);
    const u1 = op(ctx, b, 'u1', [a.getResult(0), a.getResult(0)]);
    expect(a.getResult(0).numUses).toBe(2);
    expect(a.getResult(0).hasOneUse()).toBe(false);
    a.getResult(0).replaceAllUsesWith(c.getResult(0));
    expect(a.getResult(0).useEmpty).toBe(true);
    expect(same(c.getResult(0).users, [u1, u1])).toBe(true);
    u1.setOperand(1, a.getResult(0));
    expect(a.getResult(0).hasOneUse()).toBe(true);
    expect(c.getResult(0).hasOneUse()).toBe(true);
  });

  test('erase drops uses held by nested ops', () => {
    const { ctx, i32 } = setup();
    const b = new Block();
    const a = op(ctx, b, 'a', [], [i32]);
    const outer = op(ctx, b, 'outer', [], [], 1);
    const inner = new Block();
    outer.getRegion(0).push(inner);
    op(ctx, inner, 'use', [a.getResult(0)]);
    expect(a.getResult(0).numUses).toBe(1);
    outer.erase();
    expect(a.getResult(0).useEmpty).toBe(true);
    expect(same(b.operations, [a])).toBe(true);
  });
});

describe('blocks and ops', () => {
  test('insert/move keep order and isBeforeInBlock', () => {
    const { ctx } = setup();
    const b = new Block();
    const x = op(ctx, b, 'x');
    const y = op(ctx, b, 'y');
    const z = op(ctx, b, 'z');
    expect(x.isBeforeInBlock(z)).toBe(true);
    z.moveBefore(x);
    expect(b.operations.map((o) => o.name)).toEqual(['test.z', 'test.x', 'test.y']);
    expect(z.isBeforeInBlock(x)).toBe(true);
    y.moveAfter(z);
    expect(b.operations.map((o) => o.name)).toEqual(['test.z', 'test.y', 'test.x']);
    expect(b.lastOp).toBe(x);
  });

  test('successors maintain predecessors', () => {
    const { ctx, loc } = setup();
    const r = new Region();
    const b0 = new Block();
    const b1 = new Block();
    r.push(b0);
    r.push(b1);
    const t = Operation.create({ context: ctx, name: 'test.br', location: loc(), successors: [b1, b1] });
    b0.push(t);
    expect(same(b1.predecessors, [b0, b0])).toBe(true);
    t.setSuccessor(0, b0);
    expect(same(b1.predecessors, [b0])).toBe(true);
    expect(same(b0.predecessors, [b0])).toBe(true);
  });
});

describe('clone and walk', () => {
  test('clone maps nested values and forward references', () => {
    const { ctx, i32 } = setup();
    const outer = op(ctx, null, 'outer', [], [i32], 1);
    const blk = new Block([i32], [outer.location]);
    outer.getRegion(0).push(blk);
    const late = op(ctx, null, 'late', [], [i32]);
    const useLate = op(ctx, blk, 'useLate', [blk.getArgument(0)]);
    blk.push(late);
    useLate.insertOperands(1, [late.getResult(0)]); // forward reference (graph-region style)
    const m = new IRMapping();
    const copy = outer.clone(m);
    const cblk = copy.getRegion(0).firstBlock!;
    const cuse = cblk.firstOp!;
    expect(cuse.getOperand(0)).toBe(cblk.getArgument(0));
    expect(cuse.getOperand(1)).toBe(cblk.lastOp!.getResult(0));
    expect(m.lookupOrNull(outer.getResult(0))).toBe(copy.getResult(0));
    expect(late.getResult(0).numUses).toBe(1);
  });

  test('walk pre/post order with skip and interrupt', () => {
    const { ctx } = setup();
    const root = op(ctx, null, 'root', [], [], 1);
    const b = new Block();
    root.getRegion(0).push(b);
    const a = op(ctx, b, 'a', [], [], 1);
    const ab = new Block();
    a.getRegion(0).push(ab);
    op(ctx, ab, 'a1');
    op(ctx, b, 'c');
    const pre: string[] = [];
    root.walk((o) => void pre.push(o.name.slice(5)), WalkOrder.PreOrder);
    expect(pre).toEqual(['root', 'a', 'a1', 'c']);
    const post: string[] = [];
    root.walk((o) => void post.push(o.name.slice(5)), WalkOrder.PostOrder);
    expect(post).toEqual(['a1', 'a', 'c', 'root']);
    const skipped: string[] = [];
    root.walk((o) => {
      skipped.push(o.name.slice(5));
      return o.name === 'test.a' ? WalkResult.Skip : WalkResult.Advance;
    }, WalkOrder.PreOrder);
    expect(skipped).toEqual(['root', 'a', 'c']);
    const seen: string[] = [];
    const r = root.walk((o) => {
      seen.push(o.name.slice(5));
      return o.name === 'test.a1' ? WalkResult.Interrupt : WalkResult.Advance;
    });
    expect(r).toBe(WalkResult.Interrupt);
    expect(seen).toEqual(['a1']);
  });

  test('10,000-deep nesting: walk, clone, erase do not overflow', () => {
    const { ctx } = setup();
    const root = op(ctx, null, 'n', [], [], 1);
    let cur = root;
    for (let i = 0; i < 10000; i++) {
      const b = new Block();
      cur.getRegion(0).push(b);
      cur = op(ctx, b, 'n', [], [], 1);
    }
    let count = 0;
    root.walk(() => void count++);
    expect(count).toBe(10001);
    const copy = root.clone();
    let c2 = 0;
    copy.walk(() => void c2++, WalkOrder.PreOrder);
    expect(c2).toBe(10001);
    copy.erase();
    root.erase();
  });
});
