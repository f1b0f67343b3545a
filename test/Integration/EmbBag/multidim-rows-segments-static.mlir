// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

// embbag.segments with a constant num_segments (a static result batch) on
// tables whose rows are not 1-D: rank 3 (output [num_segments, 2, 3]) and
// rank 1 (output [num_segments]). (multidim-rows.mlir has the same cases
// with num_segments as a kernel argument.)
//
// The 6x2x3 table is t[r][i][j] = 100 r + 10 i + j.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = arith.constant dense<[[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0]], [[100.0, 101.0, 102.0], [110.0, 111.0, 112.0]], [[200.0, 201.0, 202.0], [210.0, 211.0, 212.0]], [[300.0, 301.0, 302.0], [310.0, 311.0, 312.0]], [[400.0, 401.0, 402.0], [410.0, 411.0, 412.0]], [[500.0, 501.0, 502.0], [510.0, 511.0, 512.0]]]> : tensor<6x2x3xf32>

  // segments weighted sum, indices [4, 0, 4], segment_ids [1, 1, 0],
  // weights [0.5, 2, 1], 3 segments:
  // segment 0 = r4; 1 = 0.5 r4 + 2 r0 = 200 + 25 i + 2.5 j; 2 = zeros.
  // CHECK: rank = 3 offset = 0 sizes = [3, 2, 3] strides = [6, 3, 1] data =
  // CHECK-NEXT: [400, 401, 402]
  // CHECK-NEXT: [410, 411, 412]
  // CHECK-NEXT: [200, 202.5, 205]
  // CHECK-NEXT: [225, 227.5, 230]
  // CHECK-NEXT: [0, 0, 0]
  // CHECK-NEXT: [0, 0, 0]
  %is = arith.constant dense<[4, 0, 4]> : tensor<3xi64>
  %ss = arith.constant dense<[1, 1, 0]> : tensor<3xi64>
  %ws = arith.constant dense<[0.5, 2.0, 1.0]> : tensor<3xf32>
  %n3 = arith.constant 3 : i64
  %r0 = embbag.segments sum %t[%is] segment_ids(%ss) num_segments(%n3) weights(%ws) : (tensor<6x2x3xf32>, tensor<3xi64>, tensor<3xi64>, i64, tensor<3xf32>) -> tensor<3x2x3xf32>
  %p0 = tensor.cast %r0 : tensor<3x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // segments mean, default 5: indices [0, 1, 2], segment_ids [0, 0, 0],
  // 2 segments: segment 0 = (r0 + r1 + r2) / 3 = 100 + 10 i + j; 1 = r5.
  // CHECK: rank = 3 offset = 0 sizes = [2, 2, 3] strides = [6, 3, 1] data =
  // CHECK-NEXT: [100, 101, 102]
  // CHECK-NEXT: [110, 111, 112]
  // CHECK-NEXT: [500, 501, 502]
  // CHECK-NEXT: [510, 511, 512]
  %im = arith.constant dense<[0, 1, 2]> : tensor<3xi32>
  %sm = arith.constant dense<[0, 0, 0]> : tensor<3xi32>
  %n2 = arith.constant 2 : i32
  %d5 = arith.constant 5 : i32
  %r1 = embbag.segments mean %t[%im] segment_ids(%sm) num_segments(%n2) default(%d5) : (tensor<6x2x3xf32>, tensor<3xi32>, tensor<3xi32>, i32, i32) -> tensor<2x2x3xf32>
  %p1 = tensor.cast %r1 : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // Rank 1: table [1, 2, 3, 4, 5]; indices [3, 0, 3], segment_ids
  // [1, 0, 1], 2 segments: [1, 8].
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [1, 8]
  %t1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %i1 = arith.constant dense<[3, 0, 3]> : tensor<3xi32>
  %s1 = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  %r2 = embbag.segments sum %t1[%i1] segment_ids(%s1) num_segments(%n2) : (tensor<5xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<2xf32>
  %p2 = tensor.cast %r2 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}
