import {
  AnalysisManager,
  Block,
  FileLineColLoc,
  Pass,
  PassManager,
  PassRegistry,
  PreservedAnalyses,
  StringAttr,
  boolOption,
  createPass,
  definePassContextKey,
  enumListOption,
  enumOption,
  intListOption,
  intOption,
  parsePassPipeline,
  stringOption,
  uintOption,
  type Operation,
} from '../../src';
import { FuncOp, ModuleOp, ReturnOp, testContext } from '../ir/test-dialect';

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
    ReturnOp.build(t.b, { values: [] }, t.loc());
  }
  return { t, mod: mod.op };
}

interface FakeTarget {
  readonly crossbarSize: number;
}

describe('pass context', () => {
  test('keys are interned by name', () => {
    const a = definePassContextKey<FakeTarget>('test.target');
    const b = definePassContextKey<FakeTarget>('test.target');
    expect(a).toBe(b);
    expect(definePassContextKey<FakeTarget>('test.other')).not.toBe(a);
  });

  test('passes read the values the pass manager carries; absent keys are undefined', () => {
    const { t, mod } = makeModule();
    const seen: (number | undefined)[] = [];
    const missing: unknown[] = [];
    const pm = new PassManager(t.ctx, 'test.module');
    pm.nest('test.func').addPass(
      createPass({
        argument: 'read-target',
        run(_op, pass) {
          // Defined again here, as another package would: same key.
          seen.push(pass.getContext(definePassContextKey<FakeTarget>('test.target'))?.crossbarSize);
          missing.push(pass.getContext(definePassContextKey<string>('test.absent')));
        },
      }),
    );
    pm.setContext(definePassContextKey<FakeTarget>('test.target'), { crossbarSize: 256 });
    expect(pm.run(mod).success).toBe(true);
    expect(seen).toEqual([256, 256]);
    expect(missing).toEqual([undefined, undefined]);
    expect(pm.getContext(definePassContextKey<FakeTarget>('test.target'))).toEqual({ crossbarSize: 256 });
  });
});

const count = intOption('count', 1, 'a count');
const size = uintOption('size', 4, 'a size');
const mode = enumOption('mode', ['fast', 'exact'] as const, 'exact', 'a mode');
const flag = boolOption('flag', false, 'a flag');
const label = stringOption('label', 'x', 'a label');
const dims = intListOption('dims', [1], 'dims');
const kinds = enumListOption('kinds', ['a', 'b', 'c'] as const, [], 'kinds');

class OptionsPass extends Pass {
  override readonly argument = 'test-typed-opts';
  override readonly optionSpecs = [count, size, mode, flag, label, dims, kinds];
  read: { count: number; size: number; mode: 'fast' | 'exact'; flag: boolean; label: string; dims: readonly number[]; kinds: readonly ('a' | 'b' | 'c')[] } | null = null;
  runOnOperation(): void {
    this.read = {
      count: this.option(count),
      size: this.option(size),
      mode: this.option(mode),
      flag: this.option(flag),
      label: this.option(label),
      dims: this.option(dims),
      kinds: this.option(kinds),
    };
  }
}

function registry(): PassRegistry {
  const r = new PassRegistry();
  r.registerPass(() => new OptionsPass());
  return r;
}

describe('typed pass options', () => {
  test('defaults and parsed values through typed accessors', () => {
    const { t, mod } = makeModule();
    const pm = parsePassPipeline(t.ctx, 'test.module(test-typed-opts)', registry())!;
    pm.run(mod);
    expect((pm.allPasses[0] as OptionsPass).read).toEqual({ count: 1, size: 4, mode: 'exact', flag: false, label: 'x', dims: [1], kinds: [] });
    const pm2 = parsePassPipeline(t.ctx, 'test.module(test-typed-opts{count=-2 size=8 mode=fast flag label={a b} dims=3,4 kinds=c,a})', registry())!;
    pm2.run(mod);
    expect((pm2.allPasses[0] as OptionsPass).read).toEqual({ count: -2, size: 8, mode: 'fast', flag: true, label: 'a b', dims: [3, 4], kinds: ['c', 'a'] });
    expect(pm2.printAsTextualPipeline()).toBe('test.module(test-typed-opts{count=-2 dims=3,4 flag=true kinds=c,a label={a b} mode=fast size=8})');
  });

  test.each([
    ['mode=slow', "invalid value 'slow' for option 'mode' of pass 'test-typed-opts': expected one of 'fast', 'exact'"],
    ['size=-1', "invalid value '-1' for option 'size' of pass 'test-typed-opts': expected a non-negative integer"],
    ['kinds=a,z', "invalid value 'a,z' for option 'kinds' of pass 'test-typed-opts': expected a comma-separated list of one of 'a', 'b', 'c'"],
    ['flag=maybe', "invalid value 'maybe' for option 'flag' of pass 'test-typed-opts': expected true or false"],
    ['dims=1,x', "invalid value '1,x' for option 'dims' of pass 'test-typed-opts': expected a comma-separated list of integers"],
  ])('bad value %s is a diagnostic naming pass, option and accepted values', (opt, message) => {
    const { t } = makeModule();
    const { result, diagnostics } = t.ctx.diagnostics.capture(() => parsePassPipeline(t.ctx, `test.module(test-typed-opts{${opt}})`, registry()));
    expect(result).toBeUndefined();
    expect(diagnostics.map((d) => d.message)).toEqual([message]);
    expect((diagnostics[0]!.location as FileLineColLoc).column).toBe(29);
  });

  test('an option the pass did not declare is an internal error', () => {
    const { mod } = makeModule();
    const p = createPass({ argument: 'x', run: (_op, pass) => void pass.option(count) });
    expect(() => p.run(mod)).toThrow(/has no option 'count'/);
  });
});

/** A test analysis that counts how often it is computed. */
class CountingAnalysis {
  static computed = 0;
  readonly opCount: number;
  constructor(op: Operation) {
    CountingAnalysis.computed++;
    let n = 0;
    op.walk(() => void n++);
    this.opCount = n;
  }
}
class OtherAnalysis {
  static computed = 0;
  constructor() {
    OtherAnalysis.computed++;
  }
}

describe('analysis manager', () => {
  test('cached per operation; preserved analyses survive, others are recomputed', () => {
    const { t, mod } = makeModule();
    CountingAnalysis.computed = 0;
    OtherAnalysis.computed = 0;
    const pm = new PassManager(t.ctx, 'test.module');
    const use = (argument: string, preserve: 'all' | 'counting' | 'none') =>
      createPass({
        argument,
        run(_op, pass) {
          pass.getAnalysis(CountingAnalysis);
          pass.getAnalysis(CountingAnalysis);
          pass.getAnalysis(OtherAnalysis);
          if (preserve === 'all') pass.markAllAnalysesPreserved();
          if (preserve === 'counting') pass.markAnalysesPreserved(CountingAnalysis);
        },
      });
    pm.addPass(use('p1', 'all')); // computes both
    pm.addPass(use('p2', 'counting')); // both cached; drops Other
    pm.addPass(use('p3', 'none')); // Counting cached, Other recomputed; drops both
    pm.addPass(use('p4', 'none')); // both recomputed
    expect(pm.run(mod).success).toBe(true);
    expect(CountingAnalysis.computed).toBe(2);
    expect(OtherAnalysis.computed).toBe(3);
    expect(pm.analysisManager.computations).toBe(5);
  });

  test('a nested pass invalidates its op and its ancestors, not its siblings', () => {
    const { t, mod } = makeModule();
    const am = new AnalysisManager();
    const [f, g] = mod.regions[0]!.firstBlock!.operations;
    CountingAnalysis.computed = 0;
    am.getAnalysis(CountingAnalysis, mod);
    am.getAnalysis(CountingAnalysis, f!);
    am.getAnalysis(CountingAnalysis, g!);
    expect(CountingAnalysis.computed).toBe(3);
    void t;
    am.invalidate(f!, new PreservedAnalyses());
    expect(am.isCached(CountingAnalysis, mod)).toBe(false);
    expect(am.isCached(CountingAnalysis, f!)).toBe(false);
    expect(am.isCached(CountingAnalysis, g!)).toBe(true);
  });

  test('a failing pass invalidates everything it touched', () => {
    const { t, mod } = makeModule();
    CountingAnalysis.computed = 0;
    const pm = new PassManager(t.ctx, 'test.module');
    pm.addPass(
      createPass({
        argument: 'fail',
        run(_op, pass) {
          pass.getAnalysis(CountingAnalysis);
          pass.markAllAnalysesPreserved();
          pass.signalPassFailure();
        },
      }),
    );
    expect(pm.run(mod).success).toBe(false);
    expect(pm.analysisManager.isCached(CountingAnalysis, mod)).toBe(false);
  });
});
