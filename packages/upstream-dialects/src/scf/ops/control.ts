/** `scf.yield`, `scf.if` and `scf.for`, with MLIR 22's custom assembly and verifiers. */
import {
  AnySignlessIntegerOrIndex,
  AnyType,
  Block,
  defineOp,
  formatType,
  I1,
  IndexType,
  IntegerType,
  Operation,
  Region,
  single,
  sizedRegion,
  Traits,
  variadic,
  type OpAsmArgument,
  type OpAsmParser,
  type OpAsmPrinter,
  type OperationState,
  type Type,
  type UnresolvedOperand,
  type Value,
} from '@raptor-pim/ir-core';
import { parseAttrDictInto, printAttrDict, printTerminatorOperands } from '../../memref/asm';
import { ScfMessages as M } from '../diagnostics';

/** Appends `scf.yield` to the single block of `region` when it has no terminator (creating the block). */
export function ensureYield(region: Region, state: OperationState): void {
  if (region.empty) region.push(new Block());
  const block = region.firstBlock!;
  const last = block.lastOp;
  if (!last || !last.hasTrait(Traits.IsTerminator)) {
    block.push(Operation.create({ context: state.context, name: 'scf.yield', location: state.location }));
  }
}

const YIELD_PARENTS = ['scf.execute_region', 'scf.for', 'scf.if', 'scf.index_switch', 'scf.while'];

/** `scf.yield`: ends an scf region, passing values to the parent. */
export const YieldOp = defineOp({
  name: 'scf.yield',
  summary: 'loop yield and termination operation',
  operands: { results: variadic(AnyType) },
  traits: [
    Traits.Pure,
    Traits.ReturnLike,
    Traits.IsTerminator,
    // ir-core's HasParent quotes each name ('a', 'b'); MLIR 22 quotes the list once ('a, b').
    {
      kind: 'HasParent',
      verify(op: Operation) {
        const p = op.getParentOp();
        if (p && YIELD_PARENTS.includes(p.name)) return true;
        op.emitOpError(M.yieldParent(YIELD_PARENTS));
        return false;
      },
    },
  ],
  parse(parser, state) {
    if (!parseAttrDictInto(parser, state)) return false;
    const operands: UnresolvedOperand[] = [];
    const first = parser.parseOptionalOperand();
    if (first === undefined) return false;
    if (first !== null) {
      operands.push(first);
      while (parser.parseOptionalComma()) {
        const o = parser.parseOperand();
        if (!o) return false;
        operands.push(o);
      }
      const types = parser.parseColonTypeList();
      if (!types) return false;
      const vals: Value[] = [];
      if (!parser.resolveOperands(operands, types, vals, parser.getNameLocation())) return false;
      state.operands = vals;
    }
    return true;
  },
  print(op, p) {
    printTerminatorOperands(p, op);
  },
});

/** Checks the values `term` yields against `targets` (MLIR's region-branch type check). */
export function verifyYieldTo(parent: Operation, term: Operation | null, targets: readonly Type[], to: string): boolean {
  if (!term || !YieldOp.isInstance(term)) return true;
  const from = `Operation ${term.name}`;
  if (term.numOperands !== targets.length) {
    parent.emitOpError(M.branchCount(from, to, term.numOperands, targets.length)).attachNote(M.branchPointNote, term.location);
    return false;
  }
  for (let i = 0; i < targets.length; i++) {
    const got = term.getOperand(i).type;
    if (got !== targets[i]) {
      parent.emitOpError(M.branchType(from, to, i, formatType(got), formatType(targets[i]!))).attachNote(M.branchPointNote, term.location);
      return false;
    }
  }
  return true;
}

/** `scf.if`: runs the then or the else region; values come from their `scf.yield`s. */
export const IfOp = defineOp({
  name: 'scf.if',
  summary: 'if-then-else operation',
  operands: { condition: single(I1) },
  results: { results: variadic(AnyType) },
  regions: { thenRegion: sizedRegion(1), elseRegion: { description: 'region with at most 1 blocks' } },
  traits: [Traits.RecursiveMemoryEffects, Traits.NoRegionArguments, Traits.SingleBlockImplicitTerminator('scf.yield')],
  verify(view) {
    if (view.op.numResults !== 0 && view.elseRegion.empty) {
      view.emitOpError(M.ifNeedsElse);
      return false;
    }
    return true;
  },
  verifyRegions(view) {
    const types = view.op.resultTypes;
    for (const r of [view.thenRegion, view.elseRegion]) {
      if (!verifyYieldTo(view.op, r.firstBlock?.lastOp ?? null, types, 'parent')) return false;
    }
    return true;
  },
  parse(parser, state) {
    const cond = parser.parseOperand();
    if (!cond) return false;
    const types = parser.parseOptionalArrowTypeList();
    if (!types) return false;
    state.resultTypes = types;
    const thenRegion = new Region();
    const elseRegion = new Region();
    if (!parser.parseRegion(thenRegion, [])) return false;
    ensureYield(thenRegion, state);
    if (parser.parseOptionalKeyword('else')) {
      if (!parser.parseRegion(elseRegion, [])) return false;
      ensureYield(elseRegion, state);
    }
    state.regions = [thenRegion, elseRegion];
    if (!parseAttrDictInto(parser, state)) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(cond, I1Type(parser), vals)) return false;
    state.operands = vals;
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    if (op.numResults) {
      p.print(' -> (');
      p.printTypes(op.resultTypes);
      p.print(')');
    }
    const printTerminators = op.numResults > 0;
    p.print(' ');
    p.printRegion(op.regions[0]!, false, printTerminators);
    if (!op.regions[1]!.empty) {
      p.print(' else ');
      p.printRegion(op.regions[1]!, false, printTerminators);
    }
    printAttrDict(p, op);
  },
});

function I1Type(parser: OpAsmParser): Type {
  return IntegerType.get(parser.context, 1);
}

/** Parses `(%a = %x, %b = %y)` (MLIR's `parseAssignmentList`). */
export function parseAssignmentList(parser: OpAsmParser, args: OpAsmArgument[], operands: UnresolvedOperand[]): boolean {
  return parser.parseCommaSeparatedList('paren', () => {
    const a = parser.parseArgument(false);
    if (!a || !parser.parseEqual()) return false;
    const o = parser.parseOperand();
    if (!o) return false;
    args.push(a);
    operands.push(o);
    return true;
  });
}

/** Prints ` <keyword>(%a = %x, ...)` when `args` is not empty (MLIR's `printInitializationList`). */
export function printInitializationList(p: OpAsmPrinter, keyword: string, args: readonly Value[], inits: readonly Value[]): void {
  if (args.length === 0) return;
  p.print(' ' + keyword + '(');
  args.forEach((a, i) => {
    if (i) p.print(', ');
    p.printOperand(a);
    p.print(' = ');
    p.printOperand(inits[i]!);
  });
  p.print(')');
}

/** `scf.for`: a sequential loop `lb <= iv < ub` by `step`, carrying `iter_args` between iterations. */
export const ForOp = defineOp({
  name: 'scf.for',
  summary: 'for operation',
  operands: {
    lowerBound: single(AnySignlessIntegerOrIndex),
    upperBound: single(AnySignlessIntegerOrIndex),
    step: single(AnySignlessIntegerOrIndex),
    initArgs: variadic(AnyType),
  },
  results: { results: variadic(AnyType) },
  regions: { region: sizedRegion(1) },
  traits: [Traits.AutomaticAllocationScope, Traits.RecursiveMemoryEffects, Traits.SingleBlockImplicitTerminator('scf.yield')],
  verify(view) {
    const op = view.op;
    const lb = view.lowerBound.type;
    if (view.upperBound.type !== lb || view.step.type !== lb) {
      op.emitOpError(M.boundsSameType);
      return false;
    }
    // MLIR's LoopLikeOpInterface verifier.
    const block = view.region.firstBlock;
    if (!block) return true;
    const iterArgs = block.arguments.slice(1);
    const inits = view.initArgs;
    if (inits.length !== iterArgs.length) {
      op.emitOpError(M.initsVsIterArgs(inits.length, iterArgs.length));
      return false;
    }
    const term = block.lastOp;
    const yielded = term && YieldOp.isInstance(term) ? term.operands : [];
    if (yielded.length && yielded.length !== iterArgs.length) {
      op.emitOpError(M.iterArgsVsYielded(iterArgs.length, yielded.length));
      return false;
    }
    if (op.numResults !== iterArgs.length) {
      op.emitOpError(M.resultsVsIterArgs);
      return false;
    }
    for (let i = 0; i < inits.length; i++) {
      const a = iterArgs[i]!.type;
      if (inits[i]!.type !== a) {
        op.emitOpError(M.initVsIterArgType(i, formatType(inits[i]!.type), formatType(a)));
        return false;
      }
      if (yielded.length && yielded[i]!.type !== a) {
        op.emitOpError(M.iterArgVsYieldType(i, formatType(a), formatType(yielded[i]!.type)));
        return false;
      }
    }
    for (let i = 0; i < iterArgs.length; i++) {
      if (iterArgs[i]!.type !== op.resultTypes[i]) {
        op.emitOpError(M.iterArgVsResultType(i, formatType(iterArgs[i]!.type), formatType(op.resultTypes[i]!)));
        return false;
      }
    }
    return true;
  },
  verifyRegions(view) {
    const op = view.op;
    const block = view.region.firstBlock;
    if (!block) return true;
    if (block.numArguments === 0) {
      op.emitOpError(M.forBodyArgs);
      return false;
    }
    if (block.getArgument(0).type !== view.lowerBound.type) {
      op.emitOpError(M.inductionVarType);
      return false;
    }
    const iterTypes = block.arguments.slice(1).map((a) => a.type);
    return verifyYieldTo(op, block.lastOp, iterTypes, 'Region #0') && verifyYieldTo(op, block.lastOp, op.resultTypes, 'parent');
  },
  parse(parser, state) {
    const iv = parser.parseArgument(false);
    if (!iv || !parser.parseEqual()) return false;
    const lb = parser.parseOperand();
    if (!lb || !parser.parseKeyword('to')) return false;
    const ub = parser.parseOperand();
    if (!ub || !parser.parseKeyword('step')) return false;
    const step = parser.parseOperand();
    if (!step) return false;
    const args: OpAsmArgument[] = [];
    const inits: UnresolvedOperand[] = [];
    let types: Type[] = [];
    if (parser.parseOptionalKeyword('iter_args')) {
      if (!parseAssignmentList(parser, args, inits)) return false;
      const t = parser.parseArrowTypeList();
      if (!t) return false;
      types = t;
      if (types.length !== args.length) {
        parser.emitError(`custom op '${state.name}' ` + M.resultsVsIterArgs);
        return false;
      }
    }
    let ivType: Type = IndexType.get(state.context);
    if (parser.parseOptionalColon()) {
      const t = parser.parseType();
      if (!t) return false;
      ivType = t;
    }
    iv.type = ivType;
    args.forEach((a, i) => (a.type = types[i]));
    const region = new Region();
    if (!parser.parseRegion(region, [iv, ...args])) return false;
    ensureYield(region, state);
    state.regions = [region];
    if (!parseAttrDictInto(parser, state)) return false;
    const vals: Value[] = [];
    if (
      !parser.resolveOperand(lb, ivType, vals) ||
      !parser.resolveOperand(ub, ivType, vals) ||
      !parser.resolveOperand(step, ivType, vals) ||
      !parser.resolveOperands(inits, types, vals)
    )
      return false;
    state.operands = vals;
    state.resultTypes = types;
    return true;
  },
  print(op, p) {
    const block = op.regions[0]!.firstBlock!;
    p.print(' ');
    p.printOperand(block.getArgument(0));
    p.print(' = ');
    p.printOperand(op.getOperand(0));
    p.print(' to ');
    p.printOperand(op.getOperand(1));
    p.print(' step ');
    p.printOperand(op.getOperand(2));
    const inits = op.operands.slice(3);
    printInitializationList(p, 'iter_args', block.arguments.slice(1), inits);
    if (inits.length) {
      p.print(' -> (');
      p.printTypes(inits.map((v) => v.type));
      p.print(')');
    }
    p.print(' ');
    const ivType = block.getArgument(0).type;
    if (!(ivType instanceof IndexType)) {
      p.print(' : ');
      p.printType(ivType);
      p.print(' ');
    }
    p.printRegion(op.regions[0]!, false, inits.length > 0);
    printAttrDict(p, op);
  },
});
