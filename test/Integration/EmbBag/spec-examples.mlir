// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// The examples of the OpenVINO op specifications (OpenVINO opset:
// EmbeddingBagPacked-15, EmbeddingBagOffsets-15, EmbeddingBagOffsetsSum-3,
// EmbeddingSegmentsSum-3), executed. All use the table
//   [[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

// Prints through a ranked argument: with the tensor.cast to an unranked
// tensor inside the helper, one-shot bufferization can copy the (ranked)
// argument at the call site when it must, e.g. when the linalg path makes
// several results share one buffer.
func.func @print_f32(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %t = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf32>
  %ip = arith.constant dense<[[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi32>
  %i = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
  %o = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  %d0 = arith.constant 0 : i32
  %dm1 = arith.constant -1 : i32
  %w05 = arith.constant dense<0.5> : tensor<4xf32>

  // EmbeddingBagPacked-15, example 1: sum.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-2.1, -2.4]
  // CHECK-NEXT: [-2, -2.2]
  // CHECK-NEXT: [-0.2, 0.8]
  %r0 = embbag.packed sum %t[%ip] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %p0 = tensor.cast %r0 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p0) : (tensor<?x?xf32>) -> ()

  // EmbeddingBagPacked-15, example 2: weighted sum.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [-1.36, -1.38]
  // CHECK-NEXT: [-2.8, 3.7]
  %wp = arith.constant dense<[[0.5, 0.5], [0.3, 0.7], [2.0, -1.0]]> : tensor<3x2xf32>
  %r1 = embbag.packed sum %t[%ip] weights(%wp) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %p1 = tensor.cast %r1 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p1) : (tensor<?x?xf32>) -> ()

  // EmbeddingBagPacked-15, example 3: mean.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [-1, -1.1]
  // CHECK-NEXT: [-0.1, 0.4]
  %r2 = embbag.packed mean %t[%ip] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %p2 = tensor.cast %r2 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p2) : (tensor<?x?xf32>) -> ()

  // EmbeddingBagOffsets-15 example 1 (= EmbeddingBagOffsetsSum-3 example 1):
  // default 0 fills the empty bag, weights 0.5.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [-0.2, -0.6]
  // CHECK-NEXT: [-0.1, 0.4]
  %r3 = embbag.offsets sum %t[%i] offsets(%o) default(%d0) weights(%w05) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>
  %p3 = tensor.cast %r3 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p3) : (tensor<?x?xf32>) -> ()

  // EmbeddingBagOffsets-15 example 2: default -1 (zeros), weights [0.5, 0.2, -2, 1].
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-0.48, -0.66]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [2.8, -3.7]
  %w2 = arith.constant dense<[0.5, 0.2, -2.0, 1.0]> : tensor<4xf32>
  %r4 = embbag.offsets sum %t[%i] offsets(%o) default(%dm1) weights(%w2) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>
  %p4 = tensor.cast %r4 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p4) : (tensor<?x?xf32>) -> ()

  // EmbeddingBagOffsetsSum-3 example 2: default -1 (zeros), weights 0.5.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [-0.1, 0.4]
  %r5 = embbag.offsets sum %t[%i] offsets(%o) default(%dm1) weights(%w05) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>
  %p5 = tensor.cast %r5 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p5) : (tensor<?x?xf32>) -> ()

  // EmbeddingBagOffsets-15 example 3: mean, no default.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [-0.1, 0.4]
  %r6 = embbag.offsets mean %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %p6 = tensor.cast %r6 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p6) : (tensor<?x?xf32>) -> ()

  // EmbeddingSegmentsSum-3 example: segment_ids [0, 0, 2, 2], num_segments 3,
  // default 0, weights 0.5.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [-0.2, -0.6]
  // CHECK-NEXT: [-0.1, 0.4]
  %s = arith.constant dense<[0, 0, 2, 2]> : tensor<4xi32>
  %n = arith.constant 3 : i32
  %r7 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d0) weights(%w05) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>
  %p7 = tensor.cast %r7 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p7) : (tensor<?x?xf32>) -> ()
  return
}
