// REQUIRES: mpich
// RUN: embbag-opt %s --embbag-drop-sharding --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-shard-to-llvm > %t.mlir
// RUN: %mpirun_2 %t.mlir
// RUN: FileCheck %s < %t.rank0
// RUN: FileCheck %s < %t.rank1

// Issue 20 on 2 ranks: operands annotated replicated, then resharded to an
// uneven split (sharded_dims_offsets), which MLIR 22.1's shard-partition
// cannot do and the embbag ops' sharding model does by slicing (the first
// kernel crashed embbag-opt before). Every rank prints what the one-process
// program prints.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// The module of the issue: table replicated then split 3 + 2 by rows;
// indices, offsets and result replicated.
func.func @offsets_rows(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  %i1 = shard.shard %i to %rep : tensor<6xi32>
  %o1 = shard.shard %o to %rep : tensor<3xi32>
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %rep : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

// Mean with a default row on rank 1 and an empty bag, no result annotation.
func.func @offsets_rows_mean(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<4xi32>) -> tensor<4x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  %d = arith.constant 4 : i32
  %r = embbag.offsets mean %t1[%i] offsets(%o) default(%d) : (tensor<5x4xf32>, tensor<6xi32>, tensor<4xi32>, i32) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

func.func @packed_rows(%t: tensor<5x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  %i1 = shard.shard %i to %rep : tensor<3x2xi64>
  %r = embbag.packed sum %t1[%i1] : (tensor<5x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %rep : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

func.func @segments_rows(%t: tensor<5x4xf32>, %i: tensor<5xi32>, %g: tensor<5xi32>, %w: tensor<5xf32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  %i1 = shard.shard %i to %rep : tensor<5xi32>
  %g1 = shard.shard %g to %rep : tensor<5xi32>
  %w1 = shard.shard %w to %rep : tensor<5xf32>
  %n = arith.constant 3 : i32
  %r = embbag.segments sum %t1[%i1] segment_ids(%g1) num_segments(%n) weights(%w1) : (tensor<5x4xf32>, tensor<5xi32>, tensor<5xi32>, i32, tensor<5xf32>) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %rep : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

// Packed bags split 2 + 1: indices and weights replicated, then resharded
// with the bags.
func.func @packed_bags(%t: tensor<5x4xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %bags = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 2, 3] : !shard.sharding
  %t1 = shard.shard %t to %rep : tensor<5x4xf32>
  %i0 = shard.shard %i to %rep : tensor<3x2xi32>
  %i1 = shard.shard %i0 to %bags : tensor<3x2xi32>
  %w0 = shard.shard %w to %rep : tensor<3x2xf32>
  %w1 = shard.shard %w0 to %bags : tensor<3x2xf32>
  %r = embbag.packed sum %t1[%i1] weights(%w1) : (tensor<5x4xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %bags : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

// Columns split 3 + 1 from a replicated table.
func.func @offsets_columns(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %cols = shard.sharding @grid split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 4] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %cols : tensor<5x4xf32>
  %i1 = shard.shard %i to %rep : tensor<6xi32>
  %o1 = shard.shard %o to %rep : tensor<3xi32>
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %cols : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

// An even row split from a replicated table (shard-partition's all_slice).
func.func @offsets_rows_even(%t: tensor<4x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<4x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<4x4xf32>
  %i1 = shard.shard %i to %rep : tensor<6xi32>
  %o1 = shard.shard %o to %rep : tensor<3xi32>
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<4x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %rep : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0]]> : tensor<5x4xf32>
  %i = arith.constant dense<[0, 4, 1, 3, 2, 2]> : tensor<6xi32>
  %o = arith.constant dense<[0, 2, 5]> : tensor<3xi32>
  %r0 = call @offsets_rows(%t, %i, %o) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [18,   20,   22,   24],
  // CHECK-NEXT: [27,   30,   33,   36],
  // CHECK-NEXT: [9,   10,   11,   12]]
  %p0 = tensor.cast %r0 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  %o4 = arith.constant dense<[0, 2, 2, 5]> : tensor<4xi32>
  %r1 = call @offsets_rows_mean(%t, %i, %o4) : (tensor<5x4xf32>, tensor<6xi32>, tensor<4xi32>) -> tensor<4x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [9,   10,   11,   12],
  // CHECK-NEXT: [17,   18,   19,   20],
  // CHECK-NEXT: [9,   10,   11,   12],
  // CHECK-NEXT: [9,   10,   11,   12]]
  %p1 = tensor.cast %r1 : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  %ip = arith.constant dense<[[0, 4], [3, 3], [2, 1]]> : tensor<3x2xi64>
  %r2 = call @packed_rows(%t, %ip) : (tensor<5x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [18,   20,   22,   24],
  // CHECK-NEXT: [26,   28,   30,   32],
  // CHECK-NEXT: [14,   16,   18,   20]]
  %p2 = tensor.cast %r2 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  %is = arith.constant dense<[4, 0, 3, 1, 2]> : tensor<5xi32>
  %g = arith.constant dense<[2, 0, 2, 0, 0]> : tensor<5xi32>
  %ws = arith.constant dense<[1.0, 2.0, 1.0, 1.0, -1.0]> : tensor<5xf32>
  %r3 = call @segments_rows(%t, %is, %g, %ws) : (tensor<5x4xf32>, tensor<5xi32>, tensor<5xi32>, tensor<5xf32>) -> tensor<3x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [-2,   0,   2,   4],
  // CHECK-NEXT: [0,   0,   0,   0],
  // CHECK-NEXT: [30,   32,   34,   36]]
  %p3 = tensor.cast %r3 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()

  %ib = arith.constant dense<[[0, 4], [1, 3], [2, 2]]> : tensor<3x2xi32>
  %wb = arith.constant dense<[[1.0, -1.0], [0.5, 0.5], [2.0, 1.0]]> : tensor<3x2xf32>
  %r4 = call @packed_bags(%t, %ib, %wb) : (tensor<5x4xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [-16,   -16,   -16,   -16],
  // CHECK-NEXT: [9,   10,   11,   12],
  // CHECK-NEXT: [27,   30,   33,   36]]
  %p4 = tensor.cast %r4 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()

  %r5 = call @offsets_columns(%t, %i, %o) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [18,   20,   22,   24],
  // CHECK-NEXT: [27,   30,   33,   36],
  // CHECK-NEXT: [9,   10,   11,   12]]
  %p5 = tensor.cast %r5 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()

  %t4 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %i4 = arith.constant dense<[0, 3, 1, 3, 2, 2]> : tensor<6xi32>
  %r6 = call @offsets_rows_even(%t4, %i4, %o) : (tensor<4x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  // CHECK: data =
  // CHECK-NEXT: [14,   16,   18,   20],
  // CHECK-NEXT: [27,   30,   33,   36],
  // CHECK-NEXT: [9,   10,   11,   12]]
  %p6 = tensor.cast %r6 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p6) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
