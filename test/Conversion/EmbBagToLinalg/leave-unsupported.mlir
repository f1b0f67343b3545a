// RUN: embbag-opt %s --convert-embbag-to-linalg="leave-unsupported checks=0" | FileCheck %s

// CHECK-LABEL: func.func @mixed(
// CHECK-NOT:     cf.assert
// CHECK:         linalg.generic
// CHECK:         embbag.offsets sum
func.func @mixed(%t: tensor<5x2xf32>, %p: tensor<3x2xi32>, %i: tensor<4xi32>,
                 %o: tensor<3xi32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %a = embbag.packed sum %t[%p] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %b = embbag.offsets sum %t[%i] offsets(%o)
      : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %a, %b : tensor<3x2xf32>, tensor<3x2xf32>
}

// embbag.packed with padding_idx is left for the loops path too; the one
// without is lowered.
// CHECK-LABEL: func.func @padding_idx(
// CHECK:         linalg.generic
// CHECK:         embbag.packed mean %{{.*}}[%{{.*}}] padding_idx(%{{.*}})
// CHECK-NOT:     embbag.packed
func.func @padding_idx(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %p: i32) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %a = embbag.packed mean %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %b = embbag.packed mean %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
  return %a, %b : tensor<3x2xf32>, tensor<3x2xf32>
}
