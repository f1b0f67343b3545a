// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

// embbag.segments with unsorted segment ids (docs/EmbBag/EmbBagOps.md): the result does
// not depend on the order of the (index, segment id, weight) triples.
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [1000, 2000],
// r4 = [10000, 20000].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0], [10000.0, 20000.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %s = arith.constant dense<[2, 0, 2, 0, 3]> : tensor<5xi32>
  %n5 = arith.constant 5 : i32

  // indices [0, 1, 2, 3, 4], segment_ids [2, 0, 2, 0, 3]:
  // segment 0 = {1, 3}, 1 = {}, 2 = {0, 2}, 3 = {4}, 4 = {}.
  // CHECK: sizes = [5, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1010, 2020]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [101, 202]
  // CHECK-NEXT: [10000, 20000]
  // CHECK-NEXT: [0, 0]
  %r0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n5) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<5x2xf32>
  %p0 = tensor.cast %r0 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // weights [1, 2, 3, 4, 5] follow their indices; default 1 for the empty
  // segments: segment 0 = 2 r1 + 4 r3, 2 = r0 + 3 r2, 3 = 5 r4.
  // CHECK: sizes = [5, 2] strides = [2, 1] data =
  // CHECK-NEXT: [4020, 8040]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [301, 602]
  // CHECK-NEXT: [50000, 100000]
  // CHECK-NEXT: [10, 20]
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %d1 = arith.constant 1 : i32
  %r1 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n5) default(%d1) weights(%w) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32, i32, tensor<5xf32>) -> tensor<5x2xf32>
  %p1 = tensor.cast %r1 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // mean, default 4 (undivided): segment 0 = (r1 + r3) / 2,
  // 2 = (r0 + r2) / 2, 3 = r4.
  // CHECK: sizes = [5, 2] strides = [2, 1] data =
  // CHECK-NEXT: [505, 1010]
  // CHECK-NEXT: [10000, 20000]
  // CHECK-NEXT: [50.5, 101]
  // CHECK-NEXT: [10000, 20000]
  // CHECK-NEXT: [10000, 20000]
  %d4 = arith.constant 4 : i32
  %r2 = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n5) default(%d4) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32, i32) -> tensor<5x2xf32>
  %p2 = tensor.cast %r2 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  // Descending ids, i64: indices [4, 3, 2, 1, 0], segment_ids [3, 3, 1, 0, 0].
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [11000, 22000]
  %id = arith.constant dense<[4, 3, 2, 1, 0]> : tensor<5xi64>
  %sd = arith.constant dense<[3, 3, 1, 0, 0]> : tensor<5xi64>
  %n4 = arith.constant 4 : i64
  %r3 = embbag.segments sum %t[%id] segment_ids(%sd) num_segments(%n4) : (tensor<5x2xf32>, tensor<5xi64>, tensor<5xi64>, i64) -> tensor<4x2xf32>
  %p3 = tensor.cast %r3 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()

  // Sorted but for the last id: segment_ids [0, 0, 1, 1, 0].
  // segment 0 = r0 + r1 + r4, 1 = r2 + r3.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [10011, 20022]
  // CHECK-NEXT: [1100, 2200]
  %sl = arith.constant dense<[0, 0, 1, 1, 0]> : tensor<5xi32>
  %n2 = arith.constant 2 : i32
  %r4 = embbag.segments sum %t[%i] segment_ids(%sl) num_segments(%n2) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<2x2xf32>
  %p4 = tensor.cast %r4 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()

  // i32, weighted: indices [0, 1, 2, 3], segment_ids [1, 0, 1, 0],
  // weights [1, -1, 2, -2]: segment 0 = -r1 - 2 r3, 1 = r0 + 2 r2.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-2010, -4020]
  // CHECK-NEXT: [201, 402]
  %ti = arith.constant dense<[[1, 2], [10, 20], [100, 200], [1000, 2000], [10000, 20000]]> : tensor<5x2xi32>
  %ii = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %si = arith.constant dense<[1, 0, 1, 0]> : tensor<4xi32>
  %wi = arith.constant dense<[1, -1, 2, -2]> : tensor<4xi32>
  %r5 = embbag.segments sum %ti[%ii] segment_ids(%si) num_segments(%n2) weights(%wi) : (tensor<5x2xi32>, tensor<4xi32>, tensor<4xi32>, i32, tensor<4xi32>) -> tensor<2x2xi32>
  %p5 = tensor.cast %r5 : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p5) : (tensor<*xi32>) -> ()
  return
}
