/**
 * The layout-selection problem of one function: the plan graph (every layout-aware plan, in
 * program order), where each plan's operands come from and where its result goes, and the
 * cost model of spatial-layouts.md shared by both solvers:
 *
 * - a plan's alternative costs its intrinsic cost;
 * - each operand whose supplied layout differs from the alternative's operand layout costs
 *   one (an operand mismatch: a materialization); an `already` requirement that does not
 *   match is infeasible;
 * - each use of a non-dense result by an op that cannot take that layout (not layout-aware,
 *   `func.return` included) costs one (the materialization to dense);
 * - a conversion that `spat.materialize_layout` does not support is infeasible.
 *
 * {@link labellingCost} is the total of a whole selection (what the exact solver minimizes
 * and what local search and exact are compared on).
 */
import type { Operation, Value } from '@raptor-pim/ir-core';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { BlueprintOp, MaterializeLayoutOp, SpatialLayoutCapabilityInterface, type PhysicalLayoutName } from '@raptor-pim/spatial-dialect';
import { isSupportedLayoutConversion } from '../ir/selected-layouts';
import type { CandidateAlternative, LayoutCapabilityRegistry, OperandRequirement, PlanCandidates } from './layout-capabilities';

/** Where an operand of a plan comes from. */
export type OperandSource =
  /** The result of plan node `node`. */
  | { readonly kind: 'plan'; readonly node: number }
  /** A value whose layout is fixed (a block argument, a constant, a compute, a blueprint, a materialization). */
  | { readonly kind: 'fixed'; readonly layout: PhysicalLayoutName };

/** One use of a plan's result. */
export type ResultSink =
  /** Operand `operand` of plan node `node`. */
  | { readonly kind: 'plan'; readonly node: number; readonly operand: number }
  /** An op that takes only `layout` (dense for ops that are not layout-aware). */
  | { readonly kind: 'fixed'; readonly layout: PhysicalLayoutName; readonly user: Operation };

/** One layout-aware plan of the function. */
export interface PlanNode {
  /** Index in program order. */
  readonly index: number;
  /** The plan op. */
  readonly op: Operation;
  /** Its candidates on the target. */
  readonly candidates: PlanCandidates;
  /** One source per operand. */
  readonly sources: readonly OperandSource[];
  /** Every use of the result. */
  readonly sinks: readonly ResultSink[];
  /** Per operand: the layouts some candidate takes there (`'any'` when one retains it). */
  readonly accepted: readonly (ReadonlySet<PhysicalLayoutName> | 'any')[];
}

/** The plan graph of a function. */
export interface LayoutProblem {
  /** The plans in program order. */
  readonly nodes: readonly PlanNode[];
  /** Node index of each plan op. */
  readonly nodeOf: ReadonlyMap<Operation, number>;
}

/** A selection: the candidate index chosen for every node. */
export type Selection = readonly number[];

/**
 * The layout a value has when its producer is not a plan: a materialization's target layout,
 * a blueprint's physical layout, dense otherwise.
 */
export function fixedLayoutOf(value: Value): PhysicalLayoutName {
  const def = value.definingOp;
  if (!def) return 'dense_nchw';
  const materialize = MaterializeLayoutOp.match(def);
  if (materialize) return materialize.targetPhysicalLayout.value;
  const blueprint = BlueprintOp.match(def);
  if (blueprint) return blueprint.physicalLayout.value;
  return 'dense_nchw';
}

/** The layout a non-plan user takes at its operand: a materialization's source, dense otherwise. */
export function fixedAcceptedLayout(user: Operation): PhysicalLayoutName {
  const materialize = MaterializeLayoutOp.match(user);
  return materialize ? materialize.sourcePhysicalLayout.value : 'dense_nchw';
}

/** True when `op` is a layout-aware plan (declares `SpatialLayoutCapabilityInterface`). */
export function isLayoutAware(op: Operation): boolean {
  return op.getInterface(SpatialLayoutCapabilityInterface) !== undefined;
}

/**
 * Builds the problem of `func`: every op declaring `SpatialLayoutCapabilityInterface` with a
 * registered capability is a node. Returns the plans without a registered capability in
 * `unregistered` (the caller reports them).
 */
export function buildLayoutProblem(func: Operation, config: HardwareConfig, registry: LayoutCapabilityRegistry): { problem: LayoutProblem; unregistered: Operation[] } {
  const ops: Operation[] = [];
  const unregistered: Operation[] = [];
  func.walk((op) => {
    if (op === func || !isLayoutAware(op)) return;
    if (registry.lookup(op)) ops.push(op);
    else unregistered.push(op);
  });
  // walk() is post-order; plans have no regions, so sorting by block order is program order
  // within a block. Plans live in the function body (one block) in every import.
  const nodeOf = new Map<Operation, number>();
  ops.forEach((op, i) => nodeOf.set(op, i));
  const nodes: PlanNode[] = ops.map((op, index) => {
    const candidates = registry.lookup(op)!.getCandidates(op, config);
    const sources: OperandSource[] = op.operands.map((v) => {
      const def = v.definingOp;
      const producer = def ? nodeOf.get(def) : undefined;
      return producer !== undefined ? { kind: 'plan', node: producer } : { kind: 'fixed', layout: fixedLayoutOf(v) };
    });
    const sinks: ResultSink[] = [];
    for (let u = op.getResult(0).firstUse; u; u = u.nextUse) {
      const consumer = nodeOf.get(u.owner);
      sinks.push(consumer !== undefined ? { kind: 'plan', node: consumer, operand: u.index } : { kind: 'fixed', layout: fixedAcceptedLayout(u.owner), user: u.owner });
    }
    sinks.reverse(); // use lists are most-recent first; keep program order
    const accepted = op.operands.map((_, k) => {
      const set = new Set<PhysicalLayoutName>();
      for (const c of candidates.alternatives) {
        const r = c.operands[k]!;
        if (r.kind === 'retain') return 'any' as const;
        set.add(r.layout);
      }
      return set;
    });
    return { index, op, candidates, sources, sinks, accepted };
  });
  return { problem: { nodes, nodeOf }, unregistered };
}

/** Cost of supplying `layout` to an operand with requirement `req` (Infinity: infeasible). */
export function operandCost(layout: PhysicalLayoutName, req: OperandRequirement): number {
  if (req.kind === 'retain' || layout === req.layout) return 0;
  return req.kind === 'already' ? Infinity : conversionCost(layout, req.layout);
}

/**
 * Cost of giving a value in layout `from` to a use that takes `to`: 0 when equal, 1 for a
 * supported materialization, Infinity otherwise.
 */
export function conversionCost(from: PhysicalLayoutName, to: PhysicalLayoutName): number {
  if (from === to) return 0;
  return isSupportedLayoutConversion(from, to) ? 1 : Infinity;
}

/** The layout that `source` supplies under `selection`. */
export function suppliedLayout(problem: LayoutProblem, source: OperandSource, selection: Selection): PhysicalLayoutName {
  return source.kind === 'fixed' ? source.layout : resultLayoutOf(problem.nodes[source.node]!, selection[source.node]!);
}

/** The result layout of candidate `index` of `node`. */
export function resultLayoutOf(node: PlanNode, index: number): PhysicalLayoutName {
  return node.candidates.alternatives[index]!.resultLayout;
}

/** The layouts supplied to `node`'s operands under `selection`. */
export function suppliedLayouts(problem: LayoutProblem, node: PlanNode, selection: Selection): PhysicalLayoutName[] {
  return node.sources.map((s) => suppliedLayout(problem, s, selection));
}

/**
 * Whether the use `sink` can take `layout` at all (the "downstream ability" of the local
 * score): a plan consumer when one of its candidates takes `layout` there, a fixed user when
 * `layout` is the one it takes.
 */
export function sinkAccepts(problem: LayoutProblem, sink: ResultSink, layout: PhysicalLayoutName): boolean {
  if (sink.kind === 'fixed') return sink.layout === layout;
  const accepted = problem.nodes[sink.node]!.accepted[sink.operand]!;
  return accepted === 'any' || accepted.has(layout);
}

/** Total cost of `selection`: intrinsic costs + operand mismatches + fixed users given a layout they do not take. */
export function labellingCost(problem: LayoutProblem, selection: Selection): number {
  let total = 0;
  for (const node of problem.nodes) {
    const alt: CandidateAlternative = node.candidates.alternatives[selection[node.index]!]!;
    total += alt.intrinsicCost;
    node.sources.forEach((s, k) => {
      total += operandCost(suppliedLayout(problem, s, selection), alt.operands[k]!);
    });
    for (const sink of node.sinks) if (sink.kind === 'fixed') total += conversionCost(alt.resultLayout, sink.layout);
  }
  return total;
}
