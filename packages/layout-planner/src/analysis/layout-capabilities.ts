/**
 * The layout capability table of spatial-layouts.md ("Compatibility matrix"): for every
 * `spat.*_plan` op definition, its alternatives (all operand layouts and one result layout),
 * the all-dense one first, each row-strip alternative offered only when its gate
 * ({@link ./row-strip-gates}) holds for the op and the target.
 *
 * spatial-dialect declares `SpatialLayoutCapabilityInterface` on every plan op with only the
 * dense alternative: ir-core interfaces are fixed when an op is defined, and the gates need the
 * target configuration, which a dialect does not see. This module registers the full
 * implementation for the same op definitions ({@link LayoutCapabilityRegistry}, keyed by
 * definition, looked up in O(1) like an interface) and the planner uses it for every op that
 * declares the dialect's interface.
 */
import type { AnyOpDefinition, Operation } from '@raptor-pim/ir-core';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import {
  AddPlanOp,
  BiasAddPlanOp,
  ConcatPlanOp,
  Conv2dPlanOp,
  FlattenPlanOp,
  GlobalAveragePoolPlanOp,
  MaxPool2dPlanOp,
  ReluPlanOp,
  ResizeNearestPlanOp,
  SiluPlanOp,
  type LayoutAlternative,
  type PhysicalLayoutName,
} from '@raptor-pim/spatial-dialect';
import {
  checkBiasAddPlanToRowStrip,
  checkConsumeAndProduceRowStrip,
  checkConvPlanToRowStrip,
  checkFlattenFromRowStrip,
  checkGlobalAveragePoolPlanToRowStrip,
  checkMaxPoolPlanToRowStrip,
  checkResizeNearestPlanToRowStrip,
  type GateVerdict,
} from './row-strip-gates';

/**
 * How an alternative constrains one operand:
 * - `request`: the operand must be in `layout`; a producer in another layout costs one
 *   materialization.
 * - `already`: the operand must already be in `layout` (the matrix's "input already R"); the
 *   alternative is not offered otherwise.
 * - `retain`: the operand keeps whatever layout its producer supplies (Conv's weight and bias
 *   on the row-strip paths).
 */
export type OperandRequirement =
  | { readonly kind: 'request'; readonly layout: PhysicalLayoutName }
  | { readonly kind: 'already'; readonly layout: PhysicalLayoutName }
  | { readonly kind: 'retain' };

/** One candidate alternative of a plan, before the supplied operand layouts are known. */
export interface CandidateAlternative {
  /** Index in the op's candidate list (0 = the all-dense alternative). */
  readonly index: number;
  /** Short name for debug output (`D->R`, `(R,D)->R`). */
  readonly label: string;
  /** One requirement per operand, in operand order. */
  readonly operands: readonly OperandRequirement[];
  /** The result layout. */
  readonly resultLayout: PhysicalLayoutName;
  /** Intrinsic cost (spatial-layouts.md: dense 0, generic row strip -2, SiLU row strip -3). */
  readonly intrinsicCost: number;
}

/** A candidate that was not offered, with the gate's answer (for `debug-layouts`). */
export interface RefusedAlternative {
  /** The alternative's label. */
  readonly label: string;
  /** The gate that refused it. */
  readonly gate: string;
  /** The gate's verdict. */
  readonly verdict: Extract<GateVerdict, { ok: false }>;
}

/** The candidates of one plan under a target. */
export interface PlanCandidates {
  /** Offered alternatives, dense first. */
  readonly alternatives: readonly CandidateAlternative[];
  /** Alternatives whose gate failed. */
  readonly refused: readonly RefusedAlternative[];
}

/** The implementation registered for a plan op definition. */
export interface LayoutCapability {
  /** The candidate alternatives of `op` on `config` (dense first). */
  getCandidates(op: Operation, config: HardwareConfig): PlanCandidates;
}

/** Layout names as the matrix writes them. */
export const LAYOUT_SHORT_NAMES: Readonly<Record<PhysicalLayoutName, string>> = {
  dense_nchw: 'D',
  nhwc_row_strip: 'R',
  nchw_row_strip: 'NCHW-R',
  fragmented: 'F',
};

/** Intrinsic cost of an alternative with a dense result. */
export const DENSE_INTRINSIC_COST = 0;
/** Intrinsic cost of a row-strip result (the generic R cost of spatial-layouts.md). */
export const ROW_STRIP_INTRINSIC_COST = -2;
/** Intrinsic cost of SiLU's row-strip alternative. */
export const SILU_ROW_STRIP_INTRINSIC_COST = -3;

const D: PhysicalLayoutName = 'dense_nchw';
const R: PhysicalLayoutName = 'nhwc_row_strip';
const F: PhysicalLayoutName = 'fragmented';
const request = (layout: PhysicalLayoutName): OperandRequirement => ({ kind: 'request', layout });
const already = (layout: PhysicalLayoutName): OperandRequirement => ({ kind: 'already', layout });
const RETAIN: OperandRequirement = { kind: 'retain' };

function labelOf(operands: readonly OperandRequirement[], result: PhysicalLayoutName): string {
  const names = operands.map((o) => (o.kind === 'retain' ? '*' : LAYOUT_SHORT_NAMES[o.layout]));
  return `${names.length === 1 ? names[0] : `(${names.join(',')})`}->${LAYOUT_SHORT_NAMES[result]}`;
}

/** Builds the candidate list: dense first, then each gated alternative whose gate holds. */
class CandidateBuilder {
  private readonly alternatives: CandidateAlternative[] = [];
  private readonly refused: RefusedAlternative[] = [];

  constructor(op: Operation) {
    const operands = op.operands.map(() => request(D));
    this.alternatives.push({ index: 0, label: labelOf(operands, D), operands, resultLayout: D, intrinsicCost: DENSE_INTRINSIC_COST });
  }

  add(operands: readonly OperandRequirement[], resultLayout: PhysicalLayoutName, intrinsicCost: number, gate?: { name: string; verdict: GateVerdict }): this {
    const label = labelOf(operands, resultLayout);
    if (gate && !gate.verdict.ok) {
      this.refused.push({ label, gate: gate.name, verdict: gate.verdict });
      return this;
    }
    this.alternatives.push({ index: this.alternatives.length, label, operands, resultLayout, intrinsicCost });
    return this;
  }

  done(): PlanCandidates {
    return { alternatives: this.alternatives, refused: this.refused };
  }
}

/** Conv2D: D -> R (canLowerConvPlanToRowStrip) and R -> R (canConsumeAndProduceRowStrip); weight and bias retained. */
const convCapability: LayoutCapability = {
  getCandidates(op, config) {
    const view = Conv2dPlanOp.get(op);
    const others = op.operands.slice(1).map(() => RETAIN);
    return new CandidateBuilder(op)
      .add([request(D), ...others], R, ROW_STRIP_INTRINSIC_COST, { name: 'canLowerConvPlanToRowStrip', verdict: checkConvPlanToRowStrip(view, config) })
      .add([request(R), ...others], R, ROW_STRIP_INTRINSIC_COST, { name: 'canConsumeAndProduceRowStrip', verdict: checkConsumeAndProduceRowStrip(view, config) })
      .done();
  },
};

/** Flatten: Fragmented -> D (input already fragmented) and R -> D (canLowerFlattenFromRowStrip). */
const flattenCapability: LayoutCapability = {
  getCandidates(op, config) {
    return new CandidateBuilder(op)
      .add([already(F)], D, DENSE_INTRINSIC_COST)
      .add([request(R)], D, DENSE_INTRINSIC_COST, { name: 'canLowerFlattenFromRowStrip', verdict: checkFlattenFromRowStrip(FlattenPlanOp.get(op), config) })
      .done();
  },
};

/** Relu / SiLU: R -> R when the input is already R. */
const elementwiseCapability = (rowStripCost: number): LayoutCapability => ({
  getCandidates: (op) => new CandidateBuilder(op).add([already(R)], R, rowStripCost).done(),
});

/** ResizeNearest: R -> R when the input is already R and canLowerResizeNearestPlanToRowStrip. */
const resizeCapability: LayoutCapability = {
  getCandidates(op, config) {
    const verdict = checkResizeNearestPlanToRowStrip(ResizeNearestPlanOp.get(op), config);
    return new CandidateBuilder(op).add([already(R)], R, ROW_STRIP_INTRINSIC_COST, { name: 'canLowerResizeNearestPlanToRowStrip', verdict }).done();
  },
};

/** MaxPool2D: D -> R and R -> R (canLowerMaxPoolPlanToRowStrip). */
const maxPoolCapability: LayoutCapability = {
  getCandidates(op, config) {
    const gate = { name: 'canLowerMaxPoolPlanToRowStrip', verdict: checkMaxPoolPlanToRowStrip(MaxPool2dPlanOp.get(op), config) };
    return new CandidateBuilder(op).add([request(D)], R, ROW_STRIP_INTRINSIC_COST, gate).add([request(R)], R, ROW_STRIP_INTRINSIC_COST, gate).done();
  },
};

/** GlobalAveragePool: D -> R and R -> R (canLowerGlobalAveragePoolPlanToRowStrip). */
const globalAveragePoolCapability: LayoutCapability = {
  getCandidates(op, config) {
    const gate = { name: 'canLowerGlobalAveragePoolPlanToRowStrip', verdict: checkGlobalAveragePoolPlanToRowStrip(GlobalAveragePoolPlanOp.get(op), config) };
    return new CandidateBuilder(op).add([request(D)], R, ROW_STRIP_INTRINSIC_COST, gate).add([request(R)], R, ROW_STRIP_INTRINSIC_COST, gate).done();
  },
};

/** BiasAdd: (R data, D bias) -> R when the data input is already R and the bias is supported. */
const biasAddCapability: LayoutCapability = {
  getCandidates(op) {
    const verdict = checkBiasAddPlanToRowStrip(BiasAddPlanOp.get(op));
    return new CandidateBuilder(op).add([already(R), request(D)], R, ROW_STRIP_INTRINSIC_COST, { name: 'isSupportedBiasAddValue', verdict }).done();
  },
};

/** Add: (R, R) -> R when both operands are already R. */
const addCapability: LayoutCapability = {
  getCandidates: (op) => new CandidateBuilder(op).add([already(R), already(R)], R, ROW_STRIP_INTRINSIC_COST).done(),
};

/** Concat: all R -> R for a nonempty operand list already in R. */
const concatCapability: LayoutCapability = {
  getCandidates(op) {
    const b = new CandidateBuilder(op);
    if (op.operands.length > 0) b.add(op.operands.map(() => already(R)), R, ROW_STRIP_INTRINSIC_COST);
    return b.done();
  },
};

/**
 * Layout capabilities keyed by op definition (the planner's view of
 * `SpatialLayoutCapabilityInterface`).
 */
export class LayoutCapabilityRegistry {
  private readonly byDefinition = new Map<AnyOpDefinition, LayoutCapability>();

  /** Registers `capability` for the ops of `definition` (once per definition). */
  register(definition: AnyOpDefinition, capability: LayoutCapability): void {
    if (this.byDefinition.has(definition)) throw new Error(`internal error: layout capability of '${definition.name}' registered twice`);
    this.byDefinition.set(definition, capability);
  }

  /** The capability of `op`'s definition, if any. */
  lookup(op: Operation): LayoutCapability | undefined {
    return op.definition ? this.byDefinition.get(op.definition) : undefined;
  }

  /** The registered definitions. */
  get definitions(): readonly AnyOpDefinition[] {
    return [...this.byDefinition.keys()];
  }
}

/** Registers the compatibility matrix of spatial-layouts.md for the ten plan ops. */
export function registerPlanLayoutCapabilities(registry: LayoutCapabilityRegistry): void {
  registry.register(AddPlanOp, addCapability);
  registry.register(BiasAddPlanOp, biasAddCapability);
  registry.register(ConcatPlanOp, concatCapability);
  registry.register(Conv2dPlanOp, convCapability);
  registry.register(FlattenPlanOp, flattenCapability);
  registry.register(GlobalAveragePoolPlanOp, globalAveragePoolCapability);
  registry.register(MaxPool2dPlanOp, maxPoolCapability);
  registry.register(ReluPlanOp, elementwiseCapability(ROW_STRIP_INTRINSIC_COST));
  registry.register(ResizeNearestPlanOp, resizeCapability);
  registry.register(SiluPlanOp, elementwiseCapability(SILU_ROW_STRIP_INTRINSIC_COST));
}

let defaultRegistry: LayoutCapabilityRegistry | undefined;

/** The registry with the plan ops' capabilities (built once). */
export function planLayoutCapabilities(): LayoutCapabilityRegistry {
  if (!defaultRegistry) {
    defaultRegistry = new LayoutCapabilityRegistry();
    registerPlanLayoutCapabilities(defaultRegistry);
  }
  return defaultRegistry;
}

/**
 * The operand layouts of `alternative` given the layouts the producers supply (`retain`
 * operands take the supplied layout).
 */
export function resolveOperandLayouts(alternative: CandidateAlternative, supplied: readonly PhysicalLayoutName[]): PhysicalLayoutName[] {
  return alternative.operands.map((o, k) => (o.kind === 'retain' ? supplied[k]! : o.layout));
}

/**
 * `getLayoutAlternatives` of the reference: the alternatives of `op` offered for the supplied
 * operand layouts (an `already` requirement must match its supplied layout), each as all
 * operand layouts and one result layout, dense first.
 */
export function getLayoutAlternatives(
  candidates: PlanCandidates,
  supplied: readonly PhysicalLayoutName[],
): { readonly candidate: CandidateAlternative; readonly alternative: LayoutAlternative }[] {
  const out: { candidate: CandidateAlternative; alternative: LayoutAlternative }[] = [];
  for (const c of candidates.alternatives) {
    if (c.operands.some((o, k) => o.kind === 'already' && supplied[k] !== o.layout)) continue;
    out.push({ candidate: c, alternative: { operandLayouts: resolveOperandLayouts(c, supplied), resultLayout: c.resultLayout } });
  }
  return out;
}
