/**
 * `scf.forall` and its terminator `scf.forall.in_parallel`: a parallel loop nest whose lanes
 * publish slices of shared outputs through `tensor.parallel_insert_slice`.
 */
import {
  ArrayAttr,
  attrConstraint,
  Block,
  DenseI64ArrayAttr,
  defineOp,
  DYNAMIC,
  formatType,
  implement,
  Index,
  IndexType,
  Operation,
  optProp,
  ParallelCombiningOpInterface,
  prop,
  RankedTensorType,
  Region,
  RegionKindInterface,

  sizedRegion,
  Traits,
  typeConstraint,
  variadic,
  type OpAsmArgument,
  type OperationState,
  type Type,
  type UnresolvedOperand,
  type Value,
} from '@raptor-pim/ir-core';
import {
  addAttributes,
  parseAttrDictInto,
  parseDynamicIndexList,
  printAttrDict,
  readStaticArray,
  resolveIndices,
  setSegments,
  staticArray,
  type DynamicIndexList,
} from '../../memref/asm';
import { ParallelInsertionOpInterface } from '../../tensor/interfaces';
import { ScfMessages as M } from '../diagnostics';
import { parseAssignmentList, printInitializationList } from './control';

const RankedTensorC = typeConstraint('ranked tensor of any type values', (t) => t instanceof RankedTensorType);

/**
 * `DeviceMappingArrayAttr`: an array of device mapping attributes. No dialect registered here
 * defines one (gpu does in MLIR), so only the empty array satisfies it.
 */
export const DeviceMappingArrayAttr = attrConstraint(
  'Device Mapping array attribute',
  (a): a is ArrayAttr => a instanceof ArrayAttr && a.elements.length === 0,
);

/** The `scf.forall` loop bounds with {@link DYNAMIC} for dynamic entries. */
export interface ForallBounds {
  readonly lowerBound: readonly number[];
  readonly upperBound: readonly number[];
  readonly step: readonly number[];
}

/** Reads the static bounds of an `scf.forall`. */
export function readForallBounds(op: Operation): ForallBounds {
  const forall = ForallOp.match(op);
  return {
    lowerBound: readStaticArray(forall?.staticLowerBound),
    upperBound: readStaticArray(forall?.staticUpperBound),
    step: readStaticArray(forall?.staticStep),
  };
}

/** The operand group sizes of an `scf.forall`: dynamic lb, ub, step, outputs. */
export function forallSegments(op: Operation): number[] {
  const def = op.definition!;
  return [0, 1, 2, 3].map((i) => def.getOperandGroupRange(op, i)?.[1] ?? 0);
}

function verifyList(op: Operation, name: string, n: number, statics: readonly number[], dynamics: number): boolean {
  if (statics.length !== n) {
    op.emitError(M.forallListCount(n, name, statics.length));
    return false;
  }
  const dyn = statics.filter((v) => v === DYNAMIC).length;
  if (dyn !== dynamics) {
    op.emitError(M.forallDynamicCount(dyn, name));
    return false;
  }
  return true;
}

function ensureInParallel(region: Region, state: OperationState): void {
  if (region.empty) region.push(new Block());
  const block = region.firstBlock!;
  const last = block.lastOp;
  if (!last || !InParallelOp.isInstance(last)) {
    const term = Operation.create({ context: state.context, name: 'scf.forall.in_parallel', location: state.location, regions: 1 });
    term.regions[0]!.push(new Block());
    block.push(term);
  }
}

/** `scf.forall`: runs its body once per point of the iteration space, lanes in any order. */
export const ForallOp = defineOp({
  name: 'scf.forall',
  summary: 'evaluate a block multiple times in parallel',
  operands: {
    dynamicLowerBound: variadic(Index),
    dynamicUpperBound: variadic(Index),
    dynamicStep: variadic(Index),
    outputs: variadic(RankedTensorC),
  },
  results: { results: variadic(RankedTensorC) },
  attributes: {
    staticLowerBound: prop(DenseI64ArrayAttr),
    staticUpperBound: prop(DenseI64ArrayAttr),
    staticStep: prop(DenseI64ArrayAttr),
    mapping: optProp(DeviceMappingArrayAttr),
  },
  regions: { region: sizedRegion(1) },
  traits: [Traits.AutomaticAllocationScope, Traits.RecursiveMemoryEffects, Traits.SingleBlockImplicitTerminator('scf.forall.in_parallel')],
  verify(view) {
    const op = view.op;
    const bounds = readForallBounds(op);
    const rank = bounds.lowerBound.length;
    const outputs = view.outputs;
    if (op.numResults !== outputs.length) {
      op.emitOpError(M.forallResultCount(op.numResults, outputs.length));
      return false;
    }
    // DestinationStyleOpInterface (verified before the op's own verifier in MLIR).
    const seg0 = forallSegments(op);
    for (let i = 0; i < outputs.length; i++)
      if (op.resultTypes[i] !== outputs[i]!.type) {
        const n = seg0[0]! + seg0[1]! + seg0[2]! + i;
        op.emitOpError(M.dpsResultType(n, formatType(outputs[i]!.type), formatType(op.resultTypes[i]!)));
        return false;
      }
    const block = view.region.firstBlock;
    if (block) {
      if (block.numArguments !== rank + outputs.length) {
        op.emitOpError(M.forallRegionArgs(rank));
        return false;
      }
      for (let i = 0; i < rank; i++)
        if (!(block.getArgument(i).type instanceof IndexType)) {
          op.emitOpError(M.forallIndexArg(i));
          return false;
        }
      for (let i = 0; i < outputs.length; i++)
        if (block.getArgument(rank + i).type !== outputs[i]!.type) {
          op.emitOpError(M.forallOutputType(i));
          return false;
        }
    }
    const seg = seg0;
    return (
      verifyList(op, 'lower bound', rank, bounds.lowerBound, seg[0]!) &&
      verifyList(op, 'upper bound', rank, bounds.upperBound, seg[1]!) &&
      verifyList(op, 'step', rank, bounds.step, seg[2]!)
    );
  },
  parse(parser, state) {
    const ivs = parser.parseArgumentList('paren', false);
    if (!ivs) return false;
    const index = IndexType.get(state.context);
    let lb: DynamicIndexList;
    let ub: DynamicIndexList | undefined;
    let step: DynamicIndexList;
    if (parser.parseOptionalKeyword('in')) {
      ub = parseDynamicIndexList(parser, 'paren');
      if (!ub) return false;
      lb = { operands: [], statics: ub.statics.map(() => 0) };
      step = { operands: [], statics: ub.statics.map(() => 1) };
    } else {
      if (!parser.parseEqual()) return false;
      const l = parseDynamicIndexList(parser, 'paren');
      if (!l || !parser.parseKeyword('to')) return false;
      ub = parseDynamicIndexList(parser, 'paren');
      if (!ub || !parser.parseKeyword('step')) return false;
      const s = parseDynamicIndexList(parser, 'paren');
      if (!s) return false;
      lb = l;
      step = s;
    }
    const outArgs: OpAsmArgument[] = [];
    const outOperands: UnresolvedOperand[] = [];
    let types: Type[] = [];
    if (parser.parseOptionalKeyword('shared_outs')) {
      if (!parseAssignmentList(parser, outArgs, outOperands)) return false;
      const t = parser.parseArrowTypeList();
      if (!t) return false;
      types = t;
    }
    for (const iv of ivs) iv.type = index;
    outArgs.forEach((a, i) => (a.type = types[i]));
    const region = new Region();
    if (!parser.parseRegion(region, [...ivs, ...outArgs])) return false;
    ensureInParallel(region, state);
    state.regions = [region];
    if (!parseAttrDictInto(parser, state)) return false;
    const vals: Value[] = [];
    if (
      !resolveIndices(parser, lb.operands, vals) ||
      !resolveIndices(parser, ub.operands, vals) ||
      !resolveIndices(parser, step.operands, vals) ||
      !parser.resolveOperands(outOperands, types, vals)
    )
      return false;
    state.operands = vals;
    state.resultTypes = types;
    addAttributes(
      state,
      [
        { name: 'staticLowerBound', value: staticArray(state.context, lb.statics) },
        { name: 'staticUpperBound', value: staticArray(state.context, ub.statics) },
        { name: 'staticStep', value: staticArray(state.context, step.statics) },
      ],
      ['staticLowerBound', 'staticUpperBound', 'staticStep', 'mapping'],
    );
    setSegments(state, [lb.operands.length, ub.operands.length, step.operands.length, outOperands.length]);
    return true;
  },
  print(op, p) {
    const block = op.regions[0]!.firstBlock!;
    const bounds = readForallBounds(op);
    const rank = bounds.lowerBound.length;
    const seg = forallSegments(op);
    const dl = op.operands.slice(0, seg[0]);
    const du = op.operands.slice(seg[0], seg[0]! + seg[1]!);
    const ds = op.operands.slice(seg[0]! + seg[1]!, seg[0]! + seg[1]! + seg[2]!);
    const outputs = op.operands.slice(seg[0]! + seg[1]! + seg[2]!);
    p.print(' (');
    p.printOperands(block.arguments.slice(0, rank));
    p.print(')');
    const normalized = bounds.lowerBound.every((v) => v === 0) && bounds.step.every((v) => v === 1);
    const list = (statics: readonly number[], dyn: readonly Value[]) => {
      p.print('(');
      let d = 0;
      statics.forEach((v, i) => {
        if (i) p.print(', ');
        if (v === DYNAMIC) p.printOperand(dyn[d++]!);
        else p.print(String(v));
      });
      p.print(')');
    };
    if (normalized) {
      p.print(' in ');
      list(bounds.upperBound, du);
    } else {
      p.print(' = ');
      list(bounds.lowerBound, dl);
      p.print(' to ');
      list(bounds.upperBound, du);
      p.print(' step ');
      list(bounds.step, ds);
    }
    printInitializationList(p, 'shared_outs', block.arguments.slice(rank), outputs);
    if (op.numResults) {
      p.print(' -> (');
      p.printTypes(op.resultTypes);
      p.print(')');
    }
    p.print(' ');
    p.printRegion(op.regions[0]!, false, op.numResults > 0);
    printAttrDict(p, op, ['staticLowerBound', 'staticUpperBound', 'staticStep']);
  },
});

/**
 * `scf.forall.in_parallel`: the terminator of `scf.forall`, holding the lanes' publications
 * (ops implementing the parallel-insertion interface, e.g. `tensor.parallel_insert_slice`).
 * Implements ir-core's `ParallelCombiningOpInterface`.
 */
export const InParallelOp = defineOp({
  name: 'scf.forall.in_parallel',
  summary: 'terminates a `forall` block',
  regions: { region: sizedRegion(1) },
  traits: [Traits.Pure, Traits.HasParent('scf.forall'), Traits.IsTerminator, Traits.NoTerminator, Traits.HasOnlyGraphRegion],
  interfaces: [
    implement(ParallelCombiningOpInterface, {
      getRegion: (op) => op.regions[0]!,
      getYieldingOps: (op) => {
        const out: Operation[] = [];
        for (let o = op.regions[0]!.firstBlock?.firstOp ?? null; o; o = o.next) out.push(o);
        return out;
      },
    }),
    implement(RegionKindInterface, { getRegionKind: () => 'graph' }),
  ],
  verify(view) {
    const op = view.op;
    const forall = op.getParentOp();
    const block = view.region.firstBlock;
    if (!forall || !block) return true;
    const fb = forall.regions[0]!.firstBlock!;
    const rank = readForallBounds(forall).lowerBound.length;
    const outArgs = fb.arguments.slice(rank);
    for (let o = block.firstOp; o; o = o.next) {
      const impl = o.getInterface(ParallelInsertionOpInterface);
      if (!impl) {
        op.emitOpError(M.inParallelOnlyCombining);
        return false;
      }
      for (const d of impl.getUpdatedDestinations(o))
        if (!outArgs.includes(d as (typeof outArgs)[number])) {
          o.emitOpError(M.inParallelDestination);
          return false;
        }
    }
    return true;
  },
  parse(parser, state) {
    const region = new Region();
    if (!parser.parseRegion(region, [])) return false;
    if (region.empty) region.push(new Block());
    state.regions = [region];
    return parseAttrDictInto(parser, state);
  },
  print(op, p) {
    p.print(' ');
    p.printRegion(op.regions[0]!, false, false);
    printAttrDict(p, op);
  },
});

