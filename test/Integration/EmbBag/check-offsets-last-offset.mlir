// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime checks of include_last_offset (docs/EmbBag/EmbBagOps.md): the last
// offset ends the last bag, so the indices it covers are read and checked
// (index 7 at position 2, before the last offset 3, here): the program stops
// with a message naming the op. The operands reach a non-inlined kernel as
// arguments, so that embbag-verify-constants cannot see them.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %o: tensor<3xi64>) -> tensor<2x2xf32> {
  // CHECK: embbag.offsets at {{.*}}check-offsets-last-offset.mlir:[[@LINE+1]]:8: {{.*}}index
  %r = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 7, 3]> : tensor<4xi64>
  %o = arith.constant dense<[0, 2, 3]> : tensor<3xi64>
  %r = call @kernel(%t, %i, %o) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<2x2xf32>
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
