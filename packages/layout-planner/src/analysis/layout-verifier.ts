/**
 * The layout contract checker behind `spat-verify-layouts`: every plan's recorded layouts are
 * an alternative of the compatibility matrix whose gate holds, every operand's recorded layout
 * is exactly what its producer supplies, every `spat.materialize_layout` performs a supported
 * conversion of what its input is, and no op that is not layout-aware (`func.return`
 * included) sees a non-dense value.
 *
 * Deliberately independent of the planner: the matrix is written out again here, as a table
 * of allowed combinations, and the producer layouts are read back from the IR, so a bug in the
 * planner's capability table, solver or materialization cannot hide in this check. Only the
 * gates are shared (they are the lowering's own legality predicates).
 */
import { RankedTensorType, formatType, type Operation, type Value } from '@raptor-pim/ir-core';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import {
  AddPlanOp,
  BiasAddPlanOp,
  BlueprintOp,
  ConcatPlanOp,
  Conv2dPlanOp,
  FlattenPlanOp,
  GlobalAveragePoolPlanOp,
  MaterializeLayoutOp,
  MaxPool2dPlanOp,
  ReluPlanOp,
  ResizeNearestPlanOp,
  SiluPlanOp,
  SpatialLayoutCapabilityInterface,
  type PhysicalLayoutName,
} from '@raptor-pim/spatial-dialect';
import { VerifyMessages as M } from '../diagnostics';
import { isSupportedLayoutConversion, readSelectedLayouts, SUPPORTED_LAYOUT_CONVERSIONS, type SelectedLayouts } from '../ir/selected-layouts';
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

/** One allowed combination: `D`, `R`, `F` per operand (`*`: any, the supplied layout is kept). */
interface AllowedCombination {
  readonly operands: readonly ('D' | 'R' | 'F' | '*')[] | 'all-R';
  readonly result: 'D' | 'R';
  readonly gate?: { readonly name: string; readonly check: (op: Operation, config: HardwareConfig) => GateVerdict };
}

const SHORT: Record<PhysicalLayoutName, string> = { dense_nchw: 'D', nhwc_row_strip: 'R', fragmented: 'F', nchw_row_strip: 'NCHW-R' };

/** The non-dense combinations of the compatibility matrix, by plan definition. */
function rowStripCombinations(op: Operation): readonly AllowedCombination[] | undefined {
  if (Conv2dPlanOp.match(op)) {
    const rest = op.operands.slice(1).map(() => '*' as const);
    return [
      { operands: ['D', ...rest], result: 'R', gate: { name: 'canLowerConvPlanToRowStrip', check: (o, c) => checkConvPlanToRowStrip(Conv2dPlanOp.get(o), c) } },
      { operands: ['R', ...rest], result: 'R', gate: { name: 'canConsumeAndProduceRowStrip', check: (o, c) => checkConsumeAndProduceRowStrip(Conv2dPlanOp.get(o), c) } },
    ];
  }
  if (FlattenPlanOp.match(op)) {
    return [
      { operands: ['F'], result: 'D' },
      { operands: ['R'], result: 'D', gate: { name: 'canLowerFlattenFromRowStrip', check: (o, c) => checkFlattenFromRowStrip(FlattenPlanOp.get(o), c) } },
    ];
  }
  if (ReluPlanOp.match(op) || SiluPlanOp.match(op)) return [{ operands: ['R'], result: 'R' }];
  if (ResizeNearestPlanOp.match(op)) {
    return [{ operands: ['R'], result: 'R', gate: { name: 'canLowerResizeNearestPlanToRowStrip', check: (o, c) => checkResizeNearestPlanToRowStrip(ResizeNearestPlanOp.get(o), c) } }];
  }
  if (MaxPool2dPlanOp.match(op)) {
    const gate = { name: 'canLowerMaxPoolPlanToRowStrip', check: (o: Operation, c: HardwareConfig) => checkMaxPoolPlanToRowStrip(MaxPool2dPlanOp.get(o), c) };
    return [
      { operands: ['D'], result: 'R', gate },
      { operands: ['R'], result: 'R', gate },
    ];
  }
  if (GlobalAveragePoolPlanOp.match(op)) {
    const gate = { name: 'canLowerGlobalAveragePoolPlanToRowStrip', check: (o: Operation, c: HardwareConfig) => checkGlobalAveragePoolPlanToRowStrip(GlobalAveragePoolPlanOp.get(o), c) };
    return [
      { operands: ['D'], result: 'R', gate },
      { operands: ['R'], result: 'R', gate },
    ];
  }
  if (BiasAddPlanOp.match(op)) {
    return [{ operands: ['R', 'D'], result: 'R', gate: { name: 'isSupportedBiasAddValue', check: (o) => checkBiasAddPlanToRowStrip(BiasAddPlanOp.get(o)) } }];
  }
  if (AddPlanOp.match(op)) return [{ operands: ['R', 'R'], result: 'R' }];
  if (ConcatPlanOp.match(op)) return op.operands.length > 0 ? [{ operands: 'all-R', result: 'R' }] : [];
  return undefined;
}

function combinationText(l: SelectedLayouts): string {
  const ops = l.operandLayouts.map((x) => SHORT[x]);
  return `${ops.length === 1 ? ops[0] : `(${ops.join(',')})`}->${SHORT[l.resultLayout]}`;
}

function matches(c: AllowedCombination, l: SelectedLayouts): boolean {
  if (SHORT[l.resultLayout] !== c.result) return false;
  if (c.operands === 'all-R') return l.operandLayouts.every((x) => x === 'nhwc_row_strip');
  if (c.operands.length !== l.operandLayouts.length) return false;
  return c.operands.every((p, k) => p === '*' || p === SHORT[l.operandLayouts[k]!]);
}

function isRowStripType(v: Value): boolean {
  const t = v.type;
  return t instanceof RankedTensorType && t.shape.length === 4 && t.shape.every((d) => d > 0);
}

/** Checks the layout contracts of every plan and materialization in `root`; diagnostics on the ops. */
export function verifyLayouts(root: Operation, config: HardwareConfig): boolean {
  const recorded = new Map<Operation, SelectedLayouts>();
  let ok = true;
  const fail = (op: Operation, message: string): void => {
    op.emitOpError(message);
    ok = false;
  };
  const isPlan = (op: Operation): boolean => op.getInterface(SpatialLayoutCapabilityInterface) !== undefined;

  // Layout each value is in, read back from the IR.
  const layoutOf = (v: Value): PhysicalLayoutName | undefined => {
    const def = v.definingOp;
    if (!def) return 'dense_nchw';
    if (isPlan(def)) return recorded.get(def)?.resultLayout;
    const m = MaterializeLayoutOp.match(def);
    if (m) return m.targetPhysicalLayout.value;
    const b = BlueprintOp.match(def);
    if (b) return b.physicalLayout.value;
    return 'dense_nchw';
  };

  const plans: Operation[] = [];
  const materializations: Operation[] = [];
  root.walk((op) => {
    if (isPlan(op)) {
      plans.push(op);
      const r = readSelectedLayouts(op);
      if (r.ok) recorded.set(op, r.layouts);
      else fail(op, r.problem === 'missing' ? M.missing() : M.malformed(op.operands.length));
    } else if (MaterializeLayoutOp.match(op)) {
      materializations.push(op);
    }
  });

  for (const op of plans) {
    const l = recorded.get(op);
    if (!l) continue;
    let operandsOk = true;
    l.operandLayouts.forEach((layout, k) => {
      const supplied = layoutOf(op.getOperand(k));
      if (supplied !== undefined && supplied !== layout) {
        fail(op, M.operandMismatch(k, layout, supplied));
        operandsOk = false;
      }
      if (layout === 'nhwc_row_strip' && !isRowStripType(op.getOperand(k))) fail(op, M.rowStripType(layout, formatType(op.getOperand(k).type)));
    });
    if (l.resultLayout === 'nhwc_row_strip' && !isRowStripType(op.getResult(0))) fail(op, M.rowStripType(l.resultLayout, formatType(op.getResult(0).type)));
    const allDense = l.resultLayout === 'dense_nchw' && l.operandLayouts.every((x) => x === 'dense_nchw');
    if (!allDense && operandsOk) {
      const combos = rowStripCombinations(op) ?? [];
      const combo = combos.find((c) => matches(c, l));
      if (!combo) fail(op, M.notAnAlternative(combinationText(l)));
      else if (combo.gate) {
        const verdict = combo.gate.check(op, config);
        if (!verdict.ok) fail(op, M.gateRefused(combinationText(l), combo.gate.name, verdict.reason));
      }
    }
  }

  for (const op of materializations) {
    const m = MaterializeLayoutOp.get(op);
    const source = m.sourcePhysicalLayout.value;
    const target = m.targetPhysicalLayout.value;
    const supplied = layoutOf(m.input);
    if (supplied !== undefined && supplied !== source) fail(op, M.materializeSource(source, supplied));
    if (source === target) fail(op, M.materializeIdentity(source));
    else if (!isSupportedLayoutConversion(source, target)) {
      fail(op, M.materializeUnsupported(source, target, SUPPORTED_LAYOUT_CONVERSIONS.map(([s, t]) => `${s} -> ${t}`).join(', ')));
    }
    if (m.input.type !== m.output.type) fail(op, M.materializeShape(formatType(m.input.type), formatType(m.output.type)));
    for (const l of [source, target]) if (l === 'nhwc_row_strip' && !isRowStripType(m.input)) fail(op, M.rowStripType(l, formatType(m.input.type)));
  }

  // Values produced by plans and materializations in a non-dense layout reach only ops that take it.
  for (const op of [...plans, ...materializations]) {
    const layout = layoutOf(op.getResult(0));
    if (layout === undefined || layout === 'dense_nchw') continue;
    for (let u = op.getResult(0).firstUse; u; u = u.nextUse) {
      if (isPlan(u.owner) || MaterializeLayoutOp.match(u.owner)) continue; // checked at the user
      fail(op, M.useOfNonDense(layout, u.owner.name));
    }
  }
  return ok;
}
