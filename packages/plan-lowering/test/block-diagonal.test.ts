/**
 * Grouped convolutions as one group with block-diagonal filters (`blockDiagonalFilters`) and the
 * MVM counts that choose between the two forms (`groupedConvMvms`).
 */
import { blockDiagonalFilters, blockDiagonalPays, groupedConvMvms, unfoldConvWeights } from '../src';

function ramp(n: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => i + 1);
}

describe('blockDiagonalFilters', () => {
  it('keeps each filter at its group channels and zero elsewhere', () => {
    // 4 filters, 2 groups of 2 input channels each, 1x1 kernels.
    const out = blockDiagonalFilters(ramp(8), [4, 2, 1, 1], 2);
    expect(Array.from(out)).toEqual([1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 5, 6, 0, 0, 7, 8]);
  });

  it('a depthwise 3x3 filter lands on its own channel', () => {
    const out = blockDiagonalFilters(ramp(27), [3, 1, 3, 3], 3);
    for (let o = 0; o < 3; o++) {
      for (let c = 0; c < 3; c++) {
        const taps = Array.from(out.subarray((o * 3 + c) * 9, (o * 3 + c + 1) * 9));
        expect(taps).toEqual(c === o ? Array.from({ length: 9 }, (_, t) => o * 9 + t + 1) : new Array(9).fill(0));
      }
    }
  });
});

describe('groupedConvMvms', () => {
  it('depthwise 3x3 over 32 channels on 128 x 128 crossbars: 32 MVMs grouped, 3 block-diagonal', () => {
    const shape = [32, 1, 3, 3] as const;
    const diagonal = blockDiagonalFilters(ramp(32 * 9), shape, 32);
    expect(groupedConvMvms(diagonal, shape, 32, 'position-major', { rows: 128, columns: 128 })).toEqual({ grouped: 32, blockDiagonal: 3 });
    expect(blockDiagonalPays(diagonal, shape, 32, 'position-major', { rows: 128, columns: 128 })).toBe(true);
  });

  it('depthwise 3x3 over 256 channels: the all-zero tiles are not counted (18 of 36)', () => {
    const shape = [256, 1, 3, 3] as const;
    const diagonal = blockDiagonalFilters(ramp(256 * 9), shape, 256);
    expect(groupedConvMvms(diagonal, shape, 256, 'position-major', { rows: 128, columns: 128 }).blockDiagonal).toBe(18);
  });

  it('two groups of 128 channels (1x1): as many MVMs either way, so the grouped form stays', () => {
    const shape = [2, 128, 1, 1] as const;
    const diagonal = blockDiagonalFilters(ramp(256), shape, 2);
    expect(groupedConvMvms(diagonal, shape, 2, 'position-major', { rows: 128, columns: 128 })).toEqual({ grouped: 2, blockDiagonal: 2 });
    expect(blockDiagonalPays(diagonal, shape, 2, 'position-major', { rows: 128, columns: 128 })).toBe(false);
  });

  it('counts the tiles of the matrix the lowering binds (brute force over the unfolded matrix)', () => {
    const shape = [6, 2, 3, 3] as const;
    const diagonal = blockDiagonalFilters(ramp(6 * 2 * 9), shape, 3);
    for (const order of ['position-major', 'channel-major', 'row-channel'] as const) {
      const m = unfoldConvWeights(diagonal, [6, 6, 3, 3], order);
      const [rows, cols] = [8, 4];
      let tiles = 0;
      for (let c0 = 0; c0 < 6; c0 += cols) {
        let inColumn = 0;
        for (let r0 = 0; r0 < 54; r0 += rows) {
          let any = false;
          for (let r = r0; r < Math.min(54, r0 + rows); r++) for (let c = c0; c < Math.min(6, c0 + cols); c++) any ||= m[r * 6 + c] !== 0;
          if (any) inColumn++;
        }
        tiles += Math.max(1, inColumn);
      }
      expect(groupedConvMvms(diagonal, shape, 3, order, { rows, columns: cols }).blockDiagonal).toBe(tiles);
    }
  });
});
