// RUN: embbag-opt %s --convert-embbag-to-linalg -verify-diagnostics
// RUN: not embbag-opt %s --convert-embbag-to-linalg 2>&1 | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | FileCheck %s --check-prefix=PIPELINE

// convert-embbag-to-linalg does not lower the training ops (issue 22 lowers
// them in convert-embbag-to-loops): on its own it stops at each of them
// with a located error and fails, rewriting nothing, the forward op beside
// them included. In the pipeline (path=linalg, leave-unsupported) the loops
// pass after it takes them.

// CHECK: training-unsupported.mlir:[[@LINE+10]]:8: error: 'embbag.offsets_grad' op is not lowered by convert-embbag-to-linalg: the training ops lower through convert-embbag-to-loops
// CHECK-NOT: error:
// CHECK: training-unsupported.mlir:[[@LINE+13]]:10: error: 'embbag.packed_update' op is not lowered by convert-embbag-to-linalg
// PIPELINE-LABEL: llvm.func @train
// PIPELINE-NOT: embbag.
func.func @train(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>,
                 %off: tensor<3xi64>, %i2: tensor<3x2xi64>, %lr: f32)
    -> (tensor<3x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>) {
  %y = embbag.packed sum %t[%i2] : (tensor<5x2xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // expected-error @+1 {{'embbag.offsets_grad' op is not lowered by convert-embbag-to-linalg: the training ops lower through convert-embbag-to-loops}}
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  scf.execute_region {
    // Nested ops are found too.
    // expected-error @+1 {{'embbag.packed_update' op is not lowered by convert-embbag-to-linalg}}
    %1 = embbag.packed_update sum sgd(%lr) %dy, %t[%i2]
           : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> tensor<5x2xf32>
    scf.yield
  }
  return %y, %0, %0 : tensor<3x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>
}
