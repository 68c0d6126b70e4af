// A first look at Raptor's IR: `raptor opt` parses this file, verifies it and prints it back
// in MLIR's canonical form (try --print-generic, or --print-debuginfo for locations).
//
// relu_sum(x, y) = max(x + y, 0) on a 1x4 tensor, and a scalar helper showing integer
// arithmetic with overflow flags and a comparison.

func.func @relu_sum(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %zero = arith.constant dense<0.0> : tensor<1x4xf32>
  %sum = arith.addf %x, %y : tensor<1x4xf32>
  %relu = arith.maximumf %sum, %zero : tensor<1x4xf32>
  return %relu : tensor<1x4xf32>
}

// Clamps `i * 4 + 1` to at most 42.
func.func @clamp(%i: i32) -> i32 {
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i32
  %c42 = arith.constant 42 : i32
  %scaled = arith.muli %i, %c4 overflow<nsw> : i32
  %next = arith.addi %scaled, %c1 overflow<nsw> : i32
  %big = arith.cmpi sgt, %next, %c42 : i32
  %r = arith.select %big, %c42, %next : i32
  return %r : i32
}
