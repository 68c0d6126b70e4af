import { MLIRContext, parsePassPipeline } from '@raptor-pim/ir-core';
import {
  RAPTOR_COMPILE_PIPELINE,
  RAPTOR_FRONTEND_PIPELINE,
  RAPTOR_STAGES,
  createRaptorPassRegistry,
  printPipeline,
  raptorCompileElements,
  anchorPipeline,
} from '@raptor-pim/compiler';
import { PassRegistry } from '@raptor-pim/ir-core';

describe('the Raptor pass registry', () => {
  const registry = createRaptorPassRegistry();

  it("lists ir-core's passes, the compiler's and every stage's, each with its stage and a description", () => {
    const names = registry.registeredPasses.map((p) => p.argument);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['canonicalize', 'cse', 'spat-schedule']));
    expect(registry.stageOf('canonicalize')).toBe('core');
    expect(registry.stageOf('spat-schedule')).toBe('scheduler');
    // Every pass a stage registers is listed under that stage, and nothing else is.
    for (const stage of RAPTOR_STAGES) {
      if (!stage.register) continue;
      const alone = new PassRegistry();
      stage.register(alone, {});
      for (const p of alone.registeredPasses) expect([p.argument, registry.stageOf(p.argument)]).toEqual([p.argument, stage.name]);
    }
    for (const p of registry.registeredPasses) {
      expect(registry.stageOf(p.argument)).toBeDefined();
      expect(p.description).not.toBe('');
    }
  });

  it('raptor-compile is the stages\' elements in order, and every element resolves', () => {
    expect(registry.lookupPipeline(RAPTOR_COMPILE_PIPELINE)!.pipeline).toBe(raptorCompileElements());
    expect(registry.lookupPipeline(RAPTOR_FRONTEND_PIPELINE)!.pipeline).toBe(RAPTOR_STAGES.find((s) => s.name === 'frontend')!.pipeline);
    for (const stage of RAPTOR_STAGES) {
      if (stage.pipeline === '') continue;
      const ctx = new MLIRContext();
      const { result, diagnostics } = ctx.diagnostics.capture(() => parsePassPipeline(ctx, `builtin.module(${stage.pipeline})`, registry));
      expect([stage.name, diagnostics.map((d) => d.message)]).toEqual([stage.name, []]);
      expect(result).toBeDefined();
    }
  });

  it('prints raptor-compile fully expanded, and the printed text parses to the same pipeline', () => {
    const printed = printPipeline(RAPTOR_COMPILE_PIPELINE, registry);
    expect(printed.diagnostics).toEqual([]);
    expect(printed.text).toMatch(/^builtin\.module\(func\.func\(canonicalize\{.*\},cse\),func\.func\(spat-plan-layouts/);
    // Every stage's passes appear in pipeline order.
    const order = RAPTOR_STAGES.flatMap((s) => [...s.pipeline.matchAll(/[a-z][\w-]*(?=[,){]|$)/g)].map((m) => m[0]));
    const positions = order.map((p) => printed.text!.search(new RegExp(`[(,]${p}[,){]`)));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(printed.text).not.toContain(RAPTOR_COMPILE_PIPELINE);
    expect(printPipeline(printed.text!, registry).text).toBe(printed.text);
    // An edited copy runs the edit.
    expect(printPipeline(printed.text!.replace('max-iterations=10', 'max-iterations=3'), registry).text).toContain('max-iterations=3');
  });

  it('anchors bare element lists on builtin.module and keeps anchored pipelines', () => {
    expect(anchorPipeline('raptor-frontend')).toBe('builtin.module(raptor-frontend)');
    expect(anchorPipeline('func.func(cse)')).toBe('builtin.module(func.func(cse))');
    expect(anchorPipeline(' builtin.module(cse) ')).toBe('builtin.module(cse)');
    expect(anchorPipeline('any(cse)')).toBe('any(cse)');
    expect(anchorPipeline('builtin.module(cse),cse')).toBe('builtin.module(builtin.module(cse),cse)');
  });

  it('reports unknown passes and bad option values with the pass, option and accepted values', () => {
    const unknown = printPipeline('builtin.module(no-such-pass)', registry);
    expect(unknown.text).toBeUndefined();
    expect(unknown.diagnostics.map((d) => d.message)).toEqual(["'no-such-pass' does not refer to a registered pass or pass pipeline"]);
    const bad = printPipeline('canonicalize{max-iterations=many}', registry);
    expect(bad.text).toBeUndefined();
    expect(bad.diagnostics[0]!.message).toContain("'canonicalize'");
    expect(bad.diagnostics[0]!.message).toContain("'max-iterations'");
    expect(bad.diagnostics[0]!.message).toContain('many');
  });
});
