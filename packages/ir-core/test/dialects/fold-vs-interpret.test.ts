/**
 * Folding and the arith canonicalization patterns preserve meaning: on random func/arith programs, the interpreter gives the same
 * results before and after `applyPatternsGreedily` (constant folding + dead code elimination).
 */
import fc from 'fast-check';
import {
  IntegerType,
  Interpreter,
  InterpreterRegistry,
  ShapedValue,
  arithCanonicalizationPatterns,
  applyPatternsGreedily,
  registerBuiltinInterpreterRules,
  verify,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { program } from '../interop/random-program';
import { newContext, parseAndVerify } from '../roundtrip/corpus';

const registry = new InterpreterRegistry();
registerBuiltinInterpreterRules(registry);

function same(a: RuntimeValue, b: RuntimeValue): boolean {
  if (a instanceof ShapedValue && b instanceof ShapedValue) {
    const x = a.toContiguousArray();
    const y = b.toContiguousArray();
    return x.length === y.length && Array.from(x as ArrayLike<number>).every((v, i) => Object.is(v, (y as ArrayLike<number>)[i]));
  }
  return Object.is(a, b);
}

test('the interpreter gives the same results before and after folding', () => {
  const i32 = IntegerType.get(newContext(), 32);
  let compared = 0;
  fc.assert(
    fc.property(
      fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.float({ noNaN: true }).map(Math.fround),
      fc.nat(1000),
      (seed, a, b, x, i) => {
        const text = program([0, ...seed]);
        const { module } = parseAndVerify(text, 'random.mlir');
        expect(module).toBeDefined();
        const v = new ShapedValue('tensor', i32, [4], Int32Array.from([a, 3, -7, i]));
        const args: RuntimeValue[] = [a, b, x, i, v];
        const before = new Interpreter(registry).runFunction(module!, 'f0', args);
        if (!before.ok) return; // undefined behavior on these inputs: nothing to compare
        const r = applyPatternsGreedily(module!, arithCanonicalizationPatterns());
        expect(r.converged).toBe(true);
        expect(verify(module!)).toBe(true);
        const after = new Interpreter(registry).runFunction(module!, 'f0', args);
        expect(after.ok).toBe(true);
        if (after.ok) {
          expect(after.values.length).toBe(before.values.length);
          before.values.forEach((val, k) => expect(same(val, after.values[k]!)).toBe(true));
        }
        compared++;
      },
    ),
    { numRuns: 300, seed: 7 },
  );
  expect(compared).toBeGreaterThan(100);
});
