/**
 * `spat.conv2d_plan` -> crossbar MVMs. The weights `[Cout, Cin/g, kh, kw]` become the unfolded
 * `K x Cout` matrix (K = kh*kw*Cin/g), cut by the shared {@link tileWeightMatrix} into
 * `ceil(K/R) * ceil(Cout/C)` crossbar tiles (R x C from the target), each one `arith.constant`
 * bound as a resident weight. The input is padded lane-wise first ({@link padDense}: padded
 * NCHW rows, or planes for a view of planes; {@link padRowStrips}: padded NHWC rows). One lane
 * per output pixel (`N*Ho*Wo` lanes) gathers its input patch per group from the padded input
 * (one window slice of its rows or planes, reshaped to `[1, K]` in the matrix's row order),
 * multiplies every row-tile slice with its tiles (`spat.wvmm`), adds the row-tile partial sums
 * (`spat.vadd`), keeps its group's columns, joins the column pieces (`spat.concat`) and adds
 * the bias: it publishes the pixel's `[1, Cout]` channel vector, i.e. NHWC row strips in the
 * pixel form. Where the filters leave crossbar columns free, a lane computes `p` adjacent pixels
 * of an output row with one set of MVMs (`analysis/pixel-packing.ts`: the packed patch, the
 * filters repeated and shifted in the matrix) and publishes their `[p, Cout]` vectors (the
 * pixel form with `p` pixels per slot; option `pixel-packing=false` of the pass turns it off).
 * A row tile spans all its column tiles as one weight (one MVM) where that fits (option
 * `column-groups`). Forms (spatial-layouts.md): dense -> dense (then the strips are materialized
 * dense), dense -> row strips (gate `canLowerConvPlanToRowStrip`), row strips -> row strips
 * (gate `canConsumeAndProduceRowStrip`).
 */
import { createPattern, type RankedTensorType, type Value } from '@raptor-pim/ir-core';
import { Conv2dPlanOp, tileWeightMatrix } from '@raptor-pim/spatial-dialect';
import { checkConsumeAndProduceRowStrip, checkConvPlanToRowStrip } from '@raptor-pim/layout-planner';
import { PlanLoweringMessages as M } from '../../diagnostics';
import { blockDiagonalFilters, blockDiagonalPays, constantF32, keptTiles, unfoldConvWeights } from '../../analysis/conv-weights';
import { channelBlockMatrix, channelBlocksOf } from '../../analysis/channel-blocks';
import { selectedResultLayout } from '../../analysis/selected-layouts';
import { fusibleRelu, replaceFused } from '../../analysis/fused-relu';
import { checkWindow, isRefusal, windowExtent } from '../../analysis/window';
import { pixelsPerLane } from '../../analysis/pixel-packing';
import { buildBatch, denseConstant, type BodyBuilder } from '../compute-builders';
import { laneCoordinates, padDense, padRowStrips, planesBehindView, readDenseRowWindow, readDenseWindow, readPixelChannels, readRowWindow, rowStripsToDense } from '../data-movement';
import { castRowStrip, nchwOf, physicalValueOf } from '../physical-values';
import { refuse, type LoweringEnv } from '../lowering-env';

/** `values` repeated `times` times. */
function repeat(values: Float32Array, times: number): Float32Array {
  const out = new Float32Array(values.length * times);
  for (let t = 0; t < times; t++) out.set(values, t * values.length);
  return out;
}

/**
 * True when some split of a direct convolution's `ranges` input-channel ranges into equal parts
 * (spat-split-input-channels) brings each part's crossbars (`rowTiles * colTiles / s`) within a
 * core's.
 */
function channelSplitFits(ranges: number, rowTiles: number, colTiles: number, crossbarsPerCore: number): boolean {
  for (let s = 2; s <= ranges; s++) if (ranges % s === 0 && (rowTiles / s) * colTiles <= crossbarsPerCore) return true;
  return false;
}

const ints = (a: { values: readonly (number | bigint)[] }): number[] => a.values.map(Number);

/** The conv lowering pattern of `env`. */
export function convPlanPattern(env: LoweringEnv) {
  return createPattern(Conv2dPlanOp, (conv, rw) => {
    const op = conv.op;
    const input = physicalValueOf(conv.input);
    const output = nchwOf(conv.output.type);
    const wType = conv.weight.type as RankedTensorType;
    if (!input || !output) return refuse(env, op, M.notStatic('the input and output of the convolution'));
    const filterShape = wType.shape as [number, number, number, number];
    const [cout, filterCg, kh, kw] = filterShape;
    const g = input.geometry;
    const filterGroups = Number(conv.group.value);
    if (filterGroups < 1 || g.c % filterGroups !== 0 || cout % filterGroups !== 0) {
      return refuse(env, op, M.unsupportedGeometry('group', String(filterGroups), `a positive divisor of the input channels ${g.c} and the output channels ${cout}`));
    }
    if (filterCg * filterGroups !== g.c) return refuse(env, op, M.unsupportedGeometry('weight', `[${filterShape.join(', ')}]`, `[Cout, Cin/group = ${g.c / filterGroups}, kh, kw]`));
    if (output.n !== g.n || output.c !== cout) return refuse(env, op, M.unsupportedGeometry('output', `[${output.n}, ${output.c}, ...]`, `batch ${g.n} and ${cout} channels`));
    const win = checkWindow([kh, kw], ints(conv.strides), ints(conv.dilations), ints(conv.pads), g, output);
    if (isRefusal(win)) return refuse(env, op, M.unsupportedGeometry(win.parameter, win.value, win.limit));
    const filters = constantF32(conv.weight);
    if (!filters) return refuse(env, op, M.weightNotConstant('convolution weight'));
    let bias: Float32Array | undefined;
    if (conv.bias) {
      const b = constantF32(conv.bias);
      if (!b || (b.length !== cout && b.length !== 1)) return refuse(env, op, M.weightNotConstant(`convolution bias (${cout} values)`));
      bias = b.length === cout ? b : new Float32Array(cout).fill(b[0]!);
    }
    const result = selectedResultLayout(env, op);
    if (!result) return false;
    if (result === 'nhwc_row_strip') {
      const verdict = input.layout === 'dense_nchw' ? checkConvPlanToRowStrip(conv, env.config) : checkConsumeAndProduceRowStrip(conv, env.config);
      if (!verdict.ok) return refuse(env, op, M.gateRefused(input.layout === 'dense_nchw' ? 'canLowerConvPlanToRowStrip' : 'canConsumeAndProduceRowStrip', verdict.parameter, verdict.reason));
    } else if (result !== 'dense_nchw' || input.layout !== 'dense_nchw') {
      return refuse(env, op, M.unsupportedLayouts(input.layout, result, 'dense_nchw -> dense_nchw, dense_nchw -> nhwc_row_strip, nhwc_row_strip -> nhwc_row_strip'));
    }

    // A ReLU reading only this convolution: its lanes apply it to the pixel they publish.
    const relu = fusibleRelu(op, result);
    const loc = op.location;
    rw.setInsertionPoint(op);
    const dense = input.layout === 'dense_nchw';
    // A padded dense input as rows (a lane reads kh_ext row slots of every channel) unless it
    // is a view of (example, channel) planes (then one plane slot per padding lane).
    const hasPadding = win.pads.some((p) => p > 0);
    const denseRows = dense && hasPadding && !planesBehindView(input.value, g);
    const order = dense ? (denseRows ? 'row-channel' : 'channel-major') : 'position-major';
    const [sh, sw] = win.strides;
    const [dh, dw] = win.dilations;
    const khe = windowExtent(win, 0);
    const kwe = windowExtent(win, 1);
    /** Publishes the lowered collection of `[pixels, Cout]` fragments in the selected layout. */
    const publish = (collection: Value, pixels: number): true => {
      const strips = { layout: 'nhwc_row_strip' as const, form: 'pixels' as const, value: collection, geometry: output, ...(pixels > 1 ? { pixelsPerSlot: pixels } : {}) };
      const replacement = result === 'nhwc_row_strip' ? castRowStrip(rw, loc, collection, conv.output.type as RankedTensorType) : rowStripsToDense(rw, loc, strips);
      replaceFused(rw, op, relu, replacement);
      env.loweredPlans += relu ? 2 : 1;
      return true;
    };
    // A grouped convolution over padded NHWC rows whose window of every input channel is too
    // large for a core runs as channel blocks (analysis/channel-blocks.ts): block b reads only its
    // channels, multiplies them with its own tile and computes its own output channels; the lane
    // concatenates the blocks (the column form the scheduler splits into parts).
    const localMemory = env.config.chip_config.core_config.local_memory_config.memory_size;
    const blocks =
      !dense && filterGroups > 1
        ? channelBlocksOf({ cout, cin: g.c, groups: filterGroups, kh, kw, windowRows: khe, paddedWidth: g.w + win.pads[1] + win.pads[3] }, env.crossbar, localMemory)
        : undefined;
    if (blocks && input.layout === 'nhwc_row_strip') {
      const blockWeights = Array.from({ length: blocks.blocks }, (_, b) =>
        denseConstant(rw, loc, [kh * kw * blocks.inputChannels, blocks.outputChannels], channelBlockMatrix(filters, filterShape, blocks, b)),
      );
      const biasValue = bias ? denseConstant(rw, loc, [1, cout], bias) : undefined;
      const padded = padRowStrips(rw, loc, input, win.pads, 0);
      const inputs = biasValue ? [padded.value, biasValue] : [padded.value];
      const collection = buildBatch(rw, loc, g.n * output.h * output.w, { weights: blockWeights, inputs }, [1, cout], (bb, w, [x, b]) => {
        const [n, oh, ow] = laneCoordinates(bb, [g.n, output.h, output.w]);
        const h0 = oh!.mul(sh);
        const w0 = ow!.mul(sw);
        const k = kh * kw * blocks.inputChannels;
        const pieces = w.map((weight, bi) => {
          const box = readRowWindow(bb, x!, padded, n!, h0, w0, bi * blocks.inputChannels, khe, kwe, blocks.inputChannels);
          let window = bb.expand(box, [[0, 1], [2], [3]], [1, khe, kwe, blocks.inputChannels]);
          if (dh !== 1 || dw !== 1) window = bb.slice(window, [0, 0, 0, 0], [1, kh, kw, blocks.inputChannels], undefined, [1, dh, dw, 1]);
          return bb.wvmm(weight, bb.collapse(window, [[0], [1, 2, 3]], [1, k]));
        });
        const y = bb.concat(1, pieces);
        const biased = b ? bb.add(y, b) : y;
        return relu ? bb.relu(biased) : biased;
      });
      return publish(collection, 1);
    }
    // A grouped convolution runs as one group with a block-diagonal weight (zero between the
    // groups, its all-zero crossbar tiles left out) where that takes fewer MVMs per pixel: a
    // depthwise convolution of C channels then takes about 9C/128 MVMs per pixel instead of C.
    const blockDiagonal = filterGroups > 1 ? blockDiagonalFilters(filters, filterShape, filterGroups) : undefined;
    const expanded = blockDiagonal !== undefined && blockDiagonalPays(blockDiagonal, filterShape, filterGroups, order, env.crossbar);
    const [group, cg, wShape, weights] = expanded
      ? ([1, g.c, [cout, g.c, kh, kw] as [number, number, number, number], blockDiagonal] as const)
      : ([filterGroups, filterCg, filterShape, filters] as const);
    const crossbarsPerCore = env.config.chip_config.core_config.matrix_config.xbar_array_count;
    // Padded NHWC rows with a group's channels a multiple of the crossbar rows: every row tile is
    // one channel range of one tap, read straight from the padded rows (no patch copy, one copy
    // per tile). Otherwise a tile would gather several taps (more, smaller copies than one patch).
    const direct = !dense && cg % env.crossbar.rows === 0;
    // Pixels per lane: several adjacent output pixels per set of MVMs where the filters leave
    // crossbar columns free (one group, no dilation, a patch gathered in one piece).
    const pixels =
      env.pixelPacking && group === 1 && !expanded && dh === 1 && dw === 1 && !direct
        ? pixelsPerLane({ kh, kw, cg, cout, strideW: sw, outputW: output.w }, env.crossbar, env.config.chip_config.core_config.local_memory_config.memory_size, env.columnGroups ? crossbarsPerCore : 0)
        : 1;
    const kwp = (pixels - 1) * sw + kwe;
    const k = cg * kh * ((pixels - 1) * sw + kw);
    const columns = pixels * cout;
    const matrix = unfoldConvWeights(weights, wShape, order, pixels > 1 ? { pixels, stride: sw } : undefined);
    const tiling = tileWeightMatrix(matrix, k, columns, env.crossbar.rows, env.crossbar.columns);
    if (!tiling.ok) return refuse(env, op, M.unsupportedGeometry('weight', `[${wShape.join(', ')}]`, tiling.message));
    const { rowTiles, colTiles, tiles } = tiling.value;
    // One array group per row tile (its column tiles side by side, one MVM for all of them) where
    // the convolution has one group and its row tiles fit a core: all its crossbars, or, when
    // each row tile reads one channel range of one tap (`direct`) and a split of those ranges
    // fits a core (the scheduler's spat-split-input-channels then splits it over cores by input
    // channels). Else one weight per tile (spat-split-oversized-computes splits it by column tiles).
    const oversized = rowTiles * colTiles > crossbarsPerCore;
    const rowGroups = env.columnGroups && group === 1 && !expanded && colTiles > 1 && (!oversized || (direct && channelSplitFits(cg / env.crossbar.rows, rowTiles, colTiles, crossbarsPerCore)));
    // The tiles bound as weights (a block-diagonal matrix leaves its all-zero tiles out, but keeps
    // one tile of every column tile) and, per tile, its index among them.
    const kept = expanded ? keptTiles(tiles) : tiles.map(() => true);
    const weightIndex: (number | undefined)[] = [];
    let keptCount = 0;
    for (const k of kept) weightIndex.push(k ? keptCount++ : undefined);
    const tileValues = rowGroups
      ? Array.from({ length: rowTiles }, (_, i) => {
          const t = tiles[i * colTiles]!;
          return denseConstant(rw, loc, [t.rows, columns], matrix.subarray(t.rowOffset * columns, (t.rowOffset + t.rows) * columns));
        })
      : tiles.filter((_, i) => kept[i]).map((t) => denseConstant(rw, loc, [t.rows, t.cols], t.data));
    const biasValue = bias ? denseConstant(rw, loc, [1, columns], pixels > 1 ? repeat(bias, pixels) : bias) : undefined;
    const padded = input.layout === 'dense_nchw' ? padDense(rw, loc, input, win.pads, 0, denseRows ? 'rows' : 'planes') : padRowStrips(rw, loc, input, win.pads, 0);
    const ng = columns / group;
    const inputs = biasValue ? [padded.value, biasValue] : [padded.value];
    // The output columns of group `gi`: per column tile, the partial sums of its row tiles
    // (`slices`, one `[1, rows]` value per row tile) restricted to the group's columns.
    /** Row tiles with a kept tile: the others' slices are not read. */
    const rowTileRead = Array.from({ length: rowTiles }, (_, i) => kept.slice(i * colTiles, (i + 1) * colTiles).some((k) => k));
    const groupColumns = (bb: BodyBuilder, w: readonly Value[], slices: readonly (Value | undefined)[], gi: number): Value[] => {
      if (rowGroups) {
        const chain = bb.sum(slices.map((s, i) => bb.wvmm(w[i]!, s!)));
        // An oversized compute publishes its chain through a concatenation (of one block): the
        // column form the scheduler's channel split reads.
        return [oversized ? bb.concatOf(1, [chain]) : chain];
      }
      const out: Value[] = [];
      const first = gi * ng;
      const last = first + ng;
      for (let j = 0; j < colTiles; j++) {
        const t0 = tiles[j]!;
        const c0 = t0.colOffset;
        const c1 = c0 + t0.cols;
        if (c1 <= first || c0 >= last) continue;
        const terms = slices.flatMap((s, i) => {
          const index = weightIndex[i * colTiles + j];
          return index === undefined ? [] : [bb.wvmm(w[index]!, s!)];
        });
        const partial = bb.sum(terms);
        const from = Math.max(first, c0);
        const to = Math.min(last, c1);
        out.push(from === c0 && to === c1 ? partial : bb.slice(partial, [0, from - c0], [1, to - from]));
      }
      return out;
    };
    const collection = buildBatch(rw, loc, (g.n * output.h * output.w) / pixels, { weights: tileValues, inputs }, [pixels, cout], (bb, w, [x, b]) => {
      const [n, oh, ow] = laneCoordinates(bb, [g.n, output.h, output.w / pixels]);
      const h0 = oh!.mul(sh);
      const w0 = ow!.mul(sw * pixels);
      // Padded rows: the window of every channel, once (`khe` row slots), as [1, khe, kwp, Cin]
      // (NHWC rows) or [1, khe, Cin, kwp] (NCHW rows); `kwp` spans the lane's packed pixels.
      const rows = denseRows
        ? bb.expand(readDenseRowWindow(bb, x!, padded, n!, h0, w0, khe, kwp), [[0, 1], [2], [3]], [1, khe, g.c, kwp])
        : dense || direct
          ? undefined
          : bb.expand(readRowWindow(bb, x!, padded, n!, h0, w0, 0, khe, kwp, g.c), [[0, 1], [2], [3]], [1, khe, kwp, g.c]);
      const pieces: Value[] = [];
      for (let gi = 0; gi < group; gi++) {
        if (direct) {
          const slices = Array.from({ length: rowTiles }, (_, i) => {
            if (!rowTileRead[i]) return undefined;
            // Rows (i, j, c) of the matrix: a tile lies in one tap (cg is a multiple of its rows).
            const t = tiles[i * colTiles]!;
            const tap = Math.floor(t.rowOffset / cg);
            const from = t.rowOffset - tap * cg;
            if (from + t.rows > cg) throw new Error('internal error: a crossbar row tile spans two kernel taps');
            const [ti, tj] = [Math.floor(tap / kw), tap % kw];
            return readPixelChannels(bb, x!, padded, n!, h0.add(ti * dh), w0.add(tj * dw), gi * cg + from, t.rows);
          });
          pieces.push(...groupColumns(bb, w, slices, gi));
          continue;
        }
        // The group's patch as a [1, K] row, in the matrix's row order: (c, i, j) from the
        // padded planes, (i, c, j) from padded NCHW rows, (i, j, c) from padded NHWC rows.
        let window: Value;
        if (!rows) window = readDenseWindow(bb, x!, padded, n!, gi * cg, cg, h0, w0, khe, kwp);
        else if (group === 1) window = rows;
        else window = denseRows ? bb.slice(rows, [0, 0, gi * cg, 0], [1, khe, cg, kwe]) : bb.slice(rows, [0, 0, 0, gi * cg], [1, khe, kwe, cg]);
        if (dh !== 1 || dw !== 1) {
          if (denseRows) window = bb.slice(window, [0, 0, 0, 0], [1, kh, cg, kw], undefined, [1, dh, 1, dw]);
          else if (dense) window = bb.slice(window, [0, 0, 0, 0], [1, cg, kh, kw], undefined, [1, 1, dh, dw]);
          else window = bb.slice(window, [0, 0, 0, 0], [1, kh, kw, cg], undefined, [1, dh, dw, 1]);
        }
        const row = bb.collapse(window, [[0], [1, 2, 3]], [1, k]);
        const slices = Array.from({ length: rowTiles }, (_, i) => {
          const t = tiles[i * colTiles]!;
          if (!rowTileRead[i]) return undefined;
          return rowTiles === 1 ? row : bb.slice(row, [0, t.rowOffset], [1, t.rows]);
        });
        pieces.push(...groupColumns(bb, w, slices, gi));
      }
      const y = bb.concat(1, pieces);
      const biased = b ? bb.add(y, b) : y;
      const activated = relu ? bb.relu(biased) : biased;
      return pixels > 1 ? bb.reshape(activated, [pixels, cout]) : activated;
    });
    return publish(collection, pixels);
  });
}
