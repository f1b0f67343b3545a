// RUN: embbag-opt %s --inline | FileCheck %s

// The dialect's inliner interface: a function holding embbag ops inlines
// into its callers (regression: without the interface --inline kept every
// call to such a function).

// CHECK-LABEL: func.func @caller(
// CHECK-NOT:       call
// CHECK:           embbag.packed sum
// CHECK:           embbag.segments mean {{.*}} num_segments(2)
// CHECK-NOT:       call
func.func private @lookup(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

func.func private @segments(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) -> tensor<2x2xf32> {
  %0 = embbag.segments mean %t[%i] segment_ids(%s) num_segments(2) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

func.func @caller(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %i1: tensor<4xi32>, %s: tensor<4xi32>) -> (tensor<3x2xf32>, tensor<2x2xf32>) {
  %0 = func.call @lookup(%t, %i) : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %1 = func.call @segments(%t, %i1, %s) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<2x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<2x2xf32>
}
