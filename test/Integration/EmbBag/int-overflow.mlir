// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// Integer overflow wraps in T (docs/EmbBag/EmbBagOps.md): sums, weighted sums (the
// product wraps too) and the sum a mean divides, for i8, i16, i32, i64.

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
  // i8 rows: r0 = [100, -100], r1 = [27, -28], r2 = [127, -128].
  %t8 = arith.constant dense<[[100, -100], [27, -28], [127, -128]]> : tensor<3x2xi8>

  // packed sum, bags {0, 0}, {0, 1}, {2, 2}:
  // [200, -200] wraps to [-56, 56]; [127, -128] does not wrap;
  // [254, -256] wraps to [-2, 0].
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-56, 56]
  // CHECK-NEXT: [127, -128]
  // CHECK-NEXT: [-2, 0]
  %i0 = arith.constant dense<[[0, 0], [0, 1], [2, 2]]> : tensor<3x2xi32>
  %r0 = embbag.packed sum %t8[%i0] : (tensor<3x2xi8>, tensor<3x2xi32>) -> tensor<3x2xi8>
  %p0 = tensor.cast %r0 : tensor<3x2xi8> to tensor<?x?xi8>
  call @print_i8(%p0) : (tensor<?x?xi8>) -> ()

  // weighted, bag {0, 1} with weights [2, -1]:
  // 2 r0 - r1 = [200 - 27, -200 + 28] = [173, -172], wrapped [-83, 84].
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-83, 84]
  %i1 = arith.constant dense<[[0, 1]]> : tensor<1x2xi64>
  %w1 = arith.constant dense<[[2, -1]]> : tensor<1x2xi8>
  %r1 = embbag.packed sum %t8[%i1] weights(%w1) : (tensor<3x2xi8>, tensor<1x2xi64>, tensor<1x2xi8>) -> tensor<1x2xi8>
  %p1 = tensor.cast %r1 : tensor<1x2xi8> to tensor<?x?xi8>
  call @print_i8(%p1) : (tensor<?x?xi8>) -> ()

  // mean of bag {0, 0, 0}: the sum [300, -300] wraps to [44, -44], / 3.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [14, -14]
  %i2 = arith.constant dense<[[0, 0, 0]]> : tensor<1x3xi32>
  %r2 = embbag.packed mean %t8[%i2] : (tensor<3x2xi8>, tensor<1x3xi32>) -> tensor<1x2xi8>
  %p2 = tensor.cast %r2 : tensor<1x2xi8> to tensor<?x?xi8>
  call @print_i8(%p2) : (tensor<?x?xi8>) -> ()

  // i16, offsets, bags {0, 0}, {1}, rows r0 = [30000, -30000], r1 = [1, 2]:
  // [60000, -60000] wraps to [-5536, 5536].
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-5536, 5536]
  // CHECK-NEXT: [1, 2]
  %t16 = arith.constant dense<[[30000, -30000], [1, 2]]> : tensor<2x2xi16>
  %i3 = arith.constant dense<[0, 0, 1]> : tensor<3xi32>
  %o3 = arith.constant dense<[0, 2]> : tensor<2xi32>
  %r3 = embbag.offsets sum %t16[%i3] offsets(%o3) : (tensor<2x2xi16>, tensor<3xi32>, tensor<2xi32>) -> tensor<2x2xi16>
  %p3 = tensor.cast %r3 : tensor<2x2xi16> to tensor<?x?xi16>
  call @print_i16(%p3) : (tensor<?x?xi16>) -> ()

  // i32, segments, segment 0 = {0, 0}, row r0 = [2000000000, -2000000000]:
  // [4000000000, -4000000000] wraps to [-294967296, 294967296].
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-294967296, 294967296]
  %t32 = arith.constant dense<[[2000000000, -2000000000]]> : tensor<1x2xi32>
  %i4 = arith.constant dense<[0, 0]> : tensor<2xi64>
  %n4 = arith.constant 1 : i64
  %r4 = embbag.segments sum %t32[%i4] segment_ids(%i4) num_segments(%n4) : (tensor<1x2xi32>, tensor<2xi64>, tensor<2xi64>, i64) -> tensor<1x2xi32>
  %p4 = tensor.cast %r4 : tensor<1x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p4) : (tensor<*xi32>) -> ()

  // i64, packed, rows r0 = [2^63 - 1, -2^63], r1 = [1, -1]:
  // bag {0, 1}: [2^63, -2^63 - 1] wraps to [-2^63, 2^63 - 1];
  // bag {0} weighted by 2: [2^64 - 2, -2^64] wraps to [-2, 0].
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-9223372036854775808, 9223372036854775807]
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-2, 0]
  %t64 = arith.constant dense<[[9223372036854775807, -9223372036854775808], [1, -1]]> : tensor<2x2xi64>
  %i5 = arith.constant dense<[[0, 1]]> : tensor<1x2xi32>
  %r5 = embbag.packed sum %t64[%i5] : (tensor<2x2xi64>, tensor<1x2xi32>) -> tensor<1x2xi64>
  %p5 = tensor.cast %r5 : tensor<1x2xi64> to tensor<*xi64>
  call @printMemrefI64(%p5) : (tensor<*xi64>) -> ()
  %i6 = arith.constant dense<[[0]]> : tensor<1x1xi32>
  %w6 = arith.constant dense<[[2]]> : tensor<1x1xi64>
  %r6 = embbag.packed sum %t64[%i6] weights(%w6) : (tensor<2x2xi64>, tensor<1x1xi32>, tensor<1x1xi64>) -> tensor<1x2xi64>
  %p6 = tensor.cast %r6 : tensor<1x2xi64> to tensor<*xi64>
  call @printMemrefI64(%p6) : (tensor<*xi64>) -> ()
  return
}
