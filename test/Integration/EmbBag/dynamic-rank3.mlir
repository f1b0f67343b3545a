// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

// Rank-3 tables with every dimension dynamic (tensor<?x?x?xf32>: a row of
// two dynamic dimensions), for every op, through non-inlined kernels.
// (The dynamic-*.mlir files have the same cases with tensor<?x2x?xf32>.)
//
// The table is t[r][i][j] = 100 r + 10 i + j (see multidim-rows.mlir).

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @packed(%t: tensor<?x?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x?xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<?x?x?xf32>, tensor<?x?xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @offsets(%t: tensor<?x?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %d: i32) -> tensor<?x?x?xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<?x?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @segments(%t: tensor<?x?x?xf32>, %i: tensor<?xi64>, %s: tensor<?xi64>, %n: i64, %w: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) weights(%w) : (tensor<?x?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, tensor<?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @main() {
  %t = arith.constant dense<[[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0]], [[100.0, 101.0, 102.0], [110.0, 111.0, 112.0]], [[200.0, 201.0, 202.0], [210.0, 211.0, 212.0]], [[300.0, 301.0, 302.0], [310.0, 311.0, 312.0]], [[400.0, 401.0, 402.0], [410.0, 411.0, 412.0]], [[500.0, 501.0, 502.0], [510.0, 511.0, 512.0]]]> : tensor<6x2x3xf32>
  %td = tensor.cast %t : tensor<6x2x3xf32> to tensor<?x?x?xf32>

  // packed sum, bags {0, 5}, {1, 1}, {2, 4}:
  // 500 + 20 i + 2 j, 200 + 20 i + 2 j, 600 + 20 i + 2 j.
  // CHECK: rank = 3 offset = 0 sizes = [3, 2, 3] strides = [6, 3, 1] data =
  // CHECK-NEXT: [500, 502, 504]
  // CHECK-NEXT: [520, 522, 524]
  // CHECK-NEXT: [200, 202, 204]
  // CHECK-NEXT: [220, 222, 224]
  // CHECK-NEXT: [600, 602, 604]
  // CHECK-NEXT: [620, 622, 624]
  %ip = arith.constant dense<[[0, 5], [1, 1], [2, 4]]> : tensor<3x2xi64>
  %ipd = tensor.cast %ip : tensor<3x2xi64> to tensor<?x?xi64>
  %r0 = call @packed(%td, %ipd) : (tensor<?x?x?xf32>, tensor<?x?xi64>) -> tensor<?x?x?xf32>
  %p0 = tensor.cast %r0 : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // offsets mean, indices [0, 1, 2, 3], offsets [0, 0, 3], default 5:
  // r5 (undivided), (r0 + r1 + r2) / 3 = 100 + 10 i + j, r3.
  // CHECK: rank = 3 offset = 0 sizes = [3, 2, 3] strides = [6, 3, 1] data =
  // CHECK-NEXT: [500, 501, 502]
  // CHECK-NEXT: [510, 511, 512]
  // CHECK-NEXT: [100, 101, 102]
  // CHECK-NEXT: [110, 111, 112]
  // CHECK-NEXT: [300, 301, 302]
  // CHECK-NEXT: [310, 311, 312]
  %io = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %iod = tensor.cast %io : tensor<4xi32> to tensor<?xi32>
  %oo = arith.constant dense<[0, 0, 3]> : tensor<3xi32>
  %ood = tensor.cast %oo : tensor<3xi32> to tensor<?xi32>
  %d5 = arith.constant 5 : i32
  %r1 = call @offsets(%td, %iod, %ood, %d5) : (tensor<?x?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x?x?xf32>
  %p1 = tensor.cast %r1 : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // segments, indices [4, 0, 4], segment_ids [1, 1, 0], weights [0.5, 2, 1],
  // 3 segments: r4, 0.5 r4 + 2 r0 = 200 + 25 i + 2.5 j, zeros.
  // CHECK: rank = 3 offset = 0 sizes = [3, 2, 3] strides = [6, 3, 1] data =
  // CHECK-NEXT: [400, 401, 402]
  // CHECK-NEXT: [410, 411, 412]
  // CHECK-NEXT: [200, 202.5, 205]
  // CHECK-NEXT: [225, 227.5, 230]
  // CHECK-NEXT: [0, 0, 0]
  // CHECK-NEXT: [0, 0, 0]
  %is = arith.constant dense<[4, 0, 4]> : tensor<3xi64>
  %isd = tensor.cast %is : tensor<3xi64> to tensor<?xi64>
  %ss = arith.constant dense<[1, 1, 0]> : tensor<3xi64>
  %ssd = tensor.cast %ss : tensor<3xi64> to tensor<?xi64>
  %ws = arith.constant dense<[0.5, 2.0, 1.0]> : tensor<3xf32>
  %wsd = tensor.cast %ws : tensor<3xf32> to tensor<?xf32>
  %n3 = arith.constant 3 : i64
  %r2 = call @segments(%td, %isd, %ssd, %n3, %wsd) : (tensor<?x?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, tensor<?xf32>) -> tensor<?x?x?xf32>
  %p2 = tensor.cast %r2 : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}
