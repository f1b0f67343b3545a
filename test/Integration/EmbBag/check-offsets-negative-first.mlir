// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check (docs/EmbBag/EmbBagOps.md): a negative first offset of embbag.offsets
// (offsets [-1, 2, 2]) stops the program: the message, naming the op and
// its location, goes to stderr, then the program aborts (hence `not
// --crash`). The operands reach a non-inlined kernel as arguments, so that
// the compile-time check (embbag-verify-constants) cannot see them.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) -> tensor<3x2xf32> {
  // CHECK: embbag.offsets at {{.*}}check-offsets-negative-first.mlir:[[@LINE+1]]:8: offsets must be non-negative, non-decreasing and at most the number of indices
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %o = arith.constant dense<[-1, 2, 2]> : tensor<3xi32>
  %r = call @kernel(%t, %i, %o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  // The program stops in @kernel: nothing is printed.
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
