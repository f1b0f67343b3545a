// RUN: embbag-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))'

// What table-wise sharding (embbag.table_owner, docs/Sharding.md) refuses,
// with a diagnostic at the op or the attribute.

// expected-error @+1 {{'embbag.table_owner' must be a non-negative integer}}
func.func @negative_owner(%t: tensor<4x2xf32> {embbag.table_owner = -1 : i64}) {
  return
}

// -----

// expected-error @+1 {{'embbag.table_owner' must be a non-negative integer}}
func.func @not_an_integer(%t: tensor<4x2xf32> {embbag.table_owner = "rank1"}) {
  return
}

// -----

// expected-error @+1 {{unknown embbag argument attribute 'embbag.owner'}}
func.func @unknown_argument_attribute(%t: tensor<4x2xf32> {embbag.owner = 1 : i64}) {
  return
}

// -----

shard.grid @grid(shape = 2)

func.func @owner_outside_grid(%t: tensor<4x2xf32> {embbag.table_owner = 2 : i64}, %i: tensor<2x2xi32>) -> tensor<2x2xf32> {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{table-wise sharding: embbag.table_owner = 2 is not a process of grid axis 0 of @grid (2 processes)}}
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %rs = shard.shard %r to %bags : tensor<2x2xf32>
  return %rs : tensor<2x2xf32>
}

// -----

shard.grid @grid(shape = 2)

// Every rank would get every bag: a broadcast, not table-wise sharding.
func.func @result_replicated(%t: tensor<4x2xf32> {embbag.table_owner = 1 : i64}, %i: tensor<2x2xi32>) -> tensor<2x2xf32> {
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  // expected-error @+1 {{table-wise sharding: the result must be split on its bags (dimension 0) over one grid axis}}
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %rs = shard.shard %r to %all : tensor<2x2xf32>
  return %rs : tensor<2x2xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @result_split_on_columns(%t: tensor<4x2xf32> {embbag.table_owner = 1 : i64}, %i: tensor<2x2xi32>) -> tensor<2x2xf32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  // expected-error @+1 {{table-wise sharding: operand 0 must be replicated}}
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %rs = shard.shard %r to %cols : tensor<2x2xf32>
  return %rs : tensor<2x2xf32>
}

// -----

shard.grid @grid(shape = 2)

// A placed table is not split too.
func.func @table_split(%t: tensor<4x2xf32> {embbag.table_owner = 0 : i64}, %i: tensor<2x2xi32>) -> tensor<2x2xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %ts = shard.shard %t to %rows : tensor<4x2xf32>
  // expected-error @+1 {{table-wise sharding: operand 0 must be replicated}}
  %r = embbag.packed sum %ts[%i] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @uneven_without_offsets(%t: tensor<4x2xf32> {embbag.table_owner = 0 : i64}, %i: tensor<5x2xi32>) -> tensor<5x2xf32> {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{table-wise sharding: 5 bags do not split evenly over 2 processes; give the split with sharded_dims_offsets}}
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<5x2xi32>) -> tensor<5x2xf32>
  %rs = shard.shard %r to %bags : tensor<5x2xf32>
  return %rs : tensor<5x2xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @dynamic_batch(%t: tensor<4x2xf32> {embbag.table_owner = 0 : i64}, %i: tensor<?x2xi32>) -> tensor<?x2xf32> {
  %bags = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{table-wise sharding: the result must have a static shape}}
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>
  %rs = shard.shard %r to %bags : tensor<?x2xf32>
  return %rs : tensor<?x2xf32>
}

// -----

shard.grid @grid(shape = 2x2)

func.func @bags_over_two_axes(%t: tensor<4x2xf32> {embbag.table_owner = 0 : i64}, %i: tensor<4x2xi32>) -> tensor<4x2xf32> {
  %bags = shard.sharding @grid split_axes = [[0, 1]] : !shard.sharding
  // expected-error @+1 {{table-wise sharding: the result must be split on its bags (dimension 0) over one grid axis}}
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  %rs = shard.shard %r to %bags : tensor<4x2xf32>
  return %rs : tensor<4x2xf32>
}
