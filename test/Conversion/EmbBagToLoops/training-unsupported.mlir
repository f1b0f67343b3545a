// RUN: embbag-opt %s --convert-embbag-to-loops -verify-diagnostics
// RUN: embbag-opt %s --embbag-to-llvm -verify-diagnostics
// RUN: embbag-opt %s --convert-embbag-to-linalg -verify-diagnostics
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" -verify-diagnostics
// RUN: not embbag-opt %s --embbag-to-llvm 2>&1 | FileCheck %s

// The training ops (issue 22) have no lowering yet: every pipeline that
// lowers the forward ops stops at each of them with a located error, and
// fails, instead of leaving them in the output. Nothing is rewritten then,
// the forward op beside them included.

// CHECK: training-unsupported.mlir:[[@LINE+8]]:8: error: 'embbag.offsets_grad' op is not lowered yet: the training ops have no lowering (issue 22)
// CHECK-NOT: error:
// CHECK: training-unsupported.mlir:[[@LINE+11]]:10: error: 'embbag.packed_update' op is not lowered yet: the training ops have no lowering (issue 22)
func.func @train(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>,
                 %off: tensor<3xi64>, %i2: tensor<3x2xi64>, %lr: f32)
    -> (tensor<3x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>) {
  %y = embbag.packed sum %t[%i2] : (tensor<5x2xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // expected-error @+1 {{'embbag.offsets_grad' op is not lowered yet: the training ops have no lowering (issue 22)}}
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  scf.execute_region {
    // Nested ops are found too.
    // expected-error @+1 {{'embbag.packed_update' op is not lowered yet: the training ops have no lowering (issue 22)}}
    %1 = embbag.packed_update sum sgd(%lr) %dy, %t[%i2]
           : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> tensor<5x2xf32>
    scf.yield
  }
  return %y, %0, %0 : tensor<3x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>
}
