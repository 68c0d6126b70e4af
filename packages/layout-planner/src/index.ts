/**
 * @packageDocumentation
 * Spatial layout planning: the row-strip gates shared with plan-lowering, the layout
 * capability table of every `spat.*_plan` op, the planning pass `spat-plan-layouts` (local
 * search or an exact solver, `spat.materialize_layout` insertion) and the checking pass
 * `spat-verify-layouts`.
 */
export {
  canLowerConvPlanToRowStrip,
  canConsumeAndProduceRowStrip,
  canLowerFlattenFromRowStrip,
  canLowerMaxPoolPlanToRowStrip,
  canLowerGlobalAveragePoolPlanToRowStrip,
  canLowerResizeNearestPlanToRowStrip,
  isSupportedBiasAddValue,
  checkConvPlanToRowStrip,
  checkConsumeAndProduceRowStrip,
  checkFlattenFromRowStrip,
  checkMaxPoolPlanToRowStrip,
  checkGlobalAveragePoolPlanToRowStrip,
  checkResizeNearestPlanToRowStrip,
  checkBiasAddPlanToRowStrip,
  checkBiasAddType,
  windowOutputSize,
} from './analysis/row-strip-gates';
export type {
  GateVerdict,
  Conv2dPlanView,
  FlattenPlanView,
  MaxPool2dPlanView,
  GlobalAveragePoolPlanView,
  ResizeNearestPlanView,
  BiasAddPlanView,
} from './analysis/row-strip-gates';
export { rowStripResources } from './analysis/row-strip-resources';
export type { RowStripResources } from './analysis/row-strip-resources';

// Capability table (SpatialLayoutCapabilityInterface's full implementation)
export {
  LayoutCapabilityRegistry,
  registerPlanLayoutCapabilities,
  planLayoutCapabilities,
  getLayoutAlternatives,
  resolveOperandLayouts,
  LAYOUT_SHORT_NAMES,
  DENSE_INTRINSIC_COST,
  ROW_STRIP_INTRINSIC_COST,
  SILU_ROW_STRIP_INTRINSIC_COST,
} from './analysis/layout-capabilities';
export type { CandidateAlternative, LayoutCapability, OperandRequirement, PlanCandidates, RefusedAlternative } from './analysis/layout-capabilities';

// The problem, the solvers and the planner
export { buildLayoutProblem, labellingCost, operandCost, conversionCost, fixedLayoutOf, isLayoutAware } from './analysis/layout-problem';
export type { LayoutProblem, PlanNode, OperandSource, ResultSink, Selection } from './analysis/layout-problem';
export { runLocalSearch, scoreAlternatives } from './analysis/local-search';
export type { AlternativeScore, LocalSearchResult, PlanDecision } from './analysis/local-search';
export { solveExact, EXACT_BRANCHING_BUDGET } from './analysis/exact-solver';
export type { ExactResult } from './analysis/exact-solver';
export { planLayouts, LAYOUT_SOLVERS, DEFAULT_LAYOUT_SOLVER } from './analysis/plan-layouts';
export type { LayoutSolver, PlanLayoutsOptions, PlanLayoutsResult } from './analysis/plan-layouts';
export { verifyLayouts } from './analysis/layout-verifier';
export { countLayoutOps } from './analysis/layout-counts';
export type { LayoutOpCounts } from './analysis/layout-counts';

// Selected layouts on the IR
export {
  OPERAND_LAYOUTS_ATTR,
  RESULT_LAYOUT_ATTR,
  recordSelectedLayouts,
  readSelectedLayouts,
  SUPPORTED_LAYOUT_CONVERSIONS,
  isSupportedLayoutConversion,
} from './ir/selected-layouts';
export type { SelectedLayouts, SelectedLayoutsRecord } from './ir/selected-layouts';

// Passes
export { SpatPlanLayoutsPass, disableSpatialPlanningOption, layoutSolverOption, debugLayoutsOption } from './transforms/spat-plan-layouts';
export { SpatVerifyLayoutsPass } from './transforms/spat-verify-layouts';
export { registerLayoutPlannerPasses, layoutPlanningPipeline } from './register';
export type { LayoutPlanningPipelineOptions } from './register';
export { TargetKey, targetOf } from './target';
export { GateMessages, PlannerMessages, VerifyMessages } from './diagnostics';
