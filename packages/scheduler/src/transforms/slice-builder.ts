/**
 * `tensor.extract_slice` / `tensor.insert_slice` builders for materialization, which creates
 * one slice per fragment and round: the static offset, size and stride arrays are built once per
 * distinct list and reused (uniqued attributes compare with `===` anyway), instead of hashing a
 * fresh array for every op.
 */
import { DYNAMIC, DenseArrayAttr, RankedTensorType, type Location, type MLIRContext, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { ExtractSliceOp, InsertSliceOp } from '@raptor-pim/upstream-dialects';

/** MLIR's dynamic marker in `array<i64: ...>` (INT64_MIN). */
const I64_DYNAMIC = -(2n ** 63n);

/** Builds slices with cached static arrays (one builder per materialization). */
export class SliceBuilder {
  private readonly arrays = new Map<string, DenseArrayAttr>();

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

  private lists(offsets: readonly (number | Value)[], sizes: readonly number[]) {
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
      attrs: { static_offsets: this.array(statics), static_sizes: this.array(sizes), static_strides: this.array(sizes.map(() => 1)) },
    };
  }

  /** `tensor.extract_slice` of `source` (unit strides); the result type defaults to the sizes. */
  extract(b: OpBuilder, loc: Location, source: Value, offsets: readonly (number | Value)[], sizes: readonly number[], resultType?: RankedTensorType): Value {
    const l = this.lists(offsets, sizes);
    const result = resultType ?? RankedTensorType.get(this.context, sizes, (source.type as RankedTensorType).elementType);
    return ExtractSliceOp.build(b, { source, offsets: l.dynamic, sizes: [], strides: [], result, ...l.attrs }, loc).result;
  }

  /** `tensor.insert_slice` of `source` into `dest` (unit strides). */
  insert(b: OpBuilder, loc: Location, source: Value, dest: Value, offsets: readonly (number | Value)[], sizes: readonly number[]): Value {
    const l = this.lists(offsets, sizes);
    return InsertSliceOp.build(b, { source, dest, offsets: l.dynamic, sizes: [], strides: [], result: dest.type as RankedTensorType, ...l.attrs }, loc).result;
  }
}
