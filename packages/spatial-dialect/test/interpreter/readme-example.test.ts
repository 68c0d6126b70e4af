/** The README example, as written there (keeps the README runnable). */
import { FloatType, Interpreter, InterpreterRegistry, MLIRContext, ShapedValue, parseSourceString, printOperation, verify } from '@raptor-pim/ir-core';
import { registerAllSpatialInterpreterRules, registerSpatialDialect } from '../../src';

it('README example: parse, print both forms, run', () => {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const text = `
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x3xf32> {
  %w = arith.constant dense<1.0> : tensor<4x3xf32>
  %y = spat.graph_compute [%warg] = [%w] (%arg) = (%x) crossbarWeights 1 : [tensor<4x3xf32>] (tensor<1x4xf32>) -> tensor<1x3xf32> {
    %v = spat.wvmm[%warg](%arg) : (tensor<4x3xf32>, tensor<1x4xf32>) -> tensor<1x3xf32>
    spat.yield %v : tensor<1x3xf32>
  }
  return %y : tensor<1x3xf32>
}`;
  const { result: module, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text);
    return m && verify(m) ? m : undefined;
  });
  expect(diagnostics).toEqual([]);
  expect(printOperation(module!)).toContain('crossbarWeights 1');
  expect(printOperation(module!, { generic: true })).toContain('"spat.graph_compute"(%0, %arg0) <{operandSegmentSizes = array<i32: 1, 1>}>');
  const rules = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(rules);
  const x = ShapedValue.allocate('tensor', FloatType.f32(ctx), [1, 4])!;
  (x.data as Float32Array).set([1, 2, 3, 4]);
  const r = new Interpreter(rules).runFunction(module!, 'main', [x]);
  expect(r.ok && Array.from((r.values[0] as ShapedValue).data as Float32Array)).toEqual([10, 10, 10]);
});
