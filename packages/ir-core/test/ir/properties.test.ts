import fc from 'fast-check';
import { Block, IRMapping, Operation, WalkOrder, type Value } from '../../src';
import { op, setup } from './helpers';

/** Checks every use list against the operands that reference the value (both directions). */
function checkUseLists(block: Block, values: Value[]): void {
  const expected = new Map<Value, number>();
  for (const o of block.operations) {
    for (let i = 0; i < o.numOperands; i++) {
      const u = o.getOpOperand(i);
      expect(u.index).toBe(i);
      expect(u.owner).toBe(o);
      expected.set(u.value, (expected.get(u.value) ?? 0) + 1);
    }
  }
  for (const v of values) {
    let n = 0;
    let prev = null;
    for (let u = v.firstUse; u; u = u.nextUse) {
      expect(u.prevUse).toBe(prev);
      expect(u.value).toBe(v);
      expect(u.owner.getOpOperand(u.index)).toBe(u);
      prev = u;
      n++;
    }
    expect(n).toBe(expected.get(v) ?? 0);
  }
}

type Edit =
  | { kind: 'set'; op: number; operand: number; value: number }
  | { kind: 'rauw'; from: number; to: number }
  | { kind: 'insert'; op: number; at: number; value: number }
  | { kind: 'erase-operand'; op: number; at: number }
  | { kind: 'erase-op'; op: number }
  | { kind: 'move'; op: number; before: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), op: fc.nat(), operand: fc.nat(), value: fc.nat() }),
  fc.record({ kind: fc.constant('rauw' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), op: fc.nat(), at: fc.nat(), value: fc.nat() }),
  fc.record({ kind: fc.constant('erase-operand' as const), op: fc.nat(), at: fc.nat() }),
  fc.record({ kind: fc.constant('erase-op' as const), op: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), op: fc.nat(), before: fc.nat() }),
);

describe('properties', () => {
  test('random use-list edits keep use lists consistent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.array(fc.nat(), { maxLength: 4 }), { minLength: 1, maxLength: 8 }), fc.array(edit, { maxLength: 40 }), (nArgs, opSpecs, edits) => {
        const { ctx, i32, loc } = setup();
        const block = new Block(Array(nArgs).fill(i32), Array(nArgs).fill(loc()));
        const values: Value[] = [...block.arguments];
        const ops: Operation[] = [];
        for (const spec of opSpecs) {
          const o = op(ctx, block, 'o', spec.map((k) => values[k % values.length]!), [i32]);
          ops.push(o);
          values.push(o.getResult(0));
        }
        const live = () => ops.filter((o) => o.parent === block);
        for (const e of edits) {
          const L = live();
          const pick = <T>(xs: T[], k: number) => xs[k % xs.length];
          const liveVals = [...block.arguments, ...L.map((o) => o.getResult(0))];
          switch (e.kind) {
            case 'set': {
              const o = pick(L, e.op);
              if (o && o.numOperands > 0) o.setOperand(e.operand % o.numOperands, pick(liveVals, e.value)!);
              break;
            }
            case 'rauw': {
              const a = pick(liveVals, e.from)!;
              const b = pick(liveVals, e.to)!;
              a.replaceAllUsesWith(b);
              break;
            }
            case 'insert': {
              const o = pick(L, e.op);
              if (o) o.insertOperands(e.at % (o.numOperands + 1), [pick(liveVals, e.value)!]);
              break;
            }
            case 'erase-operand': {
              const o = pick(L, e.op);
              if (o && o.numOperands > 0) o.eraseOperands(e.at % o.numOperands);
              break;
            }
            case 'erase-op': {
              const o = pick(L, e.op);
              if (o && o.getResult(0).useEmpty) o.erase();
              break;
            }
            case 'move': {
              const o = pick(L, e.op);
              const b = pick(L, e.before);
              if (o && b) o.moveBefore(b);
              break;
            }
          }
        }
        checkUseLists(block, [...block.arguments, ...live().map((o) => o.getResult(0))]);
        // Order indices stay consistent with the list order after moves.
        const L = live();
        for (let i = 1; i < L.length; i++) {
          const a = block.operations[i - 1]!;
          const b = block.operations[i]!;
          expect(a.isBeforeInBlock(b)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('clone preserves structure and maps every value', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 2 })), { minLength: 1, maxLength: 30 }), (spec) => {
        const { ctx, i32, loc } = setup();
        const root = op(ctx, null, 'root', [], [], 1);
        const entry = new Block([i32], [loc()]);
        root.getRegion(0).push(entry);
        // Build a random tree: each op goes into a random existing block, uses a random visible value.
        const blocks: Block[] = [entry];
        for (const [b, v, regions] of spec) {
          const blk = blocks[b % blocks.length]!;
          const visible = [...blk.arguments, ...blk.operations.flatMap((o) => o.results)];
          const o = op(ctx, blk, 'n', visible.length ? [visible[v % visible.length]!] : [], [i32], regions);
          for (const r of o.regions) {
            const nb = new Block([i32], [loc()]);
            r.push(nb);
            blocks.push(nb);
          }
        }
        const shape = (o: Operation): string[] => {
          const out: string[] = [];
          o.walk((x) => {
            const operandPos = x.operands.map((v) => (v.definingOp ? `r${v.definingOp.name}` : `a${(v as unknown as { index: number }).index}`));
            out.push(`${x.name}/${x.numRegions}/${operandPos.join(',')}`);
          }, WalkOrder.PreOrder);
          return out;
        };
        const m = new IRMapping();
        const copy = root.clone(m);
        expect(shape(copy)).toEqual(shape(root));
        // No operand of the copy refers to a value inside the original.
        const originals = new Set<Value>();
        root.walk((x) => void x.results.forEach((r) => originals.add(r)));
        copy.walk((x) => {
          for (const v of x.operands) expect(originals.has(v)).toBe(false);
        });
        copy.erase();
        // Erasing the copy leaves the original's use lists intact.
        root.walk((x) => {
          for (const r of x.results) for (let u = r.firstUse; u; u = u.nextUse) expect(root.isAncestor(u.owner)).toBe(true);
        });
      }),
      { numRuns: 150 },
    );
  });
});
