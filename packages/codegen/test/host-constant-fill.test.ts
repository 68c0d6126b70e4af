/**
 * Loads of host constants whose bytes are all equal (the zero padding buffers convolutions
 * insert their input into) are emitted as `lldi` (a local memset) instead of `ld`: no access to
 * the global memory, whose single port every core queues for. Other constants stay `ld`.
 */
import { defaultTarget, disassemble } from '@raptor-pim/pim-target';
import { emitBundle } from '../src';
import { expectClose, interpretAll, parseModule, simulate } from './helpers';

const MODULE = `
func.func @main(%x: memref<1x4xf32>) -> memref<1x8xf32> attributes {pim.host_arg_addresses = array<i64: 0>} {
  %zeros = arith.constant {pim.host_address = 16 : i64} dense<0.000000e+00> : tensor<1x8xf32>
  %bias = arith.constant {pim.host_address = 48 : i64} dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %y = memref.alloc() {pim.host_address = 64 : i64} : memref<1x8xf32>
  pim.core [] = [] coreId 0 attributes {pim.local_memory_size = 64 : i64} : [] -> () {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() {pim.address = 0 : i64} : memref<1x8xf32>
    %b = memref.alloc() {pim.address = 32 : i64} : memref<1x4xf32>
    %l = pim.memcp_hd[%c0, %c0](%a, %zeros) {size = 32 : i32} : memref<1x8xf32>, tensor<1x8xf32> -> memref<1x8xf32>
    %m = pim.memcp_hd[%c0, %c0](%b, %bias) {size = 16 : i32} : memref<1x4xf32>, tensor<1x4xf32> -> memref<1x4xf32>
    %s = memref.subview %a[0, 2] [1, 4] [1, 1] : memref<1x8xf32> to memref<1x4xf32, strided<[8, 1], offset: 2>>
    %n = pim.memcp_hd[%c0, %c0](%s, %x) {size = 16 : i32} : memref<1x4xf32, strided<[8, 1], offset: 2>>, memref<1x4xf32> -> memref<1x4xf32, strided<[8, 1], offset: 2>>
    %r = pim.vvadd(%n, %m, %n) : (memref<1x4xf32, strided<[8, 1], offset: 2>>, memref<1x4xf32>, memref<1x4xf32, strided<[8, 1], offset: 2>>) -> memref<1x4xf32, strided<[8, 1], offset: 2>>
    %o = pim.memcp_dh[%c0, %c0](%y, %a) {size = 32 : i32} : memref<1x8xf32>, memref<1x8xf32> -> memref<1x8xf32>
    pim.halt
  }
  return %y : memref<1x8xf32>
}`;

describe('host constant fills', () => {
  it('a zero constant becomes lldi, a non-uniform one stays ld, and the values are unchanged', () => {
    const module = parseModule(MODULE);
    const r = emitBundle(module, defaultTarget());
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    const text = disassemble(r.bundle.programs[0]!);
    expect(text).toContain('lldi r0, 0, len=32');
    // The bias and the argument are loaded from global memory: two ld, none of the zeros.
    expect(text.split('\n').filter((l) => l.startsWith('ld ')).map((l) => l.replace(/^ld r\d+, r\d+, /, ''))).toEqual(['size=16', 'size=16']);
    const x = Float32Array.from([10, 20, 30, 40]);
    const want = interpretAll(module, new Map([[0, x]])).results[0]!;
    expect(Array.from(want)).toEqual([0, 0, 11, 22, 33, 44, 0, 0]);
    const got = simulate(r.bundle, { [r.bundle.inputs[0]!.name]: x });
    expectClose(got.outputs.get(r.bundle.outputs[0]!.name)!, want);
    expect(got.pimsimCompatible).toBe(true);
  });
});
