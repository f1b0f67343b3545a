// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// Integer mean truncates toward zero (docs/EmbBag/EmbBagOps.md), also for negative sums
// (where flooring would differ), for every op and i8, i16, i32, i64.
//
// Table rows: r0 = [7, -7], r1 = [0, 0], r2 = [-1, 1], r3 = [5, -5],
// r4 = [-2, 2], r5 = [-5, 5].
// Bags {0, 1}, {2, 1, 1}, {3, 4}, {5, 1, 1}:
//   sums [7, -7], [-1, 1], [3, -3], [-5, 5]
//   means [3, -3], [0, 0], [1, -1], [-1, 1]   (floor: [3, -4], [-1, 0], [1, -2], [-2, 1])

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(tensor<*xi64>) attributes { llvm.emit_c_interface }

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

func.func @print_i16(%r: tensor<?x?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xi16>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xi16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x?xi16>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%x: i16, %o: i32):
    %y = arith.extsi %x : i16 to i32
    linalg.yield %y : i32
  } -> tensor<?x?xi32>
  %u = tensor.cast %e : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %t32 = arith.constant dense<[[7, -7], [0, 0], [-1, 1], [5, -5], [-2, 2], [-5, 5]]> : tensor<6x2xi32>
  %t64 = arith.constant dense<[[7, -7], [0, 0], [-1, 1], [5, -5], [-2, 2], [-5, 5]]> : tensor<6x2xi64>
  %t16 = arith.constant dense<[[7, -7], [0, 0], [-1, 1], [5, -5], [-2, 2], [-5, 5]]> : tensor<6x2xi16>
  %t8 = arith.constant dense<[[-7, 7], [-8, 8]]> : tensor<2x2xi8>

  // offsets, i32.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, -3]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1, -1]
  // CHECK-NEXT: [-1, 1]
  %i = arith.constant dense<[0, 1, 2, 1, 1, 3, 4, 5, 1, 1]> : tensor<10xi32>
  %o = arith.constant dense<[0, 2, 5, 7]> : tensor<4xi32>
  %r0 = embbag.offsets mean %t32[%i] offsets(%o) : (tensor<6x2xi32>, tensor<10xi32>, tensor<4xi32>) -> tensor<4x2xi32>
  %p0 = tensor.cast %r0 : tensor<4x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p0) : (tensor<*xi32>) -> ()

  // offsets, i64 (i64 indices).
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, -3]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1, -1]
  // CHECK-NEXT: [-1, 1]
  %i64 = arith.constant dense<[0, 1, 2, 1, 1, 3, 4, 5, 1, 1]> : tensor<10xi64>
  %o64 = arith.constant dense<[0, 2, 5, 7]> : tensor<4xi64>
  %r1 = embbag.offsets mean %t64[%i64] offsets(%o64) : (tensor<6x2xi64>, tensor<10xi64>, tensor<4xi64>) -> tensor<4x2xi64>
  %p1 = tensor.cast %r1 : tensor<4x2xi64> to tensor<*xi64>
  call @printMemrefI64(%p1) : (tensor<*xi64>) -> ()

  // segments, i32, sorted ids.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, -3]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1, -1]
  // CHECK-NEXT: [-1, 1]
  %s = arith.constant dense<[0, 0, 1, 1, 1, 2, 2, 3, 3, 3]> : tensor<10xi32>
  %n = arith.constant 4 : i32
  %r2 = embbag.segments mean %t32[%i] segment_ids(%s) num_segments(%n) : (tensor<6x2xi32>, tensor<10xi32>, tensor<10xi32>, i32) -> tensor<4x2xi32>
  %p2 = tensor.cast %r2 : tensor<4x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p2) : (tensor<*xi32>) -> ()

  // segments, i16, the same (index, id) pairs in another order.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, -3]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1, -1]
  // CHECK-NEXT: [-1, 1]
  %iu = arith.constant dense<[5, 0, 3, 2, 1, 1, 4, 1, 1, 1]> : tensor<10xi32>
  %su = arith.constant dense<[3, 0, 2, 1, 3, 0, 2, 1, 3, 1]> : tensor<10xi32>
  %r3 = embbag.segments mean %t16[%iu] segment_ids(%su) num_segments(%n) : (tensor<6x2xi16>, tensor<10xi32>, tensor<10xi32>, i32) -> tensor<4x2xi16>
  %p3 = tensor.cast %r3 : tensor<4x2xi16> to tensor<?x?xi16>
  call @print_i16(%p3) : (tensor<?x?xi16>) -> ()

  // packed, i16: bags {0, 1}, {3, 4}, {0, 0}.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, -3]
  // CHECK-NEXT: [1, -1]
  // CHECK-NEXT: [7, -7]
  %ip = arith.constant dense<[[0, 1], [3, 4], [0, 0]]> : tensor<3x2xi64>
  %r4 = embbag.packed mean %t16[%ip] : (tensor<6x2xi16>, tensor<3x2xi64>) -> tensor<3x2xi16>
  %p4 = tensor.cast %r4 : tensor<3x2xi16> to tensor<?x?xi16>
  call @print_i16(%p4) : (tensor<?x?xi16>) -> ()

  // packed, i8, table [[-7, 7], [-8, 8]]: bag {0, 1}: [-15, 15] / 2.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-7, 7]
  %ip8 = arith.constant dense<[[0, 1]]> : tensor<1x2xi32>
  %r5 = embbag.packed mean %t8[%ip8] : (tensor<2x2xi8>, tensor<1x2xi32>) -> tensor<1x2xi8>
  %p5 = tensor.cast %r5 : tensor<1x2xi8> to tensor<?x?xi8>
  call @print_i8(%p5) : (tensor<?x?xi8>) -> ()

  // packed, i8: bag {0, 0, 1}: [-22, 22] / 3 (floor would give -8).
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-7, 7]
  %ip8b = arith.constant dense<[[0, 0, 1]]> : tensor<1x3xi32>
  %r6 = embbag.packed mean %t8[%ip8b] : (tensor<2x2xi8>, tensor<1x3xi32>) -> tensor<1x2xi8>
  %p6 = tensor.cast %r6 : tensor<1x2xi8> to tensor<?x?xi8>
  call @print_i8(%p6) : (tensor<?x?xi8>) -> ()
  return
}
