// `raptor opt packages/cli/examples/canonicalize.mlir --pass-pipeline=builtin.module(canonicalize)`
// folds and reassociates the constants as mlir-opt --canonicalize does.
func.func @f(%a: i32, %b: index) -> (i32, i32, i32, i32, index) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %0 = arith.addi %a, %c1 overflow<nsw> : i32
  %1 = arith.addi %0, %c2 overflow<nsw, nuw> : i32
  %2 = arith.subi %a, %c5 : i32
  %3 = arith.addi %2, %c2 : i32
  %4 = arith.subi %c5, %a : i32
  %5 = arith.addi %4, %c1 : i32
  %6 = arith.muli %a, %c2 : i32
  %7 = arith.muli %6, %c5 : i32
  %i3 = arith.constant 3 : index
  %8 = arith.addi %b, %i3 : index
  %9 = arith.subi %8, %i3 : index
  return %1, %3, %5, %7, %9 : i32, i32, i32, i32, index
}
