/**
 * Interop with mlir-opt 22 over a corpus covering every affine, tensor and scf op (registered
 * dialects only): our custom and generic outputs equal mlir-opt's (checked-in goldens),
 * mlir-opt's generic output parses in ours and prints back identically, and (when mlir-opt is
 * installed, as in CI) mlir-opt parses and verifies both of our outputs without
 * `--allow-unregistered-dialect`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import { parseVerified } from './helpers';

const dir = path.resolve(__dirname, '../fixtures/tensor');
const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const hasMlirOpt = fs.existsSync(mlirOpt);

function runMlirOpt(input: string, args: string[] = []): string {
  return execFileSync(mlirOpt, [...args, '-'], { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

/**
 * Known ir-core printer difference: in generic form MLIR hoists affine maps into `#map`
 * aliases; ir-core prints them inline. Inlining the aliases makes both comparable.
 */
function inlineAliases(s: string): string {
  const aliases = new Map<string, string>();
  for (const m of s.matchAll(/^(#map\d*) = (affine_map<.*>)$/gm)) aliases.set(m[1]!, m[2]!);
  return s.replace(/^#map\d* = affine_map<.*>\n/gm, '').replace(/#map\d*\b/g, (a) => aliases.get(a) ?? a);
}

describe('affine/tensor/scf interop with mlir-opt 22', () => {
  const corpus = read('interop.mlir');

  it('custom output equals mlir-opt custom output', () => {
    expect(printOperation(parseVerified(corpus)) + '\n').toBe(read('interop.custom.out'));
  });

  it('generic output equals mlir-opt generic output (affine map aliases inlined)', () => {
    const ours = printOperation(parseVerified(corpus), { generic: true }) + '\n';
    expect(inlineAliases(ours)).toBe(inlineAliases(read('interop.generic.out')));
  });

  it("mlir-opt's generic output parses in ours and prints back identically", () => {
    const module = parseVerified(read('interop.generic.out'));
    expect(printOperation(module) + '\n').toBe(read('interop.custom.out'));
    expect(inlineAliases(printOperation(module, { generic: true }) + '\n')).toBe(inlineAliases(read('interop.generic.out')));
  });

  (hasMlirOpt ? it : it.skip)('mlir-opt parses and verifies our custom and generic outputs (registered dialects only)', () => {
    const module = parseVerified(corpus);
    expect(runMlirOpt(printOperation(module))).toBe(read('interop.custom.out'));
    expect(runMlirOpt(printOperation(module, { generic: true }))).toBe(read('interop.custom.out'));
  });
});
