import { MLIRContext } from '../../src/ir/context';
import { FileLineColLoc } from '../../src/ir/location';
import { DenseElementsAttr } from '../../src/ir/builtin-attributes';
import { FloatType, RankedTensorType } from '../../src/ir/builtin-types';
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
});
