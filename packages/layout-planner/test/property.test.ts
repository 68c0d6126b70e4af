/**
 * fast-check properties over random plan graphs (chains with branches and residual joins of
 * conv 3x3 / conv 1x1 / relu / silu / max pool / add, ending in returned values or a flatten)
 * on targets whose local memory sometimes refuses row strips:
 * - the exact solver's cost equals the brute-force minimum over every labelling;
 * - local search converges within 2 rounds (scores depend only on producers) and is never
 *   cheaper than exact;
 * - `spat-plan-layouts` (both solvers, and disabled) passes `spat-verify-layouts`;
 * - the interpreter's outputs are bit-identical before and after planning.
 */
import fc from 'fast-check';
import { FloatType, Interpreter, InterpreterRegistry, PassRegistry, ShapedValue, parsePassPipeline, parseSourceString, verify, type Operation } from '@raptor-pim/ir-core';
import { buildLayoutProblem, labellingCost, planLayoutCapabilities, registerLayoutPlannerPasses, runLocalSearch, solveExact, TargetKey, type LayoutProblem } from '@raptor-pim/layout-planner';
import { defaultTarget, type Target } from '@raptor-pim/pim-target';
import { registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { makeContext } from './helpers';

const KINDS = ['conv3', 'conv1', 'relu', 'silu', 'pool', 'add'] as const;
interface Step {
  readonly kind: (typeof KINDS)[number];
  readonly a: number;
  readonly b: number;
}
interface Graph {
  readonly c: number;
  readonly h: number;
  readonly w: number;
  readonly steps: readonly Step[];
  readonly flatten: boolean;
  readonly localMemory: number;
}

const graphArb: fc.Arbitrary<Graph> = fc.record({
  c: fc.integer({ min: 1, max: 3 }),
  h: fc.integer({ min: 1, max: 4 }),
  w: fc.integer({ min: 1, max: 4 }),
  steps: fc.array(fc.record({ kind: fc.constantFrom(...KINDS), a: fc.nat(), b: fc.nat() }), { minLength: 1, maxLength: 8 }),
  flatten: fc.boolean(),
  localMemory: fc.constantFrom(40, 120, 65536),
});

function moduleText(g: Graph): string {
  const t = `tensor<1x${g.c}x${g.h}x${g.w}xf32>`;
  const lines: string[] = [];
  const values = ['%x'];
  const used = new Set<string>();
  const ll = 'logicalLayout = #spat<logical_layout nchw>';
  g.steps.forEach((s, i) => {
    const a = values[s.a % values.length]!;
    const b = values[s.b % values.length]!;
    used.add(a);
    const out = `%v${i}`;
    switch (s.kind) {
      case 'conv3':
      case 'conv1': {
        const k = s.kind === 'conv3' ? 3 : 1;
        const p = k === 3 ? 1 : 0;
        const wt = `tensor<${g.c}x${g.c}x${k}x${k}xf32>`;
        lines.push(`  %w${i} = arith.constant dense<${(0.1 * ((i % 5) + 1) * (i % 2 ? -1 : 1)).toFixed(2)}> : ${wt}`);
        lines.push(`  ${out} = "spat.conv2d_plan"(${a}, %w${i}) <{dilations = array<i64: 1, 1>, group = 1 : i64, ${ll}, pads = array<i64: ${p}, ${p}, ${p}, ${p}>, strides = array<i64: 1, 1>}> : (${t}, ${wt}) -> ${t}`);
        break;
      }
      case 'relu':
      case 'silu':
        lines.push(`  ${out} = "spat.${s.kind}_plan"(${a}) <{${ll}}> : (${t}) -> ${t}`);
        break;
      case 'pool':
        lines.push(`  ${out} = "spat.max_pool2d_plan"(${a}) <{dilations = array<i64: 1, 1>, kernelShape = array<i64: 3, 3>, ${ll}, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (${t}) -> ${t}`);
        break;
      case 'add':
        used.add(b);
        lines.push(`  ${out} = "spat.add_plan"(${a}, ${b}) <{${ll}}> : (${t}, ${t}) -> ${t}`);
        break;
    }
    values.push(out);
  });
  // Return every value nobody used (and the last one), flattened or not.
  const results = values.slice(1).filter((v, i, all) => !used.has(v) || i === all.length - 1);
  const n = g.c * g.h * g.w;
  const rt = g.flatten ? `tensor<1x${n}xf32>` : t;
  const returned = results.map((v, i) => {
    if (!g.flatten) return v;
    lines.push(`  %f${i} = "spat.flatten_plan"(${v}) <{axis = 1 : i64, ${ll}}> : (${t}) -> ${rt}`);
    return `%f${i}`;
  });
  return `func.func @g(%x: ${t}) -> (${returned.map(() => rt).join(', ')}) {\n${lines.join('\n')}\n  return ${returned.join(', ')} : ${returned.map(() => rt).join(', ')}\n}\n`;
}

function targetWith(localMemory: number): Target {
  const t = defaultTarget();
  t.config.chip_config.core_config.local_memory_config.memory_size = localMemory;
  return t;
}

function bruteForceMinimum(problem: LayoutProblem): number {
  const n = problem.nodes.length;
  const sel = new Array<number>(n).fill(0);
  let best = Infinity;
  const visit = (i: number): void => {
    if (i === n) {
      best = Math.min(best, labellingCost(problem, sel));
      return;
    }
    for (let a = 0; a < problem.nodes[i]!.candidates.alternatives.length; a++) {
      sel[i] = a;
      visit(i + 1);
    }
  };
  visit(0);
  return best;
}

function run(module: Operation, g: Graph): Float32Array[] {
  const registry = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(registry);
  const f32 = FloatType.f32(module.context);
  const x = ShapedValue.allocate('tensor', f32, [1, g.c, g.h, g.w])!;
  const data = x.data as Float32Array;
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 1.7) * 2;
  const r = new Interpreter(registry).runFunction(module, 'g', [x]);
  if (!r.ok) throw new Error(r.diagnostic.message);
  return r.values.map((v) => Float32Array.from((v as ShapedValue).toContiguousArray() as ArrayLike<number>));
}

function parse(text: string): Operation {
  const ctx = makeContext();
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename: 'random.mlir' });
    return m && verify(m) ? m : undefined;
  });
  if (!result) throw new Error(`${diagnostics.map((d) => d.message).join('\n')}\n${text}`);
  return result;
}

it('exact = brute force <= local search, plans verify, interpreter outputs unchanged', () => {
  fc.assert(
    fc.property(graphArb, (g) => {
      const text = moduleText(g);
      const module = parse(text);
      const target = targetWith(g.localMemory);
      const func = module.regions[0]!.entryBlock!.firstOp!;
      const { problem } = buildLayoutProblem(func, target.config, planLayoutCapabilities());
      const exact = solveExact(problem)!;
      expect(exact.cost).toBe(bruteForceMinimum(problem));
      const local = runLocalSearch(problem);
      expect(local.converged).toBe(true);
      expect(local.rounds).toBeLessThanOrEqual(2);
      expect(labellingCost(problem, local.selection)).toBeGreaterThanOrEqual(exact.cost);

      const before = run(module, g);
      for (const passes of ['spat-plan-layouts', 'spat-plan-layouts{solver=local}', 'spat-plan-layouts{disable-spatial-planning}']) {
        const copy = module.clone();
        const registry = new PassRegistry();
        registerLayoutPlannerPasses(registry);
        const pm = parsePassPipeline(module.context, `builtin.module(func.func(${passes},spat-verify-layouts))`, registry)!;
        pm.setContext(TargetKey, target);
        const { result, diagnostics } = module.context.diagnostics.capture(() => pm.run(copy));
        expect(diagnostics.map((d) => d.message)).toEqual([]);
        expect(result.success).toBe(true);
        const after = run(copy, g);
        expect(after.length).toBe(before.length);
        after.forEach((o, k) => expect(Buffer.from(o.buffer).equals(Buffer.from(before[k]!.buffer))).toBe(true));
      }
    }),
    { numRuns: 60, seed: 11 },
  );
});
