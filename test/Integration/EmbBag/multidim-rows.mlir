// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// Tables of rank 3 and 4 (rows of several dimensions, output
// [batch, table.shape[1:]...]) and of rank 1 (rows of one element, output
// [batch]), for every op.
//
// The 6x2x3 table is t[r][i][j] = 100 r + 10 i + j.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }

func.func @segments3(%t: tensor<6x2x3xf32>, %i: tensor<3xi64>, %s: tensor<3xi64>, %n: i64, %w: tensor<3xf32>) -> tensor<?x2x3xf32> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) weights(%w) : (tensor<6x2x3xf32>, tensor<3xi64>, tensor<3xi64>, i64, tensor<3xf32>) -> tensor<?x2x3xf32>
  return %r : tensor<?x2x3xf32>
}

func.func @segments1(%t: tensor<5xf32>, %i: tensor<3xi32>, %s: tensor<3xi32>, %n: i32) -> tensor<?xf32> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @main() {
  %t = arith.constant dense<[[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0]], [[100.0, 101.0, 102.0], [110.0, 111.0, 112.0]], [[200.0, 201.0, 202.0], [210.0, 211.0, 212.0]], [[300.0, 301.0, 302.0], [310.0, 311.0, 312.0]], [[400.0, 401.0, 402.0], [410.0, 411.0, 412.0]], [[500.0, 501.0, 502.0], [510.0, 511.0, 512.0]]]> : tensor<6x2x3xf32>

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
  %r0 = embbag.packed sum %t[%ip] : (tensor<6x2x3xf32>, tensor<3x2xi64>) -> tensor<3x2x3xf32>
  %p0 = tensor.cast %r0 : tensor<3x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // offsets mean, indices [0, 1, 2, 3], offsets [0, 0, 3], default 5:
  // bag 0 = r5 (undivided), bag 1 = (r0 + r1 + r2) / 3 = 100 + 10 i + j,
  // bag 2 = r3.
  // CHECK: rank = 3 offset = 0 sizes = [3, 2, 3] strides = [6, 3, 1] data =
  // CHECK-NEXT: [500, 501, 502]
  // CHECK-NEXT: [510, 511, 512]
  // CHECK-NEXT: [100, 101, 102]
  // CHECK-NEXT: [110, 111, 112]
  // CHECK-NEXT: [300, 301, 302]
  // CHECK-NEXT: [310, 311, 312]
  %io = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %oo = arith.constant dense<[0, 0, 3]> : tensor<3xi32>
  %d5 = arith.constant 5 : i32
  %r1 = embbag.offsets mean %t[%io] offsets(%oo) default(%d5) : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2x3xf32>
  %p1 = tensor.cast %r1 : tensor<3x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // segments weighted sum (num_segments an argument of a kernel: the static
  // case is in multidim-rows-segments-static.mlir), indices [4, 0, 4], segment_ids [1, 1, 0],
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
  %r2 = call @segments3(%t, %is, %ss, %n3, %ws) : (tensor<6x2x3xf32>, tensor<3xi64>, tensor<3xi64>, i64, tensor<3xf32>) -> tensor<?x2x3xf32>
  %p2 = tensor.cast %r2 : tensor<?x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  // Rank 4, i32: t4[r][a][b][c] = 1000 r + 100 a + 10 b + c;
  // packed sum of bag {0, 2}: 2000 + 200 a + 20 b + 2 c.
  // CHECK: rank = 4 offset = 0 sizes = [1, 2, 2, 2] strides = [8, 4, 2, 1] data =
  // CHECK-NEXT: [2000, 2002]
  // CHECK-NEXT: [2020, 2022]
  // CHECK-NEXT: [2200, 2202]
  // CHECK-NEXT: [2220, 2222]
  %t4 = arith.constant dense<[[[[0, 1], [10, 11]], [[100, 101], [110, 111]]], [[[1000, 1001], [1010, 1011]], [[1100, 1101], [1110, 1111]]], [[[2000, 2001], [2010, 2011]], [[2100, 2101], [2110, 2111]]]]> : tensor<3x2x2x2xi32>
  %i4 = arith.constant dense<[[0, 2]]> : tensor<1x2xi32>
  %r3 = embbag.packed sum %t4[%i4] : (tensor<3x2x2x2xi32>, tensor<1x2xi32>) -> tensor<1x2x2x2xi32>
  %p3 = tensor.cast %r3 : tensor<1x2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p3) : (tensor<*xi32>) -> ()

  // Rank 1: table [1, 2, 3, 4, 5].
  %t1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>

  // packed sum, bags {0, 4}, {1, 1}: [6, 4].
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [6, 4]
  %i1 = arith.constant dense<[[0, 4], [1, 1]]> : tensor<2x2xi32>
  %r4 = embbag.packed sum %t1[%i1] : (tensor<5xf32>, tensor<2x2xi32>) -> tensor<2xf32>
  %p4 = tensor.cast %r4 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()

  // offsets mean, indices [0, 1, 2], offsets [0, 1, 3], default 4:
  // bags {0}, {1, 2}, {} -> [1, 2.5, 5].
  // CHECK: rank = 1 offset = 0 sizes = [3] strides = [1] data =
  // CHECK-NEXT: [1, 2.5, 5]
  %i1o = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
  %o1o = arith.constant dense<[0, 1, 3]> : tensor<3xi64>
  %d4 = arith.constant 4 : i64
  %r5 = embbag.offsets mean %t1[%i1o] offsets(%o1o) default(%d4) : (tensor<5xf32>, tensor<3xi64>, tensor<3xi64>, i64) -> tensor<3xf32>
  %p5 = tensor.cast %r5 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()

  // segments sum (through a kernel), indices [3, 0, 3], segment_ids [1, 0, 1]: [1, 8].
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [1, 8]
  %i1s = arith.constant dense<[3, 0, 3]> : tensor<3xi32>
  %s1s = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  %n2 = arith.constant 2 : i32
  %r6 = call @segments1(%t1, %i1s, %s1s, %n2) : (tensor<5xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<?xf32>
  %p6 = tensor.cast %r6 : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%p6) : (tensor<*xf32>) -> ()
  return
}
