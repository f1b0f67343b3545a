// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// f64 accumulates in f64, i64 in i64: values beyond f32 and i32.

func.func private @printMemrefF64(tensor<*xf64>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(tensor<*xi64>) attributes { llvm.emit_c_interface }

func.func @main() {
  // f64 rows: r0 = [2^24, 1e300], r1 = [1, 1e300], r2 = [-2^24, -1e300].
  // Bag {0, 1, 2}: [2^24 + 1 - 2^24, 1e300 + 1e300 - 1e300] = [1, 1e300]
  // (in f32: 2^24 + 1 rounds to 2^24, giving 0, and 1e300 is inf).
  %t = arith.constant dense<[[16777216.0, 1.0e300], [1.0, 1.0e300], [-16777216.0, -1.0e300]]> : tensor<3x2xf64>

  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 1e+300]
  %ip = arith.constant dense<[[0, 1, 2]]> : tensor<1x3xi64>
  %r0 = embbag.packed sum %t[%ip] : (tensor<3x2xf64>, tensor<1x3xi64>) -> tensor<1x2xf64>
  %p0 = tensor.cast %r0 : tensor<1x2xf64> to tensor<*xf64>
  call @printMemrefF64(%p0) : (tensor<*xf64>) -> ()

  // offsets mean, indices [0, 1, 2, 1], offsets [0, 3]: bags {0, 1, 2}, {1}.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0.333333, 3.33333e+299]
  // CHECK-NEXT: [1, 1e+300]
  %io = arith.constant dense<[0, 1, 2, 1]> : tensor<4xi32>
  %oo = arith.constant dense<[0, 3]> : tensor<2xi32>
  %r1 = embbag.offsets mean %t[%io] offsets(%oo) : (tensor<3x2xf64>, tensor<4xi32>, tensor<2xi32>) -> tensor<2x2xf64>
  %p1 = tensor.cast %r1 : tensor<2x2xf64> to tensor<*xf64>
  call @printMemrefF64(%p1) : (tensor<*xf64>) -> ()

  // segments weighted sum, indices [2, 0, 1] in segment 1 of 2, weights
  // [1, 1, 0.5]: [1 * -2^24 + 2^24 + 0.5, -1e300 + 1e300 + 5e299] = [0.5, 5e299];
  // segment 0 is empty: the default row r2.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-1.67772e+07, -1e+300]
  // CHECK-NEXT: [0.5, 5e+299]
  %is = arith.constant dense<[2, 0, 1]> : tensor<3xi64>
  %ss = arith.constant dense<[1, 1, 1]> : tensor<3xi64>
  %n2 = arith.constant 2 : i64
  %d2 = arith.constant 2 : i64
  %ws = arith.constant dense<[1.0, 1.0, 0.5]> : tensor<3xf64>
  %r2 = embbag.segments sum %t[%is] segment_ids(%ss) num_segments(%n2) default(%d2) weights(%ws) : (tensor<3x2xf64>, tensor<3xi64>, tensor<3xi64>, i64, i64, tensor<3xf64>) -> tensor<2x2xf64>
  %p2 = tensor.cast %r2 : tensor<2x2xf64> to tensor<*xf64>
  call @printMemrefF64(%p2) : (tensor<*xf64>) -> ()

  // i64 rows: r0 = [3000000000, -3000000000], r1 = [5000000000, 1].
  %ti = arith.constant dense<[[3000000000, -3000000000], [5000000000, 1]]> : tensor<2x2xi64>

  // offsets, indices [0, 1, 1], offsets [0, 2]: bags {0, 1}, {1}.
  // sum [8000000000, -2999999999], [5000000000, 1].
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [8000000000, -2999999999]
  // CHECK-NEXT: [5000000000, 1]
  %ii = arith.constant dense<[0, 1, 1]> : tensor<3xi64>
  %oi = arith.constant dense<[0, 2]> : tensor<2xi64>
  %r3 = embbag.offsets sum %ti[%ii] offsets(%oi) : (tensor<2x2xi64>, tensor<3xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %p3 = tensor.cast %r3 : tensor<2x2xi64> to tensor<*xi64>
  call @printMemrefI64(%p3) : (tensor<*xi64>) -> ()

  // mean: [4000000000, -1499999999] (-2999999999 / 2 truncated), [5000000000, 1].
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [4000000000, -1499999999]
  // CHECK-NEXT: [5000000000, 1]
  %r4 = embbag.offsets mean %ti[%ii] offsets(%oi) : (tensor<2x2xi64>, tensor<3xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %p4 = tensor.cast %r4 : tensor<2x2xi64> to tensor<*xi64>
  call @printMemrefI64(%p4) : (tensor<*xi64>) -> ()

  // packed weighted, bag {1, 0} with weights [3, -1]:
  // [15000000000 - 3000000000, 3 + 3000000000] = [12000000000, 3000000003].
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [12000000000, 3000000003]
  %iw = arith.constant dense<[[1, 0]]> : tensor<1x2xi32>
  %ww = arith.constant dense<[[3, -1]]> : tensor<1x2xi64>
  %r5 = embbag.packed sum %ti[%iw] weights(%ww) : (tensor<2x2xi64>, tensor<1x2xi32>, tensor<1x2xi64>) -> tensor<1x2xi64>
  %p5 = tensor.cast %r5 : tensor<1x2xi64> to tensor<*xi64>
  call @printMemrefI64(%p5) : (tensor<*xi64>) -> ()
  return
}
