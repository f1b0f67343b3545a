// RUN: embbag-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// What the tiling models of the gradient ops refuse, with the upstream
// transform ops (test/Integration/EmbBag/tiling-grad.mlir: what they tile).

// Bags tiled as if they were parallel: every tile adds into the rows it
// reads, so tiling bags needs the partial-reduction transform.
func.func @bags_full_reduction(%dy: tensor<3x4xf32>, %t: tensor<5x4xf32>, %i: tensor<3x2xi64>) -> tensor<5x4xf32> {
  // expected-error @+3 {{faild to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{'embbag.packed_grad' op tiled over its bags adds each tile's gradient into the rows it reads: tile the bags with a partial reduction (transform.structured.tile_reduction_using_for), or only the columns (tile size 0 for dimension 0)}}
  %g = embbag.packed_grad sum %dy, %t[%i] : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<3x2xi64>) -> tensor<5x4xf32>
  return %g : tensor<5x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.packed_grad"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The weights gradient sums each position's row over the columns.
func.func @weighted_columns(%dy: tensor<3x4xf32>, %t: tensor<5x4xf32>, %i: tensor<6xi64>, %o: tensor<3xi64>, %w: tensor<6xf32>) -> (tensor<5x4xf32>, tensor<6xf32>) {
  // expected-error @+3 {{faild to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{'embbag.offsets_grad' op with weights cannot be tiled over its columns: the weights gradient sums over them; tile its bags only}}
  %g, %dw = embbag.offsets_grad sum %dy, %t[%i] offsets(%o) weights(%w)
      : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<6xi64>, tensor<3xi64>, tensor<6xf32>) -> (tensor<5x4xf32>, tensor<6xf32>)
  return %g, %dw : tensor<5x4xf32>, tensor<6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.offsets_grad"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The same, in a partial-reduction tiling of bags and columns.
func.func @weighted_columns_partial(%dy: tensor<3x4xf32>, %t: tensor<5x4xf32>, %i: tensor<6xi64>, %o: tensor<3xi64>, %w: tensor<6xf32>) -> (tensor<5x4xf32>, tensor<6xf32>) {
  // expected-error @+3 {{faild to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{'embbag.offsets_grad' op with weights cannot be tiled over its columns: the weights gradient sums over them; tile its bags only}}
  %g, %dw = embbag.offsets_grad sum %dy, %t[%i] offsets(%o) weights(%w)
      : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<6xi64>, tensor<3xi64>, tensor<6xf32>) -> (tensor<5x4xf32>, tensor<6xf32>)
  return %g, %dw : tensor<5x4xf32>, tensor<6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.offsets_grad"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to tile using partial reduction}}
    %f:2, %t, %m, %l = transform.structured.tile_reduction_using_for %op by tile_sizes = [2, 2]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A sparse gradient's rows would be the union of the tiles' rows.
func.func @sparse(%dy: tensor<3x4xf32>, %t: tensor<5x4xf32>, %i: tensor<3x2xi64>) -> (tensor<?xi64>, tensor<?x4xf32>) {
  // expected-error @+1 {{'embbag.packed_grad' op with `sparse` cannot be tiled: the tiles' unique rows would need a union; tile the dense gradient}}
  %r, %g = embbag.packed_grad sum %dy, %t[%i] sparse : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<3x2xi64>) -> (tensor<?xi64>, tensor<?x4xf32>)
  return %r, %g : tensor<?xi64>, tensor<?x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.packed_grad"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to tile using partial reduction}}
    %f, %t, %m, %l = transform.structured.tile_reduction_using_for %op by tile_sizes = [1, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Partial gradients kept apart per thread and merged after the loop
// (tile_reduction_using_forall) would each be table-sized: the bags are
// tiled by a loop that accumulates, tile_reduction_using_for.
func.func @forall_partials(%dy: tensor<4x4xf32>, %t: tensor<5x4xf32>, %i: tensor<4x2xi64>) -> tensor<5x4xf32> {
  // expected-error @+3 {{faild to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{'embbag.packed_grad' op is tiled over its bags by a loop over the bags (tile_reduction_using_for), not over parallel partials}}
  %g = embbag.packed_grad sum %dy, %t[%i] : (tensor<4x4xf32>, tensor<5x4xf32>, tensor<4x2xi64>) -> tensor<5x4xf32>
  return %g : tensor<5x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.packed_grad"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{could not tile reduction}}
    %f, %t, %m, %l = transform.structured.tile_reduction_using_forall %op by num_threads = [2, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
