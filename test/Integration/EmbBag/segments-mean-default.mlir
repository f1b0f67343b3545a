// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

// embbag.segments: mean (an extension, as TensorFlow's segment_mean: a
// segment's sum divided by its count) and empty segments (docs/EmbBag/EmbBagOps.md): an
// empty segment takes the default row if given and >= 0, unweighted and
// undivided, zeros otherwise (default -1 is the same as no default);
// leading, inner and trailing empty segments; no indices at all.
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [1000, 2000],
// r4 = [10000, 20000].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0], [10000.0, 20000.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %s = arith.constant dense<[0, 0, 1, 3, 3]> : tensor<5xi32>
  %n5 = arith.constant 5 : i32

  // mean, default 4: segments {0, 1}, {2}, {}, {3, 4}, {}.
  // CHECK: sizes = [5, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.5, 11]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [10000, 20000]
  // CHECK-NEXT: [5500, 11000]
  // CHECK-NEXT: [10000, 20000]
  %d4 = arith.constant 4 : i32
  %r0 = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n5) default(%d4) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32, i32) -> tensor<5x2xf32>
  %p0 = tensor.cast %r0 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // mean, no default.
  // CHECK: sizes = [5, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.5, 11]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [5500, 11000]
  // CHECK-NEXT: [0, 0]
  %r1 = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n5) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<5x2xf32>
  %p1 = tensor.cast %r1 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // mean, default -1 (i64 operands): zeros.
  // CHECK: sizes = [5, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.5, 11]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [5500, 11000]
  // CHECK-NEXT: [0, 0]
  %i64 = arith.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi64>
  %s64 = arith.constant dense<[0, 0, 1, 3, 3]> : tensor<5xi64>
  %n5_64 = arith.constant 5 : i64
  %dm1 = arith.constant -1 : i64
  %r2 = embbag.segments mean %t[%i64] segment_ids(%s64) num_segments(%n5_64) default(%dm1) : (tensor<5x2xf32>, tensor<5xi64>, tensor<5xi64>, i64, i64) -> tensor<5x2xf32>
  %p2 = tensor.cast %r2 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  // sum, default 0, weights [2, 3, 4]: indices [1, 2, 3], segment_ids
  // [2, 2, 4], 6 segments: 0, 1 (leading), 3 (inner), 5 (trailing) are
  // empty and take r0 unweighted; segment 2 = 2 r1 + 3 r2, 4 = 4 r3.
  // CHECK: sizes = [6, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [320, 640]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [4000, 8000]
  // CHECK-NEXT: [1, 2]
  %ie = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %se = arith.constant dense<[2, 2, 4]> : tensor<3xi32>
  %we = arith.constant dense<[2.0, 3.0, 4.0]> : tensor<3xf32>
  %n6 = arith.constant 6 : i32
  %d0 = arith.constant 0 : i32
  %r3 = embbag.segments sum %t[%ie] segment_ids(%se) num_segments(%n6) default(%d0) weights(%we) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>, i32, i32, tensor<3xf32>) -> tensor<6x2xf32>
  %p3 = tensor.cast %r3 : tensor<6x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()

  // No indices, 3 segments.
  %i0 = arith.constant dense<> : tensor<0xi32>
  %n3 = arith.constant 3 : i32
  %d2 = arith.constant 2 : i32

  // mean, default 2: every segment is r2, undivided.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [100, 200]
  %r4 = embbag.segments mean %t[%i0] segment_ids(%i0) num_segments(%n3) default(%d2) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32, i32) -> tensor<3x2xf32>
  %p4 = tensor.cast %r4 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()

  // sum, no default: zeros.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  %r5 = embbag.segments sum %t[%i0] segment_ids(%i0) num_segments(%n3) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32) -> tensor<3x2xf32>
  %p5 = tensor.cast %r5 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()

  // Integer mean with a default: indices [0, 1, 1, 3], segment_ids
  // [0, 0, 0, 2], default 4: segment 0 = [21, 42] / 3 = [7, 14],
  // 1 = r4 (undivided), 2 = r3.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [7, 14]
  // CHECK-NEXT: [10000, 20000]
  // CHECK-NEXT: [1000, 2000]
  %ti = arith.constant dense<[[1, 2], [10, 20], [100, 200], [1000, 2000], [10000, 20000]]> : tensor<5x2xi32>
  %ii = arith.constant dense<[0, 1, 1, 3]> : tensor<4xi32>
  %si = arith.constant dense<[0, 0, 0, 2]> : tensor<4xi32>
  %r6 = embbag.segments mean %ti[%ii] segment_ids(%si) num_segments(%n3) default(%d4) : (tensor<5x2xi32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xi32>
  %p6 = tensor.cast %r6 : tensor<3x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p6) : (tensor<*xi32>) -> ()
  return
}
