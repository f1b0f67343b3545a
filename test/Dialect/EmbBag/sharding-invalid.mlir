// RUN: embbag-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(shard-partition))'

shard.grid @grid(shape = 2)

// The indices of embbag.offsets cannot be split: bags would cross ranks.
func.func @split_offsets_indices(%t: tensor<4x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t0 = shard.shard %t to %r0 : tensor<4x4xf32>
  %t1 = shard.shard %t0 to %r0 annotate_for_users : tensor<4x4xf32>
  %i0 = shard.shard %i to %s : tensor<6xi32>
  %i1 = shard.shard %i0 to %s annotate_for_users : tensor<6xi32>
  %o0 = shard.shard %o to %r0 : tensor<3xi32>
  %o1 = shard.shard %o0 to %r0 annotate_for_users : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op sharding: operand 1 must be replicated}}
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<4x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  %rs = shard.shard %r to %r0 : tensor<3x4xf32>
  return %rs : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Rows split: partial maxima would need a max all-reduce that tells empty
// partial bags from rows of zeros; refused.
func.func @rows_max(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %t to %s : tensor<4x4xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<4x4xf32>
  %i0 = shard.shard %i to %r0 : tensor<5xi32>
  %i1 = shard.shard %i0 to %r0 annotate_for_users : tensor<5xi32>
  %o0 = shard.shard %o to %r0 : tensor<3xi32>
  %o1 = shard.shard %o0 to %r0 annotate_for_users : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op row-wise sharding supports the 'sum' and 'mean' reductions only}}
  %r = embbag.offsets max %t1[%i1] offsets(%o1) : (tensor<4x4xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  %rs = shard.shard %r to %r0 : tensor<3x4xf32>
  return %rs : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @rows_sqrtn(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %t to %s : tensor<4x4xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<4x4xf32>
  %i0 = shard.shard %i to %r0 : tensor<5xi32>
  %i1 = shard.shard %i0 to %r0 annotate_for_users : tensor<5xi32>
  %o0 = shard.shard %o to %r0 : tensor<3xi32>
  %o1 = shard.shard %o0 to %r0 annotate_for_users : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op row-wise sharding supports the 'sum' and 'mean' reductions only}}
  %r = embbag.offsets sqrtn %t1[%i1] offsets(%o1) : (tensor<4x4xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  %rs = shard.shard %r to %r0 : tensor<3x4xf32>
  return %rs : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Every split rewrites the offsets as bag starts: include_last_offset is
// refused, whichever operand is split.
func.func @last_offset_columns(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %o: tensor<3xi32>) -> tensor<2x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %t to %s : tensor<4x4xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<4x4xf32>
  %i0 = shard.shard %i to %r0 : tensor<5xi32>
  %i1 = shard.shard %i0 to %r0 annotate_for_users : tensor<5xi32>
  %o0 = shard.shard %o to %r0 : tensor<3xi32>
  %o1 = shard.shard %o0 to %r0 annotate_for_users : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op sharding does not support include_last_offset}}
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) include_last_offset : (tensor<4x4xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<2x4xf32>
  %rs = shard.shard %r to %s : tensor<2x4xf32>
  return %rs : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// padding_idx is refused by every split: a row split would have to count
// the skipped indices across ranks. Column split of embbag.packed:
func.func @padding_columns(%t: tensor<4x4xf32>, %i: tensor<3x2xi32>, %p: i32) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %t to %s : tensor<4x4xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<4x4xf32>
  %i0 = shard.shard %i to %r0 : tensor<3x2xi32>
  %i1 = shard.shard %i0 to %r0 annotate_for_users : tensor<3x2xi32>
  // expected-error @+1 {{'embbag.packed' op sharding does not support padding_idx}}
  %r = embbag.packed sum %t1[%i1] padding_idx(%p) : (tensor<4x4xf32>, tensor<3x2xi32>, i32) -> tensor<3x4xf32>
  %rs = shard.shard %r to %s : tensor<3x4xf32>
  return %rs : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Row split of embbag.segments:
func.func @padding_rows(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %sid: tensor<5xi32>, %p: i32) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %t to %s : tensor<4x4xf32>
  %t1 = shard.shard %t0 to %s annotate_for_users : tensor<4x4xf32>
  %i0 = shard.shard %i to %r0 : tensor<5xi32>
  %i1 = shard.shard %i0 to %r0 annotate_for_users : tensor<5xi32>
  %d0 = shard.shard %sid to %r0 : tensor<5xi32>
  %d1 = shard.shard %d0 to %r0 annotate_for_users : tensor<5xi32>
  // expected-error @+1 {{'embbag.segments' op sharding does not support padding_idx}}
  %r = embbag.segments mean %t1[%i1] segment_ids(%d1) num_segments(3) padding_idx(%p) : (tensor<4x4xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<3x4xf32>
  %rs = shard.shard %r to %r0 : tensor<3x4xf32>
  return %rs : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Bag split of embbag.offsets:
func.func @padding_bags(%t: tensor<4x4xf32>, %i: tensor<5xi32>, %o: tensor<4xi32>, %p: i32) -> tensor<4x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %t to %r0 : tensor<4x4xf32>
  %t1 = shard.shard %t0 to %r0 annotate_for_users : tensor<4x4xf32>
  %i0 = shard.shard %i to %r0 : tensor<5xi32>
  %i1 = shard.shard %i0 to %r0 annotate_for_users : tensor<5xi32>
  %o0 = shard.shard %o to %r0 : tensor<4xi32>
  %o1 = shard.shard %o0 to %r0 annotate_for_users : tensor<4xi32>
  // expected-error @+1 {{'embbag.offsets' op sharding does not support padding_idx}}
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) padding_idx(%p) : (tensor<4x4xf32>, tensor<5xi32>, tensor<4xi32>, i32) -> tensor<4x4xf32>
  %rs = shard.shard %r to %s : tensor<4x4xf32>
  return %rs : tensor<4x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// A row-wise quantized table is refused by every split (here the bags'):
// its rows are bytes that a column split would cut through the scale.
func.func @rowwise_bags(%t: tensor<4x72xui8>, %i: tensor<5xi32>, %o: tensor<4xi32>) -> tensor<4x64xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %t to %r0 : tensor<4x72xui8>
  %t1 = shard.shard %t0 to %r0 annotate_for_users : tensor<4x72xui8>
  %i0 = shard.shard %i to %r0 : tensor<5xi32>
  %i1 = shard.shard %i0 to %r0 annotate_for_users : tensor<5xi32>
  %o0 = shard.shard %o to %r0 : tensor<4xi32>
  %o1 = shard.shard %o0 to %r0 annotate_for_users : tensor<4xi32>
  // expected-error @+1 {{'embbag.offsets' op sharding does not support row-wise quantized tables}}
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) rowwise(i8) : (tensor<4x72xui8>, tensor<5xi32>, tensor<4xi32>) -> tensor<4x64xf32>
  %rs = shard.shard %r to %s : tensor<4x64xf32>
  return %rs : tensor<4x64xf32>
}

// -----

shard.grid @grid(shape = 2)

// Issue 20: shard-partition has no pattern for a reshard from a split with
// sharded_dims_offsets (it leaves a null value); the model reshards only
// from replicated values, and refuses this one instead of crashing.
func.func @reshard_from_uneven(%t: tensor<5x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %r0 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  // expected-note @+1 {{resharded from here}}
  %t0 = shard.shard %t to %s : tensor<5x4xf32>
  %t1 = shard.shard %t0 to %r0 annotate_for_users : tensor<5x4xf32>
  %i0 = shard.shard %i to %r0 : tensor<6xi32>
  %i1 = shard.shard %i0 to %r0 annotate_for_users : tensor<6xi32>
  %o0 = shard.shard %o to %r0 : tensor<3xi32>
  %o1 = shard.shard %o0 to %r0 annotate_for_users : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op sharding: cannot reshard operand 0}}
  %r = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<5x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  %rs = shard.shard %r to %r0 : tensor<3x4xf32>
  return %rs : tensor<3x4xf32>
}
