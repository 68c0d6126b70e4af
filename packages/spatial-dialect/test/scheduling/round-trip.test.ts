// Every reference example of the scheduling ops parses, prints back byte-identically in
// custom form (SSA names aside: MLIR printers number values), survives
// custom -> generic -> custom, and its generic form parses in mlir-opt.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation, splitInputFile } from '@raptor-pim/ir-core';
import { makeContext, parse } from './support/context';

const FIXTURES = path.resolve(__dirname, '../fixtures/scheduling');
const examples = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'reference-examples.json'), 'utf8')) as Record<string, string>;
const chunks = splitInputFile(fs.readFileSync(path.join(FIXTURES, 'reference-examples.mlir'), 'utf8'));
const MLIR_OPT = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';

/** Renames SSA values in order of first appearance (`%y` -> `%v0`), trims indentation. */
function normalize(lines: readonly string[]): string {
  const names = new Map<string, string>();
  return lines
    .map((l) =>
      l.trim().replace(/%[A-Za-z_0-9$.\-]+(#\d+)?/g, (m) => {
        let n = names.get(m);
        if (!n) names.set(m, (n = `%v${names.size}`));
        return n;
      }),
    )
    .join('\n');
}

/** True when `example` occurs as consecutive lines of `printed` (SSA names normalized). */
function containsExample(printed: string, example: string): boolean {
  const want = example.split('\n');
  const lines = printed.split('\n');
  const target = normalize(want);
  for (let i = 0; i + want.length <= lines.length; i++) if (normalize(lines.slice(i, i + want.length)) === target) return true;
  return false;
}

const cases = chunks.map((c) => ({ key: /^\/\/ example: (.*)$/m.exec(c.text)![1]!.trim(), text: c.text }));

describe('reference examples of the scheduling ops', () => {
  it('covers every example of the JSON file', () => {
    expect(cases.map((c) => c.key).sort()).toEqual(Object.keys(examples).sort());
  });

  for (const { key, text } of cases) {
    const verifiable = key !== 'spat.block_yield';
    it(`${key}: parses${verifiable ? ', verifies' : ''} and prints back`, () => {
      const ctx = makeContext();
      const { module, errors } = parse(ctx, text, verifiable);
      expect(errors).toEqual([]);
      const custom = printOperation(module!);
      if (!key.includes('(generic')) expect(containsExample(custom, examples[key]!)).toBe(true);
      // custom -> custom
      const again = parse(makeContext(), custom, verifiable);
      expect(again.errors).toEqual([]);
      expect(printOperation(again.module!)).toBe(custom);
      // custom -> generic -> custom
      const generic = printOperation(module!, { generic: true });
      const fromGeneric = parse(makeContext(), generic, verifiable);
      expect(fromGeneric.errors).toEqual([]);
      expect(printOperation(fromGeneric.module!)).toBe(custom);
    });
  }

  const haveMlirOpt = fs.existsSync(MLIR_OPT);
  const mlirOpt = (input: string): string => {
    try {
      execFileSync(MLIR_OPT, ['--allow-unregistered-dialect', '--split-input-file', '-'], { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
      return '';
    } catch (e) {
      return String((e as { stderr?: string }).stderr ?? e);
    }
  };
  const genericOf = (text: string): string => printOperation(parse(makeContext(), text, false).module!, { generic: true });
  (haveMlirOpt ? it : it.skip)('generic forms parse in mlir-opt --allow-unregistered-dialect (one known exception)', () => {
    const accepted = cases.filter((c) => c.key !== 'spat.scheduled_compute_batch').map((c) => genericOf(c.text));
    expect(mlirOpt(accepted.join('\n// -----\n'))).toBe('');
    // Known exception: mlir-opt requires its own in-parallel parent (scf.forall.in_parallel) for
    // tensor.parallel_insert_slice; spat.in_parallel is unregistered there.
    const batch = cases.find((c) => c.key === 'spat.scheduled_compute_batch')!;
    expect(mlirOpt(genericOf(batch.text))).toMatch(/parallel_insert_slice|ParallelCombiningOpInterface|InParallelOpInterface/);
  });
});
