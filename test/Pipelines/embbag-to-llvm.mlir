// --embbag-to-llvm leaves nothing but the LLVM dialect, for every op, both
// paths, checked and unchecked.

// RUN: embbag-opt %s --embbag-to-llvm | FileCheck %s --check-prefixes=CHECK,CHECKED
// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | FileCheck %s --check-prefixes=CHECK,UNCHECKED
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | FileCheck %s --check-prefixes=CHECK,CHECKED
// RUN: embbag-opt %s --embbag-to-llvm="vector-bits=512 max-vectors=4" | FileCheck %s

// Every op left is an llvm op (the module and func bodies included).
// CHECK-NOT: {{^ *(%[^ ]+ = )?(arith|scf|cf|vector|memref|tensor|func|bufferization|linalg|embbag|affine|ub|index|builtin)\.[a-z_]+}}
// CHECKED: llvm.func @abort()
// UNCHECKED-NOT: llvm.func @abort
// CHECK-NOT: {{^ *(%[^ ]+ = )?(arith|scf|cf|vector|memref|tensor|func|bufferization|linalg|embbag|affine|ub|index|builtin)\.[a-z_]+}}
// UNCHECKED-NOT: out of range

func.func @packed(%t: tensor<?x?xf16>, %i: tensor<?x?xi64>,
                  %w: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %r = embbag.packed sum %t[%i] weights(%w)
      : (tensor<?x?xf16>, tensor<?x?xi64>, tensor<?x?xf16>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

func.func @packed_mean(%t: tensor<100x3x5xui8>, %i: tensor<4x7xi32>)
    -> tensor<4x3x5xui8> {
  %r = embbag.packed mean %t[%i]
      : (tensor<100x3x5xui8>, tensor<4x7xi32>) -> tensor<4x3x5xui8>
  return %r : tensor<4x3x5xui8>
}

func.func @offsets(%t: tensor<?x100xbf16>, %i: tensor<?xi32>,
                   %o: tensor<?xi32>, %d: i32) -> tensor<?x100xbf16> {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d)
      : (tensor<?x100xbf16>, tensor<?xi32>, tensor<?xi32>, i32)
      -> tensor<?x100xbf16>
  return %r : tensor<?x100xbf16>
}

func.func @segments(%t: tensor<?xsi16>, %i: tensor<?xi64>, %s: tensor<?xi64>,
                    %n: i64, %d: i64, %w: tensor<?xsi16>) -> tensor<?xsi16> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d)
      weights(%w)
      : (tensor<?xsi16>, tensor<?xi64>, tensor<?xi64>, i64, i64, tensor<?xsi16>)
      -> tensor<?xsi16>
  return %r : tensor<?xsi16>
}
