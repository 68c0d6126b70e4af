/**
 * Fuzzing with fast-check: random mutations of valid corpus files always end with a module or
 * with diagnostics (never an exception or a hang), and whatever is accepted prints to text that
 * re-parses to the same text (the printer's output is a fixed point).
 */
import fc from 'fast-check';
import { parseSourceString, printOperation, verify, type Operation } from '@raptor-pim/ir-core';
import { loadCorpus, newContext } from '../roundtrip/corpus';

const corpus = loadCorpus().filter((f) => f.text.length < 8000);
const PER_CASE_MS = 2000;

/** Tokens that stress the parser: punctuation, keywords, numbers, SSA and block names. */
const FRAGMENTS = [
  '(', ')', '{', '}', '[', ']', '<', '>', ',', ':', '=', '->', '"', '\\', '#', '!', '@', '%', '^', '?', 'x', '-',
  '0', '-1', '0x', '1.5e', '%0', '%arg0', '^bb1', '#map', '!t', 'loc(', 'dense<', 'affine_map<(d0) -> (d0)>',
  'tensor<', 'i32', 'f32', 'index', 'func.func', 'arith.addi', 'return', '"t.op"', '() -> ()', '// -----', '\n', ' ',
  '{-#', '#-}', 'true', 'unit', 'array<i32: ', '9999999999999999999999', '\u00e9', '\t',
];

type Mutation =
  | { kind: 'delete'; at: number; len: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'duplicate'; at: number; len: number; to: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'replace'; at: number; len: number; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...FRAGMENTS) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ maxLength: 6 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }), to: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 8 }), text: fc.constantFrom(...FRAGMENTS) }),
);

function apply(text: string, m: Mutation): string {
  const n = text.length;
  const at = n ? m.at % n : 0;
  switch (m.kind) {
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.len);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'duplicate': {
      const to = n ? m.to % n : 0;
      return text.slice(0, to) + text.slice(at, at + m.len) + text.slice(to);
    }
    case 'truncate':
      return text.slice(0, at);
    case 'replace':
      return text.slice(0, at) + m.text + text.slice(at + m.len);
  }
}

/** Parses and verifies; returns the module when accepted. Throws only on a broken invariant. */
function run(text: string): { module?: Operation; errors: number } {
  const ctx = newContext();
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename: 'fuzz.mlir' });
    return m !== undefined && verify(m) ? m : undefined;
  });
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return result ? { module: result, errors } : { errors };
}

describe.each(corpus.map((f) => [f.name, f] as const))('mutations of %s', (name, file) => {
  it('end with a module or diagnostics, quickly; accepted IR prints to a fixed point', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        const text = ms.reduce(apply, file.text);
        const started = Date.now();
        const r = run(text);
        if (r.module) {
          accepted++;
          const printed = printOperation(r.module, { generic: true, debugInfo: true });
          const again = run(printed);
          expect(again.errors).toBe(0);
          expect(printOperation(again.module!, { generic: true, debugInfo: true })).toBe(printed);
        } else {
          rejected++;
          expect(r.errors).toBeGreaterThan(0);
        }
        expect(Date.now() - started).toBeLessThan(PER_CASE_MS);
      }),
      { numRuns: Math.max(150, Math.floor(3500 / corpus.length)), seed: 20261130 ^ name.length, endOnFailure: true },
    );
    // Both outcomes occur, so the property is exercised on both sides.
    expect(rejected).toBeGreaterThan(0);
    expect(accepted + rejected).toBeGreaterThan(100);
  });
});
