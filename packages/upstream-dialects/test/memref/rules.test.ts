/**
 * The memref rules inside ir-core's interpreter framework, with func/arith rules from ir-core:
 * small programs checked against hand-computed values, and the runtime errors.
 */
import {
  Interpreter,
  InterpreterRegistry,
  registerBuiltinInterpreterRules,
  MemRefType,
  ShapedValue,
  type Operation,
} from '@raptor-pim/ir-core';
import { registerMemRefInterpreterRules } from '@raptor-pim/upstream-dialects';
import { parseVerified } from './helpers';

function runMain(text: string, args: ShapedValue[] = []) {
  const module: Operation = parseVerified(text);
  const registry = new InterpreterRegistry();
  registerBuiltinInterpreterRules(registry);
  registerMemRefInterpreterRules(registry);
  return new Interpreter(registry).runFunction(module, 'main', args);
}

describe('memref rules in the ir-core interpreter', () => {
  it('computes a 2x3 row sum through subview, load, store and arith', () => {
    const r = runMain(`
memref.global "private" constant @data : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
func.func @main() -> (f32, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %g = memref.get_global @data : memref<2x3xf32>
  %row = memref.subview %g[1, 0] [1, 3] [1, 1] : memref<2x3xf32> to memref<3xf32, strided<[1], offset: 3>>
  %a = memref.load %row[%c0] : memref<3xf32, strided<[1], offset: 3>>
  %b = memref.load %row[%c1] : memref<3xf32, strided<[1], offset: 3>>
  %c = memref.load %row[%c2] : memref<3xf32, strided<[1], offset: 3>>
  %s0 = arith.addf %a, %b : f32
  %s = arith.addf %s0, %c : f32
  %out = memref.alloc() : memref<1xf32>
  memref.store %s, %out[%c0] : memref<1xf32>
  %back = memref.load %out[%c0] : memref<1xf32>
  %d = memref.dim %g, %c1 : memref<2x3xf32>
  memref.dealloc %out : memref<1xf32>
  return %s, %back, %d : f32, f32, index
}`);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.values).toEqual([15, 15, 3]);
  });

  it('shares memory with buffers passed in as ShapedValues (argument written in place)', () => {
    const text = `
func.func @main(%m: memref<4xi64>) -> i64 {
  %c3 = arith.constant 3 : index
  %v = arith.constant 9007199254740993 : i64
  memref.store %v, %m[%c3] : memref<4xi64>
  %r = memref.load %m[%c3] : memref<4xi64>
  return %r : i64
}`;
    const module = parseVerified(text);
    const argType = module.regions[0]!.firstBlock!.firstOp!.regions[0]!.firstBlock!.getArgument(0).type as MemRefType;
    const buf = ShapedValue.allocate('buffer', argType.elementType, [4])!;
    const registry = new InterpreterRegistry();
    registerBuiltinInterpreterRules(registry);
    registerMemRefInterpreterRules(registry);
    const r = new Interpreter(registry).runFunction(module, 'main', [buf]);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.values).toEqual([9007199254740993n]);
    expect(buf.get([3])).toBe(9007199254740993n);
  });

  it('runs alloca_scope and generic_atomic_rmw regions with arith rules', () => {
    const r = runMain(`
func.func @main() -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<1xf32>
  %three = arith.constant 3.0 : f32
  memref.store %three, %m[%c0] : memref<1xf32>
  %old = memref.generic_atomic_rmw %m[%c0] : memref<1xf32> {
  ^bb0(%cur: f32):
    %sq = arith.mulf %cur, %cur : f32
    memref.atomic_yield %sq : f32
  }
  %s = memref.alloca_scope -> (f32) {
    %a = memref.alloca() : memref<2xf32>
    %x = memref.load %m[%c0] : memref<1xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%c0] : memref<2xf32>
    %z = memref.load %a[%c0] : memref<2xf32>
    memref.alloca_scope.return %z : f32
  }
  %now = memref.load %m[%c0] : memref<1xf32>
  return %old, %s, %now : f32, f32, f32
}`);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.values).toEqual([3, 18, 9]);
  });

  it('view reinterprets the bytes of an i8 buffer as f32 (shared with the typed array)', () => {
    const r = runMain(`
func.func @main() -> (i8, i8) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %b = memref.alloc() : memref<16xi8>
  %v = memref.view %b[%c4][] : memref<16xi8> to memref<2xf32>
  %one = arith.constant -2.0 : f32
  memref.store %one, %v[%c0] : memref<2xf32>
  %x = memref.load %b[%c6] : memref<16xi8>
  %y = memref.load %b[%c7] : memref<16xi8>
  return %x, %y : i8, i8
}`);
    expect(r.ok).toBe(true);
    // -2.0f = 0xC0000000: little-endian bytes 00 00 00 C0 at 4..7.
    if (r.ok) expect(r.values).toEqual([0, -64]);
  });

  it('reports out-of-bounds, use after dealloc and double free as diagnostics', () => {
    const oob = runMain(`
func.func @main() {
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4xf32>
  %x = memref.load %m[%c4] : memref<4xf32>
  return
}`);
    expect(oob.ok).toBe(false);
    if (!oob.ok) expect(oob.diagnostic.message).toBe('memref.load: index [4] is out of bounds for shape [4]');
    const uaf = runMain(`
func.func @main() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4xf32>
  %v = memref.subview %m[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.dealloc %m : memref<4xf32>
  %x = memref.load %v[%c0] : memref<2xf32, strided<[1], offset: 1>>
  return
}`);
    expect(uaf.ok).toBe(false);
    if (!uaf.ok) expect(uaf.diagnostic.message).toMatch(/^memref.load: use of buffer #\d+ after it was deallocated$/);
    const df = runMain(`
func.func @main() {
  %m = memref.alloc() : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}`);
    expect(df.ok).toBe(false);
    if (!df.ok) expect(df.diagnostic.message).toMatch(/^memref.dealloc: buffer #\d+ was already deallocated$/);
  });

  it('copy, reshape, memory_space_cast, distinct_objects, assume_alignment, prefetch and extract ops', () => {
    const r = runMain(`
memref.global "private" constant @src : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
func.func @main() -> (f32, f32, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.get_global @src : memref<2x2xf32>
  %dst = memref.alloc() : memref<2x2xf32>
  memref.copy %g, %dst : memref<2x2xf32> to memref<2x2xf32>
  %shape = memref.alloc() : memref<1xindex>
  %c4 = arith.constant 4 : index
  memref.store %c4, %shape[%c0] : memref<1xindex>
  %flat = memref.reshape %dst(%shape) : (memref<2x2xf32>, memref<1xindex>) -> memref<4xf32>
  %ms = memref.memory_space_cast %flat : memref<4xf32> to memref<4xf32, 1>
  %a, %b = memref.distinct_objects %ms, %dst : memref<4xf32, 1>, memref<2x2xf32>
  %al = memref.assume_alignment %a, 4 : memref<4xf32, 1>
  memref.prefetch %al[%c1], read, locality<3>, data : memref<4xf32, 1>
  %three = arith.constant 3 : index
  %x = memref.load %al[%three] : memref<4xf32, 1>
  %y = memref.load %b[%c1, %c0] : memref<2x2xf32>
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %b : memref<2x2xf32> -> memref<f32>, index, index, index, index, index
  %p = memref.extract_aligned_pointer_as_index %b : memref<2x2xf32> -> index
  return %x, %y, %st#0, %sz#1 : f32, f32, index, index
}`);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.values).toEqual([4, 3, 2, 2]);
  });
});
