/**
 * Channel blocks of a grouped convolution (plan lowering's form where a lane's window of every
 * channel exceeds half a core) split by `spat-split-input-channels` into column parts: a
 * depthwise 3x3 convolution over 32 channels of 64-wide rows (a 50 KiB streamed window on the
 * default 64 KiB cores) lowers as 4 blocks of 8 channels (12.4 KiB of window each); the split
 * gives 2 parts of 2 blocks (25 KiB within the 32 KiB budget), each binding two 72 x 8 tiles and
 * reading only its 16 channels of the padded rows, joined by a fragment assembly (no reduction
 * compute), and the interpreter gives the outputs of the unsplit module.
 * A convolution whose window fits is left alone.
 */
import { FloatType, MLIRContext, PassRegistry, ShapedValue, parsePassPipeline, parseSourceString, verify, type Operation, type RankedTensorType } from '@raptor-pim/ir-core';
import { BlueprintOp, GraphComputeBatchOp, WvmmOp, registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { ExtractSliceOp, readSliceLists } from '@raptor-pim/upstream-dialects';
import { TargetKey as LoweringTargetKey, registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import { TargetKey, planChannelBlockSplits, registerSchedulerPasses } from '@raptor-pim/scheduler';
import { funcOf, run } from './helpers';
import { hexDenseLiteral, seededValues } from '../../../tools/test-support/seeded-values';

/** A depthwise 3x3 convolution (padding 1, bias, ReLU) over `[1, 32, h, w]` in row strips. */
function depthwise(h: number, w: number): string {
  const strip = '#spat<physical_layout nhwc_row_strip>';
  const dense = '#spat<physical_layout dense_nchw>';
  const t = `tensor<1x32x${h}x${w}xf32>`;
  return `func.func @main(%x: ${t}) -> ${t} {
  %w = arith.constant dense<${hexDenseLiteral(seededValues(32 * 9, 7))}> : tensor<32x1x3x3xf32>
  %b = arith.constant dense<${hexDenseLiteral(seededValues(32, 9))}> : tensor<32xf32>
  %xr = "spat.materialize_layout"(%x) <{logicalLayout = #spat<logical_layout nchw>, sourcePhysicalLayout = ${dense}, targetPhysicalLayout = ${strip}}> : (${t}) -> ${t}
  %0 = "spat.conv2d_plan"(%xr, %w, %b) <{dilations = array<i64: 1, 1>, group = 32 : i64, logicalLayout = #spat<logical_layout nchw>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> {spat.operand_layouts = [${strip}, ${dense}, ${dense}], spat.result_layout = ${strip}} : (${t}, tensor<32x1x3x3xf32>, tensor<32xf32>) -> ${t}
  %1 = "spat.relu_plan"(%0) <{logicalLayout = #spat<logical_layout nchw>}> {spat.operand_layouts = [${strip}], spat.result_layout = ${strip}} : (${t}) -> ${t}
  %2 = "spat.materialize_layout"(%1) <{logicalLayout = #spat<logical_layout nchw>, sourcePhysicalLayout = ${strip}, targetPhysicalLayout = ${dense}}> : (${t}) -> ${t}
  return %2 : ${t}
}`;
}

/** Parses `text` and lowers its plans (spat-lower-plans on the default target). */
function lowered(text: string): Operation {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const module = parseSourceString(ctx, text, { filename: 'depthwise.mlir' })!;
  const registry = new PassRegistry();
  registerPlanLoweringPasses(registry);
  const pm = parsePassPipeline(ctx, 'builtin.module(func.func(spat-lower-plans))', registry)!;
  pm.setContext(LoweringTargetKey, defaultTarget());
  expect(pm.run(module).success).toBe(true);
  return module;
}

function weightedBatches(module: Operation): Operation[] {
  return funcOf(module).regions[0]!.firstBlock!.operations.filter((o) => GraphComputeBatchOp.match(o) !== undefined && o.regions[0]!.firstBlock!.operations.some((x) => WvmmOp.match(x) !== undefined));
}

describe('spat-split-input-channels on channel blocks', () => {
  it('splits a depthwise convolution of 4 channel blocks into 2 column parts of 2 blocks, each reading its channels; same outputs', () => {
    const module = lowered(depthwise(4, 64));
    const x = ShapedValue.allocate('tensor', FloatType.f32(module.context), [1, 32, 4, 64])!;
    (x.data as Float32Array).set(seededValues(x.data.length, 3));
    const before = run(module, 'main', [x]);
    const cost = createCostModel(defaultTarget());
    const plans = planChannelBlockSplits(funcOf(module), cost);
    expect(plans.map((p) => p.parts.map((q) => [q.chains, q.offset, q.width, q.crossbars]))).toEqual([
      [
        [[0, 1], 0, 16, 2],
        [[2, 3], 16, 16, 2],
      ],
    ]);
    const registry = new PassRegistry();
    registerSchedulerPasses(registry);
    const pm = parsePassPipeline(module.context, 'builtin.module(spat-split-input-channels)', registry)!;
    pm.setContext(TargetKey, defaultTarget());
    expect(pm.run(module).success).toBe(true);
    expect(verify(module)).toBe(true);
    const parts = weightedBatches(module);
    expect(parts).toHaveLength(2);
    parts.forEach((part, p) => {
      const body = part.regions[0]!.firstBlock!;
      const mvms = body.operations.filter((o) => WvmmOp.match(o) !== undefined);
      expect(mvms.map((m) => (m.getOperand(0).type as RankedTensorType).shape)).toEqual([
        [72, 8],
        [72, 8],
      ]);
      const reads = body.operations.filter((o) => ExtractSliceOp.match(o) !== undefined && (o.getResult(0).type as RankedTensorType).shape.length === 3);
      expect(reads.map((r) => (r.getResult(0).type as RankedTensorType).shape)).toEqual([
        [3, 3, 8],
        [3, 3, 8],
      ]);
      expect(reads.map((r) => readSliceLists(r).offsets[2])).toEqual([16 * p, 16 * p + 8]);
    });
    expect(funcOf(module).regions[0]!.firstBlock!.operations.some((o) => BlueprintOp.match(o) !== undefined)).toBe(true);
    expect(run(module, 'main', [x])).toEqual(before);
  });

  it('leaves a convolution whose window fits half a core alone (no channel blocks, no split)', () => {
    const module = lowered(depthwise(4, 16));
    expect(planChannelBlockSplits(funcOf(module), createCostModel(defaultTarget()))).toEqual([]);
    expect(weightedBatches(module)).toHaveLength(1);
  });
});
