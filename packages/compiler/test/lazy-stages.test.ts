/**
 * Stage packages load on demand: a registry resolves ir-core's passes (and none) without
 * loading any stage, looking up one stage's pass loads that stage alone, and every stage's
 * static pass names are exactly what its package registers.
 */
import { MLIRContext, PassRegistry, parsePassPipeline } from '@raptor-pim/ir-core';
import { RAPTOR_STAGES, RaptorPassRegistry, createRaptorPassRegistry } from '@raptor-pim/compiler';
import { latencyScheduler } from '@raptor-pim/scheduler';

describe('lazy stage registration', () => {
  it("each stage's static pass names equal what its package registers", () => {
    for (const stage of RAPTOR_STAGES) {
      const alone = new PassRegistry();
      stage.register?.(alone, {});
      expect([stage.name, alone.registeredPasses.map((p) => p.argument)]).toEqual([stage.name, [...stage.passes].sort()]);
    }
  });

  it('the same with a scheduler given to compile() (the scheduler stage registers its own spat-schedule)', () => {
    const stage = RAPTOR_STAGES.find((s) => s.name === 'scheduler')!;
    const alone = new PassRegistry();
    stage.register!(alone, { scheduler: latencyScheduler });
    expect(alone.registeredPasses.map((p) => p.argument)).toEqual([...stage.passes].sort());
  });

  it('creating a registry and parsing a pipeline of core passes loads no stage package', () => {
    const registry = createRaptorPassRegistry();
    expect(registry.loadedStages).toEqual([]);
    const ctx = new MLIRContext();
    const { result, diagnostics } = ctx.diagnostics.capture(() => parsePassPipeline(ctx, 'builtin.module(func.func(canonicalize,cse))', registry));
    expect(diagnostics).toEqual([]);
    expect(result).toBeDefined();
    expect(registry.loadedStages).toEqual([]);
    // The stage of a pass is known before its package is loaded.
    expect(registry.stageOf('pim-emit')).toBe('codegen');
    expect(registry.loadedStages).toEqual([]);
  });

  it("looking up one stage's pass loads that stage only, once", () => {
    const registry = createRaptorPassRegistry();
    expect(registry.lookupPass('spat-schedule')?.create().argument).toBe('spat-schedule');
    expect(registry.lookupPass('spat-verify-communication')).toBeDefined();
    expect(registry.loadedStages).toEqual(['scheduler']);
    expect(registry.stageOf('spat-verify-communication')).toBe('scheduler');
    expect(registry.lookupPass('no-such-pass')).toBeUndefined();
    expect(registry.loadedStages).toEqual(['scheduler']);
  });

  it('listing the passes loads every stage and lists each pass once', () => {
    const registry = createRaptorPassRegistry();
    const names = registry.registeredPasses.map((p) => p.argument);
    expect(registry.loadedStages).toEqual(RAPTOR_STAGES.filter((s) => s.register).map((s) => s.name));
    expect(new Set(names).size).toBe(names.length);
    for (const stage of RAPTOR_STAGES) for (const p of stage.passes) expect([p, registry.stageOf(p)]).toEqual([p, stage.name]);
  });

  it('a stage whose declared names differ from what it registers is an internal error naming both', () => {
    const stage = RAPTOR_STAGES.find((s) => s.name === 'plan-lowering')!;
    const registry = new RaptorPassRegistry([]);
    registry.registerLazily({ ...stage, passes: ['spat-lower-plans', 'spat-missing'] }, {});
    expect(() => registry.lookupPass('spat-missing')).toThrow(/declares the passes \[spat-lower-plans, spat-missing\] but @raptor-pim\/plan-lowering registered \[spat-lower-plans\]/);
  });
});
