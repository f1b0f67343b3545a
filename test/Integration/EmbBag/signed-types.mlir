// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// Explicitly signed element types (si8, si16): the same arithmetic as the
// signless types, signed division for mean (truncating toward zero), sums
// wrapping in T.
//
// Results are printed through a byte buffer viewed with the signed type
// (to store) and the signless type (to read), then sign-extended.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }

func.func @print_s8(%r: tensor<?x?xsi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xsi8>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xsi8>
  %n = arith.muli %d0, %d1 : index
  %buf = memref.alloc(%n) : memref<?xi8>
  %v = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xsi8>
  bufferization.materialize_in_destination %r in restrict writable %v : (tensor<?x?xsi8>, memref<?x?xsi8>) -> ()
  %s = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xi8>
  %st = bufferization.to_tensor %s restrict : memref<?x?xi8> to tensor<?x?xi8>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%st : tensor<?x?xi8>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%x: i8, %o: i32):
    %y = arith.extsi %x : i8 to i32
    linalg.yield %y : i32
  } -> tensor<?x?xi32>
  %u = tensor.cast %e : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_s16(%r: tensor<?x?xsi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xsi16>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xsi16>
  %n = arith.muli %d0, %d1 : index
  %bytes = arith.muli %n, %c2 : index
  %buf = memref.alloc(%bytes) : memref<?xi8>
  %v = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xsi16>
  bufferization.materialize_in_destination %r in restrict writable %v : (tensor<?x?xsi16>, memref<?x?xsi16>) -> ()
  %s = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xi16>
  %st = bufferization.to_tensor %s restrict : memref<?x?xi16> to tensor<?x?xi16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%st : tensor<?x?xi16>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%x: i16, %o: i32):
    %y = arith.extsi %x : i16 to i32
    linalg.yield %y : i32
  } -> tensor<?x?xi32>
  %u = tensor.cast %e : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  // si8 rows: r0 = [-100, 100], r1 = [-27, 27], r2 = [3, -3].
  %t = arith.constant dense<[[-100, 100], [-27, 27], [3, -3]]> : tensor<3x2xsi8>

  // packed mean, bags {0, 1}, {0, 0}:
  // [-127, 127] / 2 = [-63, 63];
  // [-200, 200] wraps to [56, -56], / 2 = [28, -28].
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-63, 63]
  // CHECK-NEXT: [28, -28]
  %ip = arith.constant dense<[[0, 1], [0, 0]]> : tensor<2x2xi32>
  %r0 = embbag.packed mean %t[%ip] : (tensor<3x2xsi8>, tensor<2x2xi32>) -> tensor<2x2xsi8>
  %p0 = tensor.cast %r0 : tensor<2x2xsi8> to tensor<?x?xsi8>
  call @print_s8(%p0) : (tensor<?x?xsi8>) -> ()

  // offsets weighted sum, one bag {0, 2}, weights [1, -2]: [-106, 106].
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-106, 106]
  %io = arith.constant dense<[0, 2]> : tensor<2xi64>
  %oo = arith.constant dense<[0]> : tensor<1xi64>
  %wo = arith.constant dense<[1, -2]> : tensor<2xsi8>
  %r1 = embbag.offsets sum %t[%io] offsets(%oo) weights(%wo) : (tensor<3x2xsi8>, tensor<2xi64>, tensor<1xi64>, tensor<2xsi8>) -> tensor<1x2xsi8>
  %p1 = tensor.cast %r1 : tensor<1x2xsi8> to tensor<?x?xsi8>
  call @print_s8(%p1) : (tensor<?x?xsi8>) -> ()

  // segments mean, indices [2, 2, 2, 0] all in segment 1 of 3, default 1:
  // segment 1 = [9 - 100, -9 + 100] / 4 = [-22, 22] (floor: -23);
  // segments 0 and 2 take r1, undivided.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-27, 27]
  // CHECK-NEXT: [-22, 22]
  // CHECK-NEXT: [-27, 27]
  %is = arith.constant dense<[2, 2, 2, 0]> : tensor<4xi64>
  %ss = arith.constant dense<[1, 1, 1, 1]> : tensor<4xi64>
  %n3 = arith.constant 3 : i64
  %d1 = arith.constant 1 : i64
  %r2 = embbag.segments mean %t[%is] segment_ids(%ss) num_segments(%n3) default(%d1) : (tensor<3x2xsi8>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<3x2xsi8>
  %p2 = tensor.cast %r2 : tensor<3x2xsi8> to tensor<?x?xsi8>
  call @print_s8(%p2) : (tensor<?x?xsi8>) -> ()

  // si16, packed mean of bag {0, 0, 0}, row r0 = [-30000, 30000]:
  // [-90000, 90000] wraps to [-24464, 24464], / 3 = [-8154, 8154].
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-8154, 8154]
  %t16 = arith.constant dense<[[-30000, 30000]]> : tensor<1x2xsi16>
  %i16 = arith.constant dense<[[0, 0, 0]]> : tensor<1x3xi32>
  %r3 = embbag.packed mean %t16[%i16] : (tensor<1x2xsi16>, tensor<1x3xi32>) -> tensor<1x2xsi16>
  %p3 = tensor.cast %r3 : tensor<1x2xsi16> to tensor<?x?xsi16>
  call @print_s16(%p3) : (tensor<?x?xsi16>) -> ()
  return
}
