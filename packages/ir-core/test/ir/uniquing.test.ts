import { MLIRContext } from '../../src/ir/context';
import { FileLineColLoc } from '../../src/ir/location';
import { DenseArrayAttr, DenseElementsAttr } from '../../src/ir/builtin-attributes';
import { FloatType, IntegerType, RankedTensorType } from '../../src/ir/builtin-types';
import { SourceFile } from '../../src/syntax/source';

describe('location uniquing', () => {
  test('points on one line, many lines, far lines and ranges are unique per position', () => {
    const ctx = new MLIRContext();
    const a = FileLineColLoc.get(ctx, 'f.mlir', 3, 5);
    expect(FileLineColLoc.get(ctx, 'f.mlir', 3, 5)).toBe(a);
    const b = FileLineColLoc.get(ctx, 'f.mlir', 3, 9); // a second column on the same line
    expect(b).not.toBe(a);
    expect(FileLineColLoc.get(ctx, 'f.mlir', 3, 5)).toBe(a);
    expect(FileLineColLoc.get(ctx, 'f.mlir', 3, 9)).toBe(b);
    const c = FileLineColLoc.get(ctx, 'f.mlir', 3, 12); // a third
    expect(FileLineColLoc.get(ctx, 'f.mlir', 3, 12)).toBe(c);
    expect(FileLineColLoc.get(ctx, 'g.mlir', 3, 5)).not.toBe(a);
    // Lines past 16,384 (where a line * 65536 + column key stops being a small integer) and far apart.
    for (const line of [20_000, 100_000, 5_000_000, 2 ** 31 + 7]) {
      const l = FileLineColLoc.get(ctx, 'f.mlir', line, 1);
      expect([l.line, l.column]).toEqual([line, 1]);
      expect(FileLineColLoc.get(ctx, 'f.mlir', line, 1)).toBe(l);
    }
    const wide = FileLineColLoc.get(ctx, 'f.mlir', 4, 2 ** 30 + 1);
    expect(FileLineColLoc.get(ctx, 'f.mlir', 4, 2 ** 30 + 1)).toBe(wide);
    const range = FileLineColLoc.getRange(ctx, 'f.mlir', 3, 5, 3, 8);
    expect(range).not.toBe(a);
    expect(FileLineColLoc.getRange(ctx, 'f.mlir', 3, 5, 3, 8)).toBe(range);
    expect(FileLineColLoc.getRange(ctx, 'f.mlir', 3, 5, 3, 5)).toBe(a);
  });

  test('SourceFile.lineAndColumn answers in and out of order', () => {
    const text = 'ab\ncde\n\nfghij\nk';
    const src = new SourceFile('t', text);
    const expected = (offset: number): { line: number; column: number } => {
      const before = text.substring(0, offset);
      const line = before.split('\n').length;
      return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
    };
    const offsets = [0, 1, 2, 3, 6, 7, 8, 13, 14, 15, 4, 0, 9, 14, 3, 8, 7, 1];
    for (const o of offsets) expect(src.lineAndColumn(o)).toEqual(expected(o));
    expect(new SourceFile('t', text, 10).lineAndColumn(9)).toEqual({ line: 14, column: 2 });
  });
});

describe('dense uniquing', () => {
  test('large constants that differ in one element deep inside are distinct attributes', () => {
    const ctx = new MLIRContext();
    const f32 = FloatType.get(ctx, 'f32');
    const n = 100_000;
    const type = RankedTensorType.get(ctx, [n], f32);
    const base = new Float32Array(n).map((_, i) => i * 0.5);
    const a = DenseElementsAttr.get(type, base);
    const changed = base.slice();
    changed[50_001] = -1;
    const b = DenseElementsAttr.get(type, changed);
    expect(b).not.toBe(a);
    expect(b.getNumber(50_001)).toBe(-1);
    expect(DenseElementsAttr.get(type, base.slice())).toBe(a);
    expect(DenseElementsAttr.get(type, changed.slice())).toBe(b);
  });

  test('large storages that agree on the sampled words but differ elsewhere stay distinct', () => {
    // A large storage's bucket key hashes evenly spaced words only: constants that differ in one
    // word between the samples share a bucket, and are told apart by full hash and contents.
    const ctx = new MLIRContext();
    const f32 = FloatType.get(ctx, 'f32');
    const n = 64 * 1024;
    const type = RankedTensorType.get(ctx, [n], f32);
    const zeros = new Float32Array(n);
    zeros[1] = 2; // not a splat
    const variants = [3, 5, 7, 1001, n - 2].map((at) => {
      const d = zeros.slice();
      d[at] = 1;
      return d;
    });
    const attrs = variants.map((d) => DenseElementsAttr.adopt(type, d));
    expect(new Set(attrs).size).toBe(variants.length);
    variants.forEach((d, k) => expect(DenseElementsAttr.get(type, d)).toBe(attrs[k]));
    // A storage of a few KiB (a small convolution kernel) is sampled too.
    const small = RankedTensorType.get(ctx, [1024], f32);
    const kernels = [2, 3, 1000].map((at) => {
      const d = new Float32Array(1024);
      d[1] = 2;
      d[at] = 1;
      return d;
    });
    const kernelAttrs = kernels.map((d) => DenseElementsAttr.get(small, d));
    expect(new Set(kernelAttrs).size).toBe(kernels.length);
    kernels.forEach((d, k) => expect(DenseElementsAttr.adopt(small, d.slice())).toBe(kernelAttrs[k]));
    // i8 storages: the same contents in an aligned array and in a view at an odd offset.
    const i8 = RankedTensorType.get(ctx, [n], IntegerType.get(ctx, 8));
    const aligned = new Int8Array(n).map((_, i) => (i * 7) % 100);
    const atOddOffset = (change: boolean): Int8Array => {
      const backing = new Int8Array(n + 1);
      backing.set(aligned, 1);
      if (change) backing[1 + 40_001] = -1;
      return backing.subarray(1);
    };
    const a = DenseElementsAttr.get(i8, aligned);
    expect(DenseElementsAttr.adopt(i8, atOddOffset(false))).toBe(a);
    expect(DenseElementsAttr.adopt(i8, atOddOffset(true))).not.toBe(a);
  });
});

describe('integer dense array uniquing', () => {
  test('small numbers (the fast path) and the same values as bigints or beyond it give one attribute', () => {
    const ctx = new MLIRContext();
    const i64 = IntegerType.get(ctx, 64);
    const a = DenseArrayAttr.getInts(i64, [1, -2, 0, 4095]);
    expect(DenseArrayAttr.getInts(i64, [1n, -2n, 0n, 4095n])).toBe(a);
    expect(DenseArrayAttr.getInts(i64, [1, -2n, -0, 4095])).toBe(a);
    expect(DenseArrayAttr.i64(ctx, [1, -2, 0, 4095])).toBe(a);
    expect(a.values).toEqual([1n, -2n, 0n, 4095n]);
    // Outside the small range, fractions (truncated) and mixed lists take the general path.
    const big = DenseArrayAttr.getInts(i64, [4096, -1025, 2 ** 40]);
    expect(DenseArrayAttr.getInts(i64, [4096n, -1025n, 2n ** 40n])).toBe(big);
    expect(big.values).toEqual([4096n, -1025n, 2n ** 40n]);
    expect(DenseArrayAttr.getInts(i64, [1.7, -2, 0, 4095])).toBe(a);
    expect(DenseArrayAttr.getInts(i64, [])).toBe(DenseArrayAttr.getInts(i64, []));
  });

  test('wrapping to the element type is the same on both paths (narrow, unsigned, i1)', () => {
    const ctx = new MLIRContext();
    const ui16 = IntegerType.get(ctx, 16, 'unsigned');
    const u = DenseArrayAttr.getInts(ui16, [-1, 5]);
    expect(u.values).toEqual([65535n, 5n]);
    expect(DenseArrayAttr.getInts(ui16, [65535, 5])).toBe(u);
    const i8 = IntegerType.get(ctx, 8);
    const n = DenseArrayAttr.getInts(i8, [200, 3]);
    expect(n.values).toEqual([-56n, 3n]);
    expect(DenseArrayAttr.getInts(i8, [-56n, 3n])).toBe(n);
    const i16 = IntegerType.get(ctx, 16);
    expect(DenseArrayAttr.getInts(i16, [3000, -1000]).values).toEqual([3000n, -1000n]);
    expect(DenseArrayAttr.getInts(i16, [3000, -1000])).toBe(DenseArrayAttr.getInts(i16, [3000n, -1000n]));
    expect(DenseArrayAttr.getInts(i16, [3000])).not.toBe(DenseArrayAttr.getInts(IntegerType.get(ctx, 32), [3000]));
    const i1 = IntegerType.get(ctx, 1);
    const b = DenseArrayAttr.getInts(i1, [1, 0, 3]);
    expect(b.values).toEqual([1n, 0n, 1n]);
    expect(DenseArrayAttr.getInts(i1, [1n, 0n, 1n])).toBe(b);
  });
});
