// RUN: embbag-opt %s --split-input-file --embbag-shard-to-llvm | FileCheck %s

// Regression: a table annotated replicated (split_axes = [[]]) and resharded
// to a row split ended in SIGSEGV in the sharding model's partition when
// the indices/offsets and the result were annotated replicated too. Every
// variant must now partition and lower: even and uneven splits, with and
// without the replicated operand and result annotations, for the three ops.


// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @offsets_uneven_replicated(
func.func @offsets_uneven_replicated(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %o: tensor<4xi32>) -> tensor<4x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x2xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<5x2xf32>
  %i1 = shard.shard %i to %rep annotate_for_users : tensor<6xi32>
  %o1 = shard.shard %o to %rep annotate_for_users : tensor<4xi32>
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<5x2xf32>, tensor<6xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  %r1 = shard.shard %r to %rep : tensor<4x2xf32>
  return %r1 : tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @offsets_uneven_plain(
func.func @offsets_uneven_plain(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %o: tensor<4xi32>) -> tensor<4x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t1 = shard.shard %t to %s : tensor<5x2xf32>
  %r = embbag.offsets sum %t1[%i] offsets(%o) : (tensor<5x2xf32>, tensor<6xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @offsets_even_replicated(
func.func @offsets_even_replicated(%t: tensor<4x2xf32>, %i: tensor<6xi32>, %o: tensor<4xi32>) -> tensor<4x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<4x2xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<4x2xf32>
  %i1 = shard.shard %i to %rep annotate_for_users : tensor<6xi32>
  %o1 = shard.shard %o to %rep annotate_for_users : tensor<4xi32>
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<4x2xf32>, tensor<6xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  %r1 = shard.shard %r to %rep : tensor<4x2xf32>
  return %r1 : tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @offsets_even_plain(
func.func @offsets_even_plain(%t: tensor<4x2xf32>, %i: tensor<6xi32>, %o: tensor<4xi32>) -> tensor<4x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t1 = shard.shard %t to %s : tensor<4x2xf32>
  %r = embbag.offsets sum %t1[%i] offsets(%o) : (tensor<4x2xf32>, tensor<6xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @packed_uneven_replicated(
func.func @packed_uneven_replicated(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x2xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<5x2xf32>
  %i1 = shard.shard %i to %rep annotate_for_users : tensor<3x2xi32>
  %r = embbag.packed sum %t1[%i1] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %r1 = shard.shard %r to %rep : tensor<3x2xf32>
  return %r1 : tensor<3x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @packed_uneven_plain(
func.func @packed_uneven_plain(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t1 = shard.shard %t to %s : tensor<5x2xf32>
  %r = embbag.packed sum %t1[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @packed_even_replicated(
func.func @packed_even_replicated(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<4x2xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<4x2xf32>
  %i1 = shard.shard %i to %rep annotate_for_users : tensor<3x2xi32>
  %r = embbag.packed sum %t1[%i1] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %r1 = shard.shard %r to %rep : tensor<3x2xf32>
  return %r1 : tensor<3x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @packed_even_plain(
func.func @packed_even_plain(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t1 = shard.shard %t to %s : tensor<4x2xf32>
  %r = embbag.packed sum %t1[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @segments_uneven_replicated(
func.func @segments_uneven_replicated(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %o: tensor<6xi32>) -> tensor<4x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x2xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<5x2xf32>
  %i1 = shard.shard %i to %rep annotate_for_users : tensor<6xi32>
  %o1 = shard.shard %o to %rep annotate_for_users : tensor<6xi32>
  %r = embbag.segments sum %t1[%i1] segment_ids(%o1) num_segments(4) : (tensor<5x2xf32>, tensor<6xi32>, tensor<6xi32>) -> tensor<4x2xf32>
  %r1 = shard.shard %r to %rep : tensor<4x2xf32>
  return %r1 : tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @segments_uneven_plain(
func.func @segments_uneven_plain(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %o: tensor<6xi32>) -> tensor<4x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %t1 = shard.shard %t to %s : tensor<5x2xf32>
  %r = embbag.segments sum %t1[%i] segment_ids(%o) num_segments(4) : (tensor<5x2xf32>, tensor<6xi32>, tensor<6xi32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @segments_even_replicated(
func.func @segments_even_replicated(%t: tensor<4x2xf32>, %i: tensor<6xi32>, %o: tensor<6xi32>) -> tensor<4x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<4x2xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<4x2xf32>
  %i1 = shard.shard %i to %rep annotate_for_users : tensor<6xi32>
  %o1 = shard.shard %o to %rep annotate_for_users : tensor<6xi32>
  %r = embbag.segments sum %t1[%i1] segment_ids(%o1) num_segments(4) : (tensor<4x2xf32>, tensor<6xi32>, tensor<6xi32>) -> tensor<4x2xf32>
  %r1 = shard.shard %r to %rep : tensor<4x2xf32>
  return %r1 : tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @segments_even_plain(
func.func @segments_even_plain(%t: tensor<4x2xf32>, %i: tensor<6xi32>, %o: tensor<6xi32>) -> tensor<4x2xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t1 = shard.shard %t to %s : tensor<4x2xf32>
  %r = embbag.segments sum %t1[%i] segment_ids(%o) num_segments(4) : (tensor<4x2xf32>, tensor<6xi32>, tensor<6xi32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
