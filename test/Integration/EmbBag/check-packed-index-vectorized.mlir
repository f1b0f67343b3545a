// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check (docs/EmbBag/EmbBagOps.md) in the vector part of the index check: the
// check reads indices eight at a time and the last (n % 8) one by one. Here
// 20 i32 indices, all valid but indices[0, 5] = -1, which lies among the
// first eight: the check must still stop the program, the sign-extended -1
// comparing as out of range. The last valid row (4) is also used, in the
// vector part and in the scalar tail.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<2x10xi32>) -> tensor<2x2xf32> {
  // CHECK: embbag.packed at {{.*}}check-packed-index-vectorized.mlir:[[@LINE+1]]:8: index out of range [0, num_emb)
  %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<2x10xi32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[[0, 1, 2, 3, 4, -1, 0, 1, 2, 3], [4, 0, 1, 2, 3, 4, 0, 1, 2, 4]]> : tensor<2x10xi32>
  %r = call @kernel(%t, %i) : (tensor<5x2xf32>, tensor<2x10xi32>) -> tensor<2x2xf32>
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
