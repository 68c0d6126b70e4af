/** Discardable attributes and allocation addresses added by later passes survive both forms. */
import { parseVerified, printCustom, printGeneric } from '../helpers';

/** Replaces SSA names by their order of first appearance, and trims every line. */
function normalize(text: string): string {
  const ids = new Map<string, string>();
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join('\n')
    .replace(/%[A-Za-z_0-9$.-]+/g, (n) => {
      if (!ids.has(n)) ids.set(n, `%v${ids.size}`);
      return ids.get(n)!;
    });
}

const CASES = [
  `func.func @f(%x: memref<1x4xf32>, %dst: memref<1x4xf32>) {
  %y = pim.vrelu(%x, %dst) {note = "a"} : (memref<1x4xf32>, memref<1x4xf32>) -> memref<1x4xf32>
  return
}`,
  `func.func @f(%dst: memref<1x4xf32>, %src: memref<1x4xf32>) {
  %c0 = arith.constant 0 : index
  %y = pim.memcp[%c0, %c0](%dst, %src) {address = 64 : i64, size = 16 : i32} : memref<1x4xf32>, memref<1x4xf32> -> memref<1x4xf32>
  return
}`,
  `func.func @f() {
  pim.core [] = [] coreId 3 attributes {pim.local_memory_size = 1024 : i32} : [] -> () {
    pim.halt
  }
  return
}`,
  `func.func @f(%w: tensor<4x3xf32>, %x: memref<1x4xf32>) {
  pim.core_batch %lane = 0 to 3 [%warg] = [%w] (%arg) = (%x) coreIds [4, 6, 5] attributes {tag = 1 : i32} : [tensor<4x3xf32>] (memref<1x4xf32>) -> () {
    pim.halt
  }
  return
}`,
  `func.func @f(%a: memref<1x2xf32>, %b: memref<1x3xf32>, %dst: memref<1x5xf32>) {
  %y = pim.concat axis 1 %a, %b into %dst {note = 2 : i64} : (memref<1x2xf32>, memref<1x3xf32>) -> memref<1x5xf32>
  return
}`,
];

it.each(CASES.map((c, i) => [i, c] as const))('case %i prints back identically (custom, generic)', (_i, text) => {
  const m = parseVerified(text);
  const custom = printCustom(m);
  // Same text up to SSA names (renumbered by the printer) and indentation.
  expect(normalize(custom.split('\n').slice(1, -1).join('\n'))).toBe(normalize(text));
  expect(printCustom(parseVerified(printGeneric(m)))).toBe(custom);
  expect(printCustom(parseVerified(custom))).toBe(custom);
});
