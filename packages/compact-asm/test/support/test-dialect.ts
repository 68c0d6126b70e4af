// A small dialect whose custom assembly uses every compact-asm helper (test only).
import {
  DenseArrayAttr,
  IntegerAttr,
  IntegerType,
  MLIRContext,
  Region,
  defineDialect,
  defineOp,
  variadic,
  type Value,
} from '@raptor-pim/ir-core';
import {
  parseBindingLists,
  parseBindingTypes,
  parseCompactFunctionType,
  parseIntegerRangeList,
  parseLaneRange,
  parseOptionalSharedOuts,
  printBindingLists,
  printBindingTypes,
  printCompactFunctionType,
  printIntegerRangeList,
  printLaneRange,
  printSharedOuts,
  resolveBindings,
  setComputeBlockArgumentNames,
} from '../../src';

/** `%r:2 = cat.types %a, %b : (T x2) -> U x2` */
export const TypesOp = defineOp({
  name: 'cat.types',
  operands: { inputs: variadic() },
  results: { outputs: variadic() },
  parse(p, state) {
    const ops = p.parseOperandList();
    if (!ops || !p.parseColon()) return false;
    const fn = parseCompactFunctionType(p);
    if (!fn) return false;
    const values: Value[] = [];
    if (!p.resolveOperands(ops, fn.inputs, values, p.getNameLocation())) return false;
    state.operands = values;
    state.resultTypes = fn.results;
    return true;
  },
  print(op, p) {
    if (op.numOperands) {
      p.print(' ');
      p.printOperands(op.operands);
    }
    p.print(' : ');
    printCompactFunctionType(p, op.operands.map((v) => v.type), op.resultTypes);
  },
});

/** `cat.cores [0 to 3, 8]` (property `coreIds`, dense i32 array). */
export const CoresOp = defineOp({
  name: 'cat.cores',
  parse(p, state) {
    const ids = parseIntegerRangeList(p);
    if (!ids) return false;
    state.properties = { coreIds: DenseArrayAttr.i32(p.context, ids) };
    return true;
  },
  print(op, p) {
    const a = op.getAttr('coreIds') as DenseArrayAttr;
    p.print(' ');
    printIntegerRangeList(p, (a.values as readonly bigint[]).map((v) => Number(v)));
  },
});

function numWeights(op: { getAttr(n: string): unknown }): number {
  return Number((op.getAttr('numWeights') as IntegerAttr).value);
}

/** `%r = cat.batch %lane = 0 to 2 [%w] = [%x] (%a) = (%y) shared_outs(%o) : [T] (U) -> R { ... }` */
export const BatchOp = defineOp({
  name: 'cat.batch',
  operands: { operands: variadic() },
  results: { outputs: variadic() },
  regions: { body: { description: 'any region' } },
  parse(p, state) {
    const lane = parseLaneRange(p);
    if (!lane) return false;
    const bindings = parseBindingLists(p);
    if (!bindings) return false;
    const outs = parseOptionalSharedOuts(p);
    if (outs === undefined || !p.parseColon()) return false;
    const types = parseBindingTypes(p);
    if (!types) return false;
    const operands: Value[] = [];
    if (!resolveBindings(p, bindings, types, operands)) return false;
    (outs ?? []).forEach((o, k) => (o.type = types.resultTypes[k]));
    state.operands = operands;
    state.resultTypes = types.resultTypes;
    const i64 = IntegerType.get(p.context, 64);
    state.properties = {
      lower: IntegerAttr.get(i64, lane.lower),
      upper: IntegerAttr.get(i64, lane.upper),
      numWeights: IntegerAttr.get(i64, bindings.weights.length),
    };
    const region = new Region();
    state.regions = [region];
    return p.parseRegion(region, [lane.lane, ...bindings.weightArgs, ...bindings.inputArgs, ...(outs ?? [])]);
  },
  print(op, p) {
    const body = op.regions[0]!.firstBlock!;
    const nw = numWeights(op);
    const args = body.arguments;
    const ni = op.numOperands - nw;
    p.print(' ');
    printLaneRange(p, args[0]!, Number((op.getAttr('lower') as IntegerAttr).value), Number((op.getAttr('upper') as IntegerAttr).value));
    p.print(' ');
    printBindingLists(p, args.slice(1, 1 + nw), op.operands.slice(0, nw), args.slice(1 + nw, 1 + nw + ni), op.operands.slice(nw));
    const outs = args.slice(1 + nw + ni);
    if (outs.length) {
      p.print(' ');
      printSharedOuts(p, outs);
    }
    p.print(' : ');
    printBindingTypes(p, op.operands.slice(0, nw).map((v) => v.type), op.operands.slice(nw).map((v) => v.type), op.resultTypes);
    p.print(' ');
    p.printRegion(op.regions[0]!, false, true);
  },
  getAsmBlockArgumentNames(op, region, setName) {
    const args = region.firstBlock?.arguments ?? [];
    const nw = numWeights(op);
    const ni = op.numOperands - nw;
    setComputeBlockArgumentNames(setName, {
      lane: args[0],
      weights: args.slice(1, 1 + nw),
      inputs: args.slice(1 + nw, 1 + nw + ni),
      outputs: args.slice(1 + nw + ni),
    });
  },
});

/** The test dialect. */
export const CatDialect = defineDialect({ namespace: 'cat', operations: [TypesOp, CoresOp, BatchOp] });

/** A context with the test dialect and unregistered ops allowed. */
export function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  ctx.registerDialect(CatDialect);
  return ctx;
}
