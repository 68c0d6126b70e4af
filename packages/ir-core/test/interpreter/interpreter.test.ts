import {
  Block,
  Branch,
  ExecutionFailure,
  FlatSymbolRefAttr,
  IntegerAttr,
  IntegerType,
  Interpreter,
  InterpreterRegistry,
  Operation,
  RankedTensorType,
  ShapedValue,
  StringAttr,
  SymbolRefAttr,
  Yield,
  defineDialect,
  defineOp,
  prop,
  variadic,
  wrapInteger,
  type RuntimeValue,
} from '../../src';
import { AddOp, BrOp, CondBrOp, ConstOp, FuncOp, ModuleOp, MulOp, PrintOp, ReturnOp, testContext } from '../ir/test-dialect';

const CallOp = defineOp({
  name: 'call.call',
  attributes: { callee: prop(FlatSymbolRefAttr) },
  operands: { args: variadic() },
  results: { res: variadic() },
});

function rules(printed: RuntimeValue[]): InterpreterRegistry {
  const r = new InterpreterRegistry();
  const i32 = (op: Operation) => op.getResult(0).type as IntegerType;
  r.registerAll({
    'test.const': (_c, op) => [wrapInteger(i32(op), (op.getAttr('value') as IntegerAttr).value)],
    'test.add': (_c, op, [a, b]) => [wrapInteger(i32(op), (a as number) + (b as number))],
    'test.mul': (_c, op, [a, b]) => [wrapInteger(i32(op), Math.imul(a as number, b as number))],
    'test.print': (_c, _op, vals) => (printed.push(...vals), []),
    'test.return': (_c, _op, vals) => new Yield(vals),
    'test.br': (_c, op, vals) => new Branch(op.getSuccessor(0), vals),
    'test.cond_br': (_c, op, [c]) => new Branch(op.getSuccessor(c ? 0 : 1), []),
    'call.call': (ctx, op, args) => {
      const res = ctx.call(op, op.getAttr('callee') as SymbolRefAttr, args);
      return res;
    },
  });
  return r;
}

function buildModule() {
  const t = testContext();
  t.ctx.registerDialect(defineDialect({ namespace: 'call', operations: [CallOp] }));
  const mod = ModuleOp.build(t.b, {}, t.loc());
  const body = new Block();
  mod.body.push(body);
  // func @sq(%x) { return x*x }
  t.b.setInsertionPointToEnd(body);
  const sq = FuncOp.build(t.b, { sym_name: StringAttr.get(t.ctx, 'sq') }, t.loc());
  const e1 = new Block([t.i32], [t.loc()]);
  sq.body.push(e1);
  t.b.setInsertionPointToEnd(e1);
  const m = MulOp.build(t.b, { lhs: e1.getArgument(0), rhs: e1.getArgument(0), result: t.i32 }, t.loc());
  ReturnOp.build(t.b, { values: [m.result] }, t.loc());
  // func @main(%n): loop i from n down: acc += sq(i) -- as a CFG with block args.
  t.b.setInsertionPointToEnd(body);
  const main = FuncOp.build(t.b, { sym_name: StringAttr.get(t.ctx, 'main') }, t.loc());
  const entry = new Block([t.i32], [t.loc()]);
  const loop = new Block([t.i32, t.i32], [t.loc(), t.loc()]);
  const exit = new Block([t.i32], [t.loc()]);
  for (const b of [entry, loop, exit]) main.body.push(b);
  t.b.setInsertionPointToEnd(entry);
  const zero = ConstOp.build(t.b, { value: t.int(0), result: t.i32 }, t.loc()).result;
  BrOp.build(t.b, { args: [entry.getArgument(0), zero], dest: loop }, t.loc());
  t.b.setInsertionPointToEnd(loop);
  const [i, acc] = [loop.getArgument(0), loop.getArgument(1)];
  const s = CallOp.build(t.b, { callee: SymbolRefAttr.get(t.ctx, 'sq'), args: [i], res: [t.i32] }, t.loc()).res[0]!;
  const acc2 = AddOp.build(t.b, { lhs: acc, rhs: s, result: t.i32 }, t.loc()).result;
  const m1 = ConstOp.build(t.b, { value: t.int(-1), result: t.i32 }, t.loc()).result;
  const i2 = AddOp.build(t.b, { lhs: i, rhs: m1, result: t.i32 }, t.loc()).result;
  PrintOp.build(t.b, { values: [i2] }, t.loc());
  const cont = new Block();
  main.body.push(cont);
  t.b.create({ name: 'test.cond_br', location: t.loc(), operands: [i2], successors: [cont, exit] });
  t.b.setInsertionPointToEnd(cont);
  BrOp.build(t.b, { args: [i2, acc2], dest: loop }, t.loc());
  // exit needs acc2: pass it through a second path
  exit.eraseArgument(0);
  t.b.setInsertionPointToEnd(exit);
  ReturnOp.build(t.b, { values: [acc2] }, t.loc());
  void CondBrOp;
  return { t, mod: mod.op };
}

describe('interpreter', () => {
  test('branches, block arguments and calls through the symbol table', () => {
    const { mod } = buildModule();
    const printed: RuntimeValue[] = [];
    const interp = new Interpreter(rules(printed));
    const r = interp.runFunction(mod, 'main', [4]);
    expect(r).toEqual({ ok: true, values: [16 + 9 + 4 + 1] });
    expect(printed).toEqual([3, 2, 1, 0]);
  });

  test('a missing rule is reported at the op, not thrown', () => {
    const { mod } = buildModule();
    const reg = rules([]);
    const partial = new InterpreterRegistry();
    for (const n of ['test.const', 'test.br', 'test.add', 'test.print', 'test.cond_br', 'test.return']) partial.register(n, reg.lookup(n)!);
    const r = new Interpreter(partial).runFunction(mod, 'main', [2]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.message).toBe("no interpreter rule for op 'call.call'");
    expect(r.op.name).toBe('call.call');
    expect(r.diagnostic.location).toBe(r.op.location);
  });

  test('exceptions in rules, step limits and unknown symbols become diagnostics', () => {
    const { mod } = buildModule();
    const reg = rules([]);
    reg.register('test.mul', () => {
      throw new RangeError('boom');
    });
    const r = new Interpreter(reg).runFunction(mod, 'main', [2]);
    expect(r.ok ? '' : r.diagnostic.message).toBe("'test.mul' op failed to execute: boom");
    const r2 = new Interpreter(rules([]), { maxSteps: 10 }).runFunction(mod, 'main', [100]);
    expect(r2.ok ? '' : r2.diagnostic.message).toBe('interpreter step limit of 10 operations exceeded');
    const r3 = new Interpreter(rules([])).runFunction(mod, 'nope', []);
    expect(r3.ok ? '' : r3.diagnostic.message).toBe("symbol '@nope' not found");
  });

  test('tensors and buffers backed by typed arrays with strides', () => {
    const { t } = buildModule();
    const f32 = RankedTensorType.get(t.ctx, [2, 3], IntegerType.get(t.ctx, 32));
    const a = ShapedValue.allocate('tensor', f32.elementType, f32.shape)!;
    for (let i = 0; i < 6; i++) a.data[i] = i;
    expect(a.data).toBeInstanceOf(Int32Array);
    // Transposed view (3x2) over the same storage.
    const tr = new ShapedValue('buffer', a.elementType, [3, 2], a.data, [1, 3], 0);
    expect(Array.from(tr.toContiguousArray() as Int32Array)).toEqual([0, 3, 1, 4, 2, 5]);
    tr.set([2, 1], 42);
    expect(a.get([1, 2])).toBe(42);
    const i64 = ShapedValue.allocate('tensor', IntegerType.get(t.ctx, 64), [2])!;
    expect(i64.data).toBeInstanceOf(BigInt64Array);
    expect(wrapInteger(IntegerType.get(t.ctx, 8), 200)).toBe(-56);
    expect(wrapInteger(IntegerType.get(t.ctx, 64), 2n ** 63n)).toBe(-(2n ** 63n));
  });
});

describe('regions', () => {
  test('rules run nested regions with ctx.runRegion and read yielded values', () => {
    const { t } = buildModule();
    t.ctx.allowUnregisteredDialects = true;
    // "x.repeat"(%n, %init) ({ ^bb0(%i, %acc): %s = test.add %acc, %i; "x.yield"(%s) }) repeats the body n times.
    const n = ConstOp.build(t.b, { value: t.int(5), result: t.i32 }, t.loc());
    const init = ConstOp.build(t.b, { value: t.int(100), result: t.i32 }, t.loc());
    const rep = Operation.create({ context: t.ctx, name: 'x.repeat', location: t.loc(), operands: [n.result, init.result], resultTypes: [t.i32], regions: 1 });
    const body = new Block([t.i32, t.i32], [t.loc(), t.loc()]);
    rep.getRegion(0).push(body);
    t.b.setInsertionPointToEnd(body);
    const s = AddOp.build(t.b, { lhs: body.getArgument(1), rhs: body.getArgument(0), result: t.i32 }, t.loc());
    t.b.create({ name: 'x.yield', location: t.loc(), operands: [s.result] });
    const outer = new Block();
    for (const o of [n.op, init.op, rep]) {
      o.remove();
      outer.push(o);
    }
    t.b.setInsertionPointToEnd(outer);
    t.b.create({ name: 'x.yield', location: t.loc(), operands: [rep.getResult(0)] });
    const reg = rules([]);
    reg.register('x.yield', (_c, _op, vals) => new Yield(vals));
    reg.register('x.repeat', (ctx, op, [count, acc]) => {
      let a = acc!;
      for (let i = 0; i < (count as number); i++) {
        const r = ctx.runRegion(op.getRegion(0), [i, a]);
        if (r instanceof ExecutionFailure) return r;
        a = r[0]!;
      }
      return [a];
    });
    const region = Operation.create({ context: t.ctx, name: 'x.root', location: t.loc(), regions: 1 });
    region.getRegion(0).push(outer);
    const res = new Interpreter(reg).run(region.getRegion(0), []);
    expect(res).toEqual({ ok: true, values: [100 + 0 + 1 + 2 + 3 + 4] });
  });
});
