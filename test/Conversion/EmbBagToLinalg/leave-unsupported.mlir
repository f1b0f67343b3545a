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
