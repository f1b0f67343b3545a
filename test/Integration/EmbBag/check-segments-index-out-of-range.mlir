// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check (docs/EmbBag/EmbBagOps.md): an index of embbag.segments outside [0,
// num_emb) (indices[1] = 5, num_emb = 5) stops the program: the message,
// naming the op and its location, goes to stderr, then the program aborts
// (hence `not --crash`). The operands reach a non-inlined kernel as
// arguments, so that the compile-time check (embbag-verify-constants)
// cannot see them.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<3xi32>, %s: tensor<3xi32>, %n: i32) -> tensor<?x2xf32> {
  // CHECK: embbag.segments at {{.*}}check-segments-index-out-of-range.mlir:[[@LINE+1]]:8: index out of range [0, num_emb)
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 5, 1]> : tensor<3xi32>
  %s = arith.constant dense<[0, 1, 1]> : tensor<3xi32>
  %n = arith.constant 2 : i32
  %r = call @kernel(%t, %i, %s, %n) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<?x2xf32>
  // The program stops in @kernel: nothing is printed.
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
