/**
 * The Spatial reference (shared/spec/raptor-dialect-reference.md, "Graph batches and fragment
 * slots", spat.graph_compute_batch, spat.in_parallel) writes affine.apply,
 * tensor.extract_slice and tensor.parallel_insert_slice in MLIR's custom syntax. Every such
 * line must parse with our ops and print back identically (up to SSA names, which every MLIR
 * printer renumbers), inline (`localScope`, as the spec writes the affine map), and the
 * wrappers must also pass mlir-opt 22 when it is installed.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import { parseVerified } from './helpers';

const shared = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../../shared');
const specPath = path.join(shared, 'spec/raptor-dialect-reference.md');
const hasSpec = fs.existsSync(specPath);
const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';

/** Replaces SSA names by their order of first appearance (`%v0`, `%v1`, ...). */
function normalizeNames(line: string): string {
  const ids = new Map<string, string>();
  return line.trim().replace(/%[A-Za-z_0-9$.-]+/g, (n) => {
    if (!ids.has(n)) ids.set(n, `%v${ids.size}`);
    return ids.get(n)!;
  });
}

/** A function around one spec line that defines every value the line uses. */
function wrap(line: string): string {
  const types = /: (tensor<[^>]*>) (?:to|into) (tensor<[^>]*>)/.exec(line);
  if (line.includes('affine.apply')) return `func.func @f(%lane: index) -> index {\n  ${line}\n  return %offset : index\n}`;
  if (line.includes('tensor.extract_slice'))
    return `func.func @f(%arg: ${types![1]}, %lane: index, %offset: index) {\n  ${line}\n  return\n}`;
  return `func.func @f(%v: ${types![1]}, %init: ${types![2]}) {
  %r = scf.forall (%lane) in (2) shared_outs(%out = %init) -> (${types![2]}) {
    scf.forall.in_parallel {
      ${line}
    }
  }
  return
}`;
}

(hasSpec ? describe : describe.skip)('Spatial reference examples with affine/tensor/scf ops', () => {
  const lines = hasSpec
    ? [
        ...new Set(
          fs
            .readFileSync(specPath, 'utf8')
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => /^(%\w+ = )?(affine\.apply|tensor\.extract_slice|tensor\.parallel_insert_slice) /.test(l)),
        ),
      ]
    : [];

  it('the spec has the example lines', () => {
    expect(lines.length).toBeGreaterThanOrEqual(4);
  });

  it.each(lines)('%s', (line) => {
    const text = wrap(line);
    const module = parseVerified(text);
    const opName = /(affine\.apply|tensor\.extract_slice|tensor\.parallel_insert_slice)/.exec(line)![1]!;
    const printed = printOperation(module, { localScope: true })
      .split('\n')
      .find((l) => l.includes(opName))!;
    expect(normalizeNames(printed)).toBe(normalizeNames(line));
    // The generic form parses back to the same custom text.
    const again = parseVerified(printOperation(module, { generic: true }));
    expect(printOperation(again, { localScope: true })).toBe(printOperation(module, { localScope: true }));
    if (fs.existsSync(mlirOpt)) {
      const theirs = execFileSync(mlirOpt, ['--mlir-print-local-scope', '-'], { input: text, encoding: 'utf8' });
      expect(theirs).toBe(printOperation(module, { localScope: true }) + '\n');
    }
  });
});
