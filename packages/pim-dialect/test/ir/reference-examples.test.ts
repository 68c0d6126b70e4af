/**
 * Every reference example using pim ops (test/fixtures/reference/examples.mlir, extracted by
 * tools/extract-reference-examples.mjs) parses, verifies and prints back identically in custom
 * form (up to SSA names, which every MLIR printer renumbers, and indentation), survives
 * custom -> generic -> custom, and matches the golden outputs. With mlir-opt 22 installed, the
 * generic form also parses in `mlir-opt --allow-unregistered-dialect`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { splitInputFile } from '@raptor-pim/ir-core';
import { parseVerified, printCustom, printGeneric } from '../helpers';

const fixtures = path.resolve(__dirname, '../fixtures/reference');
const source = fs.readFileSync(path.join(fixtures, 'examples.mlir'), 'utf8');
const chunks = splitInputFile(source).map((c) => ({
  id: Number(/^\/\/ example: (\d+) /m.exec(c.text)![1]),
  text: c.text,
}));
const raw = JSON.parse(fs.readFileSync(path.join(fixtures, 'examples.json'), 'utf8')) as { section: string; code: string }[];
const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const update = process.env.UPDATE_GOLDEN === '1';

/** Replaces SSA names by their order of first appearance, and trims every line. */
function normalize(text: string): string {
  const ids = new Map<string, string>();
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join('\n')
    .replace(/%[A-Za-z_0-9$.-]+/g, (n) => {
      if (!ids.has(n)) ids.set(n, `%v${ids.size}`);
      return ids.get(n)!;
    });
}

function bodyOf(printed: string): string[] {
  const lines = printed.split('\n');
  const start = lines.findIndex((l) => l.includes('func.func'));
  const end = lines.findIndex((l, i) => i > start && /^\s*return\b/.test(l));
  return lines.slice(start + 1, end).filter((l) => !/arith\.constant/.test(l));
}

function golden(name: string, actual: string): void {
  const file = path.join(fixtures, name);
  if (update || !fs.existsSync(file)) fs.writeFileSync(file, actual);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

describe('pim reference examples', () => {
  it('the fixture holds one case per extracted reference example', () => {
    expect(chunks.map((c) => c.id)).toEqual(raw.map((_e, i) => i));
  });

  it.each(raw.map((e, i) => [i, e.section, e.code] as const))('#%i %s prints back identically', (i, _section, code) => {
    const chunk = chunks.find((c) => c.id === i)!;
    const module = parseVerified(chunk.text);
    const expected = normalize(code);
    const n = expected.split('\n').length;
    const body = bodyOf(printCustom(module));
    const windows = body.map((_l, k) => normalize(body.slice(k, k + n).join('\n')));
    expect(windows).toContain(expected);
    const again = parseVerified(printGeneric(module));
    expect(printCustom(again)).toBe(printCustom(module));
    // custom -> custom is a fixed point
    expect(printCustom(parseVerified(printCustom(module)))).toBe(printCustom(module));
  });

  it('matches the golden custom and generic outputs', () => {
    const custom = chunks.map((c) => printCustom(parseVerified(c.text))).join('\n// -----\n') + '\n';
    const generic = chunks.map((c) => printGeneric(parseVerified(c.text))).join('\n// -----\n') + '\n';
    golden('examples.custom.out', custom);
    golden('examples.generic.out', generic);
  });

  const haveMlirOpt = fs.existsSync(mlirOpt);
  (haveMlirOpt ? it : it.skip)('generic forms parse in mlir-opt --allow-unregistered-dialect', () => {
    const generic = chunks.map((c) => printGeneric(parseVerified(c.text))).join('\n// -----\n') + '\n';
    const out = execFileSync(mlirOpt, ['--allow-unregistered-dialect', '--split-input-file', '--mlir-print-op-generic'], {
      input: generic,
      encoding: 'utf8',
    });
    expect(out.split('// -----').length).toBe(chunks.length);
  });
});
