// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | %mlir_runner | FileCheck %s

// The segments' starts of sorted ids come from one scan that fills, where
// the id grows, the starts of every segment it skips; unsorted ids fall
// back to a histogram and a stable bucketing, also when a sorted prefix was
// scanned first. Shapes are dynamic so that nothing is known when lowering.
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [1000, 2000],
// r4 = [10000, 20000].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @segments_sum(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %s: tensor<?xi32>, %n: i32) {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x?xf32>
  %p = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @segments_mean_default(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %s: tensor<?xi32>, %n: i32, %d: i32) {
  %r = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n) default(%d) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32, i32) -> tensor<?x?xf32>
  %p = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %t5 = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0], [10000.0, 20000.0]]> : tensor<5x2xf32>
  %t = tensor.cast %t5 : tensor<5x2xf32> to tensor<?x?xf32>

  // Sorted ids with gaps before, between and after them: segment 0 = {},
  // 1 = {r0, r1}, 2 = {}, 3 = {r2, r3, r4}, 4 = 5 = {}, 6 = {r0}, 7 = {}.
  // CHECK: sizes = [8, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [11100, 22200]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [0, 0]
  %i6 = arith.constant dense<[0, 1, 2, 3, 4, 0]> : tensor<6xi32>
  %s6 = arith.constant dense<[1, 1, 3, 3, 3, 6]> : tensor<6xi32>
  %i6d = tensor.cast %i6 : tensor<6xi32> to tensor<?xi32>
  %s6d = tensor.cast %s6 : tensor<6xi32> to tensor<?xi32>
  %n8 = arith.constant 8 : i32
  call @segments_sum(%t, %i6d, %s6d, %n8) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> ()

  // A sorted prefix, then a smaller id: segment 0 = {r0}, 1 = {r2},
  // 2 = {r1, r3}.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [1010, 2020]
  %i4 = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %s4 = arith.constant dense<[0, 2, 1, 2]> : tensor<4xi32>
  %i4d = tensor.cast %i4 : tensor<4xi32> to tensor<?xi32>
  %s4d = tensor.cast %s4 : tensor<4xi32> to tensor<?xi32>
  %n3 = arith.constant 3 : i32
  call @segments_sum(%t, %i4d, %s4d, %n3) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> ()

  // Every id the last segment: segments 0 and 1 are empty, 2 = r4 + r4 + r0.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [20001, 40002]
  %i3 = arith.constant dense<[4, 4, 0]> : tensor<3xi32>
  %s3 = arith.constant dense<[2, 2, 2]> : tensor<3xi32>
  %i3d = tensor.cast %i3 : tensor<3xi32> to tensor<?xi32>
  %s3d = tensor.cast %s3 : tensor<3xi32> to tensor<?xi32>
  call @segments_sum(%t, %i3d, %s3d, %n3) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> ()

  // No ids at all: every segment is empty and takes the default row r1.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [10, 20]
  %none = tensor.empty() : tensor<0xi32>
  %noned = tensor.cast %none : tensor<0xi32> to tensor<?xi32>
  %d1 = arith.constant 1 : i32
  call @segments_mean_default(%t, %noned, %noned, %n3, %d1) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32, i32) -> ()

  // Sorted mean with the default for the empty segments 0 and 2:
  // 1 = (r0 + r1) / 2, 3 = (r2 + r3 + r4) / 3.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [5.5, 11]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [3700, 7400]
  %i5 = arith.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %s5 = arith.constant dense<[1, 1, 3, 3, 3]> : tensor<5xi32>
  %i5d = tensor.cast %i5 : tensor<5xi32> to tensor<?xi32>
  %s5d = tensor.cast %s5 : tensor<5xi32> to tensor<?xi32>
  %n4 = arith.constant 4 : i32
  call @segments_mean_default(%t, %i5d, %s5d, %n4, %d1) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32, i32) -> ()
  return
}
