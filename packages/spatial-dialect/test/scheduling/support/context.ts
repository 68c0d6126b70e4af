// Test support for the scheduling ops: a context with builtin/func/arith, the upstream
// dialects and a `spat` dialect made of the scheduling ops plus minimal stand-ins for the few
// compute ops of the other half of the dialect the tests use (spat.yield, spat.relu,
// spat.vadd, spat.in_parallel), and an interpreter registry with matching rules.
import {
  FloatType,
  Interpreter,
  Region,
  InterpreterRegistry,
  MLIRContext,
  ParallelCombiningOpInterface,
  ShapedValue,
  Traits,
  Yield,
  defineDialect,
  defineOp,
  implement,
  parseSourceString,
  registerBuiltinInterpreterRules,
  single,
  variadic,
  verify,
  type Operation,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import { registerTensorScfAffineInterpreterRules, registerUpstreamDialects } from '@raptor-pim/upstream-dialects';
import { SCHEDULING_OPS } from '../../../src/ir/ops/scheduling';
import { registerSchedulingInterpreterRules } from '../../../src/interpreter/scheduling';

const YieldStandIn = defineOp({
  name: 'spat.yield',
  operands: { values: variadic() },
  traits: [Traits.IsTerminator, Traits.ReturnLike],
  parse(p, state) {
    const ops = p.parseOperandList();
    if (!ops) return false;
    const values: Value[] = [];
    if (ops.length) {
      const types = p.parseColonTypeList();
      if (!types || !p.resolveOperands(ops, types, values, p.getNameLocation())) return false;
    }
    state.operands = values;
    return true;
  },
  print(op, p) {
    if (!op.numOperands) return;
    p.print(' ');
    p.printOperands(op.operands);
    p.print(' : ');
    p.printTypes(op.operands.map((v) => v.type));
  },
});

function unaryStandIn(name: string) {
  return defineOp({
    name,
    operands: { input: single() },
    results: { output: single() },
    parse(p, state) {
      if (!p.parseLParen()) return false;
      const x = p.parseOperand();
      if (!x || !p.parseRParen() || !p.parseColon()) return false;
      const t = p.parseType();
      if (!t || !p.parseArrow()) return false;
      const r = p.parseType();
      const values: Value[] = [];
      if (!r || !p.resolveOperand(x, t, values)) return false;
      state.operands = values;
      state.resultTypes = [r];
      return true;
    },
    print(op, p) {
      p.print('(');
      p.printOperand(op.getOperand(0));
      p.print(') : ');
      p.printType(op.getOperand(0).type);
      p.print(' -> ');
      p.printType(op.resultTypes[0]!);
    },
  });
}

const VaddStandIn = defineOp({
  name: 'spat.vadd',
  operands: { lhs: single(), rhs: single() },
  results: { output: single() },
  parse(p, state) {
    const ops = p.parseOperandList(undefined, 2);
    if (!ops || !p.parseColon()) return false;
    const fn = p.parseFunctionType();
    const values: Value[] = [];
    if (!fn || !p.resolveOperands(ops, fn.inputs, values, p.getNameLocation())) return false;
    state.operands = values;
    state.resultTypes = fn.results;
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperands(op.operands);
    p.print(' : ');
    p.printFunctionalTypeOf(op);
  },
});

const InParallelStandIn = defineOp({
  name: 'spat.in_parallel',
  regions: { body: { blocks: 1 } },
  traits: [Traits.IsTerminator, Traits.NoTerminator, Traits.SingleBlock],
  interfaces: [
    implement(ParallelCombiningOpInterface, {
      getRegion: (op: Operation) => op.regions[0]!,
      getYieldingOps: (op: Operation) => {
        const out: Operation[] = [];
        for (let o = op.regions[0]!.firstBlock?.firstOp ?? null; o; o = o.next) out.push(o);
        return out;
      },
    }),
  ],
  parse(p, state) {
    const region = new Region();
    state.regions = [region];
    if (!p.parseRegion(region, [])) return false;
    if (region.empty) region.addBlock();
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printRegion(op.regions[0]!, false, false);
  },
});

/** The test `spat` dialect: scheduling ops + stand-ins. */
export const TestSpatDialect = defineDialect({
  namespace: 'spat',
  operations: [...SCHEDULING_OPS, YieldStandIn, unaryStandIn('spat.relu'), VaddStandIn, InParallelStandIn],
});

/** A context with builtin, func, arith, affine, tensor, scf, memref and the test spat dialect. */
export function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  registerUpstreamDialects(ctx);
  ctx.registerDialect(TestSpatDialect);
  return ctx;
}

function mapTensor(x: ShapedValue, f: (v: number) => number): ShapedValue {
  const out = x.copy('tensor');
  const d = out.data as Float32Array;
  for (let k = 0; k < d.length; k++) d[k] = f(d[k]!);
  return out;
}

/** A registry with builtin, upstream, scheduling and stand-in rules. */
export function makeRegistry(): InterpreterRegistry {
  const r = new InterpreterRegistry();
  registerBuiltinInterpreterRules(r);
  registerTensorScfAffineInterpreterRules(r);
  registerSchedulingInterpreterRules(r);
  r.register('spat.yield', (_c, _op, operands) => new Yield(operands));
  r.register('test.keep', () => []);
  r.register('spat.relu', (_c, _op, [x]) => [mapTensor(x as ShapedValue, (v) => (v > 0 ? v : 0))]);
  r.register('spat.vadd', (_c, _op, [a, b]) => {
    const out = (a as ShapedValue).copy('tensor');
    const bd = (b as ShapedValue).toContiguousArray() as Float32Array;
    const d = out.data as Float32Array;
    for (let k = 0; k < d.length; k++) d[k] = d[k]! + bd[k]!;
    return [out];
  });
  return r;
}

/** Parses (and verifies unless `verifyIt` is false); returns the module or the diagnostics. */
export function parse(ctx: MLIRContext, text: string, verifyIt = true): { module?: Operation; errors: string[] } {
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename: 'test.mlir' });
    return m && (!verifyIt || verify(m)) ? m : undefined;
  });
  return { module: result, errors: diagnostics.map((d) => d.message) };
}

/** An f32 tensor value of `shape` with `data`. */
export function tensor(ctx: MLIRContext, shape: number[], data: number[]): ShapedValue {
  const t: Type = FloatType.get(ctx, 'f32');
  return new ShapedValue('tensor', t, shape, Float32Array.from(data));
}

/** Runs `@name` of `module` with `args`. */
export function run(module: Operation, name: string, args: unknown[]) {
  return new Interpreter(makeRegistry()).runFunction(module, name, args as never);
}
