// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// A batch of zero bags (docs/EmbBag/EmbBagOps.md): packed with indices [0, n], offsets
// with an empty offsets tensor, segments with num_segments 0. The result is
// an empty [0, row] tensor; with zero bags no index is read, so none is
// checked (the kernels below get out-of-range indices as arguments).
//
// printMemref prints one (meaningless) element even for an empty memref, so
// only the printed shape is checked.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @offsets(%t: tensor<3x2xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %d: i32) -> tensor<?x2xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<3x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @segments(%t: tensor<3x2xf32>, %i: tensor<?xi64>, %s: tensor<?xi64>, %n: i64) -> tensor<?x2xf32> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<3x2xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @packed(%t: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]]> : tensor<3x2xf32>

  // packed, static.
  // CHECK: rank = 2 offset = 0 sizes = [0, 2] strides = [2, 1] data =
  %i0 = arith.constant dense<> : tensor<0x2xi32>
  %r0 = embbag.packed sum %t[%i0] : (tensor<3x2xf32>, tensor<0x2xi32>) -> tensor<0x2xf32>
  %p0 = tensor.cast %r0 : tensor<0x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // packed, dynamic shapes.
  // CHECK: rank = 2 offset = 0 sizes = [0, 2] strides = [2, 1] data =
  %td = tensor.cast %t : tensor<3x2xf32> to tensor<?x?xf32>
  %i0d = tensor.cast %i0 : tensor<0x2xi32> to tensor<?x?xi32>
  %r1 = call @packed(%td, %i0d) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  %p1 = tensor.cast %r1 : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // offsets, static: no offsets, indices [0, 1].
  // CHECK: rank = 2 offset = 0 sizes = [0, 2] strides = [2, 1] data =
  %i2 = arith.constant dense<[0, 1]> : tensor<2xi32>
  %o2 = arith.constant dense<> : tensor<0xi32>
  %r2 = embbag.offsets sum %t[%i2] offsets(%o2) : (tensor<3x2xf32>, tensor<2xi32>, tensor<0xi32>) -> tensor<0x2xf32>
  %p2 = tensor.cast %r2 : tensor<0x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  // offsets, through a kernel: indices [9, -1] (in no bag), default 2.
  // CHECK: rank = 2 offset = 0 sizes = [0, 2] strides = [2, 1] data =
  %i3 = arith.constant dense<[9, -1]> : tensor<2xi32>
  %i3d = tensor.cast %i3 : tensor<2xi32> to tensor<?xi32>
  %o2d = tensor.cast %o2 : tensor<0xi32> to tensor<?xi32>
  %d2 = arith.constant 2 : i32
  %r3 = call @offsets(%t, %i3d, %o2d, %d2) : (tensor<3x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  %p3 = tensor.cast %r3 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()

  // segments, static: num_segments 0, no indices.
  // CHECK: rank = 2 offset = 0 sizes = [0, 2] strides = [2, 1] data =
  %i4 = arith.constant dense<> : tensor<0xi64>
  %n0 = arith.constant 0 : i64
  %r4 = embbag.segments sum %t[%i4] segment_ids(%i4) num_segments(%n0) : (tensor<3x2xf32>, tensor<0xi64>, tensor<0xi64>, i64) -> tensor<0x2xf32>
  %p4 = tensor.cast %r4 : tensor<0x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()

  // segments, through a kernel: num_segments 0.
  // CHECK: rank = 2 offset = 0 sizes = [0, 2] strides = [2, 1] data =
  %i4d = tensor.cast %i4 : tensor<0xi64> to tensor<?xi64>
  %r5 = call @segments(%t, %i4d, %i4d, %n0) : (tensor<3x2xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x2xf32>
  %p5 = tensor.cast %r5 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()
  return
}
