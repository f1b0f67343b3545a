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
// LEAVE-LABEL: func @training
// LEAVE: embbag.offsets_grad

// -----

// A sparse gradient's rows and gradient rows are new device memory that
// the caller owns: the function must return them, and nothing else may use
// them (here another op reads them), since the lowering frees no device
// memory.
func.func @sparse_grad_not_returned(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>) -> (tensor<?xi64>, tensor<?x2xf32>) {
  // expected-error @+1 {{'embbag.offsets_grad' op cannot be lowered to the GPU: a sparse gradient's rows and gradient rows are new device buffers that the caller owns (embbagCudaAlloc): the function must return them, and nothing else may use them, since the lowering frees no device memory}}
  %rows, %drows = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> (tensor<?xi64>, tensor<?x2xf32>)
  %twice = arith.addf %drows, %drows : tensor<?x2xf32>
  return %rows, %twice : tensor<?xi64>, tensor<?x2xf32>
}
// LEAVE-LABEL: func @sparse_grad_not_returned
// LEAVE: embbag.offsets_grad

// -----

func.func @f64_update(%lr: f64, %dy: tensor<3x2xf64>, %t: tensor<5x2xf64>, %i: tensor<4xi64>, %off: tensor<3xi64>, %out: memref<5x2xf64>) {
  // expected-error @+1 {{'embbag.offsets_update' op cannot be lowered to the GPU: only f32, f16 and bf16 tables are supported on the GPU}}
  %t2 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off)
      : (f64, tensor<3x2xf64>, tensor<5x2xf64>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf64>
  bufferization.materialize_in_destination %t2 in restrict writable %out : (tensor<5x2xf64>, memref<5x2xf64>) -> ()
  return
}

// -----

func.func @f64_state(%lr: f32, %s: tensor<5xf64>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>, %out: memref<5x2xf32>, %sout: memref<5xf64>) {
  // expected-error @+1 {{'embbag.offsets_update' op cannot be lowered to the GPU: only f32, f16 and bf16 row-wise Adagrad states are supported on the GPU}}
  %t2, %s2 = embbag.offsets_update sum rowwise_adagrad(%lr, %lr) state(%s) %dy, %t[%i] offsets(%off)
      : (f32, f32, tensor<5xf64>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5xf64>)
  bufferization.materialize_in_destination %t2 in restrict writable %out : (tensor<5x2xf32>, memref<5x2xf32>) -> ()
  bufferization.materialize_in_destination %s2 in restrict writable %sout : (tensor<5xf64>, memref<5xf64>) -> ()
  return
}

// -----

// An update whose state has no destination: every result needs one.
func.func @state_without_destination(%lr: f32, %s: tensor<5xf32>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>, %out: memref<5x2xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'embbag.offsets_update' op cannot be lowered to the GPU: its results must go into destination buffers}}
  %t2, %s2 = embbag.offsets_update sum rowwise_adagrad(%lr, %lr) state(%s) %dy, %t[%i] offsets(%off)
      : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5xf32>)
  bufferization.materialize_in_destination %t2 in restrict writable %out : (tensor<5x2xf32>, memref<5x2xf32>) -> ()
  return %s2 : tensor<5xf32>
}
