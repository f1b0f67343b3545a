// RUN: embbag-opt %s --split-input-file --verify-diagnostics --embbag-shard-functions

// Issue 20: reshards that MLIR 22.1's shard-partition has no pattern for
// left a null value behind and crashed further on. The embbag ops take
// their operands resharded from replicated values (shard-reshard.mlir);
// every other such reshard, and offsets that do not split their dimension,
// are refused with a diagnostic.

shard.grid @grid(shape = 2)

// An uneven bag split gathered back to a replicated result.
func.func @bags_uneven_to_replicated(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %bags = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 2, 3] : !shard.sharding
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  // expected-note @+1 {{previous annotation}}
  %r1 = shard.shard %r to %bags : tensor<3x4xf32>
  // expected-error @+1 {{embbag-shard-to-llvm: cannot reshard this value from its previous annotation}}
  %r2 = shard.shard %r1 to %rep : tensor<3x4xf32>
  return %r2 : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// A table split unevenly, then annotated replicated for the op.
func.func @rows_uneven_to_replicated(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  // expected-note @+1 {{previous annotation}}
  %t0 = shard.shard %t to %rows : tensor<5x4xf32>
  // expected-error @+1 {{cannot reshard this value}}
  %t1 = shard.shard %t0 to %rep : tensor<5x4xf32>
  %r = embbag.offsets sum %t1[%i] offsets(%o) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// A replicated value resharded unevenly for a user that is no embbag op.
func.func @replicated_to_uneven_returned(%t: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  // expected-note @+1 {{previous annotation}}
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  // expected-error @+1 {{cannot reshard this value}}
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  return %t1 : tensor<5x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Halos are not taught to the embbag ops' reshard.
func.func @replicated_to_halo(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  // expected-note @+1 {{previous annotation}}
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  // expected-error @+1 {{cannot reshard this value}}
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  %r = embbag.offsets sum %t1[%i] offsets(%o) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Offsets past the table: the slice would read out of bounds.
func.func @offsets_past_the_table(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 6] : !shard.sharding
  %t0 = shard.shard %t to %rep : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %rows : tensor<5x4xf32>
  // expected-error @+1 {{'embbag.offsets' op sharding: sharded_dims_offsets [0, 3, 6] do not split dimension 0 (size 5) in 2 shards}}
  %r = embbag.offsets sum %t1[%i] offsets(%o) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// One offset per process too many, on the argument itself.
func.func @offsets_count(%t: tensor<5x4xf32>, %i: tensor<3x2xi32>) -> tensor<3x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 5] : !shard.sharding
  %t1 = shard.shard %t to %rows : tensor<5x4xf32>
  // expected-error @+1 {{'embbag.packed' op sharding: sharded_dims_offsets [0, 1, 3, 5] do not split dimension 0 (size 5) in 2 shards}}
  %r = embbag.packed sum %t1[%i] : (tensor<5x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
