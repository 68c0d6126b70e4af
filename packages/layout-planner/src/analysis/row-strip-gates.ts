/**
 * The row-strip gates of spatial-layouts.md: real predicates over a plan's geometry (typed
 * accessors of the `spat.*_plan` definitions) and the target's resources
 * ({@link rowStripResources} of a pim-target `HardwareConfig`). The layout planner offers a
 * row-strip alternative only when its gate holds, and plan-lowering calls the same functions
 * before it produces a row strip, so the planner never picks a layout the lowering cannot
 * produce.
 *
 * Every gate has two forms: `checkX(view, config)` returns a {@link GateVerdict} (the refused
 * parameter and why, for diagnostics and `debug-layouts`), and `canX(view, config)` is its
 * boolean.
 *
 * What a row strip is (README, "The NHWCRowStrip layout"): a logically NCHW value
 * `tensor<N x C x H x W>` stored as N*H strips, strip `n*H + h` holding row h of example n as
 * W channel vectors of C elements (a W x C matrix, pixel-major). One lane of a lowered batch
 * produces one strip, so a lane's working set (the input it reads for its row plus the strip
 * it writes) must fit one core's local memory.
 */
import { RankedTensorType, formatType, type Type, type Value } from '@raptor-pim/ir-core';
import type {
  BiasAddPlanOp,
  Conv2dPlanOp,
  FlattenPlanOp,
  GlobalAveragePoolPlanOp,
  MaxPool2dPlanOp,
  ResizeNearestPlanOp,
} from '@raptor-pim/spatial-dialect';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { GateMessages as M } from '../diagnostics';
import { rowStripResources, type RowStripResources } from './row-strip-resources';

/** Typed view of a `spat.conv2d_plan`. */
export type Conv2dPlanView = ReturnType<typeof Conv2dPlanOp.get>;
/** Typed view of a `spat.flatten_plan`. */
export type FlattenPlanView = ReturnType<typeof FlattenPlanOp.get>;
/** Typed view of a `spat.max_pool2d_plan`. */
export type MaxPool2dPlanView = ReturnType<typeof MaxPool2dPlanOp.get>;
/** Typed view of a `spat.global_average_pool_plan`. */
export type GlobalAveragePoolPlanView = ReturnType<typeof GlobalAveragePoolPlanOp.get>;
/** Typed view of a `spat.resize_nearest_plan`. */
export type ResizeNearestPlanView = ReturnType<typeof ResizeNearestPlanOp.get>;
/** Typed view of a `spat.bias_add_plan`. */
export type BiasAddPlanView = ReturnType<typeof BiasAddPlanOp.get>;

/**
 * The answer of a gate: `ok`, or the refused `parameter` (an attribute, operand or target
 * resource name) and the `reason` with the value and the limit.
 */
export type GateVerdict = { readonly ok: true } | { readonly ok: false; readonly parameter: string; readonly reason: string };

const OK: GateVerdict = { ok: true };
const refuse = (parameter: string, reason: string): GateVerdict => ({ ok: false, parameter, reason });

/** Static shape of `type` when it is a static ranked tensor of `rank` with positive dims. */
function staticShape(what: string, type: Type, rank: number): readonly number[] | GateVerdict {
  if (!(type instanceof RankedTensorType) || type.shape.some((d) => d < 0)) return refuse(what, M.notStaticTensor(what, formatType(type)));
  if (type.shape.length !== rank) return refuse(what, M.notRank(what, formatType(type), rank));
  for (const d of type.shape) if (d <= 0) return refuse(what, M.notPositive(`every dimension of ${what}`, d));
  return type.shape;
}

function isVerdict<T extends object>(x: T | GateVerdict): x is GateVerdict {
  return !Array.isArray(x) && 'ok' in x;
}

function dense(values: { values: readonly (number | bigint)[] }): number[] {
  return values.values.map((v) => Number(v));
}

/** The spatial window of a conv or pool plan, checked: positive steps, non-negative pads. */
interface Window {
  readonly kernel: readonly [number, number];
  readonly strides: readonly [number, number];
  readonly dilations: readonly [number, number];
  /** [top, left, bottom, right]. */
  readonly pads: readonly [number, number, number, number];
}

function checkWindow(kernel: readonly number[], strides: readonly number[], dilations: readonly number[], pads: readonly number[]): Window | GateVerdict {
  if (kernel.length !== 2 || strides.length !== 2 || dilations.length !== 2 || pads.length !== 4) return refuse('window', 'window attributes have the wrong length');
  for (const [name, list] of [
    ['kernel', kernel],
    ['strides', strides],
    ['dilations', dilations],
  ] as const) {
    for (const v of list) if (v <= 0) return refuse(name, M.notPositive(name, v));
  }
  for (const p of pads) if (p < 0) return refuse('pads', M.negative('pads', p));
  return {
    kernel: [kernel[0]!, kernel[1]!],
    strides: [strides[0]!, strides[1]!],
    dilations: [dilations[0]!, dilations[1]!],
    pads: [pads[0]!, pads[1]!, pads[2]!, pads[3]!],
  };
}

/** Output size of one spatial axis: floor((in + padBegin + padEnd - dilation*(kernel-1) - 1)/stride) + 1. */
export function windowOutputSize(input: number, padBegin: number, padEnd: number, kernel: number, stride: number, dilation: number): number {
  return Math.floor((input + padBegin + padEnd - dilation * (kernel - 1) - 1) / stride) + 1;
}

function checkOutputSpatial(w: Window, h: number, wi: number, ho: number, wo: number): GateVerdict {
  const eh = windowOutputSize(h, w.pads[0], w.pads[2], w.kernel[0], w.strides[0], w.dilations[0]);
  if (eh !== ho) return refuse('output', M.outputShape('height', ho, eh));
  const ew = windowOutputSize(wi, w.pads[1], w.pads[3], w.kernel[1], w.strides[1], w.dilations[1]);
  if (ew !== wo) return refuse('output', M.outputShape('width', wo, ew));
  return OK;
}

function checkWorkingSet(what: string, elements: number, r: RowStripResources): GateVerdict {
  const bytes = elements * r.elementBytes;
  return bytes <= r.localMemoryBytes ? OK : refuse('local_memory_config.memory_size', M.workingSet(what, bytes, r.localMemoryBytes));
}

/**
 * Elements one row-strip lane of a windowed op holds: the `kernelRows` input rows its output
 * row reads (padded width x channels) plus the output strip it writes.
 */
function windowLaneElements(w: Window, inWidth: number, inChannels: number, outWidth: number, outChannels: number): number {
  return w.kernel[0] * (inWidth + w.pads[1] + w.pads[3]) * inChannels + outWidth * outChannels;
}

/**
 * Whether `type` is a supported bias for `channels` output channels: a static ranked tensor
 * of shape `[]`, `[C]`, `[1, C]` or `[1, C, 1, 1]` (C = `channels`), as `spat.bias_add_plan`
 * and the conv bias accept.
 */
export function checkBiasAddType(type: Type, channels: number): GateVerdict {
  const bad = refuse('bias', M.biasShape(formatType(type), channels));
  if (!(type instanceof RankedTensorType) || type.shape.some((d) => d < 0)) return bad;
  const s = type.shape;
  const ok =
    s.length === 0 ||
    (s.length === 1 && s[0] === channels) ||
    (s.length === 2 && s[0] === 1 && s[1] === channels) ||
    (s.length === 4 && s[0] === 1 && s[1] === channels && s[2] === 1 && s[3] === 1);
  return ok ? OK : bad;
}

/**
 * `isSupportedBiasAddValue`: true when `bias` can be added per channel to a row strip of
 * `channels` channels: its type is a static ranked tensor of shape `[]`, `[C]`, `[1, C]` or
 * `[1, C, 1, 1]`. The row-strip lowering adds one C-element bias vector to every pixel of a
 * strip, so every other broadcast shape is refused.
 *
 * @example
 * isSupportedBiasAddValue(biasPlan.bias, 64) // true for tensor<64xf32>, false for tensor<1x64x2x2xf32>
 */
export function isSupportedBiasAddValue(bias: Value, channels: number): boolean {
  return checkBiasAddType(bias.type, channels).ok;
}

/** Shared conv geometry of both conv gates; returns the lane element count on success. */
function checkConvGeometry(conv: Conv2dPlanView, r: RowStripResources): { verdict: GateVerdict; laneElements: number; inShape?: readonly number[] } {
  const fail = (verdict: GateVerdict) => ({ verdict, laneElements: 0 });
  const input = staticShape('input', conv.input.type, 4);
  if (isVerdict(input)) return fail(input);
  const weight = staticShape('weight', conv.weight.type, 4);
  if (isVerdict(weight)) return fail(weight);
  const output = staticShape('output', conv.output.type, 4);
  if (isVerdict(output)) return fail(output);
  const [n, cin, h, w] = input as [number, number, number, number];
  const [cout, cinPerGroup, kh, kw] = weight as [number, number, number, number];
  const group = Number(conv.group.value);
  if (group <= 0) return fail(refuse('group', M.notPositive('group', group)));
  if (cin % group !== 0) return fail(refuse('group', M.groupDivides(group, 'input channels', cin)));
  if (cout % group !== 0) return fail(refuse('group', M.groupDivides(group, 'output channels', cout)));
  if (cinPerGroup * group !== cin) return fail(refuse('weight', M.weightShape(`[${weight.join(', ')}]`, `[${cout}, ${cin / group}, ${kh}, ${kw}]`)));
  const win = checkWindow([kh, kw], dense(conv.strides), dense(conv.dilations), dense(conv.pads));
  if (isVerdict(win)) return fail(win);
  if (output[0] !== n || output[1] !== cout) return fail(refuse('output', M.batchChannel(formatType(conv.input.type), formatType(conv.output.type))));
  const spatial = checkOutputSpatial(win, h, w, output[2]!, output[3]!);
  if (!spatial.ok) return fail(spatial);
  if (conv.bias) {
    const bias = checkBiasAddType(conv.bias.type, cout);
    if (!bias.ok) return fail(bias);
  }
  // Crossbar tiles of hardware-defaults.md: X = ceil(K/R) * ceil(N/C), K = kh*kw*Cin/groups, N = Cout.
  const k = kh * kw * cinPerGroup;
  const tiles = Math.ceil(k / r.crossbarRows) * Math.ceil(cout / r.crossbarColumns);
  const budget = r.coreCount * r.crossbarsPerCore;
  if (tiles > budget) return fail(refuse('matrix_config.xbar_array_count', M.crossbarBudget(tiles, budget)));
  // One lane per output pixel (plan-lowering's conv): its window of every input channel and the pixel's channels.
  return { verdict: OK, laneElements: kh * kw * cin + cout, inShape: input };
}

/**
 * The verdict of {@link canLowerConvPlanToRowStrip}.
 */
export function checkConvPlanToRowStrip(conv: Conv2dPlanView, config: HardwareConfig): GateVerdict {
  const r = rowStripResources(config);
  const g = checkConvGeometry(conv, r);
  if (!g.verdict.ok) return g.verdict;
  return checkWorkingSet('a row-strip lane of the convolution', g.laneElements, r);
}

/**
 * `canLowerConvPlanToRowStrip` (Conv2D, dense input -> NHWCRowStrip result). Requires:
 * static rank-4 input `[N, Cin, H, W]`, weight `[Cout, Cin/group, kh, kw]` and output
 * `[N, Cout, Ho, Wo]` with positive dimensions; group >= 1 dividing Cin and Cout; positive
 * strides and dilations, non-negative pads; Ho and Wo equal to the window formula; a bias (if
 * any) accepted by {@link isSupportedBiasAddValue} for Cout; the crossbar tiles
 * X = ceil(K/R) * ceil(Cout/C) (K = kh*kw*Cin/group, R x C = `xbar_size`) within the chip's
 * crossbars (`core_cnt * xbar_array_count`); and one lane's working set within
 * `local_memory_config.memory_size`: the lowering's lane is one output pixel, holding its window
 * of every input channel and the pixel's channels (`kh * kw * Cin + Cout` elements, at
 * {@link RowStripResources.elementBytes} each). The rows those windows come from are the
 * scheduler's concern (replica windows, streamed or exact).
 */
export function canLowerConvPlanToRowStrip(conv: Conv2dPlanView, config: HardwareConfig): boolean {
  return checkConvPlanToRowStrip(conv, config).ok;
}

/**
 * The verdict of {@link canConsumeAndProduceRowStrip}.
 */
export function checkConsumeAndProduceRowStrip(conv: Conv2dPlanView, config: HardwareConfig): GateVerdict {
  const r = rowStripResources(config);
  const g = checkConvGeometry(conv, r);
  if (!g.verdict.ok) return g.verdict;
  const [, cin, , w] = g.inShape as [number, number, number, number];
  const strip = checkWorkingSet('one input row strip', w * cin, r);
  if (!strip.ok) return strip;
  return checkWorkingSet('a row-strip lane of the convolution', g.laneElements, r);
}

/**
 * `canConsumeAndProduceRowStrip` (Conv2D, NHWCRowStrip input -> NHWCRowStrip result): every
 * requirement of {@link canLowerConvPlanToRowStrip}, and the input's strips (`W * Cin`
 * elements each) fit local memory, since a lane receives the kh input strips its output row
 * reads as whole strips (padding rows and columns are zeros the lane synthesizes).
 */
export function canConsumeAndProduceRowStrip(conv: Conv2dPlanView, config: HardwareConfig): boolean {
  return checkConsumeAndProduceRowStrip(conv, config).ok;
}

/**
 * The verdict of {@link canLowerFlattenFromRowStrip}.
 */
export function checkFlattenFromRowStrip(flatten: FlattenPlanView, config: HardwareConfig): GateVerdict {
  const r = rowStripResources(config);
  const input = staticShape('input', flatten.input.type, 4);
  if (isVerdict(input)) return input;
  const [, c, h, w] = input as [number, number, number, number];
  if (c !== 1 && h * w !== 1) return refuse('input', M.flattenOrder(c, h * w));
  return checkWorkingSet('one input row strip', w * c, r);
}

/**
 * `canLowerFlattenFromRowStrip` (Flatten, NHWCRowStrip input -> dense result). The lowering
 * concatenates the strips without reordering, so it requires a static rank-4 input with
 * positive dimensions whose strip order (n, h, w, c) equals the NCHW flatten order
 * (n, c, h, w): C == 1 or H * W == 1 (for any `axis`, since flattening keeps the flat order);
 * and one strip (`W * C` elements) within local memory. Other flattens of a row-strip value
 * need an explicit `spat.materialize_layout` to dense first.
 */
export function canLowerFlattenFromRowStrip(flatten: FlattenPlanView, config: HardwareConfig): boolean {
  return checkFlattenFromRowStrip(flatten, config).ok;
}

/**
 * The verdict of {@link canLowerMaxPoolPlanToRowStrip}.
 */
export function checkMaxPoolPlanToRowStrip(pool: MaxPool2dPlanView, config: HardwareConfig): GateVerdict {
  const r = rowStripResources(config);
  const input = staticShape('input', pool.input.type, 4);
  if (isVerdict(input)) return input;
  const output = staticShape('output', pool.output.type, 4);
  if (isVerdict(output)) return output;
  const [n, c, h, w] = input as [number, number, number, number];
  if (output[0] !== n || output[1] !== c) return refuse('output', M.batchChannel(formatType(pool.input.type), formatType(pool.output.type)));
  const win = checkWindow(dense(pool.kernelShape), dense(pool.strides), dense(pool.dilations), dense(pool.pads));
  if (isVerdict(win)) return win;
  const extentH = win.dilations[0] * (win.kernel[0] - 1) + 1;
  const extentW = win.dilations[1] * (win.kernel[1] - 1) + 1;
  for (const [axis, pad, extent] of [
    ['top', win.pads[0], extentH],
    ['left', win.pads[1], extentW],
    ['bottom', win.pads[2], extentH],
    ['right', win.pads[3], extentW],
  ] as const) {
    if (pad >= extent) return refuse('pads', M.padCoversWindow(axis, pad, extent));
  }
  const spatial = checkOutputSpatial(win, h, w, output[2]!, output[3]!);
  if (!spatial.ok) return spatial;
  return checkWorkingSet('a row-strip lane of the max pooling', windowLaneElements(win, w, c, output[3]!, c), r);
}

/**
 * `canLowerMaxPoolPlanToRowStrip` (MaxPool2D, dense or NHWCRowStrip input -> NHWCRowStrip
 * result). Requires static rank-4 input and output with positive dimensions and equal batch
 * and channels; positive kernel, strides and dilations; non-negative pads, each smaller than
 * the dilated window extent of its axis (no window made of padding only, whose maximum would
 * be undefined); output H and W equal to the window formula (floor rounding); and one lane's
 * working set (kh padded input rows `kh * (W + padLeft + padRight) * C` plus the output strip
 * `Wo * C` elements) within local memory.
 */
export function canLowerMaxPoolPlanToRowStrip(pool: MaxPool2dPlanView, config: HardwareConfig): boolean {
  return checkMaxPoolPlanToRowStrip(pool, config).ok;
}

/**
 * The verdict of {@link canLowerGlobalAveragePoolPlanToRowStrip}.
 */
export function checkGlobalAveragePoolPlanToRowStrip(pool: GlobalAveragePoolPlanView, config: HardwareConfig): GateVerdict {
  const r = rowStripResources(config);
  const input = staticShape('input', pool.input.type, 4);
  if (isVerdict(input)) return input;
  const output = staticShape('output', pool.output.type, 4);
  if (isVerdict(output)) return output;
  const [n, c, , w] = input as [number, number, number, number];
  if (output[0] !== n || output[1] !== c || output[2] !== 1 || output[3] !== 1) {
    return refuse('output', M.batchChannel(formatType(pool.input.type), formatType(pool.output.type)));
  }
  // The lane reads one input row (strip) at a time and keeps a C-element running sum.
  return checkWorkingSet('the global average pooling lane', w * c + c, r);
}

/**
 * `canLowerGlobalAveragePoolPlanToRowStrip` (GlobalAveragePool, dense or NHWCRowStrip input
 * -> NHWCRowStrip result, one 1 x C strip per example). Requires static rank-4 input
 * `[N, C, H, W]` with positive dimensions and output `[N, C, 1, 1]`; and the lane's working
 * set, one input row `W * C` plus a C-element accumulator, within local memory.
 */
export function canLowerGlobalAveragePoolPlanToRowStrip(pool: GlobalAveragePoolPlanView, config: HardwareConfig): boolean {
  return checkGlobalAveragePoolPlanToRowStrip(pool, config).ok;
}

/**
 * The verdict of {@link canLowerResizeNearestPlanToRowStrip}.
 */
export function checkResizeNearestPlanToRowStrip(resize: ResizeNearestPlanView, config: HardwareConfig): GateVerdict {
  const r = rowStripResources(config);
  const input = staticShape('input', resize.input.type, 4);
  if (isVerdict(input)) return input;
  const output = staticShape('output', resize.output.type, 4);
  if (isVerdict(output)) return output;
  const [n, c, , w] = input as [number, number, number, number];
  if (output[0] !== n || output[1] !== c) return refuse('output', M.batchChannel(formatType(resize.input.type), formatType(resize.output.type)));
  // Asymmetric nearest sampling: output row ho reads the single input row floor(ho * H / Ho).
  return checkWorkingSet('a row-strip lane of the resize', w * c + output[3]! * c, r);
}

/**
 * `canLowerResizeNearestPlanToRowStrip` (ResizeNearest, NHWCRowStrip input ->
 * NHWCRowStrip result). Requires static rank-4 input and output with positive dimensions and
 * equal batch and channels; with asymmetric nearest sampling every output row reads exactly
 * one input row, so a lane holds one input strip `W * C` and its output strip `Wo * C`
 * elements, which must fit local memory.
 */
export function canLowerResizeNearestPlanToRowStrip(resize: ResizeNearestPlanView, config: HardwareConfig): boolean {
  return checkResizeNearestPlanToRowStrip(resize, config).ok;
}

/**
 * The verdict of the BiasAdd row-strip alternative's geometry: a ranked result and a bias
 * accepted by {@link isSupportedBiasAddValue} for the input's channels.
 */
export function checkBiasAddPlanToRowStrip(biasAdd: BiasAddPlanView): GateVerdict {
  const input = staticShape('input', biasAdd.input.type, 4);
  if (isVerdict(input)) return input;
  if (!(biasAdd.output.type instanceof RankedTensorType)) return refuse('output', M.notStaticTensor('output', formatType(biasAdd.output.type)));
  return checkBiasAddType(biasAdd.bias.type, input[1]!);
}
