/**
 * User input never makes the dialect throw: reference examples with random tokens deleted,
 * duplicated or replaced parse/verify to diagnostics (or to valid IR that prints and parses
 * back), never to an exception (fast-check).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parseSourceString, printOperation, splitInputFile, verify } from '@raptor-pim/ir-core';
import { SEED } from '../kernels/support/unwrap';
import { makeContext } from './helpers';

const chunks = splitInputFile(fs.readFileSync(path.resolve(__dirname, '../fixtures/reference/examples.mlir'), 'utf8')).map((c) => c.text);
const REPLACEMENTS = ['0', '-1', '7', '%x', '[]', '()', ':', ',', 'x2', 'tensor<1x4xf32>', 'tensor<*xf32>', 'i32', '{', '}', 'nchw', 'crossbarWeights', 'axis', 'to', '=', '#spat<logical_layout nchw>'];

describe('malformed spat input yields diagnostics, never exceptions', () => {
  it('random token edits of the reference examples', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: chunks.length - 1 }),
        fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom('delete', 'duplicate', 'replace'), with: fc.constantFrom(...REPLACEMENTS) }), { minLength: 1, maxLength: 3 }),
        (index, edits) => {
          const tokens = chunks[index]!.split(/(\s+)/);
          for (const e of edits) {
            const k = e.at % tokens.length;
            if (e.kind === 'delete') tokens.splice(k, 1);
            else if (e.kind === 'duplicate') tokens.splice(k, 0, tokens[k]!);
            else tokens[k] = e.with;
          }
          const ctx = makeContext();
          const { result } = ctx.diagnostics.capture(() => {
            const m = parseSourceString(ctx, tokens.join(''));
            return m && verify(m) ? m : undefined;
          });
          if (result) {
            const again = makeContext();
            const text = printOperation(result);
            const reparsed = again.diagnostics.capture(() => parseSourceString(again, text));
            expect(reparsed.diagnostics.map((d) => d.message)).toEqual([]);
          }
        },
      ),
      { numRuns: 250, seed: SEED },
    );
  });
});
