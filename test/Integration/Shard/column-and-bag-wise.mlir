// REQUIRES: mpich
// RUN: embbag-opt %s --embbag-drop-sharding --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-shard-to-llvm > %t.mlir
// RUN: %mpirun_2 %t.mlir
// RUN: FileCheck %s < %t.rank0
// RUN: FileCheck %s < %t.rank1

// Column-wise (table and result split on the row's columns) and bag-wise
// (result split on the bags, table replicated) sharding on 2 ranks: no
// communication in the kernels; the wrappers rebuild the whole results.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// Columns split unevenly (3 + 1), weighted, default row, empty bag.
func.func @offsets_columns(%t: tensor<3x4xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %w: tensor<4xf32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 4] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<3x4xf32>
  %d = arith.constant 2 : i32
  %r = embbag.offsets sum %ts[%i] offsets(%o) default(%d) weights(%w) : (tensor<3x4xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// Bags split unevenly (2 + 1): rank 1's bag starts at offsets[2].
func.func @offsets_bags(%t: tensor<3x4xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 2, 3] : !shard.sharding
  %d = arith.constant 2 : i32
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<3x4xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x4xf32>
  %rs = shard.shard %r to %s : tensor<3x4xf32>
  return %rs : tensor<3x4xf32>
}

// Packed, bags split evenly through the indices.
func.func @packed_bags(%t: tensor<3x4xf32>, %i: tensor<2x2xi32>, %w: tensor<2x2xf32>) -> tensor<2x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %is = shard.shard %i to %s : tensor<2x2xi32>
  %ws = shard.shard %w to %s : tensor<2x2xf32>
  %r = embbag.packed sum %t[%is] weights(%ws) : (tensor<3x4xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// Segments split over the segments; ids unsorted, segment 1 empty.
func.func @segments_bags(%t: tensor<3x4xf32>, %i: tensor<4xi32>, %g: tensor<4xi32>) -> tensor<4x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %n = arith.constant 4 : i32
  %d = arith.constant 0 : i32
  %r = embbag.segments mean %t[%i] segment_ids(%g) num_segments(%n) default(%d) : (tensor<3x4xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<4x4xf32>
  %rs = shard.shard %r to %s : tensor<4x4xf32>
  return %rs : tensor<4x4xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %i = arith.constant dense<[0, 1, 2, 1]> : tensor<4xi32>
  %o = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  %w = arith.constant dense<[1.0, 2.0, 0.5, 1.0]> : tensor<4xf32>
  %r0 = call @offsets_columns(%t, %i, %o, %w) : (tensor<3x4xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>) -> tensor<3x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [11,   14,   17,   20],
  // CHECK-NEXT: [9,   10,   11,   12],
  // CHECK-NEXT: [9.5,   11,   12.5,   14]]
  %p0 = tensor.cast %r0 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  %r1 = call @offsets_bags(%t, %i, %o) : (tensor<3x4xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [3,   4,   5,   6],
  // CHECK-NEXT: [9,   10,   11,   12],
  // CHECK-NEXT: [7,   8,   9,   10]]
  %p1 = tensor.cast %r1 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  %ip = arith.constant dense<[[0, 2], [1, 1]]> : tensor<2x2xi32>
  %wp = arith.constant dense<[[1.0, -1.0], [0.5, 0.5]]> : tensor<2x2xf32>
  %r2 = call @packed_bags(%t, %ip, %wp) : (tensor<3x4xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [-8,   -8,   -8,   -8],
  // CHECK-NEXT: [5,   6,   7,   8]]
  %p2 = tensor.cast %r2 : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  %gs = arith.constant dense<[3, 0, 3, 2]> : tensor<4xi32>
  %r3 = call @segments_bags(%t, %i, %gs) : (tensor<3x4xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [5,   6,   7,   8],
  // CHECK-NEXT: [1,   2,   3,   4],
  // CHECK-NEXT: [5,   6,   7,   8],
  // CHECK-NEXT: [5,   6,   7,   8]]
  %p3 = tensor.cast %r3 : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
