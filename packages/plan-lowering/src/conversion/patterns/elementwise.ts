/**
 * Element-wise plans: `spat.relu_plan`, `spat.silu_plan` (`x * sigmoid(x)`), `spat.add_plan`,
 * `spat.bias_add_plan`. Dense: one lane per (example, channel) applying the op to the
 * channel's `[1, 1, H, W]` plane, assembled by a physical-view blueprint. Row strips (the
 * matrix of spatial-layouts.md: Relu/SiLU R -> R, Add (R, R) -> R, BiasAdd (R, D) -> R): one
 * lane per strip applying the op to its `[W, C]` pixels.
 */
import { createPattern, type AffineExpr, type Operation, type PatternRewriter, type RankedTensorType, type Value } from '@raptor-pim/ir-core';
import { AddPlanOp, BiasAddPlanOp, ReluPlanOp, SiluPlanOp } from '@raptor-pim/spatial-dialect';
import { checkBiasAddPlanToRowStrip } from '@raptor-pim/layout-planner';
import { PlanLoweringMessages as M } from '../../diagnostics';
import { selectedResultLayout } from '../../analysis/selected-layouts';
import { fusibleRelu, replaceFused } from '../../analysis/fused-relu';
import { buildBatch, buildPhysicalView, type BodyBuilder } from '../compute-builders';
import { laneCoordinates } from '../data-movement';
import { castRowStrip, physicalValueOf, readPlane, readStrip, type Nchw, type PhysicalValue } from '../physical-values';
import { refuse, type LoweringEnv } from '../lowering-env';

/** The per-lane combination of an element-wise plan, in each layout. */
interface ElementwiseKind {
  /** The plan's activations (data operands). */
  readonly data: readonly Value[];
  /** A bias operand (BiasAdd), bound as an input. */
  readonly bias?: Value;
  /** Dense lane: `[1, 1, H, W]` planes (and the bias) -> plane; `c` is the channel expression. */
  dense(bb: BodyBuilder, planes: readonly Value[], bias: Value | undefined, c: AffineExpr, g: Nchw): Value;
  /** Strip lane: `[W, C]` strips (and the bias) -> strip. */
  strips(bb: BodyBuilder, strips: readonly Value[], bias: Value | undefined, g: Nchw): Value;
}

function lowerElementwise(env: LoweringEnv, op: Operation, rw: PatternRewriter, kind: ElementwiseKind, rowStripAllowed: (inputs: readonly PhysicalValue[]) => string | undefined): boolean {
  const pvs: PhysicalValue[] = [];
  for (const v of kind.data) {
    const pv = physicalValueOf(v);
    if (!pv) return refuse(env, op, M.notStatic('an activation operand'));
    pvs.push(pv);
  }
  const result = selectedResultLayout(env, op);
  if (!result) return false;
  const g = pvs[0]!.geometry;
  const layouts = pvs.map((p) => p.layout).join(', ');
  const loc = op.location;
  rw.setInsertionPoint(op);
  const inputs = kind.bias ? [...pvs.map((p) => p.value), kind.bias] : pvs.map((p) => p.value);
  const outType = op.getResult(0).type as RankedTensorType;
  // A ReLU reading only this op (an Add of a residual block): its lanes apply it too.
  const relu = fusibleRelu(op, result);
  const activate = (bb: BodyBuilder, y: Value): Value => (relu ? bb.relu(y) : y);
  if (result === 'dense_nchw' && pvs.every((p) => p.layout === 'dense_nchw')) {
    const collection = buildBatch(rw, loc, g.n * g.c, { weights: [], inputs }, [1, 1, g.h, g.w], (bb, _w, args) => {
      const [n, c] = laneCoordinates(bb, [g.n, g.c]);
      const planes = pvs.map((p, i) => readPlane(bb, args[i]!, p, n!, c!));
      return activate(bb, kind.dense(bb, planes, kind.bias ? args[pvs.length] : undefined, c!, g));
    });
    replaceFused(rw, op, relu, buildPhysicalView(rw, loc, collection, [g.n, g.c, g.h, g.w]));
  } else if (result === 'nhwc_row_strip' && pvs.every((p) => p.layout === 'nhwc_row_strip')) {
    const why = rowStripAllowed(pvs);
    if (why) return refuse(env, op, why);
    const collection = buildBatch(rw, loc, g.n * g.h, { weights: [], inputs }, [g.w, g.c], (bb, _w, args) => {
      const strips = pvs.map((p, i) => readStrip(bb, args[i]!, p as PhysicalValue & { layout: 'nhwc_row_strip' }, bb.d0));
      return activate(bb, kind.strips(bb, strips, kind.bias ? args[pvs.length] : undefined, g));
    });
    replaceFused(rw, op, relu, castRowStrip(rw, loc, collection, outType));
  } else {
    const supported = pvs.length === 1 ? 'dense_nchw -> dense_nchw, nhwc_row_strip -> nhwc_row_strip' : 'all dense_nchw -> dense_nchw, all nhwc_row_strip -> nhwc_row_strip';
    return refuse(env, op, M.unsupportedLayouts(layouts, result, supported));
  }
  env.loweredPlans += relu ? 2 : 1;
  return true;
}

const always = (): string | undefined => undefined;

/** `spat.relu_plan`. */
export function reluPlanPattern(env: LoweringEnv) {
  return createPattern(ReluPlanOp, (relu, rw) =>
    lowerElementwise(env, relu.op, rw, { data: [relu.input], dense: (bb, [x]) => bb.relu(x!), strips: (bb, [x]) => bb.relu(x!) }, always),
  );
}

/** `spat.silu_plan` (`x * sigmoid(x)`). */
export function siluPlanPattern(env: LoweringEnv) {
  return createPattern(SiluPlanOp, (silu, rw) =>
    lowerElementwise(env, silu.op, rw, { data: [silu.input], dense: (bb, [x]) => bb.silu(x!), strips: (bb, [x]) => bb.silu(x!) }, always),
  );
}

/** `spat.add_plan`. */
export function addPlanPattern(env: LoweringEnv) {
  return createPattern(AddPlanOp, (add, rw) =>
    lowerElementwise(env, add.op, rw, { data: [add.lhs, add.rhs], dense: (bb, [a, b]) => bb.add(a!, b!), strips: (bb, [a, b]) => bb.add(a!, b!) }, always),
  );
}

/** The bias element of channel `c` (scalar or per-channel bias of shape [], [C], [1,C], [1,C,1,1]). */
function biasIndices(rank: number, c: AffineExpr): (AffineExpr | number)[] {
  if (rank === 0) return [];
  if (rank === 1) return [c];
  if (rank === 2) return [0, c];
  return [0, c, 0, 0];
}

/** The bias as one `[1, C]` row (scalar biases splatted). */
function biasRow(bb: BodyBuilder, bias: Value, c: number): Value {
  const rank = (bias.type as RankedTensorType).shape.length;
  if (rank === 0) return bb.splat(bb.element(bias, []), [1, c]);
  return bb.reshape(bias, [1, c]);
}

/** `spat.bias_add_plan` (dense: per-channel splat of the bias element; strips: the bias row repeated W times). */
export function biasAddPlanPattern(env: LoweringEnv) {
  return createPattern(BiasAddPlanOp, (biasAdd, rw) => {
    const rank = (biasAdd.bias.type as RankedTensorType).shape.length;
    return lowerElementwise(
      env,
      biasAdd.op,
      rw,
      {
        data: [biasAdd.input],
        bias: biasAdd.bias,
        dense: (bb, [x], b, c, g) => bb.add(x!, bb.splat(bb.element(b!, biasIndices(rank, c)), [1, 1, g.h, g.w])),
        strips: (bb, [x], b, g) => bb.add(x!, bb.concat(0, new Array<Value>(g.w).fill(biasRow(bb, b!, g.c)))),
      },
      () => {
        const verdict = checkBiasAddPlanToRowStrip(biasAdd);
        return verdict.ok ? undefined : M.gateRefused('isSupportedBiasAddValue', verdict.parameter, verdict.reason);
      },
    );
  });
}
