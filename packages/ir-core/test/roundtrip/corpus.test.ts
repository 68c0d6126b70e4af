import * as fs from 'node:fs';
import * as path from 'node:path';
import { CORPUS_DIR, describe as describeDiags, loadCorpus, parseAndVerify, printAsTool } from './corpus';

const corpus = loadCorpus();

test('the corpus covers generic and custom forms, locations, dense hex and affine maps', () => {
  const all = corpus.map((f) => f.text).join('\n');
  expect(corpus.some((f) => f.generic)).toBe(true);
  expect(corpus.some((f) => f.debugInfo)).toBe(true);
  for (const needle of ['dense<"0x', '#map', 'loc(', 'func.func private', 'overflow<nsw', 'fastmath<', '^bb', '<{', 'arith.cmpf', '"t.']) {
    expect(all).toContain(needle);
  }
});

describe.each(corpus.map((f) => [f.name, f] as const))('%s', (name, file) => {
  const options = { generic: file.generic, debugInfo: file.debugInfo };

  it('parses and verifies without diagnostics', () => {
    const { module, diagnostics } = parseAndVerify(file.text, name);
    expect(describeDiags(diagnostics)).toEqual([]);
    expect(module).toBeDefined();
  });

  it('prints back byte-identically in its own form', () => {
    const { module, diagnostics } = parseAndVerify(file.text, name);
    expect(describeDiags(diagnostics)).toEqual([]);
    expect(printAsTool(module!, options)).toBe(file.text);
  });

  it(`prints back identically through the ${file.generic ? 'custom' : 'generic'} form`, () => {
    const first = parseAndVerify(file.text, name);
    const other = printAsTool(first.module!, { ...options, generic: !file.generic });
    const second = parseAndVerify(other, name);
    expect(describeDiags(second.diagnostics)).toEqual([]);
    expect(printAsTool(second.module!, options)).toBe(file.text);
    // And the intermediate form is itself a fixed point.
    expect(printAsTool(second.module!, { ...options, generic: !file.generic })).toBe(other);
  });
});

describe('sources (hand-written, non-canonical spelling)', () => {
  const dir = path.join(CORPUS_DIR, 'sources');
  const sources = fs.readdirSync(dir).filter((f) => f.endsWith('.mlir'));
  it.each(sources)('%s prints as mlir-opt printed it', (src) => {
    const text = fs.readFileSync(path.join(dir, src), 'utf8');
    const expected = fs.readFileSync(path.join(CORPUS_DIR, src), 'utf8');
    const { module, diagnostics } = parseAndVerify(text, src);
    expect(describeDiags(diagnostics)).toEqual([]);
    const debugInfo = src.includes('.debuginfo.');
    // Locations name the file they were parsed from (regenerate.sh runs inside sources/).
    expect(printAsTool(module!, { debugInfo })).toBe(expected);
  });
});
