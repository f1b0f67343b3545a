// RUN: embbag-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' | FileCheck %s
// RUN: embbag-opt %s --split-input-file --embbag-shard-to-llvm | FileCheck %s --check-prefix=LLVM

// Regression tests of issue 20: operands annotated replicated, then
// resharded to an even or uneven (sharded_dims_offsets) split, for the three
// ops. MLIR 22.1's shard-partition reshards only splits without offsets
// (all_slice); from a replicated value the model slices the others itself.

shard.grid @grid(shape = 2)

// The crash of issue 20: the table annotated replicated, then resharded to an
// uneven row split (3 + 2 rows); indices, offsets and result replicated.
// shard-partition has no pattern for the reshard (it left a null table and
// the model dereferenced it); the model slices the whole table itself.
// CHECK-LABEL: func.func @offsets_rows_uneven(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<6xi32>, %[[O:.*]]: tensor<3xi32>) -> tensor<3x4xf32>
// CHECK-NOT: shard.all_slice
// CHECK: %[[BOUNDS:.*]] = arith.constant dense<[0, 3, 5]> : tensor<3xindex>
// CHECK: %[[LO:.*]] = tensor.extract %[[BOUNDS]][
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[T]][%[[LO]], 0] [%{{.*}}, 4] [1, 1] : tensor<5x4xf32> to tensor<?x4xf32>
// CHECK: %[[PART:.*]] = embbag.offsets sum %[[SLICE]][%{{.*}}#0] offsets(%[[O]]) weights(%{{.*}}#1) : (tensor<?x4xf32>,
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[PART]] on @grid grid_axes = [0] : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: return %[[SUM]]
// LLVM-LABEL: llvm.func @offsets_rows_uneven__shard_local(
// LLVM: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @offsets_rows_uneven(
func.func @offsets_rows_uneven(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
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

// -----

shard.grid @grid(shape = 2)

// The same without annotations on the indices, offsets and result; mean.
// CHECK-LABEL: func.func @offsets_rows_uneven_no_result(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[T]][%{{.*}}, 0] [%{{.*}}, 4] [1, 1] : tensor<5x4xf32> to tensor<?x4xf32>
// CHECK: %[[PART:.*]] = embbag.offsets sum %[[SLICE]]
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[PART]] on @grid grid_axes = [0]
// CHECK: linalg.generic {{.*}} ins(%[[SUM]],
// CHECK: arith.divf
// LLVM-LABEL: llvm.func @offsets_rows_uneven_no_result__shard_local(
// LLVM: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @offsets_rows_uneven_no_result(
func.func @offsets_rows_uneven_no_result(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  %r = embbag.offsets mean %t1[%i] offsets(%o) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// The split annotated on the argument itself (no reshard): the argument is
// this rank's rows, sliced by the wrapper.
// CHECK-LABEL: func.func @offsets_rows_uneven_plain(
// CHECK-SAME: %[[T:.*]]: tensor<?x4xf32>, %{{.*}}: tensor<6xi32>, %{{.*}}: tensor<3xi32>) -> tensor<3x4xf32>
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[PART:.*]] = embbag.offsets sum %[[T]]
// CHECK: shard.all_reduce %[[PART]] on @grid grid_axes = [0] : tensor<3x4xf32> -> tensor<3x4xf32>
// LLVM-LABEL: llvm.func @offsets_rows_uneven_plain__shard_local(
// LLVM: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @offsets_rows_uneven_plain(
func.func @offsets_rows_uneven_plain(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t1 = shard.shard %t to %rows : tensor<5x4xf32>
  %r = embbag.offsets sum %t1[%i] offsets(%o) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// An even row split from a replicated table: shard-partition's own all_slice.
// CHECK-LABEL: func.func @offsets_rows_even(
// CHECK-SAME: %[[T:.*]]: tensor<4x4xf32>
// CHECK: %[[SLICE:.*]] = shard.all_slice %[[T]] on @grid grid_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
// CHECK: %[[PART:.*]] = embbag.offsets sum %[[SLICE]]
// CHECK: shard.all_reduce %[[PART]] on @grid grid_axes = [0] : tensor<3x4xf32> -> tensor<3x4xf32>
// LLVM-LABEL: llvm.func @offsets_rows_even__shard_local(
// LLVM: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @offsets_rows_even(
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

// -----

shard.grid @grid(shape = 2)

// embbag.packed, rows split unevenly from a replicated table.
// CHECK-LABEL: func.func @packed_rows_uneven(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<3x2xi64>) -> tensor<3x4xf32>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[T]][%{{.*}}, 0] [%{{.*}}, 4] [1, 1] : tensor<5x4xf32> to tensor<?x4xf32>
// CHECK: %[[PART:.*]] = embbag.packed sum %[[SLICE]][%{{.*}}#0] weights(%{{.*}}#1) : (tensor<?x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[PART]] on @grid grid_axes = [0] : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: return %[[SUM]]
// LLVM-LABEL: llvm.func @packed_rows_uneven__shard_local(
// LLVM: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @packed_rows_uneven(
func.func @packed_rows_uneven(%t: tensor<5x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  %i1 = shard.shard %i to %rep : tensor<3x2xi64>
  %r = embbag.packed sum %t1[%i1] : (tensor<5x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %rep : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// embbag.segments, rows split unevenly from a replicated table.
// CHECK-LABEL: func.func @segments_rows_uneven(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[T]][%{{.*}}, 0] [%{{.*}}, 4] [1, 1] : tensor<5x4xf32> to tensor<?x4xf32>
// CHECK: %[[PART:.*]] = embbag.segments sum %[[SLICE]][%{{.*}}#0]
// CHECK: shard.all_reduce %[[PART]] on @grid grid_axes = [0]
// LLVM-LABEL: llvm.func @segments_rows_uneven__shard_local(
// LLVM: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @segments_rows_uneven(
func.func @segments_rows_uneven(%t: tensor<5x4xf32>, %i: tensor<5xi32>, %g: tensor<5xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  %i1 = shard.shard %i to %rep : tensor<5xi32>
  %g1 = shard.shard %g to %rep : tensor<5xi32>
  %n = arith.constant 3 : i32
  %r = embbag.segments sum %t1[%i1] segment_ids(%g1) num_segments(%n) : (tensor<5x4xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %rep : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// embbag.packed, bags split unevenly (2 + 1): indices and weights annotated
// replicated then resharded with the bags, sliced by the model.
// CHECK-LABEL: func.func @packed_bags_uneven(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<3x2xi32>, %[[W:.*]]: tensor<3x2xf32>) -> tensor<?x4xf32>
// CHECK: %[[BOUNDS:.*]] = arith.constant dense<[0, 2, 3]> : tensor<3xindex>
// CHECK: %[[IS:.*]] = tensor.extract_slice %[[I]][%{{.*}}, 0] [%{{.*}}, 2] [1, 1] : tensor<3x2xi32> to tensor<?x2xi32>
// CHECK: %[[WS:.*]] = tensor.extract_slice %[[W]][%{{.*}}, 0] [%{{.*}}, 2] [1, 1] : tensor<3x2xf32> to tensor<?x2xf32>
// CHECK: embbag.packed sum %[[T]][%[[IS]]] weights(%[[WS]]) : (tensor<5x4xf32>, tensor<?x2xi32>, tensor<?x2xf32>) -> tensor<?x4xf32>
// CHECK-NOT: shard.all_reduce
// LLVM-LABEL: llvm.func @packed_bags_uneven__shard_local(
// LLVM-NOT: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @packed_bags_uneven(
// LLVM: llvm.call @MPI_Allreduce
func.func @packed_bags_uneven(%t: tensor<5x4xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) -> tensor<3x4xf32> {
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

// -----

shard.grid @grid(shape = 2)

// The same split evenly: shard-partition's own all_slice.
// CHECK-LABEL: func.func @packed_bags_even(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<4x2xi32>) -> tensor<2x4xf32>
// CHECK: %[[IS:.*]] = shard.all_slice %[[I]] on @grid grid_axes = [0] slice_axis = 0 : tensor<4x2xi32> -> tensor<2x2xi32>
// CHECK: embbag.packed sum %[[T]][%[[IS]]] : (tensor<5x4xf32>, tensor<2x2xi32>) -> tensor<2x4xf32>
// LLVM-LABEL: llvm.func @packed_bags_even__shard_local(
// LLVM-NOT: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @packed_bags_even(
// LLVM: llvm.call @MPI_Allreduce
func.func @packed_bags_even(%t: tensor<5x4xf32>, %i: tensor<4x2xi32>) -> tensor<4x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t1 = shard.shard %t to %rep : tensor<5x4xf32>
  %i0 = shard.shard %i to %rep : tensor<4x2xi32>
  %i1 = shard.shard %i0 to %bags : tensor<4x2xi32>
  %r = embbag.packed sum %t1[%i1] : (tensor<5x4xf32>, tensor<4x2xi32>) -> tensor<4x4xf32>
  %r1 = shard.shard %r to %bags : tensor<4x4xf32>
  return %r1 : tensor<4x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// embbag.offsets, bags split unevenly, every operand annotated replicated
// (no reshard: the table stays whole).
// CHECK-LABEL: func.func @offsets_bags_uneven(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<6xi32>, %[[O:.*]]: tensor<3xi32>) -> tensor<?x4xf32>
// CHECK: %[[OS:.*]] = tensor.extract_slice %[[O]][%{{.*}}] [%{{.*}}] [1] : tensor<3xi32> to tensor<?xi32>
// CHECK: %[[IS:.*]] = tensor.extract_slice %[[I]][0] [%{{.*}}] [1] : tensor<6xi32> to tensor<?xi32>
// CHECK: embbag.offsets sum %[[T]][%[[IS]]] offsets(%[[OS]]) : (tensor<5x4xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x4xf32>
// CHECK-NOT: shard.all_reduce
// LLVM-LABEL: llvm.func @offsets_bags_uneven__shard_local(
// LLVM-NOT: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @offsets_bags_uneven(
// LLVM: llvm.call @MPI_Allreduce
func.func @offsets_bags_uneven(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %bags = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 2, 3] : !shard.sharding
  %t1 = shard.shard %t to %rep : tensor<5x4xf32>
  %i1 = shard.shard %i to %rep : tensor<6xi32>
  %o1 = shard.shard %o to %rep : tensor<3xi32>
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %bags : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// embbag.segments, segments split unevenly, operands annotated replicated.
// CHECK-LABEL: func.func @segments_bags_uneven(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<5xi32>, %[[G:.*]]: tensor<5xi32>) -> tensor<?x4xf32>
// CHECK: %[[ALL:.*]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%{{.*}}) num_segments(%{{.*}}) : (tensor<5x4xf32>
// CHECK: tensor.extract_slice %[[ALL]][0, 0] [%{{.*}}, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
// CHECK-NOT: shard.all_reduce
// LLVM-LABEL: llvm.func @segments_bags_uneven__shard_local(
// LLVM-NOT: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @segments_bags_uneven(
// LLVM: llvm.call @MPI_Allreduce
func.func @segments_bags_uneven(%t: tensor<5x4xf32>, %i: tensor<5xi32>, %g: tensor<5xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %bags = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 2, 3] : !shard.sharding
  %t1 = shard.shard %t to %rep : tensor<5x4xf32>
  %i1 = shard.shard %i to %rep : tensor<5xi32>
  %g1 = shard.shard %g to %rep : tensor<5xi32>
  %n = arith.constant 3 : i32
  %r = embbag.segments sum %t1[%i1] segment_ids(%g1) num_segments(%n) : (tensor<5x4xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<3x4xf32>
  %r1 = shard.shard %r to %bags : tensor<3x4xf32>
  return %r1 : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Columns split unevenly (3 + 1) from a replicated table.
// CHECK-LABEL: func.func @offsets_columns_uneven(
// CHECK-SAME: %[[T:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<6xi32>, %[[O:.*]]: tensor<3xi32>) -> tensor<3x?xf32>
// CHECK: %[[BOUNDS:.*]] = arith.constant dense<[0, 3, 4]> : tensor<3xindex>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[T]][0, %{{.*}}] [5, %{{.*}}] [1, 1] : tensor<5x4xf32> to tensor<5x?xf32>
// CHECK: embbag.offsets sum %[[SLICE]][%[[I]]] offsets(%[[O]]) : (tensor<5x?xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x?xf32>
// CHECK-NOT: shard.all_reduce
// LLVM-LABEL: llvm.func @offsets_columns_uneven__shard_local(
// LLVM-NOT: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @offsets_columns_uneven(
// LLVM: llvm.call @MPI_Allreduce
func.func @offsets_columns_uneven(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
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
