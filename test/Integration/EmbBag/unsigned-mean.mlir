// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// Unsigned element types (docs/EmbBag/EmbBagOps.md): sums wrap in T, and mean divides the
// wrapped sum unsigned, by the true count (never wrapped to T). Values are
// chosen so that a signed division would give another result.
//
// Results are printed through a byte buffer viewed with the unsigned type
// (to store) and the signless type (to read), then zero-extended.

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

func.func @print_u16(%r: tensor<?x?xui16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xui16>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xui16>
  %n = arith.muli %d0, %d1 : index
  %bytes = arith.muli %n, %c2 : index
  %buf = memref.alloc(%bytes) : memref<?xi8>
  %v = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xui16>
  bufferization.materialize_in_destination %r in restrict writable %v : (tensor<?x?xui16>, memref<?x?xui16>) -> ()
  %s = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xi16>
  %st = bufferization.to_tensor %s restrict : memref<?x?xi16> to tensor<?x?xi16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%st : tensor<?x?xi16>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%x: i16, %o: i32):
    %y = arith.extui %x : i16 to i32
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
  //===--------------------------------------------------------------------===//
  // ui8, packed: rows r0 = [100, 250], r1 = [50, 2], r2 = [255, 1], r3 = [3, 3];
  // bags {0, 1}, {2, 3}.
  //===--------------------------------------------------------------------===//
  %t8 = arith.constant dense<[[100, 250], [50, 2], [255, 1], [3, 3]]> : tensor<4x2xui8>
  %i8 = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>

  // sum: [150, 252], [258 mod 256 = 2, 4].
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [150, 252]
  // CHECK-NEXT: [2, 4]
  %r0 = embbag.packed sum %t8[%i8] : (tensor<4x2xui8>, tensor<2x2xi32>) -> tensor<2x2xui8>
  %p0 = tensor.cast %r0 : tensor<2x2xui8> to tensor<?x?xui8>
  call @print_u8(%p0) : (tensor<?x?xui8>) -> ()

  // mean: [150, 252] / 2 = [75, 126] (signed: 150 is -106 -> -53 -> 203);
  // [2, 4] / 2 = [1, 2].
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [75, 126]
  // CHECK-NEXT: [1, 2]
  %r1 = embbag.packed mean %t8[%i8] : (tensor<4x2xui8>, tensor<2x2xi32>) -> tensor<2x2xui8>
  %p1 = tensor.cast %r1 : tensor<2x2xui8> to tensor<?x?xui8>
  call @print_u8(%p1) : (tensor<?x?xui8>) -> ()

  // ui8 bag of 300 indices (255 times row 1 = [1, 0], 45 times row 0 = [0, 0]):
  // sum [255, 0]; mean 255 / 300 = 0 (a divisor wrapped to ui8, 44, would give 5).
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [255, 0]
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  %tb = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xui8>
  %ib = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<1x300xi64>
  %r2 = embbag.packed sum %tb[%ib] : (tensor<2x2xui8>, tensor<1x300xi64>) -> tensor<1x2xui8>
  %p2 = tensor.cast %r2 : tensor<1x2xui8> to tensor<?x?xui8>
  call @print_u8(%p2) : (tensor<?x?xui8>) -> ()
  %r3 = embbag.packed mean %tb[%ib] : (tensor<2x2xui8>, tensor<1x300xi64>) -> tensor<1x2xui8>
  %p3 = tensor.cast %r3 : tensor<1x2xui8> to tensor<?x?xui8>
  call @print_u8(%p3) : (tensor<?x?xui8>) -> ()

  //===--------------------------------------------------------------------===//
  // ui16, offsets: rows r0 = [60000, 1], r1 = [2, 3], r2 = [65535, 65535];
  // indices [0, 1, 2, 2], offsets [0, 2]: bags {0, 1}, {2, 2}.
  // sums [60002, 4], [131070 mod 65536 = 65534, 65534];
  // means [30001, 2], [32767, 32767] (signed: 65534 is -2 -> -1 -> 65535).
  //===--------------------------------------------------------------------===//
  %t16 = arith.constant dense<[[60000, 1], [2, 3], [65535, 65535]]> : tensor<3x2xui16>
  %i16 = arith.constant dense<[0, 1, 2, 2]> : tensor<4xi64>
  %o16 = arith.constant dense<[0, 2]> : tensor<2xi64>
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [30001, 2]
  // CHECK-NEXT: [32767, 32767]
  %r4 = embbag.offsets mean %t16[%i16] offsets(%o16) : (tensor<3x2xui16>, tensor<4xi64>, tensor<2xi64>) -> tensor<2x2xui16>
  %p4 = tensor.cast %r4 : tensor<2x2xui16> to tensor<?x?xui16>
  call @print_u16(%p4) : (tensor<?x?xui16>) -> ()

  //===--------------------------------------------------------------------===//
  // ui32: rows r0 = [4000000000, 7], r1 = [100000000, 0], r2 = [1, 4294967295],
  // r3 = [2, 3]; bags {0, 1}, {2, 3}.
  // sums [4100000000, 7], [3, 4294967298 mod 2^32 = 2];
  // means [2050000000, 3], [1, 1]
  // (signed: 4100000000 is -194967296 -> -97483648 -> 4197483648).
  //===--------------------------------------------------------------------===//
  %t32 = arith.constant dense<[[4000000000, 7], [100000000, 0], [1, 4294967295], [2, 3]]> : tensor<4x2xui32>

  // packed.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [2050000000, 3]
  // CHECK-NEXT: [1, 1]
  %i32 = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>
  %r5 = embbag.packed mean %t32[%i32] : (tensor<4x2xui32>, tensor<2x2xi64>) -> tensor<2x2xui32>
  %p5 = tensor.cast %r5 : tensor<2x2xui32> to tensor<?x?xui32>
  call @print_u32(%p5) : (tensor<?x?xui32>) -> ()

  // segments: indices [0, 1, 2, 3], segment_ids [0, 0, 1, 1].
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [2050000000, 3]
  // CHECK-NEXT: [1, 1]
  %is = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %ss = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi32>
  %ns = arith.constant 2 : i32
  %r6 = embbag.segments mean %t32[%is] segment_ids(%ss) num_segments(%ns) : (tensor<4x2xui32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<2x2xui32>
  %p6 = tensor.cast %r6 : tensor<2x2xui32> to tensor<?x?xui32>
  call @print_u32(%p6) : (tensor<?x?xui32>) -> ()
  return
}
