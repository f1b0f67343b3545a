// RUN: embbag-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' | FileCheck %s

// Table-wise sharding's per-rank IR (docs/Sharding.md): the op runs, on
// every operand whole, only in the branch of the table's owner (the others
// have no rows); then the owner sends each other rank its bags, and the
// others receive theirs. Nothing outside the owner's branch reads the
// table.

shard.grid @grid(shape = 3)

// CHECK-LABEL: func.func @owner_1_of_3(
// CHECK-SAME: %[[T:.*]]: tensor<9x4xf32> {embbag.table_owner = 1 : i64}, %[[I:.*]]: tensor<7xi32>, %[[O:.*]]: tensor<6xi32>) -> tensor<?x4xf32>
// CHECK: %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[OWNER:.*]] = arith.cmpi eq, %[[RANK]], %[[C1]]
// CHECK: %[[WHOLE:.*]] = scf.if %[[OWNER]] -> (tensor<?x4xf32>) {
// CHECK:   %[[ALL:.*]] = embbag.offsets max %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<9x4xf32>, tensor<7xi32>, tensor<6xi32>) -> tensor<6x4xf32>
// CHECK:   %[[ALLD:.*]] = tensor.cast %[[ALL]] : tensor<6x4xf32> to tensor<?x4xf32>
// CHECK:   scf.yield %[[ALLD]]
// CHECK: } else {
// CHECK-NOT: embbag.
// CHECK:   %[[NONE:.*]] = tensor.empty() : tensor<0x4xf32>
// CHECK:   %[[NONED:.*]] = tensor.cast %[[NONE]]
// CHECK:   scf.yield %[[NONED]]
// CHECK: }
// CHECK: %[[R:.*]] = scf.if %[[OWNER]] -> (tensor<?x4xf32>) {
// CHECK:   %[[P0:.*]] = tensor.extract_slice %[[WHOLE]][0, 0] [1, 4] [1, 1]
// CHECK:   shard.send %[[P0]] on @grid grid_axes = [0] destination = [0] : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK:   %[[P2:.*]] = tensor.extract_slice %[[WHOLE]][4, 0] [2, 4] [1, 1]
// CHECK:   shard.send %[[P2]] on @grid grid_axes = [0] destination = [2] : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:   %[[OWN:.*]] = tensor.extract_slice %[[WHOLE]][1, 0] [3, 4] [1, 1]
// CHECK:   %[[CAST:.*]] = tensor.cast %[[OWN]] : tensor<3x4xf32> to tensor<?x4xf32>
// CHECK:   scf.yield %[[CAST]]
// CHECK: } else {
// CHECK-NOT: embbag.
// CHECK:   %[[BUF:.*]] = tensor.empty(%{{.*}}) : tensor<?x4xf32>
// CHECK:   %[[RECV:.*]] = shard.recv %[[BUF]] on @grid grid_axes = [0] source = [1] : (tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK:   scf.yield %[[RECV]]
// CHECK: }
// CHECK-NOT: embbag.
// CHECK: return %[[R]]
func.func @owner_1_of_3(%t: tensor<9x4xf32> {embbag.table_owner = 1 : i64}, %i: tensor<7xi32>, %o: tensor<6xi32>) -> tensor<6x4xf32> {
  %bags = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 6] : !shard.sharding
  %r = embbag.offsets max %t[%i] offsets(%o) : (tensor<9x4xf32>, tensor<7xi32>, tensor<6xi32>) -> tensor<6x4xf32>
  %rs = shard.shard %r to %bags : tensor<6x4xf32>
  return %rs : tensor<6x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// embbag.packed: the indices stay whole (a bag split without an owner
// would split them with the bags); an even split, static per-rank types.
// CHECK-LABEL: func.func @packed_even(
// CHECK-SAME: %[[T:.*]]: tensor<5x2xf32> {embbag.table_owner = 0 : i64}, %[[I:.*]]: tensor<4x3xi32>) -> tensor<2x2xf32>
// CHECK: scf.if %{{.*}} -> (tensor<?x2xf32>) {
// CHECK:   embbag.packed sum %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<4x3xi32>) -> tensor<4x2xf32>
// CHECK: scf.if %{{.*}} -> (tensor<2x2xf32>) {
// CHECK:   shard.send %{{.*}} destination = [1] : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK: } else {
// CHECK:   shard.recv %{{.*}} source = [0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
func.func @packed_even(%t: tensor<5x2xf32> {embbag.table_owner = 0 : i64}, %i: tensor<4x3xi32>) -> tensor<4x2xf32> {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<4x3xi32>) -> tensor<4x2xf32>
  %rs = shard.shard %r to %bags : tensor<4x2xf32>
  return %rs : tensor<4x2xf32>
}
