// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// embbag.packed with 0 indices per bag (docs/EmbBag/EmbBagOps.md): every bag is empty,
// the result is zeros, for sum, weighted sum and mean (float and integer:
// no division by zero), with static and dynamic shapes.
// (The cases use different batch sizes: identical all-zero results would be
// merged by CSE, and one-shot bufferization cannot pass one tensor to two
// printMemref calls.)

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }

func.func @mean_dynamic(%t: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = embbag.packed mean %t[%i] : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]]> : tensor<3x2xf32>
  %ti = arith.constant dense<[[1, 2], [10, 20], [100, 200]]> : tensor<3x2xi32>
  %i = arith.constant dense<> : tensor<4x0xi32>

  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  %r0 = embbag.packed sum %t[%i] : (tensor<3x2xf32>, tensor<4x0xi32>) -> tensor<4x2xf32>
  %p0 = tensor.cast %r0 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  %i3 = arith.constant dense<> : tensor<3x0xi32>
  %r1 = embbag.packed mean %t[%i3] : (tensor<3x2xf32>, tensor<3x0xi32>) -> tensor<3x2xf32>
  %p1 = tensor.cast %r1 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  %i2 = arith.constant dense<> : tensor<2x0xi32>
  %w = arith.constant dense<> : tensor<2x0xf32>
  %r2 = embbag.packed sum %t[%i2] weights(%w) : (tensor<3x2xf32>, tensor<2x0xi32>, tensor<2x0xf32>) -> tensor<2x2xf32>
  %p2 = tensor.cast %r2 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  // Integer mean.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  %r3 = embbag.packed mean %ti[%i] : (tensor<3x2xi32>, tensor<4x0xi32>) -> tensor<4x2xi32>
  %p3 = tensor.cast %r3 : tensor<4x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p3) : (tensor<*xi32>) -> ()

  // Dynamic shapes, mean, 2 bags.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  %i64 = arith.constant dense<> : tensor<2x0xi64>
  %td = tensor.cast %t : tensor<3x2xf32> to tensor<?x?xf32>
  %id = tensor.cast %i64 : tensor<2x0xi64> to tensor<?x?xi64>
  %r4 = call @mean_dynamic(%td, %id) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %p4 = tensor.cast %r4 : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()
  return
}
