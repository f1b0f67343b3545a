// RUN: embbag-opt %s --split-input-file --verify-diagnostics --embbag-shard-functions

// embbag.table_owner places a table: on an argument used otherwise it would
// silently mean nothing (docs/Sharding.md).

shard.grid @grid(shape = 2)

// expected-error @+1 {{embbag-shard-to-llvm: argument 1 has 'embbag.table_owner' but is not only the table of embbag ops}}
func.func @owner_on_indices(%t: tensor<4x2xf32>, %i: tensor<2x2xi32> {embbag.table_owner = 0 : i64}) -> tensor<2x2xf32> {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %rs = shard.shard %r to %bags : tensor<2x2xf32>
  return %rs : tensor<2x2xf32>
}

// -----

shard.grid @grid(shape = 2)

// expected-error @+1 {{embbag-shard-to-llvm: argument 0 has 'embbag.table_owner' but is not only the table of embbag ops}}
func.func @owner_table_also_returned(%t: tensor<4x2xf32> {embbag.table_owner = 0 : i64}, %i: tensor<2x2xi32>) -> (tensor<2x2xf32>, tensor<4x2xf32>) {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %rs = shard.shard %r to %bags : tensor<2x2xf32>
  return %rs, %t : tensor<2x2xf32>, tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2)

// A table without shard.shard on its own result: the op would run on
// every rank.
func.func @owned_table_result_unannotated(%t: tensor<4x2xf32> {embbag.table_owner = 0 : i64}, %u: tensor<4x2xf32>, %i: tensor<2x2xi32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{table-wise sharding: the result must be split on its bags (dimension 0) over one grid axis}}
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %q = embbag.packed sum %u[%i] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %qs = shard.shard %q to %bags : tensor<2x2xf32>
  return %r, %qs : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

shard.grid @grid(shape = 2)

// Any embbag op that propagation leaves without a sharding, next to one
// whose result is split: an error at the op (shard-partition crashed on it).
func.func @unannotated(%t: tensor<8x4xf32>, %i: tensor<6x2xi32>) -> (tensor<6x4xf32>, tensor<6x4xf32>) {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a = embbag.packed sum %t[%i] : (tensor<8x4xf32>, tensor<6x2xi32>) -> tensor<6x4xf32>
  %a1 = shard.shard %a to %s : tensor<6x4xf32>
  // expected-error @+1 {{'embbag.packed' op has no sharding after sharding-propagation: annotate its table or its result with shard.shard}}
  %b = embbag.packed sum %t[%i] : (tensor<8x4xf32>, tensor<6x2xi32>) -> tensor<6x4xf32>
  return %a1, %b : tensor<6x4xf32>, tensor<6x4xf32>
}
