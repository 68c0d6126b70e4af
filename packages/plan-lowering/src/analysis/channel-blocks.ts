/**
 * Channel blocks of a grouped convolution: consecutive filter groups lowered together, block `b`
 * reading only its input channels (every kernel tap of them, one slice of the padded rows) and
 * computing only its output channels with one crossbar tile. A grouped convolution has no sum
 * across its groups, so the blocks' results are concatenated, never added.
 *
 * Chosen where a lane's window of every input channel is too large for a core: the scheduler
 * streams a convolution's padded rows through a line buffer of two windows (`khe` padded rows
 * each) and wants it within half a core's local memory. ultraface's depthwise 3x3 convolution
 * over 32 channels of 160-wide rows holds 2 x 3 x 162 x 32 f32 = 124 KiB; in blocks of 8
 * channels (a 72 x 8 tile each) a block holds 31 KiB, and the scheduler's
 * `spat-split-input-channels` places the blocks on cores of their own (column parts, no
 * reduction).
 */
import { unfoldConvWeights, blockDiagonalFilters } from './conv-weights';

/** The geometry that decides the blocks of a grouped convolution. */
export interface ChannelBlockGeometry {
  /** Output channels and input channels. */
  readonly cout: number;
  readonly cin: number;
  /** Filter groups (more than one). */
  readonly groups: number;
  /** Kernel height and width. */
  readonly kh: number;
  readonly kw: number;
  /** Padded input rows a lane's window spans (the dilated kernel height). */
  readonly windowRows: number;
  /** Width of a padded input row in pixels. */
  readonly paddedWidth: number;
}

/** How a grouped convolution is cut into channel blocks. */
export interface ChannelBlocks {
  /** Filter groups per block. */
  readonly groupsPerBlock: number;
  /** Blocks (groups / groupsPerBlock). */
  readonly blocks: number;
  /** Input channels a block reads and output channels it computes. */
  readonly inputChannels: number;
  readonly outputChannels: number;
}

/** Bytes of the streamed window (two line buffers of `windowRows` padded rows) of `channels` channels. */
export function channelWindowBytes(g: ChannelBlockGeometry, channels: number): number {
  return 2 * g.windowRows * g.paddedWidth * channels * 4;
}

/**
 * The channel blocks of a grouped convolution, or undefined when it needs none (its window of
 * every channel fits half of `localMemoryBytes`) or has none (one filter group's tile exceeds a
 * crossbar, or its window alone exceeds the budget). The blocks take the most groups (a divisor
 * of the groups, so all blocks are alike) whose tile (`kh * kw * inputChannels` rows,
 * `outputChannels` columns) fits one crossbar and whose window fits the budget.
 *
 * @example
 * // ultraface's depthwise conv: 32 channels, 3x3, 160-wide rows padded to 162, 64 KiB cores.
 * channelBlocksOf({ cout: 32, cin: 32, groups: 32, kh: 3, kw: 3, windowRows: 3, paddedWidth: 162 }, { rows: 128, columns: 128 }, 65536);
 * // { groupsPerBlock: 8, blocks: 4, inputChannels: 8, outputChannels: 8 }
 */
export function channelBlocksOf(g: ChannelBlockGeometry, crossbar: { readonly rows: number; readonly columns: number }, localMemoryBytes: number): ChannelBlocks | undefined {
  if (g.groups < 2 || g.cin % g.groups !== 0 || g.cout % g.groups !== 0) return undefined;
  const budget = localMemoryBytes / 2;
  if (channelWindowBytes(g, g.cin) <= budget) return undefined;
  const inPerGroup = g.cin / g.groups;
  const outPerGroup = g.cout / g.groups;
  for (let m = g.groups - 1; m >= 1; m--) {
    if (g.groups % m !== 0) continue;
    const inputChannels = m * inPerGroup;
    const outputChannels = m * outPerGroup;
    if (g.kh * g.kw * inputChannels > crossbar.rows || outputChannels > crossbar.columns) continue;
    if (channelWindowBytes(g, inputChannels) > budget) continue;
    return { groupsPerBlock: m, blocks: g.groups / m, inputChannels, outputChannels };
  }
  return undefined;
}

/**
 * The weight matrix of block `b`: `kh * kw * inputChannels` rows in the order of an NHWC window
 * `(i, j, c)` of the block's input channels, `outputChannels` columns (the block's filters, each
 * zero outside its group's channels).
 */
export function channelBlockMatrix(filters: Float32Array, shape: readonly [number, number, number, number], blocks: ChannelBlocks, b: number): Float32Array {
  const [, cg, kh, kw] = shape;
  const per = cg * kh * kw;
  const own = filters.subarray(b * blocks.outputChannels * per, (b + 1) * blocks.outputChannels * per);
  const diagonal = blockDiagonalFilters(own, [blocks.outputChannels, cg, kh, kw], blocks.groupsPerBlock);
  return unfoldConvWeights(diagonal, [blocks.outputChannels, blocks.inputChannels, kh, kw], 'position-major');
}
