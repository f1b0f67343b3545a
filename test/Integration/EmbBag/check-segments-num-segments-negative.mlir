// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check (docs/EmbBag/EmbBagOps.md): a negative num_segments of embbag.segments
// (-1, with no indices, so that no segment id is out of range) stops the
// program: the message, naming the op and its location, goes to stderr,
// then the program aborts (hence `not --crash`). The operands reach a non-
// inlined kernel as arguments, so that the compile-time check (embbag-
// verify-constants) cannot see them.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<0xi32>, %s: tensor<0xi32>, %n: i32) -> tensor<?x2xf32> {
  // CHECK: embbag.segments at {{.*}}check-segments-num-segments-negative.mlir:[[@LINE+1]]:8: num_segments must be non-negative
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<> : tensor<0xi32>
  %n = arith.constant -1 : i32
  %r = call @kernel(%t, %i, %i, %n) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32) -> tensor<?x2xf32>
  // The program stops in @kernel: nothing is printed.
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
