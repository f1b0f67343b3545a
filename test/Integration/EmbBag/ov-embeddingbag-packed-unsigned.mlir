// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// OpenVINO's reference tests of EmbeddingBagPacked-15 and
// EmbeddingBagPackedSum-3 on unsigned element types (u32, u8), ported.
//
// Source: openvinotoolkit/openvino,
//   src/plugins/template/tests/functional/op_reference/embeddingbag_packed.cpp
//   src/plugins/template/tests/functional/op_reference/embeddingbag_packedsum.cpp
//
// Indices [[0, 2], [1, 2], [3, 4]], table [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]].
//
// Results are printed through a byte buffer: the ui tensor is stored into a
// memref.view of the buffer with the unsigned type and read back through a
// view with the signless type, then zero-extended.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(tensor<*xi64>) attributes { llvm.emit_c_interface }

func.func @print_u8(%r: tensor<?x?xui8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xui8>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xui8>
  %n = arith.muli %d0, %d1 : index
  %buf = memref.alloc(%n) : memref<?xi8>
  %v = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xui8>
  bufferization.materialize_in_destination %r in restrict writable %v : (tensor<?x?xui8>, memref<?x?xui8>) -> ()
  %s = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xi8>
  %st = bufferization.to_tensor %s restrict : memref<?x?xi8> to tensor<?x?xi8>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%st : tensor<?x?xi8>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%x: i8, %o: i32):
    %y = arith.extui %x : i8 to i32
    linalg.yield %y : i32
  } -> tensor<?x?xi32>
  %u = tensor.cast %e : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_u32(%r: tensor<?x?xui32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xui32>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xui32>
  %n = arith.muli %d0, %d1 : index
  %bytes = arith.muli %n, %c4 : index
  %buf = memref.alloc(%bytes) : memref<?xi8>
  %v = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xui32>
  bufferization.materialize_in_destination %r in restrict writable %v : (tensor<?x?xui32>, memref<?x?xui32>) -> ()
  %s = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xi32>
  %st = bufferization.to_tensor %s restrict : memref<?x?xi32> to tensor<?x?xi32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi64>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%st : tensor<?x?xi32>) outs(%init : tensor<?x?xi64>) {
  ^bb0(%x: i32, %o: i64):
    %y = arith.extui %x : i32 to i64
    linalg.yield %y : i64
  } -> tensor<?x?xi64>
  %u = tensor.cast %e : tensor<?x?xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @main() {
  %tu32 = arith.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]> : tensor<5x2xui32>
  %tu8 = arith.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]> : tensor<5x2xui8>
  %i32 = arith.constant dense<[[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi32>
  %i64 = arith.constant dense<[[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi64>

  // SUM, u32, i32 indices.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [6, 8]
  // CHECK-NEXT: [8, 10]
  // CHECK-NEXT: [16, 18]
  %r0 = embbag.packed sum %tu32[%i32] : (tensor<5x2xui32>, tensor<3x2xi32>) -> tensor<3x2xui32>
  %p0 = tensor.cast %r0 : tensor<3x2xui32> to tensor<?x?xui32>
  call @print_u32(%p0) : (tensor<?x?xui32>) -> ()

  // SUM, u8, i64 indices.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [6, 8]
  // CHECK-NEXT: [8, 10]
  // CHECK-NEXT: [16, 18]
  %r1 = embbag.packed sum %tu8[%i64] : (tensor<5x2xui8>, tensor<3x2xi64>) -> tensor<3x2xui8>
  %p1 = tensor.cast %r1 : tensor<3x2xui8> to tensor<?x?xui8>
  call @print_u8(%p1) : (tensor<?x?xui8>) -> ()

  // MEAN, u32, i32 indices.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, 4]
  // CHECK-NEXT: [4, 5]
  // CHECK-NEXT: [8, 9]
  %r2 = embbag.packed mean %tu32[%i32] : (tensor<5x2xui32>, tensor<3x2xi32>) -> tensor<3x2xui32>
  %p2 = tensor.cast %r2 : tensor<3x2xui32> to tensor<?x?xui32>
  call @print_u32(%p2) : (tensor<?x?xui32>) -> ()

  // MEAN, u8, i64 indices.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, 4]
  // CHECK-NEXT: [4, 5]
  // CHECK-NEXT: [8, 9]
  %r3 = embbag.packed mean %tu8[%i64] : (tensor<5x2xui8>, tensor<3x2xi64>) -> tensor<3x2xui8>
  %p3 = tensor.cast %r3 : tensor<3x2xui8> to tensor<?x?xui8>
  call @print_u8(%p3) : (tensor<?x?xui8>) -> ()
  return
}
