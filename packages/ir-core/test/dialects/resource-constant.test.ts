/**
 * `arith.constant dense_resource<h> : T` is a typed constant (as in MLIR): it parses, verifies
 * and prints back; the interpreter has no element data for it and says so at the op.
 */
import { DenseElementsAttr, DenseResourceElementsAttr, Interpreter, InterpreterRegistry, RankedTensorType, printOperation, registerBuiltinInterpreterRules } from '@raptor-pim/ir-core';
import { parseAndVerify } from '../roundtrip/corpus';

const source = `func.func @f() -> tensor<2xf32> {
  %cst = arith.constant dense_resource<blob_0> : tensor<2xf32>
  return %cst : tensor<2xf32>
}`;

describe('arith.constant with a dense_resource value', () => {
  it('parses, verifies and prints back', () => {
    const { module, diagnostics } = parseAndVerify(source, 'resource.mlir');
    expect(diagnostics).toEqual([]);
    expect(printOperation(module!)).toContain('%cst = arith.constant dense_resource<blob_0> : tensor<2xf32>');
  });

  it('fails to interpret with a diagnostic naming the handle, and runs once the data is attached', () => {
    const { module } = parseAndVerify(source, 'resource.mlir');
    const registry = new InterpreterRegistry();
    registerBuiltinInterpreterRules(registry);
    const r = new Interpreter(registry).runFunction(module!, 'f', []);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.message).toContain('dense_resource<blob_0> has no element data to interpret');
    let constant = module!;
    module!.walk((op) => {
      if (op.name === 'arith.constant') constant = op;
    });
    const value = constant.getAttr('value') as DenseResourceElementsAttr;
    constant.setAttr('value', DenseElementsAttr.get(value.type as RankedTensorType, Float32Array.of(1.5, -2)));
    const again = new Interpreter(registry).runFunction(module!, 'f', []);
    expect(again.ok).toBe(true);
  });
});
