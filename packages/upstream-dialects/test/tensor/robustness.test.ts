/**
 * User input never throws: random mutations of the interop corpus (custom and generic forms)
 * either parse, verify and print, or end with diagnostics; no exception escapes our parse hooks,
 * verifiers or printers.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { parseSourceString, printOperation, verify } from '@raptor-pim/ir-core';
import { makeContext } from './helpers';

const dir = path.resolve(__dirname, '../fixtures/tensor');
const sources = ['interop.mlir', 'interop.generic.out'].map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
const TOKENS = ['%arg0', '0', '1', '-1', '?', ',', '[', ']', '(', ')', '{', '}', ':', 'index', 'f32', 'tensor<2x?xf32>', 'into', 'to', 'step', '<{', '}>', 'array<i64: 0, 0>', 'array<i32: 1, 0, 0, 0>', 'array<i64: -9223372036854775808>', '[[0, 1]]', 'affine_map<(d0) -> (d0)>'];

const mutation = fc.record({
  source: fc.integer({ min: 0, max: sources.length - 1 }),
  at: fc.nat(),
  kind: fc.constantFrom('delete', 'insert', 'replace'),
  length: fc.integer({ min: 1, max: 6 }),
  token: fc.constantFrom(...TOKENS),
});

describe('robustness of the affine/tensor/scf hooks', () => {
  it('mutated corpora give a module or diagnostics, never an exception', () => {
    fc.assert(
      fc.property(mutation, (m) => {
        const src = sources[m.source]!;
        const at = m.at % src.length;
        const text =
          m.kind === 'delete'
            ? src.slice(0, at) + src.slice(at + m.length)
            : m.kind === 'insert'
              ? src.slice(0, at) + ' ' + m.token + ' ' + src.slice(at)
              : src.slice(0, at) + m.token + src.slice(at + m.length);
        const ctx = makeContext();
        ctx.diagnostics.capture(() => {
          const module = parseSourceString(ctx, text);
          if (module && verify(module)) {
            printOperation(module);
            printOperation(module, { generic: true });
          }
        });
      }),
      process.env.ROBUST_RUNS ? { numRuns: Number(process.env.ROBUST_RUNS) } : { numRuns: 200, seed: 7 },
    );
  });
});
