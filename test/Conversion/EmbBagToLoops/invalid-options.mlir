// Every option is checked before anything is rewritten: a bad value is one
// error, at the op the pass runs on, naming the option and what it accepts.
//
// RUN: not embbag-opt %s --convert-embbag-to-loops="target=bogus" 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: invalid-options.mlir:[[# @LINE + 37]]:1: error: unknown target 'bogus' (host, avx512, avx2 or generic)
// TARGET-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-loops="vector-bits=384" 2>&1 | FileCheck %s --check-prefix=BITS
// BITS: error: vector-bits must be 0 (the target's) or a power of two from 64 to 2048, not 384
// BITS-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-loops="max-vectors=65" 2>&1 | FileCheck %s --check-prefix=VECTORS
// VECTORS: error: max-vectors must be at most 64, not 65
// VECTORS-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-loops="prefetch-distance=-2" 2>&1 | FileCheck %s --check-prefix=DISTANCE
// DISTANCE: error: prefetch-distance must be -1 (from the table's size), 0 (none) or a distance, not -2
// DISTANCE-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-loops="prefetch-locality=4" 2>&1 | FileCheck %s --check-prefix=LOCALITY
// LOCALITY: error: prefetch-locality must be -1 (from the table's size), 0, 1, 2 or 3, not 4
// LOCALITY-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-loops="unroll=0" 2>&1 | FileCheck %s --check-prefix=UNROLL
// UNROLL: error: unroll must be from 1 to 64, not 0
// UNROLL-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-loops="batch-tables=1" 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: batch-tables needs parallel=1 (the batched ops share one parallel loop)
// BATCH-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-loops="parallel=1 batch-tables=1 batch-chunk=0" 2>&1 | FileCheck %s --check-prefix=CHUNK
// CHUNK: error: batch-chunk must be at least 1, not 0
// CHUNK-NOT: error
//
// The bounds themselves are accepted.
// RUN: embbag-opt %s --convert-embbag-to-loops="target=generic vector-bits=2048 max-vectors=64 prefetch-distance=-1 prefetch-locality=0 unroll=64" -o /dev/null
// RUN: embbag-opt %s --convert-embbag-to-loops="vector-bits=64 prefetch-locality=3 unroll=1" -o /dev/null
// RUN: embbag-opt %s --convert-embbag-to-loops="parallel=1 batch-tables=1 batch-chunk=1" -o /dev/null

// The error is at the module, the op the pass runs on, not at the embbag op.
module {
  func.func @f(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
}
