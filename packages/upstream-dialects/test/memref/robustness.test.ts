/**
 * User input never makes the memref dialect throw: random token-level mutations of the interop
 * corpus and the invalid cases go through parse, verify and print (custom and generic) with
 * diagnostics only (fast-check, fixed seed).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parseSourceString, printOperation, verify } from '@raptor-pim/ir-core';
import { makeContext } from './helpers';

const dir = path.resolve(__dirname, '../fixtures/memref');
const sources = [
  fs.readFileSync(path.join(dir, 'interop.mlir'), 'utf8'),
  ...fs.readFileSync(path.join(dir, 'invalid.mlir'), 'utf8').split('// -----\n'),
];
const TOKENS = ['[', ']', '(', ')', '<', '>', ',', ':', '?', '0', '1', '-1', '%d', 'memref<4xf32>', 'index', 'f32', 'strided<[?], offset: ?>', 'to', 'into', '{}', '[[0]]', ''];

function mutate(text: string, edits: readonly [number, number, number][]): string {
  const parts = text.split(/(\s+)/);
  for (const [at, tok, kind] of edits) {
    const i = at % parts.length;
    if (kind === 0) parts[i] = TOKENS[tok % TOKENS.length]!;
    else if (kind === 1) parts.splice(i, 1);
    else parts.splice(i, 0, TOKENS[tok % TOKENS.length]!, ' ');
  }
  return parts.join('');
}

it('parse/verify/print never throw on mutated memref IR', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: sources.length - 1 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 2 })), { minLength: 1, maxLength: 3 }),
      (which, edits) => {
        const ctx = makeContext();
        const text = mutate(sources[which]!, edits);
        ctx.diagnostics.capture(() => {
          const m = parseSourceString(ctx, text);
          if (!m) return;
          verify(m);
          // Custom printing of ops that failed verification must not throw either.
          printOperation(m, { generic: true });
          printOperation(m);
        });
      },
    ),
    { seed: Number(process.env.MEMREF_FUZZ_SEED ?? 4242), numRuns: Number(process.env.MEMREF_FUZZ_RUNS ?? 400) },
  );
});
