// REQUIRES: embbag-plugin
//
// The plugin's verifiers and passes report through mlir-opt's diagnostics,
// with locations: an op that breaks its contract, and a constant index
// outside the table found by embbag-verify-constants.
//
// RUN: mlir-opt %s --load-dialect-plugin=%embbag_plugin --load-pass-plugin=%embbag_plugin \
// RUN:   --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(embbag-verify-constants)"

func.func @mean_with_weights(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{weights}}
  %0 = embbag.packed mean %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @index_out_of_range(%t: tensor<5x2xf32>) -> tensor<1x2xf32> {
  %i = arith.constant dense<[[0, 5]]> : tensor<1x2xi32>
  // expected-error @+1 {{out of range}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<1x2xi32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
