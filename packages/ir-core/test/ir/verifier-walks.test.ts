/**
 * The verifier's fused walks: the operands are checked once while the ops are verified, and an
 * isolated op's isolation and dominance walks run only when that check could not prove them.
 * These cases pin which diagnostic (message, location, notes) is reported first.
 */
import { Block, BuiltinDialect, FuncDialect, IntegerAttr, IntegerType, MLIRContext, Operation, Traits, anyRegion, defineDialect, defineOp, parseSourceString, variadic, verify } from '../../src';
import { TestLoc } from './helpers';
import { TestDialect } from './test-dialect';

/** `walks.iso`: an isolated-from-above op with operands (its operands belong to the enclosing region). */
const IsoOp = defineOp({
  name: 'walks.iso',
  operands: { inputs: variadic() },
  regions: { body: anyRegion() },
  traits: [Traits.IsolatedFromAbove, Traits.SingleBlock, Traits.NoTerminator],
});
const WalksDialect = defineDialect({ namespace: 'walks', operations: [IsoOp] });

function parse(text: string): { ctx: MLIRContext; module: Operation } {
  const ctx = new MLIRContext();
  for (const d of [BuiltinDialect, FuncDialect, TestDialect, WalksDialect]) ctx.registerDialect(d);
  ctx.allowUnregisteredDialects = true;
  const module = parseSourceString(ctx, text, { filename: 'walks.mlir' });
  if (!module) throw new Error(ctx.diagnostics.collected.map((d) => d.message).join('\n'));
  return { ctx, module };
}

function lineOf(loc: unknown): string {
  const l = loc as { line?: number; column?: number };
  return l.line !== undefined ? `${l.line}:${l.column}` : '?';
}

/** The diagnostics of verifying `op`, as `line:col message | note line:col message`. */
function messages(ctx: MLIRContext, op: Operation, recursive = true): string[] {
  const { diagnostics } = ctx.diagnostics.capture(() => verify(op, { recursive }));
  return diagnostics.map((d) => [`${lineOf(d.location)} ${d.message}`, ...d.notes.map((n) => `note ${lineOf(n.location)} ${n.message}`)].join(' | '));
}

function findOp(root: Operation, name: string, index = 0): Operation {
  const found: Operation[] = [];
  root.walk((o) => {
    if (o.name === name) found.push(o);
  });
  const op = found[index];
  if (!op) throw new Error(`no ${name} #${index}`);
  return op;
}

describe('verifier walks', () => {
  test("an isolated op's operand defined after it in the parent block", () => {
    const { ctx, module } = parse(`func.func @f() {
  "walks.iso"(%0) ({
    %1 = "test.const"() <{value = 1 : i64}> : () -> i32
  }) : (i32) -> ()
  %0 = "test.const"() <{value = 1 : i64}> : () -> i32
  return
}`);
    expect(messages(ctx, module)).toEqual(['2:3 operand #0 does not dominate this use | note 5:8 operand defined here (op in the same block)']);
  });

  test("an isolated op's operands do not count as uses inside it", () => {
    const { ctx, module } = parse(`func.func @f(%x: i32) {
  "walks.iso"(%x) ({
    %1 = "test.const"() <{value = 1 : i64}> : () -> i32
    "walks.iso"(%1) ({
      %2 = "test.const"() <{value = 1 : i64}> : () -> i32
      "test.print"(%2) : (i32) -> ()
    }) : (i32) -> ()
  }) : (i32) -> ()
  return
}`);
    expect(messages(ctx, module)).toEqual([]);
  });

  test('a value of a nested isolated op used after it in the parent', () => {
    const { ctx, module } = parse(`func.func @f() {
  "walks.iso"() ({
    %1 = "test.const"() <{value = 1 : i64}> : () -> i32
  }) : () -> ()
  return
}`);
    const f = findOp(module, 'func.func');
    const c = findOp(module, 'test.const');
    const ret = findOp(module, 'func.return');
    const print = Operation.create({ context: ctx, name: 'test.print', location: ret.location, operands: [c.getResult(0)] });
    ret.parent!.insertBefore(print, ret);
    expect(messages(ctx, module)).toEqual(['5:3 operand #0 does not dominate this use | note 3:10 operand defined here (op in a child region)']);
    expect(messages(ctx, f)).toEqual(['5:3 operand #0 does not dominate this use | note 3:10 operand defined here (op in a child region)']);
  });

  test('non-recursive verification of an isolated op still checks its isolation and dominance', () => {
    const text = `func.func @f(%x: i32) {
  "walks.iso"() ({
    %0 = "test.add"(%1, %1) : (i32, i32) -> i32
    %1 = "test.const"() <{value = 1 : i64}> : () -> i32
    "x.wrap"() ({
      "test.print"(%x) : (i32) -> ()
    }) : () -> ()
  }) : () -> ()
  return
}`;
    const { ctx, module } = parse(text);
    const iso = findOp(module, 'walks.iso');
    expect(messages(ctx, iso, false)).toEqual(["6:7 'test.print' op using value defined outside the region | note 2:3 required by region isolation constraints"]);
    expect(messages(ctx, iso)).toEqual(["6:7 'test.print' op using value defined outside the region | note 2:3 required by region isolation constraints"]);
    findOp(module, 'x.wrap').erase();
    expect(messages(ctx, iso, false)).toEqual(['3:10 operand #0 does not dominate this use | note 4:10 operand defined here (op in the same block)']);
    expect(messages(ctx, module)).toEqual(['3:10 operand #0 does not dominate this use | note 4:10 operand defined here (op in the same block)']);
  });

  test('unreachable blocks are not checked for dominance; reachable ones after them are', () => {
    const { ctx, module } = parse(`func.func @f() {
  "test.func"() <{sym_name = "g"}> ({
    "test.br"()[^bb2] : () -> ()
  ^bb1:
    %0 = "test.add"(%1, %1) : (i32, i32) -> i32
    %1 = "test.const"() <{value = 1 : i64}> : () -> i32
    "test.br"()[^bb2] : () -> ()
  ^bb2:
    %2 = "test.add"(%3, %3) : (i32, i32) -> i32
    %3 = "test.const"() <{value = 1 : i64}> : () -> i32
    "test.return"() : () -> ()
  }) : () -> ()
  return
}`);
    expect(messages(ctx, module)).toEqual(['9:10 operand #0 does not dominate this use | note 10:10 operand defined here (op in the same block)']);
    findOp(module, 'test.add', 1).erase();
    expect(messages(ctx, module)).toEqual([]);
  });

  test('block arguments of the entry block and of enclosing blocks', () => {
    const { ctx, module } = parse(`func.func @f(%x: i32) {
  "test.func"() <{sym_name = "g"}> ({
  ^bb0(%a: i32):
    "x.wrap"() ({
    ^bb0(%b: i32):
      "x.wrap"() ({
        "test.print"(%a, %b) : (i32, i32) -> ()
      }) : () -> ()
    }) : () -> ()
    "test.return"() : () -> ()
  }) : () -> ()
  return
}`);
    expect(messages(ctx, module)).toEqual([]);
    const print = findOp(module, 'test.print');
    print.setOperand(1, module.regions[0]!.firstBlock!.firstOp!.regions[0]!.firstBlock!.getArgument(0));
    expect(messages(ctx, module)).toEqual(["7:9 'test.print' op using value defined outside the region | note 2:3 required by region isolation constraints"]);
  });

  test('a dropped operand inside an isolated op', () => {
    const { ctx, module } = parse(`func.func @f() {
  "test.func"() <{sym_name = "g"}> ({
    %0 = "test.const"() <{value = 1 : i64}> : () -> i32
    "test.print"(%0) : (i32) -> ()
    "test.return"() : () -> ()
  }) : () -> ()
  return
}`);
    findOp(module, 'test.print').getOpOperand(0).drop();
    expect(messages(ctx, module)).toEqual(['4:5 null operand found']);
  });

  test('5,000 nested isolated ops verify without stack overflow', () => {
    const ctx = new MLIRContext();
    for (const d of [BuiltinDialect, FuncDialect, TestDialect, WalksDialect]) ctx.registerDialect(d);
    const i32 = IntegerType.get(ctx, 32);
    const value = IntegerAttr.get(IntegerType.get(ctx, 64), 1);
    const depth = 5000;
    const root = Operation.create({ context: ctx, name: 'walks.iso', location: new TestLoc(ctx, 'iso0'), regions: 1 });
    const consts: Operation[] = [];
    const prints: Operation[] = [];
    let cur = root;
    for (let i = 0; i < depth; i++) {
      const b = new Block();
      cur.getRegion(0).push(b);
      const c = Operation.create({ context: ctx, name: 'test.const', location: new TestLoc(ctx, `c${i}`), properties: { value }, resultTypes: [i32] });
      b.push(c);
      const p = Operation.create({ context: ctx, name: 'test.print', location: new TestLoc(ctx, `p${i}`), operands: [c.getResult(0)] });
      b.push(p);
      consts.push(c);
      prints.push(p);
      if (i === depth - 1) break;
      const n = Operation.create({ context: ctx, name: 'walks.iso', location: new TestLoc(ctx, `iso${i + 1}`), regions: 1 });
      b.push(n);
      cur = n;
    }
    const labels = (): string[] =>
      ctx.diagnostics
        .capture(() => verify(root))
        .diagnostics.map((d) => [`${(d.location as TestLoc).label} ${d.message}`, ...d.notes.map((n) => `note ${(n.location as TestLoc).label} ${n.message}`)].join(' | '));
    expect(labels()).toEqual([]);
    prints[depth - 1]!.setOperand(0, consts[depth - 2]!.getResult(0));
    expect(labels()).toEqual([`p${depth - 1} 'test.print' op using value defined outside the region | note iso${depth - 1} required by region isolation constraints`]);
    prints[depth - 1]!.setOperand(0, consts[depth - 1]!.getResult(0));
    prints[0]!.moveBefore(consts[0]!);
    expect(labels()).toEqual(['p0 operand #0 does not dominate this use | note c0 operand defined here (op in the same block)']);
  });

  test('blocks count their ops with successors through insertion, moves, splits, clones and erasure', () => {
    const { ctx, module } = parse(`func.func @f(%x: i32) {
  %0 = "test.const"() <{value = 1 : i64}> : () -> i32
  "test.br"()[^bb1] : () -> ()
^bb1:
  "test.print"(%0) : (i32) -> ()
  return
}`);
    const f = findOp(module, 'func.func');
    const counted = (): void => {
      module.walk((o) => {
        for (const r of o.regions) {
          for (let b = r.firstBlock; b; b = b.next) expect(b.numOpsWithSuccessors).toBe(b.operations.filter((x) => x.numSuccessors > 0).length);
        }
      });
    };
    const br = findOp(module, 'test.br');
    const print = findOp(module, 'test.print');
    const entry = br.parent!;
    const bb1 = print.parent!;
    counted();
    expect(messages(ctx, module)).toEqual([]);
    // An op appended after the branch; the branch moved to the front, then back; moved to another block.
    const extra = Operation.create({ context: ctx, name: 'test.print', location: print.location, operands: [] });
    entry.push(extra);
    counted();
    expect(messages(ctx, module)).toEqual(['3:3 operation with block successors must terminate its parent block']);
    extra.erase();
    const c = findOp(module, 'test.const');
    br.moveBefore(c);
    counted();
    expect(messages(ctx, module)).toEqual(['3:3 operation with block successors must terminate its parent block']);
    br.moveAfter(c);
    counted();
    expect(messages(ctx, module)).toEqual([]);
    br.moveBefore(print);
    counted();
    expect(entry.numOpsWithSuccessors).toBe(0);
    expect(bb1.numOpsWithSuccessors).toBe(1);
    br.moveAfter(c);
    counted();
    // A split leaves the branch in the new block; a clone of the function copies the count.
    const tail = bb1.splitBlock(findOp(module, 'func.return'));
    bb1.push(Operation.create({ context: ctx, name: 'test.br', location: print.location, successors: [tail] }));
    counted();
    expect(messages(ctx, module)).toEqual([]);
    const copy = f.clone();
    module.regions[0]!.firstBlock!.push(copy);
    counted();
    const copiedBr = findOp(copy, 'test.br');
    copiedBr.parent!.push(Operation.create({ context: ctx, name: 'test.print', location: copiedBr.location, operands: [] }));
    counted();
    expect(messages(ctx, module)).toEqual(['3:3 operation with block successors must terminate its parent block']);
    copy.erase();
    counted();
    // Erased and re-created branches.
    br.erase();
    counted();
    expect(entry.numOpsWithSuccessors).toBe(0);
    const again = Operation.create({ context: ctx, name: 'test.br', location: print.location, successors: [tail] });
    entry.insertBefore(again, entry.firstOp);
    counted();
    expect(messages(ctx, module)).toEqual(['5:3 operation with block successors must terminate its parent block']);
  });
});
