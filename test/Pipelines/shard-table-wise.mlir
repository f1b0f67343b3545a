// RUN: embbag-opt %s --split-input-file --embbag-shard-functions --embbag-lower-shard-collectives | FileCheck %s

// Table-wise sharding's exchange (docs/Sharding.md) as MPI: the owner sends
// a contiguous copy of each other rank's bags (flattened: the MPI lowering
// counts a memref's first dimension only); the others receive theirs into
// a new buffer. Both in MPI_COMM_WORLD, tag 23.

shard.grid @grid(shape = 2)

// CHECK-LABEL: func.func @pool__shard_local(
// CHECK-DAG: %[[TAG:.*]] = arith.constant 23 : i32
// CHECK-DAG: %[[RANK0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[RANK1:.*]] = arith.constant 1 : i32
// CHECK: %[[WHOLE:.*]] = scf.if
// CHECK:   embbag.packed sum
// CHECK: scf.if
// CHECK:   %[[PART:.*]] = tensor.extract_slice %[[WHOLE]][0, 0] [2, 2] [1, 1]
// CHECK:   %[[SRC:.*]] = bufferization.to_buffer %[[PART]] read_only : tensor<2x2xf32> to memref<2x2xf32>
// CHECK:   %[[COPY:.*]] = memref.alloc() : memref<2x2xf32>
// CHECK:   memref.copy %[[SRC]], %[[COPY]]
// CHECK:   %[[COMM:.*]] = mpi.comm_world : !mpi.comm
// CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[COPY]] {{\[\[}}0, 1]] : memref<2x2xf32> into memref<4xf32>
// CHECK:   mpi.send(%[[FLAT]], %[[TAG]], %[[RANK0]], %[[COMM]]) : memref<4xf32>, i32, i32
// CHECK: } else {
// CHECK:   %[[BUF:.*]] = memref.alloc() : memref<2x2xf32>
// CHECK:   %[[COMM:.*]] = mpi.comm_world : !mpi.comm
// CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[BUF]] {{\[\[}}0, 1]]
// CHECK:   mpi.recv(%[[FLAT]], %[[TAG]], %[[RANK1]], %[[COMM]]) : memref<4xf32>, i32, i32
// CHECK:   bufferization.to_tensor %[[BUF]] restrict writable : memref<2x2xf32> to tensor<2x2xf32>
// CHECK-NOT: shard.send
// CHECK-NOT: shard.recv
func.func @pool(%t: tensor<4x2xf32> {embbag.table_owner = 1 : i64}, %i: tensor<4x3xi32>) -> tensor<4x2xf32> {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<4x3xi32>) -> tensor<4x2xf32>
  %rs = shard.shard %r to %bags : tensor<4x2xf32>
  return %rs : tensor<4x2xf32>
}

// -----

// On a 2-D grid with the bags split over axis 1, the peer's MPI rank keeps
// this process's coordinate on axis 0: rank = i0 * 3 + peer; the owner,
// process 2 on axis 1, sends to processes 0 and 1.
shard.grid @grid(shape = 2x3)

// CHECK-LABEL: func.func @pool_2d__shard_local(
// CHECK: scf.if
// CHECK:   %[[IDX:.*]]:2 = shard.process_multi_index on @grid : index, index
// CHECK:   %[[RANK:.*]] = arith.muli %[[IDX]]#0, %c3
// CHECK:   %[[DEST:.*]] = arith.index_cast %[[RANK]] : index to i32
// CHECK:   mpi.send(%{{.*}}, %{{.*}}, %[[DEST]], %{{.*}}) : memref<6xf32>, i32, i32
// CHECK:   %[[IDX:.*]]:2 = shard.process_multi_index on @grid : index, index
// CHECK:   %[[ROW:.*]] = arith.muli %[[IDX]]#0, %c3
// CHECK:   %[[RANK:.*]] = arith.addi %[[ROW]], %c1
// CHECK:   %[[DEST:.*]] = arith.index_cast %[[RANK]] : index to i32
// CHECK:   mpi.send(%{{.*}}, %{{.*}}, %[[DEST]], %{{.*}}) : memref<6xf32>, i32, i32
// CHECK:   tensor.extract_slice %{{.*}}[6, 0] [3, 2]
// CHECK: } else {
func.func @pool_2d(%t: tensor<4x2xf32> {embbag.table_owner = 2 : i64}, %i: tensor<9x3xi32>) -> tensor<9x2xf32> {
  %bags = shard.sharding @grid split_axes = [[1]] : !shard.sharding
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<9x3xi32>) -> tensor<9x2xf32>
  %rs = shard.shard %r to %bags : tensor<9x2xf32>
  return %rs : tensor<9x2xf32>
}

// -----

// Two tables, one per rank: the exchanges move down to the return, after
// both computations, so that each rank computes its table while the other
// computes its own; both ranks still exchange in one order (table 0's bags,
// then table 1's).
shard.grid @grid(shape = 2)

// CHECK-LABEL: func.func @two_tables__shard_local(
// CHECK: scf.if
// CHECK:   embbag.offsets sum %arg0
// CHECK: scf.if
// CHECK:   embbag.offsets sum %arg1
// CHECK-NOT: embbag.
// CHECK: scf.if
// CHECK:   mpi.send
// CHECK: } else {
// CHECK:   mpi.recv
// CHECK: scf.if
// CHECK:   mpi.send
// CHECK: } else {
// CHECK:   mpi.recv
// CHECK: return
func.func @two_tables(%t0: tensor<4x2xf32> {embbag.table_owner = 0 : i64}, %t1: tensor<4x2xf32> {embbag.table_owner = 1 : i64}, %i: tensor<5xi32>, %o: tensor<4xi32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r0 = embbag.offsets sum %t0[%i] offsets(%o) : (tensor<4x2xf32>, tensor<5xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  %s0 = shard.shard %r0 to %bags : tensor<4x2xf32>
  %r1 = embbag.offsets sum %t1[%i] offsets(%o) : (tensor<4x2xf32>, tensor<5xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  %s1 = shard.shard %r1 to %bags : tensor<4x2xf32>
  return %s0, %s1 : tensor<4x2xf32>, tensor<4x2xf32>
}
