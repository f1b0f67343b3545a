// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// Integer mean divides by the true bag size, never wrapped to T
// (docs/EmbBag/EmbBagOps.md): an i8 bag of 200 indices divides by 200, not by
// 200 wrapped to i8 (-56); a bag of 256 does not divide by 0.
// The sum itself wraps in T.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }

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
  // Rows r0 = [0, 0], r1 = [1, -1].
  %t8 = arith.constant dense<[[0, 0], [1, -1]]> : tensor<2x2xi8>

  // packed, one bag of 200 indices: 112 times r1, then 88 times r0.
  // sum [112, -112]; mean [112 / 200, -112 / 200] = [0, 0]
  // (dividing by 200 wrapped to i8, -56, would give [-2, 2]).
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [112, -112]
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  %i200 = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<1x200xi32>
  %r0 = embbag.packed sum %t8[%i200] : (tensor<2x2xi8>, tensor<1x200xi32>) -> tensor<1x2xi8>
  %p0 = tensor.cast %r0 : tensor<1x2xi8> to tensor<?x?xi8>
  call @print_i8(%p0) : (tensor<?x?xi8>) -> ()
  %r1 = embbag.packed mean %t8[%i200] : (tensor<2x2xi8>, tensor<1x200xi32>) -> tensor<1x2xi8>
  %p1 = tensor.cast %r1 : tensor<1x2xi8> to tensor<?x?xi8>
  call @print_i8(%p1) : (tensor<?x?xi8>) -> ()

  // segments, the same 200 indices in segment 0 of 1.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  %is = arith.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<200xi64>
  %ss = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<200xi64>
  %n1 = arith.constant 1 : i64
  %r2 = embbag.segments mean %t8[%is] segment_ids(%ss) num_segments(%n1) : (tensor<2x2xi8>, tensor<200xi64>, tensor<200xi64>, i64) -> tensor<1x2xi8>
  %p2 = tensor.cast %r2 : tensor<1x2xi8> to tensor<?x?xi8>
  call @print_i8(%p2) : (tensor<?x?xi8>) -> ()

  // offsets: a bag of 256 indices (100 times r1, then 156 times r0), then a
  // bag {1}. Rows r0 = [0, 0], r1 = [3, -3].
  // sums [300 mod 256 = 44, -44], [3, -3];
  // means [44 / 256, -44 / 256] = [0, 0], [3, -3]
  // (256 wrapped to i8 is 0: a division by zero).
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [44, -44]
  // CHECK-NEXT: [3, -3]
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [3, -3]
  %t8b = arith.constant dense<[[0, 0], [3, -3]]> : tensor<2x2xi8>
  %i257 = arith.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]> : tensor<257xi32>
  %o = arith.constant dense<[0, 256]> : tensor<2xi32>
  %r3 = embbag.offsets sum %t8b[%i257] offsets(%o) : (tensor<2x2xi8>, tensor<257xi32>, tensor<2xi32>) -> tensor<2x2xi8>
  %p3 = tensor.cast %r3 : tensor<2x2xi8> to tensor<?x?xi8>
  call @print_i8(%p3) : (tensor<?x?xi8>) -> ()
  %r4 = embbag.offsets mean %t8b[%i257] offsets(%o) : (tensor<2x2xi8>, tensor<257xi32>, tensor<2xi32>) -> tensor<2x2xi8>
  %p4 = tensor.cast %r4 : tensor<2x2xi8> to tensor<?x?xi8>
  call @print_i8(%p4) : (tensor<?x?xi8>) -> ()

  // i16, packed bag of 200 indices: 100 times r1 = [10, -10], 100 times r0:
  // mean [1000 / 200, -1000 / 200] = [5, -5].
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5, -5]
  %t16 = arith.constant dense<[[0, 0], [10, -10]]> : tensor<2x2xi16>
  %i200b = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<1x200xi64>
  %r5 = embbag.packed mean %t16[%i200b] : (tensor<2x2xi16>, tensor<1x200xi64>) -> tensor<1x2xi16>
  %p5 = tensor.cast %r5 : tensor<1x2xi16> to tensor<?x?xi16>
  call @print_i16(%p5) : (tensor<?x?xi16>) -> ()
  return
}
