import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  MLIRContext,
  PassRegistry,
  parsePassPipeline,
  parseSourceString,
  printOperation,
  registerBuiltinDialects,
  registerCorePasses,
} from '../../src';

const MLIR_OPT = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const haveMlirOpt = fs.existsSync(MLIR_OPT);

function runPipeline(file: string, pipeline: string): string {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  registerBuiltinDialects(ctx);
  const registry = new PassRegistry();
  registerCorePasses(registry);
  const m = parseSourceString(ctx, fs.readFileSync(file, 'utf8'), { filename: path.basename(file) })!;
  const pm = parsePassPipeline(ctx, pipeline, registry)!;
  expect(pm.run(m).success).toBe(true);
  return printOperation(m) + '\n';
}

const cases: [string, string, string][] = [
  ['cse', path.resolve(__dirname, 'fixtures/cse.mlir'), path.resolve(__dirname, 'fixtures/cse.expected.mlir')],
  [
    'canonicalize,cse',
    path.resolve(__dirname, '../rewrite/fixtures/fold-only.mlir'),
    path.resolve(__dirname, '../rewrite/fixtures/fold-only.canonicalized.mlir'),
  ],
];

describe.each(cases)('builtin.module(%s)', (passes, input, expected) => {
  test('matches the recorded mlir-opt output byte for byte', () => {
    expect(runPipeline(input, `builtin.module(${passes})`)).toBe(fs.readFileSync(expected, 'utf8'));
  });
  (haveMlirOpt ? test : test.skip)('the recording is what mlir-opt prints today', () => {
    const out = execFileSync(MLIR_OPT, ['--allow-unregistered-dialect', `--pass-pipeline=builtin.module(${passes})`, input], {
      encoding: 'utf8',
    });
    expect(out).toBe(fs.readFileSync(expected, 'utf8'));
  });
});

test('canonicalize options print like MLIR and parse back', () => {
  const ctx = new MLIRContext();
  const registry = new PassRegistry();
  registerCorePasses(registry);
  const pm = parsePassPipeline(ctx, 'builtin.module(func.func(canonicalize{max-iterations=3}),cse)', registry)!;
  expect(pm.printAsTextualPipeline()).toBe(
    'builtin.module(func.func(canonicalize{max-iterations=3 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}),cse)',
  );
});

describe('cse across blocks', () => {
  test('a block sees its dominators only', async () => {
    const { Block: B, CSEPass, StringAttr: S } = await import('../../src');
    const { AddOp, BrOp, FuncOp, MulOp, PrintOp, ReturnOp, testContext } = await import('../ir/test-dialect');
    const t = testContext();
    const f = FuncOp.build(t.b, { sym_name: S.get(t.ctx, 'f') }, t.loc());
    const entry = new B([t.i32], [t.loc()]);
    const [l, r, join] = [new B(), new B(), new B()];
    for (const b of [entry, l, r, join]) f.body.push(b);
    const x = entry.getArgument(0);
    const add = (b: InstanceType<typeof B>) => {
      t.b.setInsertionPointToEnd(b);
      const v = AddOp.build(t.b, { lhs: x, rhs: x, result: t.i32 }, t.loc()).result;
      PrintOp.build(t.b, { values: [v] }, t.loc());
      return v;
    };
    const e = add(entry);
    t.b.create({ name: 'test.cond_br', location: t.loc(), operands: [x], successors: [l, r] });
    add(l);
    BrOp.build(t.b, { args: [], dest: join }, t.loc());
    add(r);
    BrOp.build(t.b, { args: [], dest: join }, t.loc());
    add(join);
    ReturnOp.build(t.b, { values: [] }, t.loc());
    // A value computed only in `l` does not dominate `join`: both muls stay.
    for (const b of [l, join]) {
      t.b.setInsertionPoint(b.lastOp!);
      const m = MulOp.build(t.b, { lhs: x, rhs: x, result: t.i32 }, t.loc()).result;
      PrintOp.build(t.b, { values: [m] }, t.loc());
    }
    const pass = new CSEPass();
    expect(pass.run(f.op)).toBe(true);
    // Every block's add is replaced by the entry block's one.
    const adds: string[] = [];
    f.op.walk((o) => void (o.name === 'test.add' && adds.push(o.parent === entry ? 'entry' : 'other')));
    expect(adds).toEqual(['entry']);
    for (const b of [l, r, join]) expect(b.firstOp!.getOperand(0)).toBe(e);
    expect(pass.statistics.find((s) => s.name === "num-cse'd")!.value).toBe(3);
    const muls: unknown[] = [];
    f.op.walk((o) => void (o.name === 'test.mul' && muls.push(o.parent)));
    expect(muls.length === 2 && muls[0] === l && muls[1] === join).toBe(true);
  });
});
