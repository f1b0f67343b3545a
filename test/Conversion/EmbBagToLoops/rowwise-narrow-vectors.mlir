// RUN: embbag-opt %s --verify-diagnostics --convert-embbag-to-loops="vector-bits=64"

// A vector of 2-bit codes must start on a byte: 2 lanes (vector-bits=64 of
// f32) would not.
func.func @narrow(%t: tensor<10x8xui8>, %i: tensor<3x2xi32>) -> tensor<3x16xf32> {
  // expected-error @+2 {{rowwise(i2) needs vectors of 4 lanes or more, but got 2; raise vector-bits}}
  // expected-error @+1 {{could not be lowered to loops}}
  %r = embbag.packed sum %t[%i] rowwise(i2) : (tensor<10x8xui8>, tensor<3x2xi32>) -> tensor<3x16xf32>
  return %r : tensor<3x16xf32>
}
