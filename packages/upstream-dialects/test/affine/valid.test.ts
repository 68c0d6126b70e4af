/**
 * Positive cases of the affine.apply symbol rule: test/fixtures/affine/valid.mlir uses scf.forall
 * lane variables and scf.for induction variables in dimension and symbol positions, and function
 * arguments, constants and affine.apply results as symbols. mlir-opt 22 accepts the file and
 * prints valid.out; ours must verify it and print the same text.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import { parseVerified } from '../tensor/helpers';

const dir = path.resolve(__dirname, '../fixtures/affine');
const input = fs.readFileSync(path.join(dir, 'valid.mlir'), 'utf8');
const golden = fs.readFileSync(path.join(dir, 'valid.out'), 'utf8');

describe('affine.apply operands accepted as MLIR 22 accepts them', () => {
  it('verifies and prints what mlir-opt 22 prints', () => {
    expect(printOperation(parseVerified(input)) + '\n').toBe(golden);
  });

  it('verifies the golden (round trip)', () => {
    expect(printOperation(parseVerified(golden)) + '\n').toBe(golden);
  });

  const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
  (fs.existsSync(mlirOpt) ? it : it.skip)('mlir-opt 22 still prints the golden', () => {
    expect(execFileSync(mlirOpt, [path.join(dir, 'valid.mlir')], { encoding: 'utf8', stdio: 'pipe' })).toBe(golden);
  });
});
