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
