/**
 * The solvers on graphs the shared models do not contain: the exact solver on a plan graph of
 * treewidth 3 (it must branch) against brute force; local search's nonconvergence detection on
 * a synthetic cyclic problem (valid SSA cannot produce one: scores depend only on producers,
 * so a forward round in program order settles every plan); and the diagnostic for a plan
 * without a registered capability.
 */
import type { Operation } from '@raptor-pim/ir-core';
import { defaultTarget } from '@raptor-pim/pim-target';
import { PLAN_OPS, ReluPlanOp, SPAT_OPS, SpatialLayoutCapabilityInterface } from '@raptor-pim/spatial-dialect';
import {
  LayoutCapabilityRegistry,
  buildLayoutProblem,
  labellingCost,
  planLayoutCapabilities,
  planLayouts,
  registerPlanLayoutCapabilities,
  runLocalSearch,
  solveExact,
  type LayoutProblem,
} from '@raptor-pim/layout-planner';
import { parseVerified } from './helpers';

const config = defaultTarget().config;
const T = 'tensor<1x2x4x4xf32>';
const LL = 'logicalLayout = #spat<logical_layout nchw>';
const conv = (out: string, input: string, w: string) =>
  `  ${out} = "spat.conv2d_plan"(${input}, ${w}) <{dilations = array<i64: 1, 1>, group = 1 : i64, ${LL}, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (${T}, tensor<2x2x1x1xf32>) -> ${T}`;
const add = (out: string, a: string, b: string) => `  ${out} = "spat.add_plan"(${a}, ${b}) <{${LL}}> : (${T}, ${T}) -> ${T}`;

function bruteForce(problem: LayoutProblem): number {
  let best = Infinity;
  const sel = problem.nodes.map(() => 0);
  const visit = (i: number): void => {
    if (i === sel.length) {
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

function funcOf(m: Operation): Operation {
  return m.regions[0]!.entryBlock!.firstOp!;
}

describe('exact solver', () => {
  it('branches on a K4 of plans and still finds the brute-force minimum', () => {
    // c1, c2, c3 are pairwise joined by adds and all feed one concat: after RII folds the adds,
    // c1, c2, c3 and the concat form a K4 (degree 3 everywhere), which needs a branching.
    const m = parseVerified(`func.func @k4(%x: ${T}) -> (tensor<1x6x4x4xf32>, ${T}, ${T}, ${T}) {
  %w = arith.constant dense<0.5> : tensor<2x2x1x1xf32>
${conv('%c1', '%x', '%w')}
${conv('%c2', '%x', '%w')}
${conv('%c3', '%x', '%w')}
  %cat = "spat.concat_plan"(%c1, %c2, %c3) <{axis = 1 : i64, ${LL}}> : (${T}, ${T}, ${T}) -> tensor<1x6x4x4xf32>
${add('%a', '%c1', '%c2')}
${add('%b', '%c2', '%c3')}
${add('%d', '%c1', '%c3')}
  return %cat, %a, %b, %d : tensor<1x6x4x4xf32>, ${T}, ${T}, ${T}
}`);
    const { problem } = buildLayoutProblem(funcOf(m), config, planLayoutCapabilities());
    const exact = solveExact(problem)!;
    expect(exact.reductions.branchings).toBeGreaterThan(0);
    expect(exact.cost).toBe(bruteForce(problem));
    expect(labellingCost(problem, exact.selection)).toBe(exact.cost);
    expect(labellingCost(problem, runLocalSearch(problem).selection)).toBeGreaterThanOrEqual(exact.cost);
  });
});

describe('local search', () => {
  it('reports nonconvergence after 2 x plan_count + 1 rounds on an oscillating (cyclic) problem', () => {
    // A capability under which a plan fed by its own result flips forever: D->R when fed D,
    // R->D when fed R, each strictly cheaper than keeping the other.
    const registry = new LayoutCapabilityRegistry();
    registry.register(ReluPlanOp, {
      getCandidates: () => ({
        alternatives: [
          { index: 0, label: 'D->D', operands: [{ kind: 'request', layout: 'dense_nchw' }], resultLayout: 'dense_nchw', intrinsicCost: 0 },
          { index: 1, label: 'D->R', operands: [{ kind: 'request', layout: 'dense_nchw' }], resultLayout: 'nhwc_row_strip', intrinsicCost: -2 },
          { index: 2, label: 'R->D', operands: [{ kind: 'request', layout: 'nhwc_row_strip' }], resultLayout: 'dense_nchw', intrinsicCost: -2 },
        ],
        refused: [],
      }),
    });
    const m = parseVerified(`func.func @f(%x: ${T}) -> ${T} {
  %0 = "spat.relu_plan"(%x) <{${LL}}> : (${T}) -> ${T}
  return %0 : ${T}
}`);
    const { problem } = buildLayoutProblem(funcOf(m), config, registry);
    const node = problem.nodes[0]!;
    const cyclic: LayoutProblem = { nodes: [{ ...node, sources: [{ kind: 'plan', node: 0 }], sinks: [{ kind: 'plan', node: 0, operand: 0 }] }], nodeOf: problem.nodeOf };
    const r = runLocalSearch(cyclic);
    expect(r.converged).toBe(false);
    expect(r.rounds).toBe(3);
    expect(r.maxRounds).toBe(3);
  });
});

describe('planLayouts', () => {
  it('reports a plan that declares the interface but has no registered capability', () => {
    const registry = new LayoutCapabilityRegistry();
    const full = new LayoutCapabilityRegistry();
    registerPlanLayoutCapabilities(full);
    expect(full.definitions.length).toBe(10);
    const m = parseVerified(`func.func @f(%x: ${T}) -> tensor<1x4x4x4xf32> {
  %0 = "spat.concat_plan"(%x, %x) <{axis = 1 : i64, ${LL}}> : (${T}, ${T}) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}`);
    const ctx = m.context;
    const { result, diagnostics } = ctx.diagnostics.capture(() => planLayouts(funcOf(m), { config, registry }));
    expect(result.ok).toBe(false);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "'spat.concat_plan' op spat-plan-layouts: 'spat.concat_plan' declares SpatialLayoutCapabilityInterface but has no registered layout capability (register one with LayoutCapabilityRegistry)",
    ]);
  });
  it('every op declaring SpatialLayoutCapabilityInterface has a registered capability', () => {
    const registered = new Set(planLayoutCapabilities().definitions);
    const declaring = SPAT_OPS.filter((def) => def.interfaceMap.has(SpatialLayoutCapabilityInterface));
    expect(declaring.map((d) => d.name)).toEqual(PLAN_OPS.map((d) => d.name).sort());
    for (const def of declaring) expect(registered.has(def)).toBe(true);
  });
});
