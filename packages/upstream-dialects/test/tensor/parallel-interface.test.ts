/**
 * `tensor.parallel_insert_slice` only asks its parent to implement ir-core's
 * `ParallelCombiningOpInterface`, so another dialect's in-parallel op (like `spat.in_parallel`)
 * can host it, and reuse the interpreter's publication protocol (publicationStack +
 * applyPublications, with the overlap check). Checked here with a stand-in `par` dialect.
 */
import {
  defineDialect,
  defineOp,
  ExecutionFailure,
  FloatType,
  implement,
  IntegerAttr,
  Interpreter,
  InterpreterRegistry,
  ParallelCombiningOpInterface,
  registerBuiltinInterpreterRules,
  ShapedValue,
  sizedRegion,
  Traits,
  variadic,
  Yield,
  type InterpreterRule,
  type Operation,
} from '@raptor-pim/ir-core';
import { applyPublications, publicationStack, registerTensorScfAffineInterpreterRules } from '@raptor-pim/upstream-dialects';
import { makeContext, parseVerified } from './helpers';

const BatchOp = defineOp({
  name: 'par.batch',
  operands: { outputs: variadic() },
  results: { results: variadic() },
  regions: { body: sizedRegion(1) },
  traits: [Traits.SingleBlockImplicitTerminator('par.in_parallel')],
});
const InParallelOp = defineOp({
  name: 'par.in_parallel',
  regions: { region: sizedRegion(1) },
  traits: [Traits.IsTerminator, Traits.HasParent('par.batch'), Traits.NoTerminator],
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
});
const ParDialect = defineDialect({ namespace: 'par', operations: [BatchOp, InParallelOp] });

const batchRule: InterpreterRule = (ctx, op, operands) => {
  const lanes = Number((op.getAttr('lanes') as IntegerAttr).value);
  const outputs = operands as ShapedValue[];
  const collector = { lane: [] as number[], publications: [] as Parameters<typeof applyPublications>[4][number][] };
  const stack = publicationStack(ctx);
  stack.push(collector);
  try {
    for (let lane = 0; lane < lanes; lane++) {
      collector.lane = [lane];
      const r = ctx.runRegion(op.regions[0]!, [lane, ...outputs]);
      if (r instanceof ExecutionFailure) return r;
    }
  } finally {
    stack.pop();
  }
  const args = op.regions[0]!.firstBlock!.arguments.slice(1);
  return applyPublications(ctx, op, outputs, (p) => args.indexOf(p.dest as (typeof args)[number]), collector.publications);
};

function program(offset: string): string {
  return `func.func @main(%x: tensor<2x4xf32>, %init: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = "par.batch"(%init) ({
  ^bb0(%lane: index, %out: tensor<2x4xf32>):
    %row = tensor.extract_slice %x[%lane, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
    "par.in_parallel"() ({
      tensor.parallel_insert_slice %row into %out[${offset}, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
    }) : () -> ()
  }) {lanes = 2 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}`;
}

function run(text: string) {
  const ctx = makeContext();
  ctx.registerDialect(ParDialect);
  const m = parseVerified(text, ctx);
  const registry = new InterpreterRegistry();
  registerBuiltinInterpreterRules(registry);
  registerTensorScfAffineInterpreterRules(registry);
  registry.register('par.batch', batchRule);
  registry.register('par.in_parallel', (c, op) => {
    const r = c.runRegion(op.regions[0]!, []);
    return r instanceof ExecutionFailure ? r : new Yield([]);
  });
  const x = ShapedValue.allocate('tensor', FloatType.f32(m.context), [2, 4])!;
  (x.data as Float32Array).set([1, 2, 3, 4, 5, 6, 7, 8]);
  const init = ShapedValue.allocate('tensor', x.elementType, [2, 4])!;
  return new Interpreter(registry).runFunction(m, 'main', [x, init]);
}

describe('tensor.parallel_insert_slice under another dialect\'s in-parallel op', () => {
  it('verifies, and the publication protocol assembles the lanes', () => {
    const r = run(program('%lane'));
    expect(r.ok).toBe(true);
    if (r.ok) expect(Array.from((r.values[0] as ShapedValue).toContiguousArray() as Float32Array)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('rejects lanes publishing the same row, naming both lanes', () => {
    const r = run(program('0'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.message).toMatch(/^lanes publish overlapping slices of the same output: .*\(lane \[0\]\) and .*\(lane \[1\]\) both write element \[0, 0\] of shared output #0$/);
  });
});
