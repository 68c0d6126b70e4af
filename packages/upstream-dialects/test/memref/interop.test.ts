/**
 * Interop with mlir-opt 22 over a corpus covering every memref op (registered dialects only):
 * our custom and generic outputs equal mlir-opt's (checked-in goldens), mlir-opt's generic
 * output parses in ours and prints back identically, and (when mlir-opt is installed, as in CI)
 * mlir-opt parses and verifies both of our outputs without `--allow-unregistered-dialect`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import { MEMREF_OPERATIONS } from '@raptor-pim/upstream-dialects';
import { dropSpace0, parseVerified } from './helpers';

const dir = path.resolve(__dirname, '../fixtures/memref');
const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const hasMlirOpt = fs.existsSync(mlirOpt);

function runMlirOpt(input: string, args: string[] = []): string {
  return execFileSync(mlirOpt, [...args, '-'], { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

describe('memref interop with mlir-opt 22', () => {
  const corpus = read('interop.mlir');

  it('the corpus uses every memref op', () => {
    const used = new Set(corpus.match(/memref\.[a-z_.]+/g));
    expect(MEMREF_OPERATIONS.map((d) => d.name).filter((n) => !used.has(n))).toEqual([]);
  });

  it('custom output equals mlir-opt custom output', () => {
    expect(dropSpace0(printOperation(parseVerified(corpus)) + '\n')).toBe(read('interop.custom.out'));
  });

  it('generic output equals mlir-opt generic output (modulo the transpose permutation alias, see below)', () => {
    const ours = printOperation(parseVerified(corpus), { generic: true }) + '\n';
    const golden = read('interop.generic.out');
    // Known ir-core printer difference: MLIR hoists the `permutation` affine map of
    // memref.transpose into a `#map` alias in generic form; ir-core's printer prints it inline.
    const inlineAliases = (s: string) => {
      const aliases = new Map<string, string>();
      for (const m of s.matchAll(/^(#map\d*) = (affine_map<.*>)$/gm)) aliases.set(m[1]!, m[2]!);
      return s
        .replace(/^#map\d* = affine_map<.*>\n/gm, '')
        .replace(/#map\d*\b/g, (a) => aliases.get(a) ?? a);
    };
    expect(inlineAliases(dropSpace0(ours))).toBe(inlineAliases(golden));
  });

  it("mlir-opt's generic output parses in ours and prints back identically (generic and custom)", () => {
    const module = parseVerified(read('interop.generic.out'));
    expect(printOperation(module) + '\n').toBe(read('interop.custom.out'));
    const again = parseVerified(printOperation(module, { generic: true }));
    expect(printOperation(again) + '\n').toBe(read('interop.custom.out'));
  });

  (hasMlirOpt ? it : it.skip)('mlir-opt parses and verifies our custom and generic outputs (registered dialects only)', () => {
    const module = parseVerified(corpus);
    const custom = printOperation(module);
    const generic = printOperation(module, { generic: true });
    expect(runMlirOpt(custom)).toBe(read('interop.custom.out'));
    expect(runMlirOpt(generic)).toBe(read('interop.custom.out'));
  });
});
