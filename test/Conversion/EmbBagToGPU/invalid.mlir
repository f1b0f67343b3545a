// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu -verify-diagnostics
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="leave-unsupported=1" | FileCheck %s --check-prefix=LEAVE

// What the GPU lowering does not take yet is reported at the op, and
// nothing is rewritten; with leave-unsupported the ops stay for another
// lowering (embbag-to-llvm{path=gpu-loops} lowers them with loops).

func.func @integers(%t: tensor<5x4xi32>, %i: tensor<3x2xi64>, %out: memref<3x4xi32>) {
  // expected-error @+1 {{'embbag.packed' op cannot be lowered to the GPU: only f32, f16 and bf16 tables are supported on the GPU}}
  %r = embbag.packed sum %t[%i] : (tensor<5x4xi32>, tensor<3x2xi64>) -> tensor<3x4xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<3x4xi32>, memref<3x4xi32>) -> ()
  return
}
// LEAVE-LABEL: func @integers
// LEAVE: embbag.packed

// -----

// Host code allocates no device memory yet: a result must go into a
// caller's buffer.
func.func @new_buffer(%t: tensor<5x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'embbag.packed' op cannot be lowered to the GPU: its result must go into a destination buffer}}
  %r = embbag.packed sum %t[%i] : (tensor<5x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
// LEAVE-LABEL: func @new_buffer
// LEAVE: embbag.packed

// -----

func.func @training(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>) -> tensor<5x2xf32> {
  // expected-error @+1 {{'embbag.offsets_grad' op cannot be lowered to the GPU: its results must go into destination buffers}}
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
      : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}
