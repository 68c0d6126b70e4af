import {
  AnyType,
  DefaultResource,
  DominanceInfo,
  MLIRContext,
  MemoryEffects,
  PassManager,
  PassRegistry,
  Traits,
  anyRegion,
  createPass,
  defineDialect,
  defineOp,
  defineSideEffectResource,
  getMemoryEffects,
  hasOnlyRemovableEffects,
  isMemoryEffectFree,
  mayHaveEffect,
  memoryEffects,
  parsePassPipeline,
  parseSourceString,
  printOperation,
  registerBuiltinDialects,
  registerCorePasses,
  single,
  variadic,
} from '../../src';

const Channel = defineSideEffectResource('test.channel');

const ReadOp = defineOp({
  name: 'fx.read',
  operands: { src: single(AnyType) },
  results: { result: single(AnyType) },
  interfaces: [memoryEffects((op) => [MemoryEffects.read(op.getOperand(0))])],
});
const WriteOp = defineOp({
  name: 'fx.write',
  operands: { value: single(AnyType), dst: single(AnyType) },
  interfaces: [memoryEffects((op) => [MemoryEffects.write(op.getOperand(1))])],
});
const AllocOp = defineOp({
  name: 'fx.alloc',
  results: { result: single(AnyType) },
  interfaces: [memoryEffects((op) => [MemoryEffects.allocate(op.getResult(0))])],
});
const FreeOp = defineOp({
  name: 'fx.free',
  operands: { buf: single(AnyType) },
  interfaces: [memoryEffects((op) => [MemoryEffects.free(op.getOperand(0))])],
});
const SendOp = defineOp({
  name: 'fx.send',
  operands: { value: single(AnyType) },
  results: { token: single(AnyType) },
  interfaces: [memoryEffects(() => [MemoryEffects.write(Channel)])],
});
const NoneOp = defineOp({
  name: 'fx.none',
  operands: { x: single(AnyType) },
  results: { result: single(AnyType) },
  interfaces: [memoryEffects(() => [])],
});
const PureOp = defineOp({ name: 'fx.pure', operands: { x: single(AnyType) }, results: { result: single(AnyType) }, traits: [Traits.Pure] });
const UnknownOp = defineOp({ name: 'fx.unknown', operands: { x: variadic() }, results: { result: single(AnyType) } });
const YieldOp = defineOp({ name: 'fx.yield', operands: { x: variadic() }, traits: [Traits.IsTerminator, Traits.ReturnLike] });
const RegionOp = defineOp({
  name: 'fx.region',
  results: { result: variadic() },
  regions: { body: anyRegion() },
  traits: [Traits.RecursiveMemoryEffects],
});

function context(): MLIRContext {
  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  ctx.registerDialect(defineDialect({ namespace: 'fx', operations: [ReadOp, WriteOp, AllocOp, FreeOp, SendOp, NoneOp, PureOp, UnknownOp, YieldOp, RegionOp] }));
  return ctx;
}

const SOURCE = `
func.func @f(%m: i32, %v: i32) -> i32 {
  %r0 = "fx.read"(%m) : (i32) -> i32
  %r1 = "fx.read"(%m) : (i32) -> i32
  %dead_read = "fx.read"(%m) : (i32) -> i32
  "fx.write"(%v, %m) : (i32, i32) -> ()
  "fx.write"(%v, %m) : (i32, i32) -> ()
  %a = "fx.alloc"() : () -> i32
  %b = "fx.alloc"() : () -> i32
  "fx.free"(%b) : (i32) -> ()
  %t0 = "fx.send"(%v) : (i32) -> i32
  %t1 = "fx.send"(%v) : (i32) -> i32
  %n0 = "fx.none"(%v) : (i32) -> i32
  %n1 = "fx.none"(%v) : (i32) -> i32
  %dead_none = "fx.none"(%v) : (i32) -> i32
  %u = "fx.unknown"(%v) : (i32) -> i32
  %g = "fx.region"() ({
    %in = "fx.pure"(%v) : (i32) -> i32
    "fx.yield"(%in) : (i32) -> ()
  }) : () -> i32
  %h = "fx.region"() ({
    "fx.write"(%v, %m) : (i32, i32) -> ()
    "fx.yield"() : () -> ()
  }) : () -> i32
  %s = "fx.pure"(%r0) : (i32) -> i32
  %s2 = "fx.pure"(%r1) : (i32) -> i32
  %s3 = "fx.pure"(%n0) : (i32) -> i32
  %s4 = "fx.pure"(%n1) : (i32) -> i32
  return %s : i32
}`;

describe('memory effects', () => {
  test('derived from Pure, the interface and RecursiveMemoryEffects; unknown otherwise', () => {
    const ctx = context();
    const m = parseSourceString(ctx, SOURCE)!;
    const ops = new Map<string, import('../../src').Operation[]>();
    m.walk((op) => void (ops.get(op.name) ?? ops.set(op.name, []).get(op.name)!).push(op));
    const first = (n: string) => ops.get(n)![0]!;
    expect(getMemoryEffects(first('fx.pure'))).toEqual([]);
    expect(getMemoryEffects(first('fx.unknown'))).toBeUndefined();
    expect(getMemoryEffects(first('fx.read'))!.map((e) => [e.kind, e.resource, e.value])).toEqual([['read', DefaultResource, first('fx.read').getOperand(0)]]);
    expect(getMemoryEffects(first('fx.send'))!.map((e) => [e.kind, e.resource.name])).toEqual([['write', 'test.channel']]);
    const [g, h] = ops.get('fx.region')!;
    expect(getMemoryEffects(g!)).toEqual([]);
    expect(isMemoryEffectFree(g!)).toBe(true);
    expect(getMemoryEffects(h!)!.map((e) => e.kind)).toEqual(['write']);
    expect(mayHaveEffect(first('fx.send'), 'write', Channel)).toBe(true);
    expect(mayHaveEffect(first('fx.send'), 'write', DefaultResource)).toBe(false);
    expect(mayHaveEffect(first('fx.unknown'), 'free')).toBe(true);
    expect(hasOnlyRemovableEffects(first('fx.read'))).toBe(true);
    expect(hasOnlyRemovableEffects(first('fx.alloc'))).toBe(true);
    expect(hasOnlyRemovableEffects(first('fx.free'))).toBe(false);
    expect(isMemoryEffectFree(first('fx.none'))).toBe(true);
  });

  test('canonicalize,cse: writes, frees and sends stay; dead reads and allocations go', () => {
    const ctx = context();
    const m = parseSourceString(ctx, SOURCE)!;
    const registry = new PassRegistry();
    registerCorePasses(registry);
    expect(parsePassPipeline(ctx, 'builtin.module(canonicalize,cse)', registry)!.run(m).success).toBe(true);
    const out = printOperation(m);
    const count = (s: string) => out.split(`"${s}"`).length - 1;
    expect(count('fx.write')).toBe(3); // two at top level + one in %h's region
    expect(count('fx.send')).toBe(2);
    expect(count('fx.free')).toBe(1);
    expect(count('fx.alloc')).toBe(1); // the unused, never freed one is erased
    expect(count('fx.read')).toBe(1); // %r1 merged into %r0 (no write between), the dead one erased
    expect(count('fx.none')).toBe(0); // all dead once the pure users die
    expect(count('fx.unknown')).toBe(1);
    expect(count('fx.region')).toBe(1); // %g (effect free, unused) erased; %h writes
  });

  test('cse merges reads only within a block and with no write or free in between', () => {
    const ctx = context();
    const m = parseSourceString(ctx, `
func.func @g(%m: i32, %v: i32) -> (i32, i32, i32, i32, i32) {
  %a = "fx.read"(%m) : (i32) -> i32
  %b = "fx.read"(%m) : (i32) -> i32
  "fx.write"(%v, %m) : (i32, i32) -> ()
  %c = "fx.read"(%m) : (i32) -> i32
  %t = "fx.send"(%v) : (i32) -> i32
  %d = "fx.read"(%m) : (i32) -> i32
  %e = "fx.read"(%m) : (i32) -> i32
  return %a, %b, %c, %d, %e : i32, i32, i32, i32, i32
}`)!;
    const registry = new PassRegistry();
    registerCorePasses(registry);
    expect(parsePassPipeline(ctx, 'builtin.module(cse)', registry)!.run(m).success).toBe(true);
    const out = printOperation(m);
    // %b merges into %a; %c stays (a write before it); %d stays too (the send between writes,
    // and cse treats any write or free between as a barrier, whatever its resource); %e merges
    // into %d.
    expect(out.split('"fx.read"').length - 1).toBe(3);
    expect(out).toContain('return %0, %0, %1, %3, %3');
  });

  test('cse reads dominance from the analysis manager and preserves it', () => {
    const ctx = context();
    const m = parseSourceString(ctx, SOURCE)!;
    const registry = new PassRegistry();
    registerCorePasses(registry);
    const pm = parsePassPipeline(ctx, 'builtin.module(cse,cse)', registry)! as PassManager;
    let cached: unknown;
    pm.addPass(createPass({ argument: 'probe', run: (_op, pass) => void (cached = pass.getCachedAnalysis(DominanceInfo)) }));
    expect(pm.run(m).success).toBe(true);
    expect(cached).toBeInstanceOf(DominanceInfo);
    expect(pm.analysisManager.computations).toBe(1);
  });
});
