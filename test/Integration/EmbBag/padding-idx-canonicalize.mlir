// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize | FileCheck %s --check-prefix=CANON

// The canonicalizations that meet padding_idx leave the computed values
// unchanged (docs/Semantics.md): uniform offsets become embbag.packed
// with the same padding_idx, all-ones weights and default(-1) are dropped
// with padding_idx kept, a padding_idx of -1 is dropped, and offsets with a
// default as well as padding_idx stay offsets. The same expected values with
// and without --canonicalize; the CANON run shows the rewrites did apply.
//
// Table rows: r0 = [1, 2], r1 = [3, -4], r2 = [5, 6], r3 = [70, 80] (the
// padding_idx), r4 = [-1, 9].

// CANON-LABEL: func.func @main
// CANON:         embbag.packed mean %{{.*}}[%{{.*}}] padding_idx(%{{.*}}) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
// CANON:         embbag.packed sum %{{.*}}[%{{.*}}] padding_idx(%{{.*}}) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
// CANON:         embbag.offsets mean %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(4) padding_idx(%{{.*}}) :
// CANON:         embbag.segments max %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(2) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x2xf32>

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, -4.0], [5.0, 6.0], [70.0, 80.0], [-1.0, 9.0]]> : tensor<5x2xf32>
  %p = arith.constant 3 : i32
  %none = arith.constant -1 : i32
  %i = arith.constant dense<[0, 3, 3, 3, 1, 2]> : tensor<6xi32>
  %o = arith.constant dense<[0, 2, 4]> : tensor<3xi32>

  // Bags {0, 3}, {3, 3}, {1, 2}: mean r0, zeros, (r1 + r2) / 2.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [4, 1]
  %0 = embbag.offsets mean %t[%i] offsets(%o) padding_idx(%p) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %c0 = tensor.cast %0 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c0) : (tensor<?x?xf32>) -> ()

  // Weights of ones and default -1: sum r0, zeros, r1 + r2.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [8, 2]
  %ones = arith.constant dense<1.0> : tensor<6xf32>
  %1 = embbag.offsets sum %t[%i] offsets(%o) default(%none) padding_idx(%p) weights(%ones) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>, i32, i32, tensor<6xf32>) -> tensor<3x2xf32>
  %c1 = tensor.cast %1 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c1) : (tensor<?x?xf32>) -> ()

  // With default 4 the bag of only padding takes r4: not rewritten.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [-1, 9]
  // CHECK-NEXT: [4, 1]
  %2 = embbag.offsets mean %t[%i] offsets(%o) default(4) padding_idx(%p) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %c2 = tensor.cast %2 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c2) : (tensor<?x?xf32>) -> ()

  // padding_idx -1: nothing skipped, max(r0, r3) and r1.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [70, 80]
  // CHECK-NEXT: [3, -4]
  %si = arith.constant dense<[0, 3, 1]> : tensor<3xi32>
  %ss = arith.constant dense<[0, 0, 1]> : tensor<3xi32>
  %3 = embbag.segments max %t[%si] segment_ids(%ss) num_segments(2) padding_idx(%none) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<2x2xf32>
  %c3 = tensor.cast %3 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%c3) : (tensor<?x?xf32>) -> ()
  return
}
