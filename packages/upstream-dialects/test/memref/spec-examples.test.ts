/**
 * Every ```mlir example of memref-dialect.md, extracted mechanically into
 * test/fixtures/memref/spec-examples.mlir (regenerate with make-spec-examples.py). Valid examples
 * (with a memref-only prologue binding their free SSA values) must parse, verify and print
 * exactly as mlir-opt 22 prints them, in custom and generic form, and survive
 * custom -> generic -> custom. The others must be rejected (or parse to an empty module when
 * the example collapsed into one `//` comment line), as mlir-opt does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSourceString, printOperation, verify } from '@raptor-pim/ir-core';
import { extractSpecExamples } from './spec-examples';
import { dropSpace0, makeContext, parseVerified, registerBuiltin } from './helpers';

const fixtures = path.resolve(__dirname, '../fixtures/memref');
const specPath = process.env.RAPTOR_SHARED_DIR
  ? path.join(process.env.RAPTOR_SHARED_DIR, 'spec/memref-dialect.md')
  : path.resolve(__dirname, '../../../../../shared/spec/memref-dialect.md');

const source = fs.readFileSync(path.join(fixtures, 'spec-examples.mlir'), 'utf8');
const chunks = source.split('// -----\n').map((text) => {
  const m = /^\/\/ spec: (\S+) status: (\S+)/.exec(text)!;
  return { key: m[1]!, status: m[2]!, text };
});
const splitOut = (file: string) => fs.readFileSync(path.join(fixtures, file), 'utf8').split('\n// -----\n').map((s) => s.trim());
const customGolden = splitOut('spec-examples.custom.out');
const genericGolden = splitOut('spec-examples.generic.out');
const runnable = chunks.filter((c) => c.status === 'valid' || c.status === 'needs-arith');

describe('memref-dialect.md examples', () => {
  (fs.existsSync(specPath) ? it : it.skip)('the fixture holds every example of the spec verbatim', () => {
    const examples = extractSpecExamples(fs.readFileSync(specPath, 'utf8'));
    expect(examples.length).toBe(chunks.length);
    examples.forEach((e, i) => {
      expect(chunks[i]!.key).toBe(`${e.op}#${e.index}`);
      expect(chunks[i]!.text).toContain(e.text);
    });
  });

  runnable.forEach((c, i) => {
    const enabled = c.status === 'valid' || registerBuiltin !== undefined;
    (enabled ? it : it.skip)(`${c.key} prints like mlir-opt (custom, generic) and survives custom -> generic -> custom`, () => {
      const module = parseVerified(c.text);
      const custom = printOperation(module);
      // dropSpace0: known ir-core difference (memory space 0 is kept), see helpers.ts.
      expect(dropSpace0(custom).trim()).toBe(customGolden[i]);
      const generic = printOperation(module, { generic: true });
      expect(dropSpace0(generic).trim()).toBe(genericGolden[i]);
      const again = parseVerified(generic);
      expect(printOperation(again)).toBe(custom);
      const fromCustom = parseVerified(custom);
      expect(printOperation(fromCustom)).toBe(custom);
    });
  });

  for (const c of chunks.filter((c) => c.status === 'comment-only')) {
    it(`${c.key} is a single comment line in the spec and parses to an empty module`, () => {
      const module = parseVerified(c.text);
      expect(module.regions[0]!.firstBlock!.empty).toBe(true);
    });
  }

  for (const c of chunks.filter((c) => !['valid', 'needs-arith', 'comment-only'].includes(c.status))) {
    it(`${c.key} (${c.status}) is rejected with a diagnostic`, () => {
      const ctx = makeContext();
      ctx.allowUnregisteredDialects = false;
      const { result, diagnostics } = ctx.diagnostics.capture(() => {
        const m = parseSourceString(ctx, c.text);
        return m ? verify(m) : false;
      });
      expect(result).toBeFalsy();
      expect(diagnostics.length).toBeGreaterThan(0);
    });
  }
});
