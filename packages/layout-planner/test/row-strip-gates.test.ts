/**
 * The row-strip gates accept the geometries their TSDoc promises and refuse, naming the
 * parameter, every geometry or resource limit they check.
 */
import { defaultTarget, type HardwareConfig } from '@raptor-pim/pim-target';
import { BiasAddPlanOp, Conv2dPlanOp, FlattenPlanOp, GlobalAveragePoolPlanOp, MaxPool2dPlanOp, ResizeNearestPlanOp } from '@raptor-pim/spatial-dialect';
import {
  canConsumeAndProduceRowStrip,
  canLowerConvPlanToRowStrip,
  canLowerFlattenFromRowStrip,
  canLowerGlobalAveragePoolPlanToRowStrip,
  canLowerMaxPoolPlanToRowStrip,
  canLowerResizeNearestPlanToRowStrip,
  checkBiasAddPlanToRowStrip,
  checkConvPlanToRowStrip,
  checkFlattenFromRowStrip,
  checkMaxPoolPlanToRowStrip,
  isSupportedBiasAddValue,
  rowStripResources,
} from '@raptor-pim/layout-planner';
import { firstOp, parseVerified } from './helpers';

const config = (): HardwareConfig => defaultTarget().config;
const withLocalMemory = (bytes: number): HardwareConfig => {
  const c = structuredClone(config());
  c.chip_config.core_config.local_memory_config.memory_size = bytes;
  return c;
};

function conv(input: string, weight: string, output: string, attrs = 'pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64', bias = '') {
  const biasArg = bias ? `, %b` : '';
  const biasParam = bias ? `, %b: ${bias}` : '';
  const biasType = bias ? `, ${bias}` : '';
  const m = parseVerified(`func.func @f(%x: ${input}, %w: ${weight}${biasParam}) -> ${output} {
  %y = "spat.conv2d_plan"(%x, %w${biasArg}) <{${attrs}, logicalLayout = #spat<logical_layout nchw>}> : (${input}, ${weight}${biasType}) -> ${output}
  return %y : ${output}
}`);
  return Conv2dPlanOp.get(firstOp(m, 'spat.conv2d_plan'));
}

describe('rowStripResources', () => {
  it('reads crossbar size, crossbars, cores, local memory and element width from the config', () => {
    const c = config();
    const r = rowStripResources(c);
    expect(r.crossbarRows).toBe(c.chip_config.core_config.matrix_config.xbar_size[0]);
    expect(r.crossbarColumns).toBe(c.chip_config.core_config.matrix_config.xbar_size[1]);
    expect(r.localMemoryBytes).toBe(c.chip_config.core_config.local_memory_config.memory_size);
    expect(r.elementBytes).toBe(Math.ceil(Math.max(c.raptor_config.input_bits, c.raptor_config.output_bits) / 8));
  });
});

describe('conv gates', () => {
  it('accept a padded 3x3 conv and refuse it when the lane does not fit local memory', () => {
    const v = conv('tensor<1x8x16x16xf32>', 'tensor<16x8x3x3xf32>', 'tensor<1x16x16x16xf32>');
    expect(canLowerConvPlanToRowStrip(v, config())).toBe(true);
    expect(canConsumeAndProduceRowStrip(v, config())).toBe(true);
    // lane (one output pixel): a 3 x 3 window of 8 channels + 16 channels = 88 elements
    const bytes = 88 * rowStripResources(config()).elementBytes;
    expect(canLowerConvPlanToRowStrip(v, withLocalMemory(bytes))).toBe(true);
    const refused = checkConvPlanToRowStrip(v, withLocalMemory(bytes - 1));
    expect(refused).toMatchObject({ ok: false, parameter: 'local_memory_config.memory_size' });
  });
  it('accept depthwise, strided and dilated geometry', () => {
    const v = conv('tensor<1x8x9x9xf32>', 'tensor<8x1x3x3xf32>', 'tensor<1x8x3x3xf32>', 'pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>, group = 8 : i64');
    expect(canLowerConvPlanToRowStrip(v, config())).toBe(true);
  });
  it('refuse an output that contradicts the window formula', () => {
    const v = conv('tensor<1x8x16x16xf32>', 'tensor<16x8x3x3xf32>', 'tensor<1x16x15x16xf32>');
    expect(checkConvPlanToRowStrip(v, config())).toMatchObject({ ok: false, parameter: 'output' });
  });
  it('refuse a group that does not divide the channels', () => {
    const v = conv('tensor<1x6x8x8xf32>', 'tensor<4x2x1x1xf32>', 'tensor<1x4x8x8xf32>', 'pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 3 : i64');
    expect(checkConvPlanToRowStrip(v, config())).toMatchObject({ ok: false, parameter: 'group' });
  });
  it('refuse an unsupported bias shape', () => {
    const v = conv('tensor<1x8x4x4xf32>', 'tensor<4x8x1x1xf32>', 'tensor<1x4x4x4xf32>', 'pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64', 'tensor<2x4xf32>');
    expect(checkConvPlanToRowStrip(v, config())).toMatchObject({ ok: false, parameter: 'bias' });
    const ok = conv('tensor<1x8x4x4xf32>', 'tensor<4x8x1x1xf32>', 'tensor<1x4x4x4xf32>', 'pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64', 'tensor<4xf32>');
    expect(canLowerConvPlanToRowStrip(ok, config())).toBe(true);
  });
  it('refuse weights that need more crossbar tiles than the chip has', () => {
    const v = conv('tensor<1x8x4x4xf32>', 'tensor<300x8x1x1xf32>', 'tensor<1x300x4x4xf32>', 'pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64');
    const small = structuredClone(config());
    small.chip_config.core_cnt = 1;
    small.chip_config.core_config.matrix_config.xbar_array_count = 2; // needs ceil(8/128)*ceil(300/128) = 3
    expect(checkConvPlanToRowStrip(v, small)).toMatchObject({ ok: false, parameter: 'matrix_config.xbar_array_count' });
    small.chip_config.core_config.matrix_config.xbar_array_count = 3;
    expect(canLowerConvPlanToRowStrip(v, small)).toBe(true);
  });
  it('R -> R also needs one input strip to fit', () => {
    const v = conv('tensor<1x64x4x40xf32>', 'tensor<1x64x1x1xf32>', 'tensor<1x1x4x40xf32>', 'pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64');
    const eb = rowStripResources(config()).elementBytes;
    // lane 1 x 1 x 64 + 1 = 65 elements; strip 40 x 64 = 2560
    expect(canLowerConvPlanToRowStrip(v, withLocalMemory(65 * eb))).toBe(true);
    expect(canConsumeAndProduceRowStrip(v, withLocalMemory(2560 * eb))).toBe(true);
    expect(canConsumeAndProduceRowStrip(v, withLocalMemory(2559 * eb))).toBe(false);
  });
});

describe('pool, resize, flatten and bias gates', () => {
  const m = parseVerified(`func.func @f(%x: tensor<1x4x8x8xf32>, %c: tensor<1x1x8x8xf32>, %s: tensor<1x4x1x1xf32>, %b: tensor<4xf32>, %bb: tensor<1x4x8x8xf32>) -> () {
  %p = "spat.max_pool2d_plan"(%x) <{kernelShape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %q = "spat.max_pool2d_plan"(%x) <{kernelShape = array<i64: 2, 2>, pads = array<i64: 2, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x4x8x8xf32>) -> tensor<1x4x5x4xf32>
  %g = "spat.global_average_pool_plan"(%x) <{logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32>
  %r = "spat.resize_nearest_plan"(%x) <{logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>
  %f = "spat.flatten_plan"(%x) <{axis = 1 : i64, logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x4x8x8xf32>) -> tensor<1x256xf32>
  %f1 = "spat.flatten_plan"(%c) <{axis = 1 : i64, logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x1x8x8xf32>) -> tensor<1x64xf32>
  %f2 = "spat.flatten_plan"(%s) <{axis = 1 : i64, logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  %a = "spat.bias_add_plan"(%x, %b) <{logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return
}`);
  const ops = (name: string) => {
    const out: import('@raptor-pim/ir-core').Operation[] = [];
    m.walk((op) => {
      if (op.name === name) out.push(op);
    });
    return out;
  };
  it('max pool: accepts floor windows, refuses a pad that covers a whole window', () => {
    const [p, q] = ops('spat.max_pool2d_plan').map((o) => MaxPool2dPlanOp.get(o));
    expect(canLowerMaxPoolPlanToRowStrip(p!, config())).toBe(true);
    expect(checkMaxPoolPlanToRowStrip(q!, config())).toMatchObject({ ok: false, parameter: 'pads' });
    expect(canLowerMaxPoolPlanToRowStrip(p!, withLocalMemory(16))).toBe(false);
  });
  it('global average pool and resize: local memory bounds the lane', () => {
    const g = GlobalAveragePoolPlanOp.get(ops('spat.global_average_pool_plan')[0]!);
    const eb = rowStripResources(config()).elementBytes;
    expect(canLowerGlobalAveragePoolPlanToRowStrip(g, withLocalMemory((8 * 4 + 4) * eb))).toBe(true);
    expect(canLowerGlobalAveragePoolPlanToRowStrip(g, withLocalMemory((8 * 4 + 4) * eb - 1))).toBe(false);
    const r = ResizeNearestPlanOp.get(ops('spat.resize_nearest_plan')[0]!);
    expect(canLowerResizeNearestPlanToRowStrip(r, withLocalMemory((8 * 4 + 16 * 4) * eb))).toBe(true);
    expect(canLowerResizeNearestPlanToRowStrip(r, withLocalMemory((8 * 4 + 16 * 4) * eb - 1))).toBe(false);
  });
  it('flatten from row strips: only when the strip order is the NCHW order', () => {
    const [f, f1, f2] = ops('spat.flatten_plan').map((o) => FlattenPlanOp.get(o));
    expect(checkFlattenFromRowStrip(f!, config())).toMatchObject({ ok: false, parameter: 'input' });
    expect(canLowerFlattenFromRowStrip(f1!, config())).toBe(true);
    expect(canLowerFlattenFromRowStrip(f2!, config())).toBe(true);
  });
  it('bias add: scalar, [C], [1,C], [1,C,1,1] only', () => {
    const a = BiasAddPlanOp.get(ops('spat.bias_add_plan')[0]!);
    expect(isSupportedBiasAddValue(a.bias, 4)).toBe(true);
    expect(isSupportedBiasAddValue(a.bias, 5)).toBe(false);
    expect(checkBiasAddPlanToRowStrip(a).ok).toBe(true);
    const fn = m.regions[0]!.entryBlock!.firstOp!;
    const args = fn.regions[0]!.entryBlock!.arguments;
    expect(isSupportedBiasAddValue(args[4]!, 4)).toBe(false); // tensor<1x4x8x8xf32>
    expect(isSupportedBiasAddValue(args[2]!, 4)).toBe(true); // tensor<1x4x1x1xf32>
  });
});
