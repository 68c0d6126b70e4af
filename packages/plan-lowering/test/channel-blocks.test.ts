/**
 * Grouped convolutions lowered as channel blocks (`channelBlocksOf`, `channelBlockMatrix`): the
 * choice, the block matrices against the convolution's definition, and the lowered batches
 * (one crossbar tile and one channel slice of the padded rows per block) interpreted against the
 * plan on seeded inputs, for depthwise and grouped convolutions with strides and dilations.
 */
import { FloatType, MLIRContext, ShapedValue, parseSourceString, type Operation, type RankedTensorType } from '@raptor-pim/ir-core';
import { GraphComputeBatchOp, WvmmOp, registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { ExtractSliceOp } from '@raptor-pim/upstream-dialects';
import { channelBlockMatrix, channelBlocksOf, channelWindowBytes } from '../src';
import { interpret, runPipeline, worstRatio } from './helpers';
import { hexDenseLiteral, seededValues } from '../../../tools/test-support/seeded-values';

const CROSSBAR = { rows: 128, columns: 128 };

describe('channelBlocksOf', () => {
  it("ultraface's depthwise 3x3 over 32 channels of 160-wide rows: 4 blocks of 8 channels", () => {
    const g = { cout: 32, cin: 32, groups: 32, kh: 3, kw: 3, windowRows: 3, paddedWidth: 162 };
    expect(channelWindowBytes(g, 32)).toBe(124_416);
    expect(channelBlocksOf(g, CROSSBAR, 65536)).toEqual({ groupsPerBlock: 8, blocks: 4, inputChannels: 8, outputChannels: 8 });
  });

  it('needs none where the window of every channel fits half a core', () => {
    expect(channelBlocksOf({ cout: 32, cin: 32, groups: 32, kh: 3, kw: 3, windowRows: 3, paddedWidth: 40 }, CROSSBAR, 65536)).toBeUndefined();
  });

  it('has none where one group alone is too large (a group of 64 channels, 3x3: 576 rows)', () => {
    expect(channelBlocksOf({ cout: 128, cin: 128, groups: 2, kh: 3, kw: 3, windowRows: 3, paddedWidth: 162 }, CROSSBAR, 65536)).toBeUndefined();
  });

  it('takes the most groups whose tile and window fit (crossbar rows bind: 9 x 4 x 3 > 128)', () => {
    const b = channelBlocksOf({ cout: 64, cin: 32, groups: 8, kh: 3, kw: 3, windowRows: 3, paddedWidth: 66 }, CROSSBAR, 65536)!;
    expect(b).toEqual({ groupsPerBlock: 2, blocks: 4, inputChannels: 8, outputChannels: 16 });
  });
});

describe('channelBlockMatrix', () => {
  it('row (i, j, c) and column o of block b hold the filter weight of output b*O + o at its own channel', () => {
    const shape = [12, 2, 3, 2] as const; // 6 groups of 2 input and 2 output channels
    const filters = seededValues(12 * 2 * 3 * 2, 5);
    const blocks = { groupsPerBlock: 3, blocks: 2, inputChannels: 6, outputChannels: 6 };
    for (let b = 0; b < 2; b++) {
      const m = channelBlockMatrix(filters, shape, blocks, b);
      expect(m.length).toBe(3 * 2 * 6 * 6);
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 2; j++)
          for (let c = 0; c < 6; c++)
            for (let o = 0; o < 6; o++) {
              const out = b * 6 + o;
              const group = Math.floor(out / 2);
              const channel = b * 6 + c; // input channel
              const inGroup = channel - group * 2;
              const expected = inGroup >= 0 && inGroup < 2 ? filters[((out * 2 + inGroup) * 3 + i) * 2 + j]! : 0;
              expect(m[((i * 2 + j) * 6 + c) * 6 + o]).toBe(expected);
            }
    }
  });
});

/** A function converting `x` to row strips and running one grouped convolution on them. */
function groupedConvFunction(p: { c: number; cout: number; groups: number; h: number; w: number; k: number; stride: number; dilation: number; pad: number; bias: boolean }): {
  text: string;
  ho: number;
  wo: number;
} {
  const ext = (p.k - 1) * p.dilation + 1;
  const ho = Math.floor((p.h + 2 * p.pad - ext) / p.stride) + 1;
  const wo = Math.floor((p.w + 2 * p.pad - ext) / p.stride) + 1;
  const wShape = `${p.cout}x${p.c / p.groups}x${p.k}x${p.k}`;
  const weights = seededValues(p.cout * (p.c / p.groups) * p.k * p.k, 11);
  const bias = seededValues(p.cout, 13);
  const strip = '#spat<physical_layout nhwc_row_strip>';
  const dense = '#spat<physical_layout dense_nchw>';
  const attrs = `dilations = array<i64: ${p.dilation}, ${p.dilation}>, group = ${p.groups} : i64, logicalLayout = #spat<logical_layout nchw>, pads = array<i64: ${p.pad}, ${p.pad}, ${p.pad}, ${p.pad}>, strides = array<i64: ${p.stride}, ${p.stride}>`;
  const inT = `tensor<1x${p.c}x${p.h}x${p.w}xf32>`;
  const outT = `tensor<1x${p.cout}x${ho}x${wo}xf32>`;
  const text = `func.func @conv(%x: ${inT}) -> ${outT} {
  %w = arith.constant dense<${hexDenseLiteral(weights)}> : tensor<${wShape}xf32>
  %b = arith.constant dense<${hexDenseLiteral(bias)}> : tensor<${p.cout}xf32>
  %xr = "spat.materialize_layout"(%x) <{logicalLayout = #spat<logical_layout nchw>, sourcePhysicalLayout = ${dense}, targetPhysicalLayout = ${strip}}> : (${inT}) -> ${inT}
  %0 = "spat.conv2d_plan"(%xr, %w${p.bias ? ', %b' : ''}) <{${attrs}}> {spat.operand_layouts = [${strip}, ${dense}${
    p.bias ? `, ${dense}` : ''
  }], spat.result_layout = ${strip}} : (${inT}, tensor<${wShape}xf32>${p.bias ? `, tensor<${p.cout}xf32>` : ''}) -> ${outT}
  %1 = "spat.materialize_layout"(%0) <{logicalLayout = #spat<logical_layout nchw>, sourcePhysicalLayout = ${strip}, targetPhysicalLayout = ${dense}}> : (${outT}) -> ${outT}
  return %1 : ${outT}
}`;
  return { text, ho, wo };
}

function parse(text: string): Operation {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const m = parseSourceString(ctx, text);
  if (!m) throw new Error('test function does not parse');
  return m;
}

/** The lowered convolution batch: the one graph compute batch with MVMs. */
function convBatch(module: Operation): Operation {
  const found: Operation[] = [];
  module.walk((op) => {
    if (GraphComputeBatchOp.match(op) && op.regions[0]!.firstBlock!.operations.some((o) => WvmmOp.match(o) !== undefined)) found.push(op);
  });
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('grouped convolutions lowered as channel blocks', () => {
  const cases = [
    { name: 'depthwise 3x3, 32 channels, 64 wide', c: 32, cout: 32, groups: 32, h: 4, w: 64, k: 3, stride: 1, dilation: 1, pad: 1, bias: true, blocks: 4, tile: [72, 8] },
    { name: 'depthwise 3x3 stride 2, 32 channels, 80 wide', c: 32, cout: 32, groups: 32, h: 5, w: 80, k: 3, stride: 2, dilation: 1, pad: 1, bias: false, blocks: 4, tile: [72, 8] },
    { name: 'depthwise 3x3 dilation 2, 32 channels, 64 wide', c: 32, cout: 32, groups: 32, h: 6, w: 64, k: 3, stride: 1, dilation: 2, pad: 2, bias: true, blocks: 4, tile: [72, 8] },
    { name: '8 groups of 4 -> 8 channels, 3x3, 64 wide', c: 32, cout: 64, groups: 8, h: 3, w: 64, k: 3, stride: 1, dilation: 1, pad: 1, bias: true, blocks: 4, tile: [72, 16] },
  ];
  it.each(cases)('$name: one tile and one channel slice per block, same values as the plan', (p) => {
    const { text } = groupedConvFunction(p);
    const module = parse(text);
    const x = ShapedValue.allocate('tensor', FloatType.f32(module.context), [1, p.c, p.h, p.w])!;
    (x.data as Float32Array).set(seededValues(x.data.length, 3));
    const before = interpret(module, 'conv', [x]);
    const run = runPipeline(module, 'builtin.module(func.func(spat-lower-plans))');
    expect(run.diagnostics.map((d) => d.message)).toEqual([]);
    const batch = convBatch(module);
    const body = batch.regions[0]!.firstBlock!;
    const mvms = body.operations.filter((o) => WvmmOp.match(o) !== undefined);
    expect(mvms).toHaveLength(p.blocks);
    for (const mvm of mvms) expect((mvm.getOperand(0).type as RankedTensorType).shape).toEqual(p.tile);
    // Block b reads channels [b*I, (b+1)*I) of the padded rows, all of them once.
    const channelRanges = body.operations
      .filter((o) => ExtractSliceOp.match(o) !== undefined && o.getOperand(0) === body.arguments[1 + p.blocks])
      .map((o) => {
        const t = o.getResult(0).type as RankedTensorType;
        return t.shape[t.shape.length - 1];
      });
    expect(channelRanges).toEqual(new Array(p.blocks).fill(p.c / p.blocks));
    const after = interpret(module, 'conv', [x]);
    expect(worstRatio(after[0]!, before[0]!)).toBeLessThanOrEqual(1);
  });
});
