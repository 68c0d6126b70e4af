/**
 * Every reference example using pim ops (test/fixtures/reference/examples.mlir, extracted by
 * tools/extract-reference-examples.mjs) parses, verifies and prints back byte-identically in
 * custom form: parsed with `retainIdentifierNames` and printed with `useRetainedNames`, the
 * example's lines appear verbatim as consecutive printed lines, and the whole case (the wrapper
 * function defining the values the example uses) prints back as written. The only
 * normalisation is leading indentation: the reference prints region bodies flush left; our
 * printer, as mlir-opt, indents nested lines by 2 spaces per level. Each case also survives
 * custom -> generic -> custom and custom -> custom (names included), and matches the golden
 * custom/generic outputs (numbered, as MLIR prints without retained names). With mlir-opt 22
 * installed, the generic form also parses in `mlir-opt --allow-unregistered-dialect`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { splitInputFile, type PrintOptions } from '@raptor-pim/ir-core';
import { expectConsecutiveLines, expectedModuleLines, parseRetained, parseVerified, printCustom, printGeneric, unindentedLines } from '../helpers';

const fixtures = path.resolve(__dirname, '../fixtures/reference');
const source = fs.readFileSync(path.join(fixtures, 'examples.mlir'), 'utf8');
const chunks = splitInputFile(source).map((c) => ({
  id: Number(/^\/\/ example: (\d+) /m.exec(c.text)![1]),
  text: c.text,
}));
const raw = JSON.parse(fs.readFileSync(path.join(fixtures, 'examples.json'), 'utf8')) as { section: string; code: string }[];
const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const update = process.env.UPDATE_GOLDEN === '1';
const named: PrintOptions = { useRetainedNames: true };

function golden(name: string, actual: string): void {
  const file = path.join(fixtures, name);
  if (update || !fs.existsSync(file)) fs.writeFileSync(file, actual);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

describe('pim reference examples', () => {
  it('the fixture holds one case per extracted reference example', () => {
    expect(chunks.map((c) => c.id)).toEqual(raw.map((_e, i) => i));
  });

  it.each(raw.map((e, i) => [i, e.section, e.code] as const))('#%i %s prints back byte-identically', (i, _section, code) => {
    const chunk = chunks.find((c) => c.id === i)!;
    const module = parseRetained(chunk.text);
    const printed = printCustom(module, named);
    expectConsecutiveLines(printed, code);
    expect(unindentedLines(printed)).toEqual(expectedModuleLines(chunk.text));
    // custom -> generic -> custom, names included
    expect(printCustom(parseRetained(printGeneric(module, named)), named)).toBe(printed);
    // custom -> custom is a fixed point
    expect(printCustom(parseRetained(printed), named)).toBe(printed);
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
