// The pipelines check the options they forward to convert-embbag-to-loops
// when they are parsed: a bad value stops the pipeline before any pass runs.
//
// RUN: not embbag-opt %s --embbag-to-llvm="prefetch-locality=4" --mlir-print-ir-before-all 2>&1 | FileCheck %s --check-prefix=LOCALITY
// LOCALITY-NOT: IR Dump
// LOCALITY: error: embbag-to-llvm: prefetch-locality must be -1 (from the table's size), 0, 1, 2 or 3, not 4
// LOCALITY-NOT: IR Dump
//
// RUN: not embbag-opt %s --pass-pipeline="builtin.module(embbag-to-llvm{path=linalg target=bogus})" --mlir-print-ir-before-all 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET-NOT: IR Dump
// TARGET: error: embbag-to-llvm: unknown target 'bogus' (host, avx512, avx2 or generic)
// TARGET-NOT: IR Dump
//
// RUN: not embbag-opt %s --embbag-to-llvm="batch-tables=1" --mlir-print-ir-before-all 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH-NOT: IR Dump
// BATCH: error: embbag-to-llvm: batch-tables needs parallel=1 (the batched ops share one parallel loop)
//
// RUN: not embbag-opt %s --embbag-shard-to-llvm="vector-bits=100" 2>&1 | FileCheck %s --check-prefix=SHARD
// SHARD: error: embbag-shard-to-llvm: vector-bits must be 0 (the target's) or a power of two from 64 to 2048, not 100

func.func @f(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
