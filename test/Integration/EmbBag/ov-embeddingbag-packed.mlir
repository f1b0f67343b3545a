// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// OpenVINO's reference tests of EmbeddingBagPacked-15 and
// EmbeddingBagPackedSum-3, ported: the signless element types (the unsigned
// ones are in ov-embeddingbag-packed-unsigned.mlir).
//
// Source: openvinotoolkit/openvino,
//   src/plugins/template/tests/functional/op_reference/embeddingbag_packed.cpp
//   src/plugins/template/tests/functional/op_reference/embeddingbag_packedsum.cpp
//   (the PackedSum-3 cases are the SUM cases of the -15 file).
//
// Every case uses indices [[0, 2], [1, 2], [3, 4]] and the table
//   float: [[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]
//   int:   [[-1, 2], [3, 4], [-5, -6], [-7, 8], [9, 10]]
// OpenVINO compares floats with a tolerance; the f16 expectations below are
// the exact results of f16 inputs summed in f32 and rounded once to f16
// (docs/EmbBag/EmbBagOps.md), printed with 6 significant digits.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF64(tensor<*xf64>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(tensor<*xi64>) attributes { llvm.emit_c_interface }

// Prints through a ranked argument: with the tensor.cast to an unranked
// tensor inside the helper, one-shot bufferization can copy the (ranked)
// argument at the call site when it must, e.g. when the linalg path makes
// several results share one buffer.
func.func @print_f32(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print_f64(%r: tensor<?x?xf64>) {
  %u = tensor.cast %r : tensor<?x?xf64> to tensor<*xf64>
  call @printMemrefF64(%u) : (tensor<*xf64>) -> ()
  return
}

func.func @print_i32(%r: tensor<?x?xi32>) {
  %u = tensor.cast %r : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_i64(%r: tensor<?x?xi64>) {
  %u = tensor.cast %r : tensor<?x?xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

// Prints an f16 tensor as f32 (extf is exact).
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

// Prints an i8 tensor as i32 (sign-extended).
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
  %i32 = arith.constant dense<[[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi32>
  %i64 = arith.constant dense<[[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi64>

  // SUM, f32, weights 0.5.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [-1, -1.1]
  // CHECK-NEXT: [-0.1, 0.4]
  %w = arith.constant dense<0.5> : tensor<3x2xf32>
  %r0 = embbag.packed sum %tf32[%i32] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %p0 = tensor.cast %r0 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print_f32(%p0) : (tensor<?x?xf32>) -> ()

  // SUM, f64.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-2.1, -2.4]
  // CHECK-NEXT: [-2, -2.2]
  // CHECK-NEXT: [-0.2, 0.8]
  %r1 = embbag.packed sum %tf64[%i32] : (tensor<5x2xf64>, tensor<3x2xi32>) -> tensor<3x2xf64>
  %p1 = tensor.cast %r1 : tensor<3x2xf64> to tensor<?x?xf64>
  call @print_f64(%p1) : (tensor<?x?xf64>) -> ()

  // SUM, i32.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-6, -4]
  // CHECK-NEXT: [-2, -2]
  // CHECK-NEXT: [2, 18]
  %r2 = embbag.packed sum %ti32[%i32] : (tensor<5x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  %p2 = tensor.cast %r2 : tensor<3x2xi32> to tensor<?x?xi32>
  call @print_i32(%p2) : (tensor<?x?xi32>) -> ()

  // SUM, f16, i64 indices. OpenVINO: [-2.1, -2.4], [-2.0, -2.2], [-0.2, 0.8].
  // f16(-0.2) + f16(-1.9) = -0.199951171875 - 1.900390625 = -2.100341796875,
  // rounded to f16 (step 2^-9): -2.099609375, and so on.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-2.09961, -2.40039]
  // CHECK-NEXT: [-2, -2.19922]
  // CHECK-NEXT: [-0.200195, 0.799805]
  %r3 = embbag.packed sum %tf16[%i64] : (tensor<5x2xf16>, tensor<3x2xi64>) -> tensor<3x2xf16>
  %p3 = tensor.cast %r3 : tensor<3x2xf16> to tensor<?x?xf16>
  call @print_f16(%p3) : (tensor<?x?xf16>) -> ()

  // SUM, i64, i64 indices.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-6, -4]
  // CHECK-NEXT: [-2, -2]
  // CHECK-NEXT: [2, 18]
  %r4 = embbag.packed sum %ti64[%i64] : (tensor<5x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
  %p4 = tensor.cast %r4 : tensor<3x2xi64> to tensor<?x?xi64>
  call @print_i64(%p4) : (tensor<?x?xi64>) -> ()

  // SUM, i8, i64 indices, weights 2.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-12, -8]
  // CHECK-NEXT: [-4, -4]
  // CHECK-NEXT: [4, 36]
  %w8 = arith.constant dense<2> : tensor<3x2xi8>
  %r5 = embbag.packed sum %ti8[%i64] weights(%w8) : (tensor<5x2xi8>, tensor<3x2xi64>, tensor<3x2xi8>) -> tensor<3x2xi8>
  %p5 = tensor.cast %r5 : tensor<3x2xi8> to tensor<?x?xi8>
  call @print_i8(%p5) : (tensor<?x?xi8>) -> ()

  // MEAN, f64.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.05, -1.2]
  // CHECK-NEXT: [-1, -1.1]
  // CHECK-NEXT: [-0.1, 0.4]
  %r6 = embbag.packed mean %tf64[%i32] : (tensor<5x2xf64>, tensor<3x2xi32>) -> tensor<3x2xf64>
  %p6 = tensor.cast %r6 : tensor<3x2xf64> to tensor<?x?xf64>
  call @print_f64(%p6) : (tensor<?x?xf64>) -> ()

  // MEAN, i32.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-3, -2]
  // CHECK-NEXT: [-1, -1]
  // CHECK-NEXT: [1, 9]
  %r7 = embbag.packed mean %ti32[%i32] : (tensor<5x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  %p7 = tensor.cast %r7 : tensor<3x2xi32> to tensor<?x?xi32>
  call @print_i32(%p7) : (tensor<?x?xi32>) -> ()

  // MEAN, f16, i64 indices. OpenVINO: [-1.05, -1.2], [-1.0, -1.1], [-0.1, 0.4].
  // -2.100341796875 / 2 = -1.0501708984375, rounded to f16 (step 2^-10):
  // -1.0498046875, and so on.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.0498, -1.2002]
  // CHECK-NEXT: [-1, -1.09961]
  // CHECK-NEXT: [-0.100098, 0.399902]
  %r8 = embbag.packed mean %tf16[%i64] : (tensor<5x2xf16>, tensor<3x2xi64>) -> tensor<3x2xf16>
  %p8 = tensor.cast %r8 : tensor<3x2xf16> to tensor<?x?xf16>
  call @print_f16(%p8) : (tensor<?x?xf16>) -> ()

  // MEAN, i64, i64 indices.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-3, -2]
  // CHECK-NEXT: [-1, -1]
  // CHECK-NEXT: [1, 9]
  %r9 = embbag.packed mean %ti64[%i64] : (tensor<5x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
  %p9 = tensor.cast %r9 : tensor<3x2xi64> to tensor<?x?xi64>
  call @print_i64(%p9) : (tensor<?x?xi64>) -> ()
  return
}
