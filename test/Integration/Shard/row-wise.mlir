// REQUIRES: mpich
// RUN: embbag-opt %s --embbag-drop-sharding --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-shard-to-llvm > %t.mlir
// RUN: %mpirun_2 %t.mlir
// RUN: FileCheck %s < %t.rank0
// RUN: FileCheck %s < %t.rank1

// Row-wise sharding on 2 ranks (docs/Sharding.md): the table's rows are
// split unevenly (rows 0-2 on rank 0, rows 3-4 on rank 1), bags mix rows of
// both ranks, and every rank prints what the one-process program prints.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// Weighted sum with a default row on rank 1 and an empty bag.
func.func @offsets_weighted(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %o: tensor<4xi32>, %w: tensor<6xf32>) -> tensor<4x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<5x2xf32>
  %d = arith.constant 4 : i32
  %r = embbag.offsets sum %ts[%i] offsets(%o) default(%d) weights(%w) : (tensor<5x2xf32>, tensor<6xi32>, tensor<4xi32>, i32, tensor<6xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// Mean: divided by the whole bag's size after the all-reduce; the empty bag
// takes row 1 (rank 0) undivided.
func.func @offsets_mean(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %o: tensor<4xi32>) -> tensor<4x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<5x2xf32>
  %d = arith.constant 1 : i32
  %r = embbag.offsets mean %ts[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<6xi32>, tensor<4xi32>, i32) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// Packed mean on an even split (4 rows, 2 per rank).
func.func @packed_mean(%t: tensor<4x3xf32>, %i: tensor<3x2xi64>) -> tensor<3x3xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x3xf32>
  %r = embbag.packed mean %ts[%i] : (tensor<4x3xf32>, tensor<3x2xi64>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// Segments: unsorted ids, an empty segment without default (zeros), weights.
func.func @segments_weighted(%t: tensor<5x2xf32>, %i: tensor<5xi32>, %g: tensor<5xi32>, %w: tensor<5xf32>) -> tensor<3x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<5x2xf32>
  %n = arith.constant 3 : i32
  %r = embbag.segments sum %ts[%i] segment_ids(%g) num_segments(%n) weights(%w) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32, tensor<5xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// Integer mean truncates the whole sum, not the ranks' parts.
func.func @packed_int_mean(%t: tensor<4x1xi32>, %i: tensor<1x3xi32>) -> tensor<1x1xi32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x1xi32>
  %r = embbag.packed mean %ts[%i] : (tensor<4x1xi32>, tensor<1x3xi32>) -> tensor<1x1xi32>
  return %r : tensor<1x1xi32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 4, 1, 3, 2, 2]> : tensor<6xi32>
  %o = arith.constant dense<[0, 2, 2, 5]> : tensor<4xi32>
  %w = arith.constant dense<[1.0, 2.0, 0.5, 1.0, 1.0, 3.0]> : tensor<6xf32>
  %r0 = call @offsets_weighted(%t, %i, %o, %w) : (tensor<5x2xf32>, tensor<6xi32>, tensor<4xi32>, tensor<6xf32>) -> tensor<4x2xf32>
  // CHECK: data =
  // CHECK-NEXT: [19,   22],
  // CHECK-NEXT: [9,   10],
  // CHECK-NEXT: [13.5,   16],
  // CHECK-NEXT: [15,   18]]
  %p0 = tensor.cast %r0 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  %r1 = call @offsets_mean(%t, %i, %o) : (tensor<5x2xf32>, tensor<6xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  // CHECK: data =
  // CHECK-NEXT: [5,   6],
  // CHECK-NEXT: [3,   4],
  // CHECK-NEXT: [5,   6],
  // CHECK-NEXT: [5,   6]]
  %p1 = tensor.cast %r1 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  %t4 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32>
  %ip = arith.constant dense<[[0, 3], [1, 1], [2, 3]]> : tensor<3x2xi64>
  %r2 = call @packed_mean(%t4, %ip) : (tensor<4x3xf32>, tensor<3x2xi64>) -> tensor<3x3xf32>
  // CHECK: data =
  // CHECK-NEXT: [5.5,   6.5,   7.5],
  // CHECK-NEXT: [4,   5,   6],
  // CHECK-NEXT: [8.5,   9.5,   10.5]]
  %p2 = tensor.cast %r2 : tensor<3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  %is = arith.constant dense<[4, 0, 3, 1, 2]> : tensor<5xi32>
  %g = arith.constant dense<[2, 0, 2, 0, 0]> : tensor<5xi32>
  %ws = arith.constant dense<[1.0, 2.0, 1.0, 1.0, -1.0]> : tensor<5xf32>
  %r3 = call @segments_weighted(%t, %is, %g, %ws) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, tensor<5xf32>) -> tensor<3x2xf32>
  // CHECK: data =
  // CHECK-NEXT: [0,   2],
  // CHECK-NEXT: [0,   0],
  // CHECK-NEXT: [16,   18]]
  %p3 = tensor.cast %r3 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()

  %ti = arith.constant dense<[[1], [1], [1], [2]]> : tensor<4x1xi32>
  %ii = arith.constant dense<[[0, 1, 3]]> : tensor<1x3xi32>
  %r4 = call @packed_int_mean(%ti, %ii) : (tensor<4x1xi32>, tensor<1x3xi32>) -> tensor<1x1xi32>
  // (1 + 1 + 2) / 3 = 1; rank 0's 2/3 and rank 1's 2/3 would give 0.
  // CHECK: data =
  // CHECK-NEXT: [1]]
  %p4 = tensor.cast %r4 : tensor<1x1xi32> to tensor<*xi32>
  call @printMemrefI32(%p4) : (tensor<*xi32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }
