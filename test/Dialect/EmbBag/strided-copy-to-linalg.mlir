// RUN: embbag-opt %s --split-input-file --embbag-strided-copy-to-linalg | FileCheck %s
// RUN: embbag-opt %s --split-input-file --embbag-to-llvm | FileCheck %s --check-prefix=LLVM

// A copy into a strided view (columns of a wider buffer) becomes a
// linalg.copy of the same operands: loops, not memrefCopy.
// CHECK-LABEL: func.func @into_columns
// CHECK-SAME: %[[A:.*]]: memref<2x2xf32>, %[[B:.*]]: memref<2x6xf32>
// CHECK: %[[V:.*]] = memref.subview %[[B]]
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[A]] : memref<2x2xf32>) outs(%[[V]] : memref<2x2xf32, strided<[6, 1], offset: 2>>)
// LLVM-LABEL: llvm.func @into_columns
// LLVM-NOT: memrefCopy
// LLVM: llvm.return
func.func @into_columns(%a: memref<2x2xf32>, %b: memref<2x6xf32>) {
  %v = memref.subview %b[0, 2] [2, 2] [1, 1] : memref<2x6xf32> to memref<2x2xf32, strided<[6, 1], offset: 2>>
  memref.copy %a, %v : memref<2x2xf32> to memref<2x2xf32, strided<[6, 1], offset: 2>>
  return
}

// -----

// Dynamic strides on the source side too.
// CHECK-LABEL: func.func @from_dynamic_view
// CHECK: linalg.copy
// CHECK-NOT: memref.copy
func.func @from_dynamic_view(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32>) {
  memref.copy %a, %b : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32>
  return
}

// -----

// Copies the memcpy lowering takes stay: identity layouts, a static
// contiguous strided layout, and unranked buffers (no loops for those).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: linalg.copy
// CHECK-COUNT-3: memref.copy
// CHECK-NOT: linalg.copy
// LLVM-LABEL: llvm.func @kept
// LLVM-COUNT-2: "llvm.intr.memcpy"
func.func @kept(%a: memref<?x4xf32>, %b: memref<?x4xf32>, %c: memref<3x2xf32, strided<[2, 1], offset: 4>>, %d: memref<3x2xf32>, %u: memref<*xf32>, %w: memref<*xf32>) {
  memref.copy %a, %b : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %c, %d : memref<3x2xf32, strided<[2, 1], offset: 4>> to memref<3x2xf32>
  memref.copy %u, %w : memref<*xf32> to memref<*xf32>
  return
}

// -----

// Through the pipeline: a tensor.concat of two embbag results copies each
// into its columns of the result, in loops.
// LLVM-LABEL: llvm.func @concat
// LLVM-NOT: memrefCopy
// LLVM: llvm.return
func.func @concat(%t: tensor<6x2xf32>, %i: tensor<2x2xi32>, %j: tensor<2x3xi32>) -> tensor<2x4xf32> {
  %a = embbag.packed sum %t[%i] : (tensor<6x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %b = embbag.packed max %t[%j] : (tensor<6x2xf32>, tensor<2x3xi32>) -> tensor<2x2xf32>
  %c = tensor.concat dim(1) %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  return %c : tensor<2x4xf32>
}
