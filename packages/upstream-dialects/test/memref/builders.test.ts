/** The convenience builders produce verified IR whose text is what MLIR prints. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import {
  Block,
  FloatType,
  IndexType,
  IntegerType,
  MemRefType,
  OpBuilder,
  Operation,
  printOperation,
  Region,
  StridedLayoutAttr,
  UnknownLoc,
  verify,
} from '@raptor-pim/ir-core';
import {
  createAlloc,
  createCast,
  createCollapseShape,
  createCopy,
  createDealloc,
  createExpandShape,
  createLoad,
  createReinterpretCast,
  createStore,
  createSubView,
  createView,
} from '@raptor-pim/upstream-dialects';
import { makeContext } from './helpers';

const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';

it('builds alloc/subview/collapse/expand/reinterpret_cast/view/load/store/copy/cast/dealloc', () => {
  const ctx = makeContext();
  const loc = UnknownLoc.get(ctx);
  const region = new Region();
  const block = new Block();
  region.push(block);
  const module = Operation.create({ context: ctx, name: 'builtin.module', location: loc, regions: [region] });
  const b = OpBuilder.atBlockEnd(block, ctx);
  const f32 = FloatType.f32(ctx);
  const idx = IndexType.get(ctx);
  const src = b.create({ name: 'test.src', location: loc, resultTypes: [idx] });
  const n = src.getResult(0);
  const m = createAlloc(b, loc, MemRefType.get(ctx, [8, 16], f32), [], { alignment: 64 });
  const d = createAlloc(b, loc, MemRefType.get(ctx, [-9007199254740991, 4], f32), [n]);
  const sv = createSubView(b, loc, m, [2, n], [4, 8], [1, 2]);
  createSubView(b, loc, m, [1, 0], [1, 16], [1, 1], MemRefType.get(ctx, [16], f32, StridedLayoutAttr.get(ctx, 16, [1])));
  const c = createCollapseShape(b, loc, m, [[0, 1]])!;
  const e = createExpandShape(b, loc, c, [[0, 1, 2]], [2, 4, 16])!;
  createReinterpretCast(b, loc, m, 4, [4, 4], [16, 1], MemRefType.get(ctx, [4, 4], f32, StridedLayoutAttr.get(ctx, 4, [16, 1])));
  const bytes = createAlloc(b, loc, MemRefType.get(ctx, [256], IntegerType.get(ctx, 8)));
  const v = createView(b, loc, bytes, n, MemRefType.get(ctx, [4, 4], f32));
  const x = createLoad(b, loc, sv, [n, n]);
  createStore(b, loc, x, e, [n, n, n]);
  createCopy(b, loc, v, v);
  createCast(b, loc, d, MemRefType.get(ctx, [-9007199254740991, -9007199254740991], f32));
  createDealloc(b, loc, m);
  const text = printOperation(module);
  expect(text).toContain('memref.subview %alloc[2, %0] [4, 8] [1, 2] : memref<8x16xf32> to memref<4x8xf32, strided<[16, 2], offset: ?>>');
  expect(text).toContain('memref.collapse_shape %alloc [[0, 1]] : memref<8x16xf32> into memref<128xf32>');
  expect(text).toContain('memref.expand_shape %collapse_shape [[0, 1, 2]] output_shape [2, 4, 16] : memref<128xf32> into memref<2x4x16xf32>');
  expect(text).toContain('%alloc = memref.alloc() {alignment = 64 : i64} : memref<8x16xf32>');
  const { diagnostics } = ctx.diagnostics.capture(() => verify(module));
  expect(diagnostics.map((dg) => dg.message)).toEqual([]);
  if (fs.existsSync(mlirOpt)) {
    // mlir-opt reads it and prints it back unchanged.
    expect(execFileSync(mlirOpt, ['--allow-unregistered-dialect', '-'], { input: text, encoding: 'utf8' })).toBe(text + '\n');
  }
});
