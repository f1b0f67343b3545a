// RUN: not embbag-opt %s --one-shot-bufferize 2>&1 | FileCheck %s
// RUN: embbag-opt %s --one-shot-bufferize="allow-unknown-ops bufferize-function-boundaries" | FileCheck %s --check-prefix=UNKNOWN

// The ops do not implement BufferizableOpInterface: the design is to lower
// them first (--convert-embbag-to-loops gives destination-style loops on
// tensors, which bufferize in place: docs/Bufferization.md and
// test/Integration/EmbBag/kernel-out-buffer.mlir). Run on them directly,
// upstream's one-shot-bufferize stops with its own diagnostic at the op.

// CHECK: :[[@LINE+5]]:8: error: op was not bufferized
// UNKNOWN: %[[R:.*]] = embbag.packed
// UNKNOWN: %[[B:.*]] = bufferization.to_buffer %[[R]]
// UNKNOWN: memref.copy %[[B]], %arg2
func.func @packed(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>, %out: memref<3x2xf32>) {
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<3x2xf32>, memref<3x2xf32>) -> ()
  return
}
