/**
 * The dialect registration, the `#spat` attributes and the interfaces of part A: compute-op
 * bindings, the layout capability declaration of the plan ops, and `spat.in_parallel` as the
 * parallel-combining parent of tensor.parallel_insert_slice.
 */
import { hasParallelCombiningParent, parseAttribute, printAttribute, type Operation } from '@raptor-pim/ir-core';
import { ComputeOpInterface, PLAN_OPS, SPAT_OPS, SpatEnumAttr, SpatialLayoutCapabilityInterface } from '../../src';
import { makeContext, parseVerified } from './helpers';

function find(root: Operation, name: string): Operation {
  let found: Operation | undefined;
  root.walk((op) => {
    if (!found && op.name === name) found = op;
  });
  if (!found) throw new Error(`no ${name}`);
  return found;
}

describe('spat dialect registration', () => {
  it('registers all 39 spat ops once, in name order', () => {
    const names = SPAT_OPS.map((d) => d.name);
    expect(names.length).toBe(39);
    expect(new Set(names).size).toBe(39);
    expect([...names].sort()).toEqual(names);
    expect(names.every((n) => n.startsWith('spat.'))).toBe(true);
  });
});

describe('#spat attributes', () => {
  it('are uniqued and print as #spat<kind case>; the pretty form parses to the same attribute', () => {
    const ctx = makeContext();
    const a = SpatEnumAttr.get(ctx, 'physical_layout', 'nhwc_row_strip');
    expect(SpatEnumAttr.get(ctx, 'physical_layout', 'nhwc_row_strip')).toBe(a);
    expect(printAttribute(a)).toBe('#spat<physical_layout nhwc_row_strip>');
    expect(parseAttribute(ctx, '#spat<physical_layout nhwc_row_strip>')).toBe(a);
    expect(parseAttribute(ctx, '#spat.physical_layout<nhwc_row_strip>')).toBe(a);
    for (const [kind, value] of [
      ['logical_layout', 'nchw'],
      ['blueprint_mode', 'physical_view'],
      ['index_map', 'contiguous_row_major'],
      ['conflict_policy', 'disjoint'],
      ['coverage_policy', 'partial'],
    ] as const) {
      const attr = SpatEnumAttr.get(ctx, kind, value);
      expect(parseAttribute(ctx, printAttribute(attr))).toBe(attr);
    }
  });
});

describe('interfaces', () => {
  const batch = `func.func @f(%x: tensor<1x8xf32>) -> tensor<2x1x4xf32> {
  %w = arith.constant dense<1.0> : tensor<4x4xf32>
  %y = spat.graph_compute_batch %lane = 0 to 2 [%warg] = [%w] (%arg) = (%x) shared_outs(%out) crossbarWeights 1 : [tensor<4x4xf32>] (tensor<1x8xf32>) -> tensor<2x1x4xf32> {
    %offset = affine.apply affine_map<(d0) -> (d0 * 4)>(%lane)
    %fragment = tensor.extract_slice %arg[0, %offset] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %v = spat.wvmm[%warg](%fragment) : (tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x4xf32> into tensor<2x1x4xf32>
    }
  }
  return %y : tensor<2x1x4xf32>
}`;

  it('ComputeOpInterface exposes lane, weight, input and output bindings and the body', () => {
    const m = parseVerified(batch);
    const op = find(m, 'spat.graph_compute_batch');
    const impl = op.getInterface(ComputeOpInterface)!;
    const b = impl.getBindings(op);
    const entry = op.regions[0]!.firstBlock!;
    expect(impl.getLaneCount(op)).toBe(2);
    expect(impl.getBody(op)).toBe(op.regions[0]);
    expect(b.lane).toBe(entry.arguments[0]);
    expect(b.weights).toEqual([op.getOperand(0)]);
    expect(b.inputs).toEqual([op.getOperand(1)]);
    expect(b.weightArguments).toEqual([entry.arguments[1]]);
    expect(b.inputArguments).toEqual([entry.arguments[2]]);
    expect(b.outputArguments).toEqual([entry.arguments[3]]);
  });

  it('ComputeOpInterface on spat.graph_compute has no lane and no outputs', () => {
    const m = parseVerified(`func.func @f(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %y = spat.graph_compute [] = [] (%arg) = (%x) crossbarWeights 0 : [] (tensor<1x4xf32>) -> tensor<1x4xf32> {
    %v = spat.relu(%arg) : tensor<1x4xf32> -> tensor<1x4xf32>
    spat.yield %v : tensor<1x4xf32>
  }
  return %y : tensor<1x4xf32>
}`);
    const op = find(m, 'spat.graph_compute');
    const b = op.getInterface(ComputeOpInterface)!.getBindings(op);
    expect([b.lane, b.weights.length, b.inputs.length, b.inputArguments.length, b.outputArguments.length]).toEqual([undefined, 0, 1, 1, 0]);
  });

  it('tensor.parallel_insert_slice accepts spat.in_parallel as its parallel-combining parent', () => {
    const m = parseVerified(batch);
    const insert = find(m, 'tensor.parallel_insert_slice');
    expect(insert.getParentOp()!.name).toBe('spat.in_parallel');
    expect(hasParallelCombiningParent(insert)).toBe(true);
  });

  it('every plan op declares SpatialLayoutCapabilityInterface with the all-dense alternative first', () => {
    expect(PLAN_OPS.length).toBe(10);
    const m = parseVerified(`func.func @f(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) {
  %y = "spat.conv2d_plan"(%x, %w) <{pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  return
}`);
    const op = find(m, 'spat.conv2d_plan');
    const alternatives = op.getInterface(SpatialLayoutCapabilityInterface)!.getLayoutAlternatives(op);
    expect(alternatives[0]).toEqual({ operandLayouts: ['dense_nchw', 'dense_nchw'], resultLayout: 'dense_nchw' });
    for (const def of PLAN_OPS) expect(def.interfaceMap.has(SpatialLayoutCapabilityInterface)).toBe(true);
  });
});

