// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

// embbag.offsets, empty bags (docs/EmbBag/EmbBagOps.md): an empty bag takes the row
// `default` when one is given and >= 0, unweighted, and for mean undivided
// (divided by 1); with default -1 or without a default it is zeros.
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [1000, 2000].
// Indices [1, 2, 3, 3], offsets [0, 0, 3, 3]: bag 0 = {}, bag 1 = {1, 2, 3},
// bag 2 = {}, bag 3 = {3}.
//   sum  of bag 1 = [1110, 2220]; mean = [370, 740]
//   bag 3 = [1000, 2000] (sum and mean)

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0]]> : tensor<4x2xf32>
  %ti = arith.constant dense<[[1, 2], [10, 20], [100, 200], [1000, 2000]]> : tensor<4x2xi32>
  %i = arith.constant dense<[1, 2, 3, 3]> : tensor<4xi32>
  %o = arith.constant dense<[0, 0, 3, 3]> : tensor<4xi32>
  %i64 = arith.constant dense<[1, 2, 3, 3]> : tensor<4xi64>
  %o64 = arith.constant dense<[0, 0, 3, 3]> : tensor<4xi64>
  %d0 = arith.constant 0 : i32
  %d2 = arith.constant 2 : i32
  %dm1 = arith.constant -1 : i32
  %dm1_64 = arith.constant -1 : i64

  // sum, default 0.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [1110, 2220]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [1000, 2000]
  %r0 = embbag.offsets sum %t[%i] offsets(%o) default(%d0) : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<4x2xf32>
  %p0 = tensor.cast %r0 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // mean, default 0: the default row is not divided.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [370, 740]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [1000, 2000]
  %r1 = embbag.offsets mean %t[%i] offsets(%o) default(%d0) : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<4x2xf32>
  %p1 = tensor.cast %r1 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // mean, default 2.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [370, 740]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [1000, 2000]
  %r2 = embbag.offsets mean %t[%i] offsets(%o) default(%d2) : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<4x2xf32>
  %p2 = tensor.cast %r2 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  // weighted sum, weights [2, 0.5, 1, -1], default 2: the default row is not
  // weighted. Bag 1 = 2 r1 + 0.5 r2 + r3 = [1070, 2140]; bag 3 = -r3.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [1070, 2140]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [-1000, -2000]
  %w = arith.constant dense<[2.0, 0.5, 1.0, -1.0]> : tensor<4xf32>
  %r3 = embbag.offsets sum %t[%i] offsets(%o) default(%d2) weights(%w) : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, tensor<4xf32>) -> tensor<4x2xf32>
  %p3 = tensor.cast %r3 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()

  // sum, default -1: zeros.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1110, 2220]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1000, 2000]
  %r4 = embbag.offsets sum %t[%i] offsets(%o) default(%dm1) : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<4x2xf32>
  %p4 = tensor.cast %r4 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()

  // mean, default -1 (i64): zeros.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [370, 740]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1000, 2000]
  %r5 = embbag.offsets mean %t[%i64] offsets(%o64) default(%dm1_64) : (tensor<4x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<4x2xf32>
  %p5 = tensor.cast %r5 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()

  // sum, no default (i64 indices: not the same computation as the default -1
  // one above, which CSE would merge): zeros.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1110, 2220]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1000, 2000]
  %r6 = embbag.offsets sum %t[%i64] offsets(%o64) : (tensor<4x2xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<4x2xf32>
  %p6 = tensor.cast %r6 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p6) : (tensor<*xf32>) -> ()

  // mean, no default: zeros.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [370, 740]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1000, 2000]
  %r7 = embbag.offsets mean %t[%i] offsets(%o) : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  %p7 = tensor.cast %r7 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p7) : (tensor<*xf32>) -> ()

  // integer mean, default 3: the default row is not divided.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1000, 2000]
  // CHECK-NEXT: [370, 740]
  // CHECK-NEXT: [1000, 2000]
  // CHECK-NEXT: [1000, 2000]
  %d3 = arith.constant 3 : i32
  %r8 = embbag.offsets mean %ti[%i] offsets(%o) default(%d3) : (tensor<4x2xi32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<4x2xi32>
  %p8 = tensor.cast %r8 : tensor<4x2xi32> to tensor<*xi32>
  call @printMemrefI32(%p8) : (tensor<*xi32>) -> ()
  return
}
