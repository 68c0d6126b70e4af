/**
 * The compute-structure ops of the `spat` dialect: `spat.graph_compute`,
 * `spat.graph_compute_batch`, `spat.in_parallel`, `spat.yield`, `spat.blueprint`,
 * `spat.materialize_layout`.
 */
import {
  Block,
  DenseArrayAttr,
  DenseI32ArrayAttr,
  DenseI64ArrayAttr,
  I32Attr,
  ParallelCombiningOpInterface,
  RankedTensorType,
  Region,
  RegionKindInterface,
  Traits,
  defineOp,
  formatType,
  implement,
  optProp,
  prop,
  single,
  sizedRegion,
  variadic,
  type AnyOpDefinition,
  type Attribute,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import {
  parseCompactFunctionType,
  parseCompactTypeList,
  printCompactFunctionType,
  printCompactTypeList,
} from '@raptor-pim/compact-asm';
import { AffineApplyOp, ParallelInsertSliceOp } from '@raptor-pim/upstream-dialects';
import { SpatMessages as M } from '../../diagnostics';
import {
  BlueprintModeConstraint,
  ConflictPolicyConstraint,
  CoveragePolicyConstraint,
  IndexMapConstraint,
  LogicalLayoutConstraint,
  PhysicalLayoutConstraint,
  parseEnumCase,
  type SpatEnumAttr,
} from '../attributes';
import { AnyShapedType, denseValues, elementTypeOf, intValue, requireSameElementType, requireTensor, shapeOf } from '../type-checks';
import { addParsedAttributes, setParsedProperty } from './elementwise';
import {
  computeOpInterface,
  isConstantLike,
  parseCompute,
  parseComputeBatch,
  printCompute,
  printComputeBatch,
  setComputeArgumentNames,
  setComputeBatchArgumentNames,
  verifyCaptures,
  verifyComputeArguments,
  verifyComputeBatch,
  verifyWeightsConstant,
} from './compute-structure';
import { ScheduledComputeBatchOp } from './scheduling';

const SEGMENTS = 'operandSegmentSizes';

export { countUsedWeights, isConstantLike } from './compute-structure';

// ------------------------------------------------------------------ spat.graph_compute

/**
 * `spat.graph_compute`: a logical compute node. Operands are weights then inputs
 * (`operandSegmentSizes`), bound to the body arguments in that order; `coreId` is an
 * optional placement; `crossbarWeights` is derived from the body when printing.
 */
export const GraphComputeOp = defineOp({
  name: 'spat.graph_compute',
  summary: 'Logical compute node',
  operands: { weights: variadic(), inputs: variadic() },
  results: { outputs: variadic() },
  attributes: { coreId: optProp(I32Attr) },
  regions: { body: { description: 'any region' } },
  interfaces: [
    computeOpInterface(false),
  ],
  parse: (p, state) => parseCompute(p, state, M),
  print: printCompute,
  getAsmBlockArgumentNames: setComputeArgumentNames,
  verify(view) {
    const op = view.op;
    if (!verifyComputeArguments(op, M)) return false;
    const region = op.regions[0]!;
    const weights = view.weights;
    const inputs = view.inputs;
    for (let b = region.firstBlock; b; b = b.next) {
      const last = b.lastOp;
      if (!last || !YieldOp.isInstance(last)) {
        if (region.firstBlock === region.lastBlock) {
          view.emitOpError(M.terminatorNotYield(last?.name ?? '<none>'));
          return false;
        }
        continue;
      }
      if (last.numOperands !== op.numResults) {
        view.emitOpError(M.yieldCount(last.numOperands, op.numResults));
        return false;
      }
      for (let k = 0; k < op.numResults; k++) {
        if (last.getOperand(k).type !== op.getResult(k).type) {
          view.emitOpError(M.yieldType(k, formatType(last.getOperand(k).type), formatType(op.getResult(k).type)));
          return false;
        }
      }
    }
    if (region.firstBlock === region.lastBlock) {
      const entry = region.firstBlock!;
      for (let k = 0; k < inputs.length; k++) {
        if (entry.arguments[weights.length + k]!.useEmpty) {
          view.emitOpError(M.unusedInput(k));
          return false;
        }
      }
    }
    return verifyWeightsConstant(op, weights, M) && verifyCaptures(op, M);
  },
});

// ------------------------------------------------------------------ spat.graph_compute_batch

/** Reads the static lists of a `tensor.parallel_insert_slice` (negative entries are dynamic). */
function insertLists(ins: Operation): { offsets: number[]; sizes: number[]; strides: number[]; dynOffsets: Value[] } {
  const seg = denseValues(ins.getAttr(SEGMENTS)) ?? [1, 1, 0, 0, 0];
  const slice = ParallelInsertSliceOp.get(ins);
  return {
    offsets: denseValues(slice.static_offsets) ?? [],
    sizes: denseValues(slice.static_sizes) ?? [],
    strides: denseValues(slice.static_strides) ?? [],
    dynOffsets: ins.operands.slice(2, 2 + (seg[2] ?? 0)),
  };
}

/** True when `v` is the lane, a constant, or an `affine.apply` of lanes and constants. */
function isLaneExpression(v: Value, lane: Value | undefined, depth = 0): boolean {
  if (v === lane) return true;
  const def = v.definingOp;
  if (isConstantLike(def)) return true;
  if (def && AffineApplyOp.isInstance(def) && depth < 8) return def.operands.every((o) => isLaneExpression(o, lane, depth + 1));
  return false;
}

/**
 * `spat.graph_compute_batch`: `laneCount` graph lanes running one body (arguments: lane,
 * weights, inputs, shared outputs). Each result is a fragment collection `[laneCount] +
 * shape(fragment)` filled by one `tensor.parallel_insert_slice` per lane.
 */
export const GraphComputeBatchOp = defineOp({
  name: 'spat.graph_compute_batch',
  summary: 'Logical batch with an SSA fragment collection',
  operands: { weights: variadic(), inputs: variadic() },
  results: { outputs: variadic() },
  attributes: { laneCount: prop(I32Attr), coreIds: optProp(DenseI32ArrayAttr) },
  regions: { body: { description: 'any region' } },
  interfaces: [
    computeOpInterface(true),
  ],
  parse: (p, state) => parseComputeBatch(p, state, M),
  print: printComputeBatch,
  getAsmBlockArgumentNames: setComputeBatchArgumentNames,
  verify: (view) => verifyComputeBatch(view.op, M) && verifyFragmentContract(view.op, Number(view.laneCount.value)),
});

/** The graph fragment contract: one publication per lane per result into `[slot, 0, ...]`. */
function verifyFragmentContract(op: Operation, laneCount: number): boolean {
  const entry = op.regions[0]!.firstBlock!;
  const nOut = op.numResults;
  if (!nOut) return true;
  const outArgs = entry.arguments.slice(entry.arguments.length - nOut);
  const term = entry.lastOp!;
  const inserts = term.regions[0]?.firstBlock ? [...opsOf(term.regions[0])] : [];
  for (let k = 0; k < nOut; k++) {
    const rt = op.getResult(k).type;
    const shape = shapeOf(rt);
    if (!(rt instanceof RankedTensorType) || !shape || shape.some((d) => d < 0) || shape[0] !== laneCount) {
      op.emitOpError(M.fragmentResultShape(k, formatType(rt), laneCount));
      return false;
    }
    const mine = inserts.filter((i) => ParallelInsertSliceOp.isInstance(i) && i.getOperand(1) === outArgs[k]);
    if (mine.length !== 1) {
      op.emitOpError(M.fragmentPublicationCount(k, mine.length));
      return false;
    }
    const ins = mine[0]!;
    const l = insertLists(ins);
    // Non-static sources, dynamic sizes and non-unit strides are reported by spat.in_parallel.
    if (!isStaticRanked(ins.getOperand(0).type) || l.sizes.some((d) => d < 0) || l.strides.some((d) => d !== 1)) continue;
    const fragment = shapeOf(ins.getOperand(0).type) ?? [];
    const fragShape = shape.slice(1);
    if (fragment.length !== fragShape.length || fragment.some((d, i) => d !== fragShape[i])) {
      op.emitOpError(M.fragmentPublication(k, `fragment type ${formatType(ins.getOperand(0).type)} does not match the slot shape [${fragShape.join(', ')}]`));
      return false;
    }
    if (l.sizes.length !== shape.length || l.sizes[0] !== 1 || l.sizes.slice(1).some((d, i) => d !== fragShape[i])) {
      op.emitOpError(M.fragmentPublication(k, `sizes must be [1, ${fragShape.join(', ')}]`));
      return false;
    }
    if (l.offsets.slice(1).some((o) => o !== 0)) {
      op.emitOpError(M.fragmentPublication(k, 'offsets must be [slot, 0, ...]'));
      return false;
    }
  }
  return true;
}

function isStaticRanked(t: Type): boolean {
  return t instanceof RankedTensorType && t.shape.every((d) => d >= 0);
}

function* opsOf(region: Region): Generator<Operation> {
  for (let o = region.firstBlock?.firstOp ?? null; o; o = o.next) yield o;
}

// ------------------------------------------------------------------ spat.in_parallel

/** The batch compute ops whose bodies end in `spat.in_parallel`. */
const isBatchParent = (op: Operation): boolean => GraphComputeBatchOp.isInstance(op) || ScheduledComputeBatchOp.isInstance(op);

/**
 * `spat.in_parallel { tensor.parallel_insert_slice ... }`: terminator of a resultful batch body
 * holding the lane publications (implements `ParallelCombiningOpInterface`).
 */
export const InParallelOp = defineOp({
  name: 'spat.in_parallel',
  summary: 'Publish lane fragments',
  regions: { region: sizedRegion(1) },
  traits: [Traits.Pure, Traits.IsTerminator, Traits.NoTerminator, Traits.HasOnlyGraphRegion],
  interfaces: [
    implement(ParallelCombiningOpInterface, { getRegion: (op) => op.regions[0]!, getYieldingOps: (op) => [...opsOf(op.regions[0]!)] }),
    implement(RegionKindInterface, { getRegionKind: () => 'graph' }),
  ],
  parse(p, state) {
    const region = new Region();
    if (!p.parseRegion(region, [])) return false;
    if (region.empty) region.push(new Block());
    state.regions = [region];
    const attrs = p.parseOptionalAttrDictWithKeyword();
    if (!attrs) return false;
    addParsedAttributes(state, attrs);
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printRegion(op.regions[0]!, false, false);
    p.printOptionalAttrDictWithKeyword(op.attributes);
  },
  verify(view) {
    const op = view.op;
    const parent = op.getParentOp();
    if (!parent || !isBatchParent(parent) || parent.numResults === 0) {
      view.emitOpError(M.inParallelParent(parent?.name ?? '<none>'));
      return false;
    }
    const entry = parent.regions[0]!.firstBlock!;
    const outArgs = entry.arguments.slice(entry.arguments.length - parent.numResults);
    const lane = entry.arguments[0];
    for (const ins of opsOf(op.regions[0]!)) {
      if (!ParallelInsertSliceOp.isInstance(ins)) {
        view.emitOpError(M.inParallelOp(ins.name));
        return false;
      }
      if (!outArgs.includes(ins.getOperand(1) as (typeof outArgs)[number])) {
        view.emitOpError(M.inParallelDest);
        return false;
      }
      const src = ins.getOperand(0).type;
      if (!(src instanceof RankedTensorType) || src.shape.some((d) => d < 0)) {
        view.emitOpError(M.inParallelStatic(`source type ${formatType(src)} is not static`));
        return false;
      }
      const l = insertLists(ins);
      if (l.sizes.some((d) => d < 0)) {
        view.emitOpError(M.inParallelStatic('sizes must be static'));
        return false;
      }
      if (l.strides.some((d) => d !== 1)) {
        view.emitOpError(M.inParallelStatic('strides must be 1'));
        return false;
      }
      for (let k = 0; k < l.dynOffsets.length; k++) {
        if (!isLaneExpression(l.dynOffsets[k]!, lane)) {
          view.emitOpError(M.inParallelOffset(k));
          return false;
        }
      }
      const lanes = intValue((GraphComputeBatchOp.match(parent) ?? ScheduledComputeBatchOp.get(parent)).laneCount) ?? 1;
      if (lanes > 1 && l.dynOffsets.length === 0) {
        view.emitOpError(M.inParallelSameDestination(lanes));
        return false;
      }
    }
    return true;
  },
});

// ------------------------------------------------------------------ spat.yield

const YIELD_PARENTS = new Set([
  'spat.graph_compute',
  'spat.graph_compute_batch',
  'spat.scheduled_compute',
  'spat.scheduled_compute_batch',
  'spat.deferred_communication',
]);

/** `spat.yield %v : T`: returns region values to the enclosing compute (or deferred) op. */
export const YieldOp = defineOp({
  name: 'spat.yield',
  summary: 'Return region values',
  operands: { outputs: variadic() },
  traits: [Traits.Pure, Traits.IsTerminator, Traits.ReturnLike],
  parse(p, state) {
    const operands = p.parseOperandList();
    if (!operands) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    // `spat.yield :` is the printed empty form; a bare `spat.yield` is accepted too.
    if (operands.length ? !p.parseColon() : (p.parseOptionalColon(), false)) return false;
    const loc = p.getCurrentLocation();
    const types: Type[] = [];
    if (operands.length) {
      const list = parseCompactTypeList(p, 'none');
      if (!list) return false;
      types.push(...list);
    }
    if (types.length !== operands.length) {
      p.emitError(M.typeCountMismatch('spat.yield', operands.length, types.length), loc);
      return false;
    }
    const resolved: Value[] = [];
    if (!p.resolveOperands(operands, types, resolved, loc)) return false;
    state.operands = resolved;
    addParsedAttributes(state, attrs);
    return true;
  },
  print(op, p) {
    if (op.numOperands) {
      p.print(' ');
      p.printOperands(op.operands);
    }
    p.printOptionalAttrDict(op.attributes);
    p.print(' :');
    if (op.numOperands) {
      p.print(' ');
      printCompactTypeList(p, op.operands.map((v) => v.type));
    }
  },
  verify(view) {
    const parent = view.op.getParentOp();
    if (!parent || !YIELD_PARENTS.has(parent.name)) {
      view.emitOpError(M.yieldParent(parent?.name ?? '<none>'));
      return false;
    }
    return true;
  },
});

// ------------------------------------------------------------------ spat.blueprint

/** The properties of `spat.blueprint` printed as keyword + value, in printed order. */
const BLUEPRINT_SCHEMA = [
  ['layout', 'logicalLayout', 'logical_layout'],
  ['physical', 'physicalLayout', 'physical_layout'],
  ['offsets', 'offsets', null],
  ['sizes', 'sizes', null],
  ['map', 'indexMap', 'index_map'],
  ['mode', 'mode', 'blueprint_mode'],
  ['operandIndices', 'operandIndices', null],
  ['sourceSlots', 'sourceSlots', null],
  ['sourceOffsets', 'sourceOffsets', null],
  ['strides', 'fragmentStrides', null],
  ['conflict', 'conflictPolicy', 'conflict_policy'],
  ['coverage', 'coveragePolicy', 'coverage_policy'],
] as const;
const OPTIONAL_BLUEPRINT_KEYS = new Set(['operandIndices', 'sourceSlots', 'sourceOffsets']);

function parseI64List(p: OpAsmParser): number[] | undefined {
  const out: number[] = [];
  const ok = p.parseCommaSeparatedList('square', () => {
    const v = p.parseInteger();
    if (v === undefined) return false;
    out.push(v);
    return true;
  });
  return ok ? out : undefined;
}

/**
 * `spat.blueprint fragments(%f) layout nchw physical fragmented offsets [...] sizes [...] map
 * explicit mode fragment_assembly operandIndices [...] sourceSlots [...] sourceOffsets [...]
 * strides [...] conflict disjoint coverage complete : (T) -> R`: maps fragment publications to
 * logical tensor regions.
 */
export const BlueprintOp = defineOp({
  name: 'spat.blueprint',
  summary: 'Describe logical reconstruction',
  operands: { fragments: variadic(AnyShapedType) },
  results: { output: single(AnyShapedType) },
  attributes: {
    logicalLayout: prop(LogicalLayoutConstraint),
    physicalLayout: prop(PhysicalLayoutConstraint),
    offsets: prop(DenseI64ArrayAttr),
    sizes: prop(DenseI64ArrayAttr),
    indexMap: prop(IndexMapConstraint),
    mode: prop(BlueprintModeConstraint),
    operandIndices: optProp(DenseI64ArrayAttr),
    sourceSlots: optProp(DenseI64ArrayAttr),
    sourceOffsets: optProp(DenseI64ArrayAttr),
    fragmentStrides: prop(DenseI64ArrayAttr),
    conflictPolicy: prop(ConflictPolicyConstraint),
    coveragePolicy: prop(CoveragePolicyConstraint),
  },
  traits: [Traits.Pure],
  parse(p, state) {
    if (!p.parseKeyword('fragments') || !p.parseLParen()) return false;
    const frags = p.parseOptionalRParen() ? [] : p.parseOperandList();
    if (!frags) return false;
    if (frags.length && !p.parseRParen()) return false;
    for (const [keyword, name, kind] of BLUEPRINT_SCHEMA) {
      if (OPTIONAL_BLUEPRINT_KEYS.has(name)) {
        if (p.parseOptionalKeyword(keyword) === null) continue;
      } else if (!p.parseKeyword(keyword)) return false;
      let value: Attribute | undefined;
      if (kind) value = parseEnumCase(p, kind);
      else {
        const list = parseI64List(p);
        value = list && DenseArrayAttr.i64(p.context, list);
      }
      if (!value) return false;
      setParsedProperty(state, name, value);
    }
    const attrs = p.parseOptionalAttrDict();
    if (!attrs || !p.parseColon()) return false;
    const loc = p.getCurrentLocation();
    const ft = parseCompactFunctionType(p);
    if (!ft) return false;
    if (ft.inputs.length !== frags.length || ft.results.length !== 1) {
      p.emitError(M.typeCountMismatch('spat.blueprint fragments', frags.length, ft.inputs.length), loc);
      return false;
    }
    const operands: Value[] = [];
    if (!p.resolveOperands(frags, ft.inputs, operands, loc)) return false;
    state.operands = operands;
    state.resultTypes = [...ft.results];
    addParsedAttributes(state, attrs);
    return true;
  },
  print(op, p) {
    p.print(' fragments(');
    p.printOperands(op.operands);
    p.print(')');
    for (const [keyword, name, kind] of BLUEPRINT_SCHEMA) {
      const a = op.getAttr(name);
      if (!a) continue;
      if (kind) p.print(` ${keyword} ${(a as SpatEnumAttr).value}`);
      else p.print(` ${keyword} [${(denseValues(a) ?? []).join(', ')}]`);
    }
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    printCompactFunctionType(p, op.operands.map((v) => v.type), op.resultTypes);
  },
  verify(view) {
    return verifyBlueprint(view.op);
  },
});

function verifyBlueprint(op: Operation): boolean {
  const view = BlueprintOp.get(op);
  const output = requireTensor(op, 'output', op.getResult(0).type, { isStatic: true });
  if (!output) return false;
  const rank = output.rank;
  const offsets = denseValues(view.offsets)!;
  const sizes = denseValues(view.sizes)!;
  const mode = (view.mode as SpatEnumAttr<'blueprint_mode'>).value;
  const strides = denseValues(view.fragmentStrides)!;
  const hasMeta = [view.operandIndices, view.sourceSlots, view.sourceOffsets].some((a) => a !== undefined);
  if (mode === 'physical_view') {
    if (op.numOperands !== 1) {
      op.emitOpError(M.blueprintViewOperands(op.numOperands));
      return false;
    }
    const input = requireTensor(op, 'fragment collection', op.getOperand(0).type, { isStatic: true });
    if (!input) return false;
    if (input.rank !== rank + 1) {
      op.emitOpError(M.blueprintViewRank(formatType(input), formatType(output)));
      return false;
    }
    if (!requireSameElementType(op, 'fragment collection', input, output, 'the output')) return false;
    if (offsets.length || sizes.length) {
      op.emitOpError(M.blueprintViewGeometry);
      return false;
    }
    if (hasMeta) {
      op.emitOpError(M.blueprintViewMetadata);
      return false;
    }
    return true;
  }
  // fragment_assembly
  if (rank === 0 || offsets.length !== sizes.length || offsets.length % rank !== 0) {
    op.emitOpError(M.blueprintGeometryLength(offsets.length, sizes.length, rank));
    return false;
  }
  const n = offsets.length / rank;
  for (let k = 0; k < n; k++) {
    const o = offsets.slice(k * rank, (k + 1) * rank);
    const s = sizes.slice(k * rank, (k + 1) * rank);
    if (o.some((v) => v < 0) || s.some((v) => v <= 0)) {
      op.emitOpError(M.blueprintSliceNegative(k));
      return false;
    }
    if (o.some((v, d) => v + s[d]! > output.shape[d]!)) {
      op.emitOpError(M.blueprintSliceBounds(k, o, s, output.shape));
      return false;
    }
  }
  const frags: RankedTensorType[] = [];
  for (let k = 0; k < op.numOperands; k++) {
    const t = op.getOperand(k).type;
    if (!(t instanceof RankedTensorType) || t.shape.some((d) => d < 0) || t.rank !== rank + 1) {
      op.emitOpError(M.blueprintFragmentRank(k, formatType(t), rank + 1));
      return false;
    }
    if (elementTypeOf(t) !== output.elementType) {
      op.emitOpError(M.blueprintElementType(k, formatType(elementTypeOf(t)), formatType(output.elementType)));
      return false;
    }
    frags.push(t);
  }
  const indices = denseValues(view.operandIndices);
  const slots = denseValues(view.sourceSlots);
  const srcOffsets = denseValues(view.sourceOffsets);
  if (!indices || !slots || !srcOffsets) {
    op.emitOpError(M.blueprintMetadataMissing);
    return false;
  }
  for (const [name, list] of [['operandIndices', indices], ['sourceSlots', slots], ['sourceOffsets', srcOffsets]] as const) {
    if (list.length !== n) {
      op.emitOpError(M.blueprintMetadataLength(name, list.length, n));
      return false;
    }
  }
  const used = new Set<number>();
  for (let k = 0; k < n; k++) {
    const i = indices[k]!;
    if (i < 0 || i >= frags.length) {
      op.emitOpError(M.blueprintOperandIndex(k, i, frags.length));
      return false;
    }
    used.add(i);
    const f = frags[i]!;
    if (slots[k]! < 0 || slots[k]! >= f.shape[0]!) {
      op.emitOpError(M.blueprintSourceSlot(k, slots[k]!, f.shape[0]!));
      return false;
    }
    if (srcOffsets[k]! < 0) {
      op.emitOpError(M.blueprintSourceOffset(k, srcOffsets[k]!));
      return false;
    }
    const slotElems = f.shape.slice(1).reduce((a, b) => a * b, 1);
    const count = sizes.slice(k * rank, (k + 1) * rank).reduce((a, b) => a * b, 1);
    if (srcOffsets[k]! + count > slotElems) {
      op.emitOpError(M.blueprintSourceFit(k, srcOffsets[k]!, count, slotElems));
      return false;
    }
  }
  for (let k = 0; k < frags.length; k++) {
    if (!used.has(k)) {
      op.emitOpError(M.blueprintUnusedOperand(k));
      return false;
    }
  }
  if (strides.length !== offsets.length) {
    op.emitOpError(M.blueprintStridesLength(strides.length, offsets.length));
    return false;
  }
  if (strides.some((s) => s !== 1)) {
    op.emitOpError(M.blueprintStrides(strides));
    return false;
  }
  const conflict = (view.conflictPolicy as SpatEnumAttr<'conflict_policy'>).value;
  if (conflict !== 'disjoint') {
    op.emitOpError(M.blueprintConflict(conflict));
    return false;
  }
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let overlap = true;
      for (let d = 0; d < rank && overlap; d++) {
        const a0 = offsets[a * rank + d]!;
        const a1 = a0 + sizes[a * rank + d]!;
        const b0 = offsets[b * rank + d]!;
        const b1 = b0 + sizes[b * rank + d]!;
        if (a1 <= b0 || b1 <= a0) overlap = false;
      }
      if (overlap) {
        op.emitOpError(M.blueprintOverlap(a, b));
        return false;
      }
    }
  }
  const coverage = (view.coveragePolicy as SpatEnumAttr<'coverage_policy'>).value;
  const total = output.shape.reduce((x, y) => x * y, 1);
  let covered = 0;
  for (let k = 0; k < n; k++) covered += sizes.slice(k * rank, (k + 1) * rank).reduce((x, y) => x * y, 1);
  if (coverage === 'complete' && covered !== total) {
    op.emitOpError(M.blueprintIncomplete(covered, total));
    return false;
  }
  const indexMap = (view.indexMap as SpatEnumAttr<'index_map'>).value;
  if (indexMap === 'contiguous_row_major' && !isCanonicalRowMajor(offsets, sizes, rank, output.shape, indices, slots, srcOffsets)) {
    op.emitOpError(M.blueprintRowMajor);
    return false;
  }
  return true;
}

/** Slices in row-major order tile the output; slice k reads operand 0 slot k from offset 0. */
function isCanonicalRowMajor(
  offsets: readonly number[],
  _sizes: readonly number[],
  rank: number,
  shape: readonly number[],
  indices: readonly number[],
  slots: readonly number[],
  srcOffsets: readonly number[],
): boolean {
  const n = offsets.length / rank;
  let prev = -1;
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  for (let k = 0; k < n; k++) {
    const linear = offsets.slice(k * rank, (k + 1) * rank).reduce((acc, o, d) => acc + o * strides[d]!, 0);
    if (linear <= prev || slots[k] !== k || indices[k] !== 0 || srcOffsets[k] !== 0) return false;
    prev = linear;
  }
  return true;
}

// ------------------------------------------------------------------ spat.materialize_layout

/** `spat.materialize_layout`: converts physical storage while preserving logical values. */
export const MaterializeLayoutOp = defineOp({
  name: 'spat.materialize_layout',
  summary: 'Convert a physical layout',
  operands: { input: single() },
  results: { output: single() },
  attributes: {
    sourcePhysicalLayout: prop(PhysicalLayoutConstraint),
    targetPhysicalLayout: prop(PhysicalLayoutConstraint),
    logicalLayout: prop(LogicalLayoutConstraint),
  },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    const input = requireTensor(op, 'input', view.input.type);
    if (!input) return false;
    const output = requireTensor(op, 'output', view.output.type);
    if (!output) return false;
    return requireSameElementType(op, 'output', output, input, 'the input');
  },
});

/** The compute-structure ops, in reference order. */
export const COMPUTE_OPS: readonly AnyOpDefinition[] = [BlueprintOp, GraphComputeOp, GraphComputeBatchOp, InParallelOp, MaterializeLayoutOp, YieldOp];

void printCompactTypeList;
void (null as unknown as OpAsmPrinter);
void (null as unknown as OperationState);
