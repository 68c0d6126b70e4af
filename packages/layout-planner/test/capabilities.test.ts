/**
 * The capability table is exactly the compatibility matrix of spatial-layouts.md: per plan op,
 * dense first, then the listed alternatives with their intrinsic costs (generic row strip -2,
 * SiLU -3), `already` requirements where the matrix says "input already R", and gated
 * alternatives dropped (with the gate's reason) when the gate refuses.
 */
import type { Operation } from '@raptor-pim/ir-core';
import { defaultTarget } from '@raptor-pim/pim-target';
import { getLayoutAlternatives, planLayoutCapabilities, type PlanCandidates } from '@raptor-pim/layout-planner';
import { parseVerified } from './helpers';

const config = defaultTarget().config;
const T = 'tensor<1x2x4x4xf32>';
const LL = 'logicalLayout = #spat<logical_layout nchw>';
const m = parseVerified(`func.func @all(%x: ${T}, %b: tensor<2xf32>, %w: tensor<2x2x3x3xf32>) -> () {
  %conv = "spat.conv2d_plan"(%x, %w, %b) <{dilations = array<i64: 1, 1>, group = 1 : i64, ${LL}, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (${T}, tensor<2x2x3x3xf32>, tensor<2xf32>) -> ${T}
  %flat = "spat.flatten_plan"(%x) <{axis = 1 : i64, ${LL}}> : (${T}) -> tensor<1x32xf32>
  %relu = "spat.relu_plan"(%x) <{${LL}}> : (${T}) -> ${T}
  %silu = "spat.silu_plan"(%x) <{${LL}}> : (${T}) -> ${T}
  %resize = "spat.resize_nearest_plan"(%x) <{${LL}}> : (${T}) -> tensor<1x2x8x8xf32>
  %pool = "spat.max_pool2d_plan"(%x) <{dilations = array<i64: 1, 1>, kernelShape = array<i64: 2, 2>, ${LL}, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}> : (${T}) -> tensor<1x2x2x2xf32>
  %gap = "spat.global_average_pool_plan"(%x) <{${LL}}> : (${T}) -> tensor<1x2x1x1xf32>
  %bias = "spat.bias_add_plan"(%x, %b) <{${LL}}> : (${T}, tensor<2xf32>) -> ${T}
  %add = "spat.add_plan"(%x, %x) <{${LL}}> : (${T}, ${T}) -> ${T}
  %cat = "spat.concat_plan"(%x, %x, %x) <{axis = 1 : i64, ${LL}}> : (${T}, ${T}, ${T}) -> tensor<1x6x4x4xf32>
  return
}`);

function candidatesOf(name: string, cfg = config): PlanCandidates {
  let op: Operation | undefined;
  m.walk((o) => {
    if (o.name === name) op = o;
  });
  return planLayoutCapabilities().lookup(op!)!.getCandidates(op!, cfg);
}
const table = (c: PlanCandidates) => c.alternatives.map((a) => `${a.label} ${a.intrinsicCost}${a.operands.some((o) => o.kind === 'already') ? ' already' : ''}`);

it.each([
  ['spat.conv2d_plan', ['(D,D,D)->D 0', '(D,*,*)->R -2', '(R,*,*)->R -2']],
  ['spat.flatten_plan', ['D->D 0', 'F->D 0 already']], // R->D refused: 2 channels x 16 pixels
  ['spat.relu_plan', ['D->D 0', 'R->R -2 already']],
  ['spat.silu_plan', ['D->D 0', 'R->R -3 already']],
  ['spat.resize_nearest_plan', ['D->D 0', 'R->R -2 already']],
  ['spat.max_pool2d_plan', ['D->D 0', 'D->R -2', 'R->R -2']],
  ['spat.global_average_pool_plan', ['D->D 0', 'D->R -2', 'R->R -2']],
  ['spat.bias_add_plan', ['(D,D)->D 0', '(R,D)->R -2 already']],
  ['spat.add_plan', ['(D,D)->D 0', '(R,R)->R -2 already']],
  ['spat.concat_plan', ['(D,D,D)->D 0', '(R,R,R)->R -2 already']],
])('%s advertises %j', (name, expected) => {
  expect(table(candidatesOf(name))).toEqual(expected);
});

it('flatten lists R->D as refused by its gate', () => {
  expect(candidatesOf('spat.flatten_plan').refused.map((r) => `${r.label} ${r.gate} ${r.verdict.parameter}`)).toEqual(['R->D canLowerFlattenFromRowStrip input']);
});

it('a gate that refuses removes the row-strip alternatives', () => {
  const tiny = structuredClone(config);
  tiny.chip_config.core_config.local_memory_config.memory_size = 8;
  expect(table(candidatesOf('spat.conv2d_plan', tiny))).toEqual(['(D,D,D)->D 0']);
  expect(table(candidatesOf('spat.max_pool2d_plan', tiny))).toEqual(['D->D 0']);
  expect(candidatesOf('spat.conv2d_plan', tiny).refused.map((r) => r.gate)).toEqual(['canLowerConvPlanToRowStrip', 'canConsumeAndProduceRowStrip']);
});

it('getLayoutAlternatives offers "already" alternatives only for matching supplied layouts and resolves retained operands', () => {
  const relu = candidatesOf('spat.relu_plan');
  expect(getLayoutAlternatives(relu, ['dense_nchw']).map((a) => a.alternative)).toEqual([{ operandLayouts: ['dense_nchw'], resultLayout: 'dense_nchw' }]);
  expect(getLayoutAlternatives(relu, ['nhwc_row_strip']).map((a) => a.alternative.resultLayout)).toEqual(['dense_nchw', 'nhwc_row_strip']);
  const conv = candidatesOf('spat.conv2d_plan');
  expect(getLayoutAlternatives(conv, ['dense_nchw', 'dense_nchw', 'fragmented'])[1]!.alternative.operandLayouts).toEqual(['dense_nchw', 'dense_nchw', 'fragmented']);
});
