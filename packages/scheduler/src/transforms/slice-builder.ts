/**
 * `tensor.extract_slice` / `tensor.insert_slice` builders for materialization, which creates
 * one slice per fragment and round: the static offset, size and stride arrays are built once per
 * distinct list and reused (uniqued attributes compare with `===` anyway), instead of hashing a
 * fresh array for every op.
 */
import { DYNAMIC, DenseArrayAttr, OPERAND_SEGMENT_SIZES, RankedTensorType, type Attribute, type Location, type MLIRContext, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { ExtractSliceOp, InsertSliceOp } from '@raptor-pim/upstream-dialects';

/** MLIR's dynamic marker in `array<i64: ...>` (INT64_MIN). */
const I64_DYNAMIC = -(2n ** 63n);

/** Builds slices with cached static arrays (one builder per materialization). */
export class SliceBuilder {
  private readonly arrays = new Map<string, DenseArrayAttr>();
  /** `operandSegmentSizes` per op kind and dynamic-offset count. */
  private readonly segments = new Map<string, DenseArrayAttr>();

  constructor(private readonly context: MLIRContext) {}

  private array(values: readonly number[]): DenseArrayAttr {
    const key = values.join(',');
    let a = this.arrays.get(key);
    if (!a) {
      a = DenseArrayAttr.i64(this.context, values.includes(DYNAMIC) ? values.map((v) => (v === DYNAMIC ? I64_DYNAMIC : v)) : values);
      this.arrays.set(key, a);
    }
    return a;
  }

  private lists(offsets: readonly (number | Value)[], sizes: readonly number[], strides?: readonly number[]) {
    const statics: number[] = [];
    const dynamic: Value[] = [];
    for (const o of offsets) {
      if (typeof o === 'number') statics.push(o);
      else {
        statics.push(DYNAMIC);
        dynamic.push(o);
      }
    }
    return {
      dynamic,
      attrs: { static_offsets: this.array(statics), static_sizes: this.array(sizes), static_strides: this.array(strides ?? sizes.map(() => 1)) },
    };
  }

  private segmentSizes(kind: 'extract' | 'insert', dynamic: number): DenseArrayAttr {
    const key = `${kind}${dynamic}`;
    let a = this.segments.get(key);
    if (!a) this.segments.set(key, (a = DenseArrayAttr.i32(this.context, kind === 'extract' ? [1, dynamic, 0, 0] : [1, 1, dynamic, 0, 0])));
    return a;
  }

  /**
   * Creates the slice op directly with the properties `build` would give it (the static lists
   * and the operand segment sizes, both cached): materialization creates one slice per fragment
   * and round, and the generic build re-derives and re-uniques them for every op.
   */
  private create(
    b: OpBuilder,
    loc: Location,
    kind: 'extract' | 'insert',
    operands: Value[],
    offsets: readonly (number | Value)[],
    sizes: readonly number[],
    result: RankedTensorType,
    strides?: readonly number[],
  ): Value {
    const l = this.lists(offsets, sizes, strides);
    operands.push(...l.dynamic);
    const properties = new Map<string, Attribute>([
      ['static_offsets', l.attrs.static_offsets],
      ['static_sizes', l.attrs.static_sizes],
      ['static_strides', l.attrs.static_strides],
      [OPERAND_SEGMENT_SIZES, this.segmentSizes(kind, l.dynamic.length)],
    ]);
    return b.create({ name: kind === 'extract' ? ExtractSliceOp.name : InsertSliceOp.name, location: loc, operands, resultTypes: [result], properties }).getResult(0);
  }

  /** `tensor.extract_slice` of `source` (unit strides); the result type defaults to the sizes. */
  extract(b: OpBuilder, loc: Location, source: Value, offsets: readonly (number | Value)[], sizes: readonly number[], resultType?: RankedTensorType): Value {
    const result = resultType ?? RankedTensorType.get(this.context, sizes, (source.type as RankedTensorType).elementType);
    return this.create(b, loc, 'extract', [source], offsets, sizes, result);
  }

  /** `tensor.extract_slice` of `source` with static `strides` and an explicit result type. */
  extractStrided(b: OpBuilder, loc: Location, source: Value, offsets: readonly (number | Value)[], sizes: readonly number[], strides: readonly number[], resultType: RankedTensorType): Value {
    return this.create(b, loc, 'extract', [source], offsets, sizes, resultType, strides);
  }

  /** `tensor.insert_slice` of `source` into `dest` (unit strides). */
  insert(b: OpBuilder, loc: Location, source: Value, dest: Value, offsets: readonly (number | Value)[], sizes: readonly number[]): Value {
    return this.create(b, loc, 'insert', [source, dest], offsets, sizes, dest.type as RankedTensorType);
  }
}
