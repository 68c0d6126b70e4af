/**
 * Runs that break a contract the interpreter can see stop with a diagnostic naming the ops
 * involved (never a wrong value, never an exception): overlapping lane publications,
 * overlapping blueprint slices, a lane that publishes nothing, kernels refusing their operands
 * (Assumed constraints broken), result types that disagree with the computed shape, non-f32
 * data.
 */
import { IntegerType, MLIRContext, ShapedValue } from '@raptor-pim/ir-core';
import { f32, ok, runUnverified, runVerified, valuesOf } from './support';

function failure(r: ReturnType<typeof runVerified>): { message: string; op: string } {
  if (r.ok) throw new Error('expected the run to fail');
  return { message: r.diagnostic.message, op: r.op.name };
}

describe('contract violations stop the run with a diagnostic', () => {
  it('two lanes of a graph batch writing the same slot name both publications and lanes', () => {
    // %slot = lane floordiv 2: lanes 0 and 1 both publish into slot 0 (verifier-valid, runtime overlap).
    const text = `func.func @main(%x: tensor<1x8xf32>) -> tensor<2x1x4xf32> {
  %y = spat.graph_compute_batch %lane = 0 to 2 [] = [] (%arg) = (%x) shared_outs(%out) crossbarWeights 0 : [] (tensor<1x8xf32>) -> tensor<2x1x4xf32> {
    %slot = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%lane)
    %f = tensor.extract_slice %arg[0, 0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %f into %out[%slot, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x4xf32> into tensor<2x1x4xf32>
    }
  }
  return %y : tensor<2x1x4xf32>
}`;
    const f = failure(runVerified(text, 'main', [f32([1, 8], [1, 2, 3, 4, 5, 6, 7, 8])]));
    expect(f.message).toMatch(/tensor\.parallel_insert_slice.*lane \[0\].*tensor\.parallel_insert_slice.*lane \[1\]/);
  });

  it('a lane that publishes nothing names the batch and the lane', () => {
    const text = `func.func @main(%x: tensor<1x4xf32>) -> tensor<2x1x4xf32> {
  %y = spat.graph_compute_batch %lane = 0 to 2 [] = [] (%arg) = (%x) shared_outs(%out) crossbarWeights 0 : [] (tensor<1x4xf32>) -> tensor<2x1x4xf32> {
    spat.in_parallel {
    }
  }
  return %y : tensor<2x1x4xf32>
}`;
    const f = failure(runUnverified(text, 'main', [f32([1, 4], [1, 2, 3, 4])]));
    expect(f).toEqual({ op: 'spat.graph_compute_batch', message: "'spat.graph_compute_batch' lane 0 published nothing" });
  });

  it('overlapping blueprint slices name both slices and the element', () => {
    const text = `func.func @main(%f: tensor<2x1x4xf32>) -> tensor<1x8xf32> {
  %y = spat.blueprint fragments(%f) layout nchw physical fragmented offsets [0, 0, 0, 2] sizes [1, 4, 1, 4] map explicit mode fragment_assembly operandIndices [0, 0] sourceSlots [0, 1] sourceOffsets [0, 0] strides [1, 1, 1, 1] conflict disjoint coverage partial : (tensor<2x1x4xf32>) -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}`;
    const f = failure(runUnverified(text, 'main', [f32([2, 1, 4], [1, 2, 3, 4, 5, 6, 7, 8])]));
    expect(f).toEqual({ op: 'spat.blueprint', message: "'spat.blueprint' slices #0 and #1 both write output element [0, 2]" });
  });

  it('a blueprint slice reading beyond its fragment slot is refused', () => {
    const text = `func.func @main(%f: tensor<2x1x4xf32>) -> tensor<1x8xf32> {
  %y = spat.blueprint fragments(%f) layout nchw physical fragmented offsets [0, 0, 0, 4] sizes [1, 4, 1, 4] map explicit mode fragment_assembly operandIndices [0, 0] sourceSlots [0, 1] sourceOffsets [0, 2] strides [1, 1, 1, 1] conflict disjoint coverage complete : (tensor<2x1x4xf32>) -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}`;
    const f = failure(runUnverified(text, 'main', [f32([2, 1, 4], [1, 2, 3, 4, 5, 6, 7, 8])]));
    expect(f.message).toBe("'spat.blueprint' slice #1: the source range leaves its fragment slot");
  });

  it('spat.vmul with mismatched shapes (an Assumed constraint) is refused by the kernel, naming the op', () => {
    const text = `func.func @main(%a: tensor<1x4xf32>, %b: tensor<1x3xf32>) -> tensor<1x4xf32> {
  %y = spat.vmul %a, %b : (tensor<1x4xf32>, tensor<1x3xf32>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}`;
    const f = failure(runVerified(text, 'main', [f32([1, 4], [1, 2, 3, 4]), f32([1, 3], [1, 2, 3])]));
    expect(f.op).toBe('spat.vmul');
    expect(f.message).toMatch(/^'spat\.vmul': /);
  });

  it('a result type that disagrees with the computed shape is reported (spat.relu with an Assumed shape broken)', () => {
    const text = `func.func @main(%a: tensor<1x4xf32>) -> tensor<2x2xf32> {
  %y = spat.relu(%a) : tensor<1x4xf32> -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}`;
    const f = failure(runVerified(text, 'main', [f32([1, 4], [1, 2, 3, 4])]));
    expect(f).toEqual({ op: 'spat.relu', message: "'spat.relu' computed shape [1, 4] but the result type has [2, 2]" });
  });

  it('non-f32 tensors are refused with the element type named', () => {
    const text = `func.func @main(%a: tensor<1x4xi32>) -> tensor<1x4xi32> {
  %y = spat.relu(%a) : tensor<1x4xi32> -> tensor<1x4xi32>
  return %y : tensor<1x4xi32>
}`;
    const i32 = ShapedValue.allocate('tensor', IntegerType.get(new MLIRContext(), 32), [1, 4])!;
    const f = failure(runVerified(text, 'main', [i32]));
    expect(f).toEqual({ op: 'spat.relu', message: "'spat.relu': operand #0: element type i32 is not f32" });
    const ctxFree = runVerified(text.replace(/i32/g, 'f32'), 'main', [f32([1, 4], [-1, 2, -3, 4])]);
    expect(valuesOf(ok(ctxFree)[0])).toEqual([0, 2, 0, 4]);
  });

  it('multi-block graph bodies are refused by name (scheduling resolves them)', () => {
    const text = `func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %y = "spat.graph_compute"(%x) <{operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%arg: tensor<1x4xf32>):
    spat.yield %arg : tensor<1x4xf32>
  ^bb1(%arg1: tensor<1x4xf32>):
    spat.yield %arg1 : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}`;
    const f = failure(runVerified(text, 'main', [f32([1, 4], [1, 2, 3, 4])]));
    expect(f.message).toBe("'spat.graph_compute': the interpreter runs single-block bodies only (multi-block graph regions are resolved by scheduling)");
  });
});
