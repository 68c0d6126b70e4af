import fc from 'fast-check';
import { Liveness, PassManager, createPass, getRetainedName, parseSourceString, type Block, type Operation, type Value } from '../../src';
import { testContext } from '../ir/test-dialect';

function parse(text: string): Operation {
  const t = testContext();
  t.ctx.allowUnregisteredDialects = true;
  const m = parseSourceString(t.ctx, text, { filename: 'liveness.mlir', retainIdentifierNames: true });
  if (!m) throw new Error('parse failed');
  return m;
}

/** The values of `root` by their source name. */
function valuesByName(root: Operation): Map<string, Value> {
  const out = new Map<string, Value>();
  root.walk((op) => {
    for (const r of op.results) {
      const n = getRetainedName(r);
      if (n) out.set(n, r);
    }
    for (const reg of op.regions) for (let b = reg.firstBlock; b; b = b.next) for (const a of b.arguments) {
      const n = getRetainedName(a);
      if (n) out.set(n, a);
    }
  });
  return out;
}

const names = (vals: Iterable<Value>, byName: Map<string, Value>) => {
  const rev = new Map([...byName].map(([k, v]) => [v, k]));
  return [...vals].map((v) => rev.get(v) ?? '?').sort();
};

const STRAIGHT = `
"test.func"() <{sym_name = "f"}> ({
^bb0(%a: i32):
  %b = "x.def"(%a) : (i32) -> i32
  %c = "x.def"(%b) : (i32) -> i32
  "x.loop"() ({
    %d = "x.use"(%b) : (i32) -> i32
    "x.use"(%d) : (i32) -> ()
  }) : () -> ()
  "x.use"(%c) : (i32) -> ()
  %unused = "x.def"() : () -> i32
  "test.return"() : () -> ()
}) : () -> ()`;

describe('liveness', () => {
  test('live intervals over a linear op order; a use in a nested region covers the whole op', () => {
    const m = parse(STRAIGHT);
    const v = valuesByName(m);
    const func = m.regions[0]!.firstBlock!.firstOp!;
    const iv = new Liveness(func).getLiveIntervals(func.regions[0]!);
    expect(iv.operations.map((o) => o.name)).toEqual(['x.def', 'x.def', 'x.loop', 'x.use', 'x.use', 'x.use', 'x.def', 'test.return']);
    const at = (n: string) => {
      const i = iv.getInterval(v.get(n)!)!;
      return [i.start, i.end];
    };
    expect(at('a')).toEqual([0, 0]);
    expect(at('b')).toEqual([0, 4]); // used inside x.loop (ops 2..4): live to the end of the loop
    expect(at('c')).toEqual([1, 5]);
    expect(at('d')).toEqual([3, 4]);
    expect(at('unused')).toEqual([6, 6]);
    expect(iv.overlaps(v.get('c')!, v.get('d')!)).toBe(true);
    expect(iv.overlaps(v.get('a')!, v.get('d')!)).toBe(false);
    expect(iv.liveAt(4).length).toBe(3); // b, c, d
    expect(iv.indexOf(iv.operations[2]!)).toBe(2);
    expect(iv.endIndexOf(iv.operations[2]!)).toBe(4);
    expect(iv.intervals.map((x) => x.start)).toEqual([...iv.intervals.map((x) => x.start)].sort((p, q) => p - q));
  });

  test('live-in / live-out across blocks and nested regions', () => {
    const m = parse(`
"test.func"() <{sym_name = "g"}> ({
^bb0(%a: i32, %flag: i1):
  %x = "x.def"(%a) : (i32) -> i32
  "test.cond_br"(%flag) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  %y = "x.def"(%x) : (i32) -> i32
  "test.br"(%y) [^bb3] : (i32) -> ()
^bb2:
  "x.region"() ({
    "x.use"(%a) : (i32) -> ()
  }) : () -> ()
  "test.br"(%x) [^bb3] : (i32) -> ()
^bb3(%z: i32):
  "x.use"(%z, %x) : (i32, i32) -> ()
  "test.return"() : () -> ()
}) : () -> ()`);
    const v = valuesByName(m);
    const func = m.regions[0]!.firstBlock!.firstOp!;
    const blocks: Block[] = func.regions[0]!.blocks;
    const live = new Liveness(func);
    expect(names(live.getLiveIn(blocks[0]!), v)).toEqual([]);
    expect(names(live.getLiveOut(blocks[0]!), v)).toEqual(['a', 'x']);
    expect(names(live.getLiveIn(blocks[1]!), v)).toEqual(['x']);
    expect(names(live.getLiveOut(blocks[1]!), v)).toEqual(['x']);
    expect(names(live.getLiveIn(blocks[2]!), v)).toEqual(['a', 'x']);
    expect(names(live.getLiveIn(blocks[3]!), v)).toEqual(['x']);
    expect(names(live.getLiveOut(blocks[3]!), v)).toEqual([]);
    // The region nested in x.region sees %a live-in.
    const nested = blocks[2]!.firstOp!.regions[0]!.firstBlock!;
    expect(names(live.getLiveIn(nested), v)).toEqual(['a']);
    expect(live.isDeadAfter(v.get('y')!, blocks[1]!.lastOp!)).toBe(true);
    expect(live.isDeadAfter(v.get('x')!, blocks[0]!.firstOp!)).toBe(false);
    // Intervals across blocks: %x is live from its definition (op 0) to its use in ^bb3.
    const iv = live.getLiveIntervals(func.regions[0]!);
    const ops = iv.operations.map((o) => o.name);
    expect(ops).toEqual(['x.def', 'test.cond_br', 'x.def', 'test.br', 'x.region', 'x.use', 'test.br', 'x.use', 'test.return']);
    expect(iv.getInterval(v.get('x')!)).toMatchObject({ start: 0, end: 7 });
    expect(iv.getInterval(v.get('a')!)).toMatchObject({ start: 0, end: 5 });
    expect(iv.getInterval(v.get('y')!)).toMatchObject({ start: 2, end: 3 });
    expect(iv.getInterval(v.get('z')!)).toMatchObject({ start: 7, end: 7 });
    const info = live.getBlockInfo(blocks[3]!)!;
    expect(names(info.currentlyLiveValues(blocks[3]!.firstOp!), v)).toEqual(['x', 'z']);
  });

  test('aliasesOf: a buffer stays live while a view of it is used', () => {
    const m = parse(`
"test.func"() <{sym_name = "v"}> ({
^bb0:
  %buf = "x.alloc"() : () -> i32
  %view = "x.view"(%buf) : (i32) -> i32
  %other = "x.def"() : () -> i32
  "x.use"(%view) : (i32) -> ()
  "test.return"() : () -> ()
}) : () -> ()`);
    const v = valuesByName(m);
    const func = m.regions[0]!.firstBlock!.firstOp!;
    const live = new Liveness(func);
    expect(live.getLiveIntervals(func.regions[0]!).getInterval(v.get('buf')!)).toMatchObject({ start: 0, end: 1 });
    const iv = live.getLiveIntervals(func.regions[0]!, { aliasesOf: (use) => (use.owner.name === 'x.view' ? use.owner.results : []) });
    expect(iv.getInterval(v.get('buf')!)).toMatchObject({ start: 0, end: 3 });
    expect(iv.overlaps(v.get('buf')!, v.get('other')!)).toBe(true);
  });

  test('values: intervals of the selected values only, equal to the full computation', () => {
    const m = parse(STRAIGHT);
    const func = m.regions[0]!.firstBlock!.firstOp!;
    const live = new Liveness(func);
    const all = live.getLiveIntervals(func.regions[0]!);
    const picked = all.intervals.filter((_, i) => i % 2 === 0).map((iv) => iv.value);
    const some = live.getLiveIntervals(func.regions[0]!, { values: (v) => picked.includes(v) });
    expect(some.intervals.map((iv) => iv.value)).toEqual(picked);
    for (const v of picked) expect(some.getInterval(v)).toEqual(all.getInterval(v));
  });

  test('is an analysis: cached by the pass manager', () => {
    const m = parse(STRAIGHT);
    const pm = new PassManager(m.context);
    const seen: Liveness[] = [];
    for (const name of ['a', 'b']) {
      pm.addPass(
        createPass({
          argument: name,
          run(_op, pass) {
            seen.push(pass.getAnalysis(Liveness));
            pass.markAllAnalysesPreserved();
          },
        }),
      );
    }
    expect(pm.run(m).success).toBe(true);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]!.operation).toBe(m);
  });
});

describe('liveness property', () => {
  test('in straight-line code a value is live at op i iff it is defined at or before i and used at or after i', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 12 }), (opsOperands) => {
        // op k defines %v{k+1} and uses earlier values (operand picks modulo the values so far).
        const lines = ['"test.func"() <{sym_name = "p"}> ({', '^bb0(%v0: i32):'];
        opsOperands.forEach((picks, k) => {
          const used = picks.map((p) => `%v${p % (k + 1)}`);
          lines.push(`  %v${k + 1} = "x.op"(${used.join(', ')}) : (${used.map(() => 'i32').join(', ')}) -> i32`);
        });
        lines.push('  "test.return"() : () -> ()', '}) : () -> ()');
        const m = parse(lines.join('\n'));
        const func = m.regions[0]!.firstBlock!.firstOp!;
        const block = func.regions[0]!.firstBlock!;
        const live = new Liveness(func);
        const iv = live.getLiveIntervals(func.regions[0]!);
        const values = [block.getArgument(0), ...block.operations.slice(0, -1).map((o) => o.getResult(0))];
        values.forEach((v, k) => {
          const defAt = k === 0 ? 0 : k - 1;
          const uses = v.users.map((u) => iv.indexOf(u)!);
          const lastUse = Math.max(defAt, ...uses);
          expect(iv.getInterval(v)).toEqual({ value: v, start: defAt, end: lastUse });
          for (let i = 0; i < block.numOperations; i++) {
            const op = block.operations[i]!;
            if (i >= defAt) expect(live.isDeadAfter(v, op)).toBe(!uses.some((u) => u > i));
          }
        });
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});

/**
 * The block sets of MLIR's `BlockInfoBuilder` computed the plain way (every definition and use
 * of a block collected in sets), with the same backward fixpoint: the reference the analysis
 * (which tests definitions by walking up from a value's block instead) must agree with.
 */
function referenceLiveness(root: Operation): Map<Block, { liveIn: Set<Value>; liveOut: Set<Value> }> {
  const blocks: Block[] = [];
  root.walk((o) => {
    for (const r of o.regions) for (let b = r.firstBlock; b; b = b.next) blocks.push(b);
  });
  const def = new Map<Block, Set<Value>>();
  const use = new Map<Block, Set<Value>>();
  const out = new Map<Block, Set<Value>>();
  for (const b of blocks) {
    const d = new Set<Value>(b.arguments);
    const u = new Set<Value>();
    b.walk((o) => {
      for (const r of o.results) d.add(r);
      for (const v of o.operands) u.add(v);
      for (const r of o.regions) for (let c = r.firstBlock; c; c = c.next) for (const a of c.arguments) d.add(a);
    });
    for (const x of d) u.delete(x);
    const o = new Set<Value>();
    const region = b.parent!;
    for (let op = b.firstOp; op; op = op.next) {
      for (const r of op.results) for (const user of r.users) if (region.findAncestorBlockInRegion(user.parent!) !== b) o.add(r);
    }
    for (const a of b.arguments) for (const user of a.users) if (region.findAncestorBlockInRegion(user.parent!) !== b) o.add(a);
    def.set(b, d);
    use.set(b, u);
    out.set(b, o);
  }
  const result = new Map(blocks.map((b) => [b, { liveIn: new Set<Value>(), liveOut: new Set<Value>(out.get(b)) }]));
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = blocks.length - 1; i >= 0; i--) {
      const b = blocks[i]!;
      const info = result.get(b)!;
      for (const s of b.successors) for (const v of result.get(s)!.liveIn) info.liveOut.add(v);
      const before = info.liveIn.size;
      for (const v of use.get(b)!) info.liveIn.add(v);
      for (const v of info.liveOut) if (!def.get(b)!.has(v)) info.liveIn.add(v);
      if (info.liveIn.size !== before) changed = true;
    }
  }
  return result;
}

describe('liveness property: control flow and nested regions', () => {
  test('live-in and live-out sets equal the plain set-based computation on random CFGs', () => {
    // Block k of a function defines %b{k}_{j}; ops use values of the entry block, of their own
    // block (earlier) and of any block (a use that need not dominate: liveness does not care),
    // some inside a nested region; each block branches to random successors.
    const blockCase = fc.record({
      ops: fc.array(fc.record({ picks: fc.array(fc.nat(), { maxLength: 3 }), nested: fc.boolean() }), { minLength: 1, maxLength: 4 }),
      successors: fc.array(fc.nat(), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(blockCase, { minLength: 1, maxLength: 5 }), (blocks) => {
        const all = blocks.flatMap((b, k) => b.ops.map((_, j) => `%b${k}_${j}`));
        const lines = ['"test.func"() <{sym_name = "p"}> ({'];
        blocks.forEach((b, k) => {
          lines.push(k === 0 ? '^bb0(%arg: i32):' : `^bb${k}:`);
          b.ops.forEach((op, j) => {
            const pool = ['%arg', ...all];
            const used = op.picks.map((p) => pool[p % pool.length]!);
            const types = used.map(() => 'i32').join(', ');
            // A nested region defines a value of its own and uses it: never live outside.
            if (op.nested) lines.push(`  %b${k}_${j} = "x.region"() ({`, `    %n${k}_${j} = "x.op"(${used.join(', ')}) : (${types}) -> i32`, `    "x.use"(%n${k}_${j}) : (i32) -> ()`, '  }) : () -> i32');
            else lines.push(`  %b${k}_${j} = "x.op"(${used.join(', ')}) : (${types}) -> i32`);
          });
          const succ = b.successors.map((s) => `^bb${s % blocks.length}`);
          lines.push(succ.length ? `  "x.br"() [${succ.join(', ')}] : () -> ()` : '  "x.br"() : () -> ()');
        });
        lines.push('}) : () -> ()');
        const t = testContext();
        t.ctx.allowUnregisteredDialects = true;
        const m = parseSourceString(t.ctx, lines.join('\n'), { filename: 'cfg.mlir', retainIdentifierNames: true });
        if (!m) throw new Error(`parse failed:\n${lines.join('\n')}`);
        const func = m.regions[0]!.firstBlock!.firstOp!;
        const live = new Liveness(func);
        const named = (vals: Iterable<Value>): string[] => [...vals].map((v) => getRetainedName(v) ?? '?').sort();
        for (const [b, ref] of referenceLiveness(func)) {
          expect(named(live.getLiveIn(b))).toEqual(named(ref.liveIn));
          expect(named(live.getLiveOut(b))).toEqual(named(ref.liveOut));
        }
      }),
      { numRuns: 150, seed: 20261207 },
    );
  });
});
