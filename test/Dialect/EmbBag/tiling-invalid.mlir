// RUN: embbag-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// What the TilingInterface of the ops refuses, with the upstream transform
// ops (test/Dialect/EmbBag/tiling.mlir: what they tile).

// The columns of a row-wise quantized table: each row's codes are followed
// by its scale and bias, so a part of the columns is no table of the same
// layout. Its bags tile (tiling.mlir).
func.func @rowwise_columns(%t: tensor<7x72xui8>, %i: tensor<10x3xi32>) -> tensor<10x64xf32> {
  // Upstream's tiling reports it fails too (the first with its typo).
  // expected-error @+3 {{faild to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{'embbag.packed' op cannot be tiled over the columns of a row-wise quantized table; tile its bags only (tile size 0 for dimension 1)}}
  %r = embbag.packed sum %t[%i] rowwise(i8) : (tensor<7x72xui8>, tensor<10x3xi32>) -> tensor<10x64xf32>
  return %r : tensor<10x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.packed"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
