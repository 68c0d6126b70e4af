/**
 * Layout planning of one function (what `spat-plan-layouts` runs): build the plan graph,
 * select an alternative per plan (alternative 0 when planning is disabled, local search by
 * default, or the exact solver), record the selection on the plans, insert
 * `spat.materialize_layout` wherever a producer and a consumer disagree, and optionally
 * explain every selection as a remark.
 */
import { OpBuilder, type Operation, type Value } from '@raptor-pim/ir-core';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { MaterializeLayoutOp, SpatEnumAttr, type PhysicalLayoutName } from '@raptor-pim/spatial-dialect';
import { PlannerMessages as M } from '../diagnostics';
import { recordSelectedLayouts } from '../ir/selected-layouts';
import { EXACT_BRANCHING_BUDGET, solveExact, type ExactResult } from './exact-solver';
import { LAYOUT_SHORT_NAMES, planLayoutCapabilities, resolveOperandLayouts, type LayoutCapabilityRegistry } from './layout-capabilities';
import {
  buildLayoutProblem,
  conversionCost,
  fixedAcceptedLayout,
  labellingCost,
  operandCost,
  suppliedLayouts,
  type LayoutProblem,
  type Selection,
} from './layout-problem';
import { runLocalSearch, scoreAlternatives, type AlternativeScore, type LocalSearchResult } from './local-search';

/** The layout solvers. */
export const LAYOUT_SOLVERS = ['local', 'exact'] as const;
/** A layout solver: the reference's local search or the exact minimum-cost labelling. */
export type LayoutSolver = (typeof LAYOUT_SOLVERS)[number];

/**
 * The default solver: `exact`, because on every shared model it is never worse than local
 * search (it is optimal for the same cost) and solves resnet18 in well under 50 ms (README,
 * "Figures"), the condition issue 11 sets for replacing the reference's local search.
 */
export const DEFAULT_LAYOUT_SOLVER: LayoutSolver = 'exact';

/** Options of {@link planLayouts} (the pass options of `spat-plan-layouts`). */
export interface PlanLayoutsOptions {
  /** The target whose resources the gates read. */
  readonly config: HardwareConfig;
  /** `exact` (default, {@link DEFAULT_LAYOUT_SOLVER}) or `local`. */
  readonly solver?: LayoutSolver;
  /** Alternative 0 for every plan (materialization still runs). */
  readonly disablePlanning?: boolean;
  /** Emit one remark per plan: alternatives, scores, winner and why. */
  readonly debugLayouts?: boolean;
  /** The capability table (default: {@link planLayoutCapabilities}). */
  readonly registry?: LayoutCapabilityRegistry;
}

/** What {@link planLayouts} did. */
export interface PlanLayoutsResult {
  /** False when a diagnostic was emitted (nonconvergence, infeasible operand, missing capability). */
  readonly ok: boolean;
  /** Layout-aware plans of the function. */
  readonly planCount: number;
  /** Plans whose selected result layout is a row strip. */
  readonly rowStripPlanCount: number;
  /** `spat.materialize_layout` ops inserted. */
  readonly materializationCount: number;
  /** Total cost of the selection ({@link labellingCost}). */
  readonly totalCost: number;
  /** Local-search rounds (0 for the other modes). */
  readonly rounds: number;
  /** Milliseconds spent selecting (not materializing). */
  readonly selectMs: number;
}

/** Plans `func` (a `func.func`); see the module comment. */
export function planLayouts(func: Operation, options: PlanLayoutsOptions): PlanLayoutsResult {
  const registry = options.registry ?? planLayoutCapabilities();
  const { problem, unregistered } = buildLayoutProblem(func, options.config, registry);
  const failed = (): PlanLayoutsResult => ({ ok: false, planCount: problem.nodes.length, rowStripPlanCount: 0, materializationCount: 0, totalCost: 0, rounds: 0, selectMs: 0 });
  for (const op of unregistered) op.emitOpError(M.noCapability(op.name));
  if (unregistered.length > 0) return failed();

  const start = performance.now();
  let selection: Selection;
  let local: LocalSearchResult | undefined;
  let exact: ExactResult | undefined;
  const solver = options.disablePlanning ? 'disabled' : (options.solver ?? DEFAULT_LAYOUT_SOLVER);
  if (solver === 'disabled') selection = problem.nodes.map(() => 0);
  else if (solver === 'exact' && (exact = solveExact(problem))) selection = exact.selection;
  else {
    if (solver === 'exact') func.emitWarning(M.exactBudget(EXACT_BRANCHING_BUDGET));
    local = runLocalSearch(problem);
    selection = local.selection;
    if (!local.converged) {
      func.emitOpError(M.nonConvergence(local.maxRounds, problem.nodes.length));
      return failed();
    }
  }
  const selectMs = performance.now() - start;

  if (options.debugLayouts) explainSelection(problem, selection, solver === 'exact' && !exact ? 'local' : solver, local);
  if (!checkFeasible(problem, selection)) return failed();
  const totalCost = labellingCost(problem, selection);
  const materializationCount = applySelection(problem, selection);
  const rowStripPlanCount = problem.nodes.filter((n) => n.candidates.alternatives[selection[n.index]!]!.resultLayout === 'nhwc_row_strip').length;
  return { ok: true, planCount: problem.nodes.length, rowStripPlanCount, materializationCount, totalCost, rounds: local?.rounds ?? 0, selectMs };
}

/** Reports operands and uses no supported materialization can serve. */
function checkFeasible(problem: LayoutProblem, selection: Selection): boolean {
  let ok = true;
  for (const node of problem.nodes) {
    const alt = node.candidates.alternatives[selection[node.index]!]!;
    const supplied = suppliedLayouts(problem, node, selection);
    alt.operands.forEach((req, k) => {
      if (operandCost(supplied[k]!, req) === Infinity) {
        node.op.emitOpError(M.infeasible(node.op.name, k, supplied[k]!, req.kind === 'retain' ? supplied[k]! : req.layout));
        ok = false;
      }
    });
    for (const sink of node.sinks) {
      if (sink.kind === 'fixed' && conversionCost(alt.resultLayout, sink.layout) === Infinity) {
        sink.user.emitOpError(M.infeasibleUse(alt.resultLayout, sink.layout));
        ok = false;
      }
    }
  }
  return ok;
}

/** Records the selection and inserts the materializations; returns how many were inserted. */
function applySelection(problem: LayoutProblem, selection: Selection): number {
  const ctx = problem.nodes[0]?.op.context;
  if (!ctx) return 0;
  const builder = new OpBuilder(ctx);
  const cache = new Map<Value, Map<PhysicalLayoutName, Value>>();
  const lastInserted = new Map<Value, Operation>();
  const inserted = new Set<Operation>();
  let count = 0;
  const resultLayouts = new Map<Value, PhysicalLayoutName>();
  for (const node of problem.nodes) resultLayouts.set(node.op.getResult(0), node.candidates.alternatives[selection[node.index]!]!.resultLayout);

  const materialized = (value: Value, from: PhysicalLayoutName, to: PhysicalLayoutName): Value => {
    let byLayout = cache.get(value);
    if (!byLayout) cache.set(value, (byLayout = new Map()));
    const existing = byLayout.get(to);
    if (existing) return existing;
    const after = lastInserted.get(value) ?? value.definingOp;
    if (after) builder.setInsertionPointAfter(after);
    else builder.setInsertionPointToStart(value.parentBlock!);
    const logical = SpatEnumAttr.get(ctx, 'logical_layout', 'nchw');
    const m = MaterializeLayoutOp.build(
      builder,
      {
        input: value,
        output: value.type,
        sourcePhysicalLayout: SpatEnumAttr.get(ctx, 'physical_layout', from),
        targetPhysicalLayout: SpatEnumAttr.get(ctx, 'physical_layout', to),
        logicalLayout: logical,
      },
      value.location,
    );
    lastInserted.set(value, m.op);
    inserted.add(m.op);
    byLayout.set(to, m.output);
    count++;
    return m.output;
  };

  for (const node of problem.nodes) {
    const alt = node.candidates.alternatives[selection[node.index]!]!;
    const supplied = suppliedLayouts(problem, node, selection);
    const operandLayouts = resolveOperandLayouts(alt, supplied);
    recordSelectedLayouts(node.op, { operandLayouts, resultLayout: alt.resultLayout });
    operandLayouts.forEach((want, k) => {
      if (supplied[k] !== want) node.op.setOperand(k, materialized(node.op.getOperand(k), supplied[k]!, want));
    });
  }
  // Users that are not layout-aware get the layout they take (dense, or a materialization's source).
  for (const node of problem.nodes) {
    const result = node.op.getResult(0);
    const layout = resultLayouts.get(result)!;
    const uses: { user: Operation; index: number }[] = [];
    for (let u = result.firstUse; u; u = u.nextUse) if (!problem.nodeOf.has(u.owner) && !inserted.has(u.owner)) uses.push({ user: u.owner, index: u.index });
    uses.reverse();
    for (const { user, index } of uses) {
      const want = fixedAcceptedLayout(user);
      if (want !== layout) user.setOperand(index, materialized(result, layout, want));
    }
  }
  return count;
}

/** Emits one remark per plan explaining its selection. */
function explainSelection(problem: LayoutProblem, selection: Selection, solver: LayoutSolver | 'disabled', local: LocalSearchResult | undefined): void {
  const total = labellingCost(problem, selection);
  for (const node of problem.nodes) {
    const selected = selection[node.index]!;
    const scores = scoreAlternatives(problem, node, selection);
    const alts = node.candidates.alternatives;
    const parts = scores.map((s) => M.debugScore(alts[s.index]!.label, s.total, s.intrinsic, s.mismatches, s.downstream));
    const offered = new Set(scores.map((s) => s.index));
    for (const a of alts) {
      if (!offered.has(a.index)) parts.push(M.debugNotOffered(a.label, a.operands.map((o) => (o.kind === 'retain' ? '*' : LAYOUT_SHORT_NAMES[o.layout])).join(',')));
    }
    for (const r of node.candidates.refused) parts.push(M.debugRefused(r.label, r.gate, r.verdict.parameter, r.verdict.reason));
    let why: string;
    if (solver === 'disabled') why = M.debugDisabled();
    else if (solver === 'exact') why = M.debugExact(total);
    else {
      const mine = scores.find((s) => s.index === selected)!;
      let next: AlternativeScore | undefined;
      for (const s of scores) if (s.index !== selected && (!next || s.total < next.total)) next = s;
      if (!next) why = M.debugOnly();
      else if (next.total === mine.total) why = M.debugTie(alts[next.index]!.label, next.total);
      else why = M.debugCheaper(selected === 0, mine.total, alts[next.index]!.label, next.total);
      const decided = local?.decisions[node.index];
      if (decided) why += M.debugRound(decided.round);
    }
    node.op.emitRemark(M.debugPlan(node.op.name, node.index, parts, alts[selected]!.label, why));
  }
}
