import { Block, PatternRewriter, Region, StringAttr, WalkOrder, type Operation } from '../../src';
import { op, setup } from '../ir/helpers';

function recorder() {
  const events: string[] = [];
  return {
    events,
    listener: {
      notifyOperationInserted: (o: Operation) => void events.push(`ins ${o.name}`),
      notifyOperationModified: (o: Operation) => void events.push(`mod ${o.name}`),
      notifyOperationErased: (o: Operation) => void events.push(`erase ${o.name}`),
      notifyBlockInserted: () => void events.push('block'),
      notifyBlockErased: () => void events.push('block-erased'),
    },
  };
}

describe('PatternRewriter', () => {
  test('inlineBlockBefore replaces arguments and notifies moves', () => {
    const { ctx, i32, loc } = setup();
    const dest = new Block([i32], [loc()]);
    const anchor = op(ctx, dest, 'anchor');
    const src = new Block([i32], [loc()]);
    op(ctx, src, 'use', [src.getArgument(0)]);
    const r = recorder();
    const rw = new PatternRewriter(ctx, r.listener);
    rw.inlineBlockBefore(src, dest, anchor, [dest.getArgument(0)]);
    expect(dest.operations.map((o) => o.name)).toEqual(['test.use', 'test.anchor']);
    expect(dest.firstOp!.getOperand(0)).toBe(dest.getArgument(0));
    expect(r.events).toEqual(['mod test.use', 'ins test.use']);
  });

  test('inlineRegionBefore, eraseOp notifies nested ops post-order, modifyOpInPlace', () => {
    const { ctx, i32 } = setup();
    const outer = op(ctx, null, 'outer', [], [], 1);
    const inner = op(ctx, null, 'inner', [], [], 1);
    const ib = new Block();
    inner.getRegion(0).push(ib);
    op(ctx, ib, 'leaf', [], [i32]);
    const r = recorder();
    const rw = new PatternRewriter(ctx, r.listener);
    rw.inlineRegionBefore(inner.getRegion(0), outer.getRegion(0), null);
    expect(outer.getRegion(0).firstBlock).toBe(ib);
    expect(inner.getRegion(0).empty).toBe(true);
    const holder = op(ctx, null, 'holder', [], [], 1);
    holder.getRegion(0).push(new Block());
    op(ctx, holder.getRegion(0).firstBlock!, 'child');
    rw.eraseOp(holder);
    rw.modifyOpInPlace(outer, () => outer.setDiscardableAttr('x', StringAttr.get(ctx, 'y')));
    expect(outer.getAttr('x')).toBe(StringAttr.get(ctx, 'y'));
    expect(r.events).toEqual(['block', 'erase test.child', 'erase test.holder', 'mod test.outer']);
    void Region;
  });

  test('walk: post-order callbacks may erase the visited op', () => {
    const { ctx, i32 } = setup();
    const root = op(ctx, null, 'root', [], [], 1);
    const b = new Block();
    root.getRegion(0).push(b);
    for (let i = 0; i < 5; i++) op(ctx, b, i % 2 ? 'odd' : 'even', [], [i32]);
    root.walk((o) => {
      if (o.name === 'test.odd') o.erase();
    }, WalkOrder.PostOrder);
    expect(b.operations.map((o) => o.name)).toEqual(['test.even', 'test.even', 'test.even']);
  });

  test('splitBlock moves the tail into a new block', () => {
    const { ctx } = setup();
    const r = new Region();
    const b = new Block();
    r.push(b);
    op(ctx, b, 'a');
    const m = op(ctx, b, 'b');
    op(ctx, b, 'c');
    const tail = b.splitBlock(m);
    expect(b.operations.map((o) => o.name)).toEqual(['test.a']);
    expect(tail.operations.map((o) => o.name)).toEqual(['test.b', 'test.c']);
    expect(r.blocks.length === 2 && r.blocks[0] === b && r.blocks[1] === tail).toBe(true);
  });
});
