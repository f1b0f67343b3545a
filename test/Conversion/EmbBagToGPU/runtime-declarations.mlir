// RUN: not embbag-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(convert-embbag-to-gpu))" 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not embbag-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(convert-embbag-to-gpu{checks=0}))" 2>&1 | FileCheck %s --check-prefix=SCRATCH
// RUN: embbag-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(convert-embbag-to-gpu{host-loops=1}))" | FileCheck %s --check-prefix=HOST

// The runtime functions the kernels call are declared in the module, so
// a pass on a function cannot lower what needs them: checked kernels (the
// status word) and the training kernels that need scratch memory. With
// host loops neither is needed.

func.func @checked(%t: tensor<5x4xf32>, %i: tensor<3x2xi64>, %out: memref<3x4xf32>) {
  %r = embbag.packed sum %t[%i] : (tensor<5x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<3x4xf32>, memref<3x4xf32>) -> ()
  return
}
// NESTED: error: convert-embbag-to-gpu must run on a module here: it declares the runtime function embbagCudaStatusWord there
// HOST-LABEL: func.func @checked
// HOST: scf.parallel

// -----

func.func @sgd(%lr: f32, %dy: tensor<3x4xf32>, %t: tensor<5x4xf32>, %i: tensor<3x2xi64>, %out: memref<5x4xf32>) {
  %t2 = embbag.packed_update sum sgd(%lr) %dy, %t[%i]
      : (f32, tensor<3x4xf32>, tensor<5x4xf32>, tensor<3x2xi64>) -> tensor<5x4xf32>
  bufferization.materialize_in_destination %t2 in restrict writable %out : (tensor<5x4xf32>, memref<5x4xf32>) -> ()
  return
}
// SCRATCH: error: convert-embbag-to-gpu must run on a module here: it declares the runtime function embbagCudaScratch there
// HOST-LABEL: func.func @sgd
// HOST: memref.alloc
// HOST: scf.parallel
