/**
 * Valid affine symbols and dimensions (MLIR 22's isValidSymbol / isValidDim).
 * test/fixtures/affine/symbols.mlir holds one case per chunk, annotated `// symbol: yes|no`;
 * ours must agree with the annotation, and (when mlir-opt 22 is installed, as in CI) so must
 * MLIR: its canonicalizer promotes an affine.apply operand to a symbol position exactly when
 * the operand is a valid symbol.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { splitInputFile, type Operation, type Value } from '@raptor-pim/ir-core';
import { getAffineScope, isTopLevelValue, isValidDim, isValidSymbol } from '@raptor-pim/upstream-dialects';
import { parseVerified } from '../tensor/helpers';

const file = path.resolve(__dirname, '../fixtures/affine/symbols.mlir');
const text = fs.readFileSync(file, 'utf8');
const chunks = splitInputFile(text).map((c) => {
  const m = /\/\/ symbol: (yes|no) \((.*)\)/.exec(c.text);
  if (!m) throw new Error(`internal error: chunk at line ${c.lineOffset + 1} has no '// symbol:' line`);
  return { text: c.text, expected: m[1] === 'yes', what: m[2]! };
});

function applies(root: Operation): Operation[] {
  const out: Operation[] = [];
  root.walk((op) => {
    if (op.name === 'affine.apply') out.push(op);
  });
  return out;
}

/** The operand of the chunk's last affine.apply, and that apply's affine scope. */
function probe(chunkText: string): { value: Value; apply: Operation } {
  const all = applies(parseVerified(chunkText));
  const apply = all[all.length - 1]!;
  return { value: apply.getOperand(0), apply };
}

describe('isValidSymbol / isValidDim on symbols.mlir', () => {
  it.each(chunks.map((c) => [c.what, c.expected, c.text] as const))('%s -> symbol: %s', (_what, expected, chunkText) => {
    const { value, apply } = probe(chunkText);
    const scope = getAffineScope(apply);
    expect(scope).not.toBeNull();
    expect(scope!.parentOp!.name).toBe('func.func');
    expect(isValidSymbol(value, scope)).toBe(expected);
    // Without affine.for/affine.parallel there are no affine induction variables, so the valid
    // dimensions are exactly the valid symbols.
    expect(isValidDim(value, scope)).toBe(expected);
  });

  it('has both outcomes in the corpus', () => {
    expect(new Set(chunks.map((c) => c.expected))).toEqual(new Set([true, false]));
  });
});

describe('scopes, constants and top-level values', () => {
  const module = parseVerified(`func.func @f(%n: index, %x: i32) {
    %c = arith.constant 5 : index
    scf.forall (%i) in (4) {
      %k = arith.constant 7 : index
      %a = affine.apply affine_map<(d0)[s0, s1, s2] -> (d0 + s0 + s1 + s2)>(%i)[%n, %c, %k]
    }
    return
  }`);
  const apply = applies(module)[0]!;
  const [lane, arg, c, k] = apply.operands;
  const scope = getAffineScope(apply);

  it('takes the func.func body as the scope of an op nested in scf.forall', () => {
    expect(scope).toBe(module.regions[0]!.firstBlock!.firstOp!.regions[0]);
    expect(getAffineScope(module)).toBeNull();
  });

  it('accepts function arguments and constants (top-level or nested) as symbols', () => {
    for (const v of [arg!, c!, k!]) {
      expect(isValidSymbol(v, scope)).toBe(true);
      expect(isValidSymbol(v)).toBe(true);
      expect(isValidDim(v)).toBe(true);
    }
    expect(isTopLevelValue(arg!)).toBe(true);
    expect(isTopLevelValue(c!, scope)).toBe(true);
    expect(isTopLevelValue(k!, scope)).toBe(false);
  });

  it('rejects lane variables as symbols and as dimensions, and non-index values', () => {
    expect(isValidSymbol(lane!, scope)).toBe(false);
    expect(isValidDim(lane!, scope)).toBe(false);
    expect(isValidDim(lane!)).toBe(false);
    const i32 = module.regions[0]!.firstBlock!.firstOp!.regions[0]!.firstBlock!.getArgument(1);
    expect(isTopLevelValue(i32)).toBe(true);
    expect(isValidSymbol(i32)).toBe(false);
    expect(isValidDim(i32)).toBe(false);
  });
});

const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
(fs.existsSync(mlirOpt) ? it : it.skip)('mlir-opt 22 --canonicalize promotes exactly the annotated symbols', () => {
  const out = execFileSync(mlirOpt, ['--split-input-file', '--canonicalize', file], { encoding: 'utf8', stdio: 'pipe' });
  const parts = out.split(/^\/\/ -----$/m);
  expect(parts.length).toBe(chunks.length);
  const promoted = parts.map((p) => /affine_map<\(\)\[s0\] -> \(s0 \* 3/.test(p));
  expect(promoted).toEqual(chunks.map((c) => c.expected));
});
