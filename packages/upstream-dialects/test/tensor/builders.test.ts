/** The tensor/affine builders produce ops that verify and print as the Spatial reference writes them. */
import { AffineMap, getAffineBinaryExpr, getAffineConstantExpr, getAffineDimExpr, OpBuilder, printOperation, RankedTensorType, FloatType, verify } from '@raptor-pim/ir-core';
import { createAffineApply, createEmpty, createExtractSlice, createInsertSlice } from '@raptor-pim/upstream-dialects';
import { parseVerified } from './helpers';

describe('tensor/affine builders', () => {
  it('build affine.apply, a dynamic extract_slice, tensor.empty and insert_slice', () => {
    const m = parseVerified(`func.func @f(%arg: tensor<1x8xf32>, %lane: index) {
      return
    }`);
    const ctx = m.context;
    const fn = m.regions[0]!.firstBlock!.firstOp!;
    const body = fn.regions[0]!.firstBlock!;
    const [arg, lane] = body.arguments;
    const b = new OpBuilder(ctx);
    b.setInsertionPoint(body.lastOp!);
    const loc = fn.location;
    const map = AffineMap.get(ctx, 1, 0, [getAffineBinaryExpr('mul', getAffineDimExpr(ctx, 0), getAffineConstantExpr(ctx, 4))]);
    const offset = createAffineApply(b, loc, map, [lane!]);
    const fragment = createExtractSlice(b, loc, arg!, { offsets: [0, offset], sizes: [1, 4] });
    const init = createEmpty(b, loc, RankedTensorType.get(ctx, [2, 1, 4], FloatType.f32(ctx)));
    createInsertSlice(b, loc, fragment, init, { offsets: [1, 0, 0], sizes: [1, 1, 4] });
    const { diagnostics } = ctx.diagnostics.capture(() => verify(m));
    expect(diagnostics.map((d) => d.message)).toEqual([]);
    const text = printOperation(m, { localScope: true });
    expect(text).toContain('%0 = affine.apply affine_map<(d0) -> (d0 * 4)>(%arg1)');
    expect(text).toContain('%extracted_slice = tensor.extract_slice %arg0[0, %0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>');
    expect(text).toContain('%inserted_slice = tensor.insert_slice %extracted_slice into %1[1, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x4xf32> into tensor<2x1x4xf32>');
  });
});
