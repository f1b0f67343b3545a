// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

// OpenVINO's reference tests of EmbeddingSegmentsSum-3, ported: the signless
// element types (the unsigned ones are in
// ov-embedding-segments-sum-unsigned.mlir).
//
// Source: openvinotoolkit/openvino,
//   src/plugins/template/tests/functional/op_reference/embedding_segments_sum.cpp
//
// Every case uses indices [0, 2, 3, 4], segment_ids [0, 0, 2, 2] and
// num_segments 3: segments {0, 2}, {} and {3, 4}; the tables are those of
// ov-embeddingbag-packed.mlir. The f16 expectations are the exact results of
// f16 inputs summed in f32 and rounded once to f16.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF64(tensor<*xf64>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(tensor<*xi64>) attributes { llvm.emit_c_interface }

func.func @print_f16(%r: tensor<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xf16>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x?xf16>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  %u = tensor.cast %e : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print_i8(%r: tensor<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xi8>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xi8>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x?xi8>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%x: i8, %o: i32):
    %y = arith.extsi %x : i8 to i32
    linalg.yield %y : i32
  } -> tensor<?x?xi32>
  %u = tensor.cast %e : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %tf32 = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf32>
  %tf64 = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf64>
  %tf16 = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf16>
  %ti32 = arith.constant dense<[[-1, 2], [3, 4], [-5, -6], [-7, 8], [9, 10]]> : tensor<5x2xi32>
  %ti64 = arith.constant dense<[[-1, 2], [3, 4], [-5, -6], [-7, 8], [9, 10]]> : tensor<5x2xi64>
  %ti8 = arith.constant dense<[[-1, 2], [3, 4], [-5, -6], [-7, 8], [9, 10]]> : tensor<5x2xi8>
  %i32 = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
  %s32 = arith.constant dense<[0, 0, 2, 2]> : tensor<4xi32>
  %i64 = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi64>
  %s64 = arith.constant dense<[0, 0, 2, 2]> : tensor<4xi64>
  %n32 = arith.constant 3 : i32
  %n64 = arith.constant 3 : i64
  %d32 = arith.constant 0 : i32
  %d64 = arith.constant 0 : i64

  // f32, default 0, weights 0.5.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [-0.2, -0.6]
  // CHECK-NEXT: [-0.1, 0.4]
  %w = arith.constant dense<0.5> : tensor<4xf32>
  %r0 = embbag.segments sum %tf32[%i32] segment_ids(%s32) num_segments(%n32) default(%d32) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>
  %p0 = tensor.cast %r0 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // f64, default 0.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-2.1, -2.4]
  // CHECK-NEXT: [-0.2, -0.6]
  // CHECK-NEXT: [-0.2, 0.8]
  %r1 = embbag.segments sum %tf64[%i32] segment_ids(%s32) num_segments(%n32) default(%d32) : (tensor<5x2xf64>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf64>
  %p1 = tensor.cast %r1 : tensor<3x2xf64> to tensor<*xf64>
  call @printMemrefF64(%p1) : (tensor<*xf64>) -> ()

  // i32, no default.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-6, -4]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [2, 18]
  %r2 = embbag.segments sum %ti32[%i32] segment_ids(%s32) num_segments(%n32) : (tensor<5x2xi32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xi32>
  %p2 = tensor.cast %r2 : tensor<3x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p2) : (tensor<*xi32>) -> ()

  // f16, i64 indices, no default. OpenVINO: [-2.1, -2.4], [0, 0], [-0.2, 0.8].
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-2.09961, -2.40039]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [-0.200195, 0.799805]
  %r3 = embbag.segments sum %tf16[%i64] segment_ids(%s64) num_segments(%n64) : (tensor<5x2xf16>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<3x2xf16>
  %p3 = tensor.cast %r3 : tensor<3x2xf16> to tensor<?x?xf16>
  call @print_f16(%p3) : (tensor<?x?xf16>) -> ()

  // i64, i64 indices, default 0.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-6, -4]
  // CHECK-NEXT: [-1, 2]
  // CHECK-NEXT: [2, 18]
  %r4 = embbag.segments sum %ti64[%i64] segment_ids(%s64) num_segments(%n64) default(%d64) : (tensor<5x2xi64>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<3x2xi64>
  %p4 = tensor.cast %r4 : tensor<3x2xi64> to tensor<*xi64>
  call @printMemrefI64(%p4) : (tensor<*xi64>) -> ()

  // i8, i64 indices, default 0, weights 2 (the default row is not weighted).
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-12, -8]
  // CHECK-NEXT: [-1, 2]
  // CHECK-NEXT: [4, 36]
  %w8 = arith.constant dense<2> : tensor<4xi8>
  %r5 = embbag.segments sum %ti8[%i64] segment_ids(%s64) num_segments(%n64) default(%d64) weights(%w8) : (tensor<5x2xi8>, tensor<4xi64>, tensor<4xi64>, i64, i64, tensor<4xi8>) -> tensor<3x2xi8>
  %p5 = tensor.cast %r5 : tensor<3x2xi8> to tensor<?x?xi8>
  call @print_i8(%p5) : (tensor<?x?xi8>) -> ()
  return
}
