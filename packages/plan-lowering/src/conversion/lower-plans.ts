/**
 * The plan-lowering driver: ir-core's dialect conversion (`applyPartialConversion`) with every
 * plan op and `spat.materialize_layout` illegal and one typed pattern per op, visited in program
 * order (producers before consumers, so a row-strip consumer finds its producer's collection
 * behind the row-strip cast); then the row-strip casts are erased. Everything a pattern cannot
 * lower is a diagnostic at the plan (plus the driver's "failed to legalize"), and a failure
 * leaves the function exactly as it was.
 */
import {
  ConstantOp,
  ConversionTarget,
  FloatType,
  PatternRewriter,
  RankedTensorType,
  UnrealizedConversionCastOp,
  applyPartialConversion,
  createPattern,
  formatType,
  type Operation,
  type RewritePattern,
} from '@raptor-pim/ir-core';
import { BlueprintOp, MaterializeLayoutOp, PLAN_OPS } from '@raptor-pim/spatial-dialect';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { PlanLoweringMessages as M } from '../diagnostics';
import { crossbarShapeOf } from '../target';
import { createLoweringEnv, refuse, type LowerPlansOptions, type LoweringEnv } from './lowering-env';
import { PHYSICAL_LAYOUT_ATTR } from './physical-values';
import { convPlanPattern } from './patterns/conv';
import { addPlanPattern, biasAddPlanPattern, reluPlanPattern, siluPlanPattern } from './patterns/elementwise';
import { globalAveragePoolPlanPattern, maxPoolPlanPattern } from './patterns/pool';
import { concatPlanPattern, flattenPlanPattern, materializeLayoutPattern, resizeNearestPlanPattern } from './patterns/data-movement';

/**
 * The lowering patterns of every plan op and of `spat.materialize_layout`, sharing `env`. Each
 * first checks that the op's tensors are f32 and that no earlier pattern failed (after a
 * failure the conversion is rolled back, and consumers of a plan left unlowered would only
 * repeat it).
 */
export function planLoweringPatterns(env: LoweringEnv): RewritePattern[] {
  const typed = [
    addPlanPattern(env),
    biasAddPlanPattern(env),
    concatPlanPattern(env),
    convPlanPattern(env),
    flattenPlanPattern(env),
    globalAveragePoolPlanPattern(env),
    maxPoolPlanPattern(env),
    reluPlanPattern(env),
    resizeNearestPlanPattern(env),
    siluPlanPattern(env),
    materializeLayoutPattern(env),
  ];
  return typed.map((p) =>
    createPattern({
      root: p.rootDefinition.name,
      debugName: p.debugName,
      matchAndRewrite: (op, rw) => !env.failed && hasF32Types(env, op) && p.matchAndRewrite(op, rw),
    }),
  );
}

/** What {@link lowerPlans} reports. */
export interface LowerPlansResult {
  /** False when a diagnostic was reported (on the context's diagnostic engine). */
  readonly success: boolean;
  /** Plans lowered. */
  readonly loweredPlans: number;
  /** Materializations lowered. */
  readonly loweredMaterializations: number;
}

const PLAN_NAMES = new Set([...PLAN_OPS.map((d) => d.name), MaterializeLayoutOp.name]);

/** True when every operand and result of `op` is an f32 tensor (else a diagnostic). */
function hasF32Types(env: LoweringEnv, op: Operation): boolean {
  const types = [...op.operands.map((v) => v.type), ...op.resultTypes];
  for (let i = 0; i < types.length; i++) {
    const t = types[i]!;
    const el = t instanceof RankedTensorType ? t.elementType : undefined;
    if (!(el instanceof FloatType) || el.kind !== 'f32') return refuse(env, op, M.notF32(i, formatType(t)));
  }
  return true;
}

/**
 * Lowers every plan and materialization directly in the body of `func` (a `func.func`) for the
 * machine `config` (`options`: see {@link LowerPlansOptions}). Diagnostics go to the context's
 * engine; on failure the IR may be partly lowered (the pass manager discards it).
 *
 * @example
 * const r = lowerPlans(funcOp, defaultTarget().config); // r.success, r.loweredPlans
 */
export function lowerPlans(func: Operation, config: HardwareConfig, options: LowerPlansOptions = {}): LowerPlansResult {
  const env = createLoweringEnv(config, crossbarShapeOf(config), options);
  const body = func.regions[0]?.firstBlock;
  // Constants feeding plans (weights, biases): erased below once nothing reads them.
  const planConstants = new Set<Operation>();
  // Blueprints of the input (kept as they are; only the pass's own are cleaned up).
  const inputBlueprints = new Set<Operation>();
  for (let op = body?.firstOp ?? null; op; op = op.next) {
    if (BlueprintOp.match(op)) inputBlueprints.add(op);
    if (!PLAN_NAMES.has(op.name)) continue;
    for (const v of op.operands) {
      const def = v.definingOp;
      if (def && ConstantOp.match(def)) planConstants.add(def);
    }
  }
  // Every plan and materialization is illegal; the driver visits ops in program order, so a
  // consumer sees its producer already lowered (a row-strip consumer finds the collection
  // behind the row-strip cast). On failure it restores the function as it was.
  const target = new ConversionTarget().addIllegalOp(...PLAN_OPS, MaterializeLayoutOp);
  const converted = applyPartialConversion(func, target, planLoweringPatterns(env));
  if (!converted.success || env.failed || !body) return { success: false, loweredPlans: 0, loweredMaterializations: 0 };
  const rewriter = new PatternRewriter(func.context);
  const casts: Operation[] = [];
  for (let op = body.firstOp; op; op = op.next) {
    if (UnrealizedConversionCastOp.match(op) && op.getDiscardableAttr(PHYSICAL_LAYOUT_ATTR) !== undefined) casts.push(op);
  }
  let escaped = false;
  for (const cast of casts.reverse()) {
    const user = cast.getResult(0).firstUse?.owner;
    if (user) escaped = !refuse(env, user, M.rowStripEscapes(user.name)) || escaped;
    else rewriter.eraseOp(cast);
  }
  for (const c of planConstants) if (c.getResult(0).useEmpty) rewriter.eraseOp(c);
  // The pass's blueprints left without a reader (padding reads the planes behind a view directly).
  const unread: Operation[] = [];
  for (let op = body.firstOp; op; op = op.next) if (BlueprintOp.match(op) && !inputBlueprints.has(op) && op.getResult(0).useEmpty) unread.push(op);
  for (const op of unread) rewriter.eraseOp(op);
  return { success: !escaped, loweredPlans: env.loweredPlans, loweredMaterializations: env.loweredMaterializations };
}
