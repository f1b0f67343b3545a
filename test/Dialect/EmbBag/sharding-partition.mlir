// RUN: embbag-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' | FileCheck %s

// The partitioned (per-rank) IR of each sharding of docs/Sharding.md.

shard.grid @grid(shape = 2)

// Rows: foreign indices go to local row 0 with weight 0, the default only on
// its owner, a sum, then an all-reduce; the mean divides after it.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[T:.*]]: tensor<2x4xf32>, %[[I:.*]]: tensor<5xi32>, %[[O:.*]]: tensor<3xi32>) -> tensor<3x4xf32>
// CHECK: %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0]
// CHECK: %[[MASKED:.*]]:2 = linalg.generic
// CHECK: arith.select
// CHECK: linalg.yield
// CHECK: %[[INVALID:.*]] = arith.select {{.*}} : i32
// CHECK: %[[DEF:.*]] = arith.select {{.*}}, %[[INVALID]] : i32
// CHECK: %[[PART:.*]] = embbag.offsets sum %[[T]][%[[MASKED]]#0] offsets(%[[O]]) default(%[[DEF]]) weights(%[[MASKED]]#1)
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[PART]] on @grid grid_axes = [0] : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: %[[COUNT:.*]] = embbag.offsets sum {{.*}} : (tensor<1x1xi64>
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]], %[[COUNT]]
// CHECK: arith.maxsi
// CHECK: arith.divf
// CHECK: return %[[MEAN]]
func.func @rows(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x4xf32>
  %d = arith.constant 3 : i32
  %r = embbag.offsets mean %ts[%i] offsets(%o) default(%d) : (tensor<4x4xf32>, tensor<5xi32>, tensor<3xi32>, i32) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Columns: the op on the local columns, no communication.
// CHECK-LABEL: func.func @columns(
// CHECK-SAME: %[[T:.*]]: tensor<4x2xf32>, %[[I:.*]]: tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[R:.*]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: shard.all_reduce
func.func @columns(%t: tensor<4x4xf32>, %i: tensor<3x2xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x4xf32>
  %r = embbag.packed sum %ts[%i] : (tensor<4x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Bags of embbag.offsets: local offsets (absolute), indices cut at the next
// rank's first offset.
// CHECK-LABEL: func.func @offsets_bags(
// CHECK-SAME: %[[T:.*]]: tensor<4x4xf32>, %[[I:.*]]: tensor<6xi32>, %[[O:.*]]: tensor<4xi32>) -> tensor<2x4xf32>
// CHECK: shard.process_multi_index
// CHECK: %[[END:.*]] = scf.if
// CHECK: %[[OFF:.*]] = tensor.extract_slice %[[O]]
// CHECK: %[[IND:.*]] = tensor.extract_slice %[[I]][0] [%{{.*}}] [1] : tensor<6xi32> to tensor<?xi32>
// CHECK: embbag.offsets sum %[[T]][%[[IND]]] offsets(%[[OFF]])
// CHECK-NOT: shard.all_reduce
func.func @offsets_bags(%t: tensor<4x4xf32>, %i: tensor<6xi32>, %o: tensor<4xi32>) -> tensor<4x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<4x4xf32>, tensor<6xi32>, tensor<4xi32>) -> tensor<4x4xf32>
  %rs = shard.shard %r to %s : tensor<4x4xf32>
  return %rs : tensor<4x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Bags of embbag.segments: foreign ids to one extra segment, dropped.
// CHECK-LABEL: func.func @segments_bags(
// CHECK: %[[IDS:.*]] = linalg.generic
// CHECK: %[[N:.*]] = arith.addi
// CHECK: %[[ALL:.*]] = embbag.segments sum {{.*}} segment_ids(%[[IDS]]) num_segments(%[[N]])
// CHECK: tensor.extract_slice %[[ALL]][0, 0]
func.func @segments_bags(%t: tensor<4x4xf32>, %i: tensor<6xi32>, %g: tensor<6xi32>) -> tensor<4x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %n = arith.constant 4 : i32
  %r = embbag.segments sum %t[%i] segment_ids(%g) num_segments(%n) : (tensor<4x4xf32>, tensor<6xi32>, tensor<6xi32>, i32) -> tensor<4x4xf32>
  %rs = shard.shard %r to %s : tensor<4x4xf32>
  return %rs : tensor<4x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Bags of embbag.packed: indices and weights split with the bags.
// CHECK-LABEL: func.func @packed_bags(
// CHECK-SAME: %[[T:.*]]: tensor<4x4xf32>, %[[I:.*]]: tensor<2x2xi32>, %[[W:.*]]: tensor<2x2xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: embbag.packed sum %[[T]][%[[I]]] weights(%[[W]])
func.func @packed_bags(%t: tensor<4x4xf32>, %i: tensor<4x2xi32>, %w: tensor<4x2xf32>) -> tensor<4x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %is = shard.shard %i to %s : tensor<4x2xi32>
  %r = embbag.packed sum %t[%is] weights(%w) : (tensor<4x4xf32>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// max by columns: the op on the local columns, no communication.
// CHECK-LABEL: func.func @columns_max(
// CHECK-SAME: %{{.*}}: tensor<4x2xf32>, %{{.*}}: tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[R:.*]] = embbag.packed max %{{.*}}[%{{.*}}] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @columns_max(%t: tensor<4x4xf32>, %i: tensor<3x2xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x4xf32>
  %r = embbag.packed max %ts[%i] : (tensor<4x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Rows of embbag.packed, weighted: foreign indices go to local row 0 with
// weight 0, then a sum of the local rows and an all-reduce.
// CHECK-LABEL: func.func @rows_packed(
// CHECK-SAME: %[[T:.*]]: tensor<2x4xf32>, %[[I:.*]]: tensor<3x2xi32>, %[[W:.*]]: tensor<3x2xf32>) -> tensor<3x4xf32>
// CHECK: shard.process_multi_index on @grid axes = [0]
// CHECK: %[[MASKED:.*]]:2 = linalg.generic {{.*}} ins(%[[I]], %[[W]] :
// CHECK: arith.subi
// CHECK: linalg.yield
// CHECK: %[[PART:.*]] = embbag.packed sum %[[T]][%[[MASKED]]#0] weights(%[[MASKED]]#1) : (tensor<2x4xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x4xf32>
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[PART]] on @grid grid_axes = [0]
// CHECK: return %[[SUM]]
func.func @rows_packed(%t: tensor<4x4xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x4xf32>
  %r = embbag.packed sum %ts[%i] weights(%w) : (tensor<4x4xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Rows of embbag.segments: the unweighted op gets weights, 1 for a local
// row and 0 for a foreign one (sent to local row 0), the same segment ids,
// then an all-reduce; the result's static batch comes back with a cast.
// CHECK-LABEL: func.func @rows_segments(
// CHECK-SAME: %[[T:.*]]: tensor<2x4xf32>, %[[I:.*]]: tensor<5xi32>, %[[G:.*]]: tensor<5xi32>) -> tensor<3x4xf32>
// CHECK: %[[MASKED:.*]]:2 = linalg.generic {{.*}} ins(%[[I]] : tensor<5xi32>)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{.*}}, %[[ONE]], %[[ZERO]] : f32
// CHECK: %[[PART:.*]] = embbag.segments sum %[[T]][%[[MASKED]]#0] segment_ids(%[[G]]) num_segments(%{{.*}}) weights(%[[MASKED]]#1)
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[PART]] on @grid grid_axes = [0] : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: %[[CAST:.*]] = tensor.cast %[[SUM]] : tensor<?x4xf32> to tensor<3x4xf32>
// CHECK: return %[[CAST]]
func.func @rows_segments(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %g: tensor<5xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x4xf32>
  %n = arith.constant 3 : i32
  %r = embbag.segments sum %ts[%i] segment_ids(%g) num_segments(%n) : (tensor<4x4xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Columns of embbag.offsets, weighted: the op on the local columns with
// the same indices, offsets and weights, no communication.
// CHECK-LABEL: func.func @columns_offsets(
// CHECK-SAME: %[[T:.*]]: tensor<4x2xf32>, %[[I:.*]]: tensor<5xi32>, %[[O:.*]]: tensor<3xi32>, %[[W:.*]]: tensor<5xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) weights(%[[W]]) : (tensor<4x2xf32>, tensor<5xi32>, tensor<3xi32>, tensor<5xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: shard.all_reduce
func.func @columns_offsets(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %o: tensor<3xi32>, %w: tensor<5xf32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x4xf32>
  %r = embbag.offsets sum %ts[%i] offsets(%o) weights(%w) : (tensor<4x4xf32>, tensor<5xi32>, tensor<3xi32>, tensor<5xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Columns of embbag.segments, mean: the op on the local columns, no
// communication.
// CHECK-LABEL: func.func @columns_segments(
// CHECK-SAME: %[[T:.*]]: tensor<4x2xf32>, %[[I:.*]]: tensor<5xi32>, %[[G:.*]]: tensor<5xi32>) -> tensor<3x2xf32>
// CHECK: %[[R:.*]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[G]]) num_segments(%{{.*}}) : (tensor<4x2xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x2xf32>
// CHECK-NEXT: %[[CAST:.*]] = tensor.cast %[[R]] : tensor<?x2xf32> to tensor<3x2xf32>
// CHECK-NEXT: return %[[CAST]]
// CHECK-NOT: shard.all_reduce
func.func @columns_segments(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %g: tensor<5xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<4x4xf32>
  %n = arith.constant 3 : i32
  %r = embbag.segments mean %ts[%i] segment_ids(%g) num_segments(%n) : (tensor<4x4xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
