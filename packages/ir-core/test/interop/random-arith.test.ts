/**
 * Random func/arith programs (fast-check) printed by us are exactly what mlir-opt 22 prints
 * for them, in custom and generic form: exercises constants of every kind (float formatting
 * included), flags, predicates, casts and SSA naming far beyond the hand-written corpus.
 */
import fc from 'fast-check';
import { findMlirOpt, runMlirOpt } from './mlir-opt';
import { program } from './random-program';
import { describe as describeDiags, parseAndVerify, printAsTool } from '../roundtrip/corpus';

const found = findMlirOpt();

if ('missing' in found) {
  console.warn(`random interop tests skipped: ${found.missing}`);
  test.skip(`random programs against mlir-opt (${found.missing})`, () => undefined);
} else {
  test('random func/arith programs print exactly as mlir-opt prints them (custom and generic)', () => {
    const modules = fc.sample(fc.array(fc.array(fc.nat(), { minLength: 64, maxLength: 64 }), { minLength: 40, maxLength: 40 }), { numRuns: 3, seed: 42 });
    for (const funcs of modules) {
      const text = funcs.map((seed, i) => program([i, ...seed])).join('');
      const ours = parseAndVerify(text, 'random.mlir');
      expect(describeDiags(ours.diagnostics)).toEqual([]);
      const custom = printAsTool(ours.module!, {});
      const generic = printAsTool(ours.module!, { generic: true });
      expect(runMlirOpt(found.path, [], text)).toBe(custom);
      expect(runMlirOpt(found.path, ['--mlir-print-op-generic'], generic)).toBe(generic);
    }
  });
}
