/**
 * affine.apply folding: with constant operands it folds to an `arith.constant` holding the
 * map's value (checked against mlir-opt 22's canonicalizer output on the same input), and a map
 * that is a single dimension or symbol folds to that operand.
 */
import { applyPatternsGreedily, printOperation } from '@raptor-pim/ir-core';
import { parseVerified } from '../tensor/helpers';

function canonicalize(text: string): string {
  const m = parseVerified(text);
  applyPatternsGreedily(m, []);
  return printOperation(m, { localScope: true });
}

describe('affine.apply folding', () => {
  it('folds constant operands (dims then symbols) with floordiv/mod semantics', () => {
    const out = canonicalize(`func.func @f() -> (index, index) {
      %a = arith.constant -7 : index
      %b = arith.constant 3 : index
      %0 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0 + d0 mod 4)>(%a)[%b]
      %1 = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1 ceildiv 2)>(%b, %a)
      return %0, %1 : index, index
    }`);
    // floor(-7 / 3) = -3, -7 mod 4 = 1; 3 * 4 + ceil(-7 / 2) = 12 - 3 = 9.
    expect(out).toContain('%c-2 = arith.constant -2 : index');
    expect(out).toContain('%c9 = arith.constant 9 : index');
    expect(out).not.toContain('affine.apply');
  });

  it('folds a single-dimension or single-symbol map to its operand', () => {
    const out = canonicalize(`func.func @f(%x: index, %y: index) -> (index, index) {
      %0 = affine.apply affine_map<(d0)[s0] -> (d0)>(%x)[%y]
      %1 = affine.apply affine_map<(d0)[s0] -> (s0)>(%x)[%y]
      return %0, %1 : index, index
    }`);
    expect(out).toContain('return %arg0, %arg1 : index, index');
  });

  it('keeps a map with non-constant operands', () => {
    const out = canonicalize(`func.func @f(%x: index) -> index {
      %0 = affine.apply affine_map<(d0) -> (d0 * 4)>(%x)
      return %0 : index
    }`);
    expect(out).toContain('affine.apply affine_map<(d0) -> (d0 * 4)>(%arg0)');
  });
});
