// REQUIRES: mpich
// RUN: embbag-opt %s --embbag-drop-sharding --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-shard-to-llvm > %t.mlir
// RUN: %mpirun_2 %t.mlir
// RUN: FileCheck %s < %t.rank0
// RUN: FileCheck %s < %t.rank1

// Table-wise sharding on 2 ranks (docs/Sharding.md): each table lives on the
// rank its argument's embbag.table_owner names, which computes every bag
// and sends the other rank its bags; every rank prints what the one-process
// program prints.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// Three tables on two ranks (0, 1, 0), 5 bags split unevenly (bags 0-2 on
// rank 0, 3-4 on rank 1): a weighted sum with a default row and an empty
// bag, a mean, a max (with a negative row).
func.func @three_tables(%t0: tensor<5x2xf32> {embbag.table_owner = 0 : i64},
                        %t1: tensor<4x2xf32> {embbag.table_owner = 1 : i64},
                        %t2: tensor<3x3xf32> {embbag.table_owner = 0 : i64},
                        %i: tensor<6xi32>, %o: tensor<5xi32>, %w: tensor<6xf32>)
    -> (tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x3xf32>) {
  %bags = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %d = arith.constant 4 : i32
  %r0 = embbag.offsets sum %t0[%i] offsets(%o) default(%d) weights(%w) : (tensor<5x2xf32>, tensor<6xi32>, tensor<5xi32>, i32, tensor<6xf32>) -> tensor<5x2xf32>
  %s0 = shard.shard %r0 to %bags : tensor<5x2xf32>
  %r1 = embbag.offsets mean %t1[%i] offsets(%o) : (tensor<4x2xf32>, tensor<6xi32>, tensor<5xi32>) -> tensor<5x2xf32>
  %s1 = shard.shard %r1 to %bags : tensor<5x2xf32>
  %r2 = embbag.offsets max %t2[%i] offsets(%o) : (tensor<3x3xf32>, tensor<6xi32>, tensor<5xi32>) -> tensor<5x3xf32>
  %s2 = shard.shard %r2 to %bags : tensor<5x3xf32>
  return %s0, %s1, %s2 : tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x3xf32>
}

// embbag.packed, 4 bags split evenly (2 + 2): an integer mean (truncating)
// on rank 1 and a max on rank 0.
func.func @packed(%t0: tensor<4x1xi32> {embbag.table_owner = 1 : i64},
                  %t1: tensor<4x2xf32> {embbag.table_owner = 0 : i64},
                  %i: tensor<4x3xi64>) -> (tensor<4x1xi32>, tensor<4x2xf32>) {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r0 = embbag.packed mean %t0[%i] : (tensor<4x1xi32>, tensor<4x3xi64>) -> tensor<4x1xi32>
  %s0 = shard.shard %r0 to %bags : tensor<4x1xi32>
  %r1 = embbag.packed max %t1[%i] : (tensor<4x2xf32>, tensor<4x3xi64>) -> tensor<4x2xf32>
  %s1 = shard.shard %r1 to %bags : tensor<4x2xf32>
  return %s0, %s1 : tensor<4x1xi32>, tensor<4x2xf32>
}

// What the row, column and bag splits refuse runs whole on the owner:
// include_last_offset with padding_idx, and segments with sqrtn.
func.func @whole_on_owner(%t: tensor<5x2xf32> {embbag.table_owner = 1 : i64},
                          %i: tensor<6xi32>, %o: tensor<4xi32>, %g: tensor<6xi32>)
    -> (tensor<3x2xf32>, tensor<2x2xf32>) {
  %bags = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 1, 3] : !shard.sharding
  %p = arith.constant 2 : i32
  %r0 = embbag.offsets mean %t[%i] offsets(%o) include_last_offset padding_idx(%p) : (tensor<5x2xf32>, tensor<6xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  %s0 = shard.shard %r0 to %bags : tensor<3x2xf32>
  %even = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %n = arith.constant 2 : i32
  %r1 = embbag.segments sqrtn %t[%i] segment_ids(%g) num_segments(%n) : (tensor<5x2xf32>, tensor<6xi32>, tensor<6xi32>, i32) -> tensor<2x2xf32>
  %s1 = shard.shard %r1 to %even : tensor<2x2xf32>
  return %s0, %s1 : tensor<3x2xf32>, tensor<2x2xf32>
}

// A 1x2 grid, the bags split over its axis 1: the peers' MPI ranks are
// linearised from the grid.
shard.grid @grid12(shape = 1x2) {sym_visibility = "private"}

func.func @grid_axis_1(%t: tensor<5x2xf32> {embbag.table_owner = 1 : i64},
                       %i: tensor<6xi32>, %o: tensor<5xi32>) -> tensor<5x2xf32> {
  %bags = shard.sharding @grid12 split_axes = [[1]] sharded_dims_offsets = [0, 4, 5] : !shard.sharding
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<6xi32>, tensor<5xi32>) -> tensor<5x2xf32>
  %rs = shard.shard %r to %bags : tensor<5x2xf32>
  return %rs : tensor<5x2xf32>
}

func.func @main() {
  %t0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %t1 = arith.constant dense<[[1.0, -2.0], [3.0, 0.0], [-5.0, 6.0], [7.0, 1.0]]> : tensor<4x2xf32>
  %t2 = arith.constant dense<[[-1.0, -2.0, -3.0], [4.0, -5.0, 6.0], [0.5, 0.5, -0.5]]> : tensor<3x3xf32>
  %i = arith.constant dense<[0, 2, 1, 2, 1, 0]> : tensor<6xi32>
  %o = arith.constant dense<[0, 2, 2, 3, 5]> : tensor<5xi32>
  %w = arith.constant dense<[1.0, 2.0, 0.5, 1.0, -1.0, 3.0]> : tensor<6xf32>
  %r:3 = call @three_tables(%t0, %t1, %t2, %i, %o, %w) : (tensor<5x2xf32>, tensor<4x2xf32>, tensor<3x3xf32>, tensor<6xi32>, tensor<5xi32>, tensor<6xf32>) -> (tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x3xf32>)
  // CHECK: data =
  // CHECK-NEXT: [11,   14],
  // CHECK-NEXT: [9,   10],
  // CHECK-NEXT: [1.5,   2],
  // CHECK-NEXT: [2,   2],
  // CHECK-NEXT: [3,   6]]
  %p0 = tensor.cast %r#0 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [-2,   2],
  // CHECK-NEXT: [0,   0],
  // CHECK-NEXT: [3,   0],
  // CHECK-NEXT: [-1,   3],
  // CHECK-NEXT: [1,   -2]]
  %p1 = tensor.cast %r#1 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [0.5,   0.5,   -0.5],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [4,   -5,   6],
  // CHECK-NEXT: [4,   0.5,   6],
  // CHECK-NEXT: [-1,   -2,   -3]]
  %p2 = tensor.cast %r#2 : tensor<5x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  %ti = arith.constant dense<[[1], [2], [2], [7]]> : tensor<4x1xi32>
  %ip = arith.constant dense<[[0, 1, 3], [1, 1, 2], [3, 3, 3], [2, 0, 0]]> : tensor<4x3xi64>
  %q:2 = call @packed(%ti, %t1, %ip) : (tensor<4x1xi32>, tensor<4x2xf32>, tensor<4x3xi64>) -> (tensor<4x1xi32>, tensor<4x2xf32>)
  // CHECK: data =
  // CHECK-NEXT: [3],
  // CHECK-NEXT: [2],
  // CHECK-NEXT: [7],
  // CHECK-NEXT: [1]]
  %p3 = tensor.cast %q#0 : tensor<4x1xi32> to tensor<*xi32>
  call @printMemrefI32(%p3) : (tensor<*xi32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [7,   1],
  // CHECK-NEXT: [3,   6],
  // CHECK-NEXT: [7,   1],
  // CHECK-NEXT: [1,   6]]
  %p4 = tensor.cast %q#1 : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()

  %ol = arith.constant dense<[0, 3, 3, 6]> : tensor<4xi32>
  %ii = arith.constant dense<[2, 4, 0, 2, 2, 3]> : tensor<6xi32>
  %g = arith.constant dense<[1, 0, 1, 1, 0, 0]> : tensor<6xi32>
  %u:2 = call @whole_on_owner(%t0, %ii, %ol, %g) : (tensor<5x2xf32>, tensor<6xi32>, tensor<4xi32>, tensor<6xi32>) -> (tensor<3x2xf32>, tensor<2x2xf32>)
  // CHECK: data =
  // CHECK-NEXT: [5,   6],
  // CHECK-NEXT: [0,   0],
  // CHECK-NEXT: [7,   8]]
  %p5 = tensor.cast %u#0 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [12.1244,   13.8564],
  // CHECK-NEXT: [6.35085,   8.0829]]
  %p6 = tensor.cast %u#1 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p6) : (tensor<*xf32>) -> ()

  %v = call @grid_axis_1(%t0, %i, %o) : (tensor<5x2xf32>, tensor<6xi32>, tensor<5xi32>) -> tensor<5x2xf32>
  // CHECK: data =
  // CHECK-NEXT: [6,   8],
  // CHECK-NEXT: [0,   0],
  // CHECK-NEXT: [3,   4],
  // CHECK-NEXT: [8,   10],
  // CHECK-NEXT: [1,   2]]
  %p7 = tensor.cast %v : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p7) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }
