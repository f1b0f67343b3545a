// RUN: not embbag-aot %s -o %t.so --checks=status 2>&1 | FileCheck %s
// RUN: not embbag-aot %S/Inputs/kernels.mlir -o %t.so --pipeline-options="vector-bits=x" 2>&1 | FileCheck %s --check-prefix=OPTIONS
// RUN: not embbag-aot %S/Inputs/kernels.mlir -o %t.so --pipeline-options="prefetch-locality=5" 2>&1 | FileCheck %s --check-prefix=VALUE

// Status mode needs results in out-arguments: the diagnostic points at the
// function.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: status mode: @returns_tensor returns values
func.func @returns_tensor(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// OPTIONS: embbag-aot: bad --pipeline-options 'vector-bits=x'
// VALUE: embbag-aot: bad --pipeline-options 'prefetch-locality=5': prefetch-locality must be -1 (from the table's size), 0, 1, 2 or 3, not 5
