import {
  Block,
  FileLineColLoc,
  PassRegistry,
  StringAttr,
  applyPatternsGreedily,
  createPass,
  parsePassPipeline,
  passOption,
  printOperation,
  type Operation,
} from '../../src';
import { AddOp, ConstOp, FuncOp, ModuleOp, PrintOp, ReturnOp, testContext } from '../ir/test-dialect';

function makeRegistry(): PassRegistry {
  const reg = new PassRegistry();
  reg.registerPass(() =>
    createPass({
      argument: 'test-fold',
      name: 'TestFold',
      description: 'greedy folding',
      opName: 'test.func',
      run(op, pass) {
        const r = applyPatternsGreedily(op, []);
        pass.statistic('num-folds', 'Number of folds').value += r.numFolds;
      },
    }),
  );
  reg.registerPass(() =>
    createPass({
      argument: 'test-opts',
      options: [
        passOption('n', 'int', 1, 'a count'),
        passOption('flag', 'bool', false, 'a flag'),
        passOption('names', 'string-list', [], 'names'),
      ],
      run() {},
    }),
  );
  reg.registerPass(() =>
    createPass({
      argument: 'test-fail',
      run(op, pass) {
        op.emitError('deliberate failure');
        pass.signalPassFailure();
      },
    }),
  );
  reg.registerPass(() =>
    createPass({
      argument: 'test-break',
      opName: 'test.func',
      run(op) {
        // Removes the terminator: the verifier must catch it after the pass.
        const entry = op.regions[0]!.firstBlock!;
        entry.lastOp!.erase();
      },
    }),
  );
  reg.registerPass(() =>
    createPass({
      argument: 'test-break-preserving',
      opName: 'test.func',
      run(op, pass) {
        // Breaks the IR but claims it left it unchanged: the verifier trusts the claim, as MLIR's does.
        op.regions[0]!.firstBlock!.lastOp!.erase();
        pass.markAllAnalysesPreserved();
      },
    }),
  );
  reg.registerPipeline('test-both', 'test-fold,test-fold', 'fold twice');
  return reg;
}

function makeModule() {
  const t = testContext();
  const mod = ModuleOp.build(t.b, {}, t.loc());
  const body = new Block();
  mod.body.push(body);
  for (const name of ['f', 'g']) {
    t.b.setInsertionPointToEnd(body);
    const f = FuncOp.build(t.b, { sym_name: StringAttr.get(t.ctx, name) }, t.loc());
    const entry = new Block();
    f.body.push(entry);
    t.b.setInsertionPointToEnd(entry);
    const a = ConstOp.build(t.b, { value: t.int(1), result: t.i32 }, t.loc()).result;
    const s = AddOp.build(t.b, { lhs: a, rhs: a, result: t.i32 }, t.loc()).result;
    PrintOp.build(t.b, { values: [s] }, t.loc());
    ReturnOp.build(t.b, { values: [] }, t.loc());
  }
  return { t, mod: mod.op };
}

describe('textual pipelines', () => {
  test('parse and print round trip, with options and aliases', () => {
    const { t } = makeModule();
    const pm = parsePassPipeline(t.ctx, 'test.module(test.func(test-fold, test-both), test-opts{n=3 flag names=a,b})', makeRegistry())!;
    expect(pm).toBeDefined();
    expect(pm.printAsTextualPipeline()).toBe(
      'test.module(test.func(test-fold,test-fold,test-fold),test-opts{flag=true n=3 names=a,b})',
    );
    const again = parsePassPipeline(t.ctx, pm.printAsTextualPipeline(), makeRegistry())!;
    expect(again.printAsTextualPipeline()).toBe(pm.printAsTextualPipeline());
  });

  test.each([
    ['test.module(nope)', "'nope' does not refer to a registered pass or pass pipeline", 13],
    ['test.module(test-opts{bogus=1})', "no such option 'bogus' for pass 'test-opts'", 23],
    ['test.module(test-opts{n=x})', "invalid value 'x' for option 'n' of pass 'test-opts': expected an integer", 23],
    ['test.module(test-fold)', "Can't add pass 'TestFold' restricted to 'test.func' on a PassManager intended to run on 'test.module', did you intend to nest?", 13],
    ['test.module(test-fold', "invalid pass pipeline: expected ',' or ')'", 22],
    ['test-fold', "invalid pass pipeline: the pipeline must be anchored on an operation, e.g. 'builtin.module(...)' or 'any(...)'", 1],
  ])('bad pipeline %s -> diagnostic', (text, message, column) => {
    const { t } = makeModule();
    const { result, diagnostics } = t.ctx.diagnostics.capture(() => parsePassPipeline(t.ctx, text, makeRegistry()));
    expect(result).toBeUndefined();
    expect(diagnostics.map((d) => d.message)).toEqual([message]);
    expect((diagnostics[0]!.location as FileLineColLoc).column).toBe(column);
  });
});

describe('running', () => {
  test('nested pipelines, statistics, timing and IR printing', () => {
    const { t, mod } = makeModule();
    const pm = parsePassPipeline(t.ctx, 'test.module(test.func(test-fold))', makeRegistry())!;
    const dumps: string[] = [];
    const seen: string[] = [];
    pm.enableTiming();
    pm.enableIRPrinting({ printAfter: () => true, print: (op) => printOperation(op), output: (s) => void dumps.push(s) });
    pm.addInstrumentation({ runBeforePass: (p, op) => void seen.push(`${p.argument}@${(op.getAttr('sym_name') as StringAttr).value}`) });
    const r = pm.run(mod);
    expect(r.success).toBe(true);
    expect(seen).toEqual(['test-fold@f', 'test-fold@g']);
    expect(pm.allPasses[0]!.statistics[0]!.value).toBe(2);
    expect(pm.statisticsReport()).toContain("'test.func' Pipeline\n  TestFold\n    (S) 2 num-folds - Number of folds");
    expect(pm.timingReport()).toMatch(/Total Execution Time: [\d.]+ seconds/);
    expect(pm.timingReport()).toContain("'test.func' Pipeline");
    expect(dumps).toHaveLength(2);
    expect(dumps[0]!.split('\n')[0]).toBe('// -----// IR Dump After TestFold (test-fold) //----- //');
    expect(dumps[0]).toContain('"test.const"');
  });

  test('failure stops the pipeline and yields a reproducer; verification after each pass', () => {
    const { t, mod } = makeModule();
    const pm = parsePassPipeline(t.ctx, 'test.module(test.func(test-fold),test-fail,test-opts)', makeRegistry())!;
    pm.enableCrashReproducer((op: Operation) => printOperation(op));
    const { result, diagnostics } = t.ctx.diagnostics.capture(() => pm.run(mod));
    expect(result.success).toBe(false);
    expect(result.failedPass!.argument).toBe('test-fail');
    expect(diagnostics.map((d) => d.message)).toEqual(['deliberate failure']);
    const lines = result.reproducer!.split('\n');
    expect(lines[0]).toBe(
      "// configuration: -pass-pipeline='test.module(test.func(test-fold),test-fail,test-opts{flag=false n=1 names=})' -verify-each",
    );
    // The IR before the failing pass: already folded by test-fold.
    expect(result.reproducer).not.toContain('test.add');

    const { t: t2, mod: mod2 } = makeModule();
    const pm2 = parsePassPipeline(t2.ctx, 'test.module(test.func(test-break))', makeRegistry())!;
    const r2 = t2.ctx.diagnostics.capture(() => pm2.run(mod2));
    expect(r2.result.success).toBe(false);
    expect(r2.diagnostics[0]!.message).toMatch(/^block with no terminator/);
  });

  test('no verification after a pass that marked every analysis preserved (as MLIR: the IR is unchanged), and again after the next pass', () => {
    const { t, mod } = makeModule();
    const only = parsePassPipeline(t.ctx, 'test.module(test.func(test-break-preserving))', makeRegistry())!;
    const r1 = t.ctx.diagnostics.capture(() => only.run(mod));
    expect(r1.result.success).toBe(true);
    expect(r1.diagnostics).toEqual([]);
    const { t: t2, mod: mod2 } = makeModule();
    const then = parsePassPipeline(t2.ctx, 'test.module(test.func(test-break-preserving),test-opts)', makeRegistry())!;
    const r2 = t2.ctx.diagnostics.capture(() => then.run(mod2));
    expect(r2.result.success).toBe(false);
    expect(r2.result.failedPass!.argument).toBe('test-opts');
    expect(r2.diagnostics[0]!.message).toMatch(/^block with no terminator/);
  });
});
