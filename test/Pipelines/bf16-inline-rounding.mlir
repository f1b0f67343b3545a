// bf16 tables accumulate in f32 and round to bf16 once per stored vector.
// Without AVX512-BF16, LLVM would round with one __truncsfbf2 call per
// element; --embbag-to-llvm expands the rounding into integer vector ops
// (arith-expand include-bf16), so the kernel calls nothing but the checks'
// write/abort and the result's malloc.

// REQUIRES: x86-registered-target
// RUN: embbag-opt %s --embbag-to-llvm | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O3 -mtriple=x86_64-unknown-linux-gnu -mcpu=znver3 | FileCheck %s

// CHECK-LABEL: offsets_bf16:
// CHECK-NOT:     call{{.*}}__truncsfbf2
// CHECK-NOT:     call{{.*}}trunc
// CHECK:         vpsrld $16
// CHECK:         .Lfunc_end
func.func @offsets_bf16(%t: tensor<1000x100xbf16>, %i: tensor<?xi32>, %o: tensor<?xi32>, %w: tensor<?xbf16>) -> tensor<?x100xbf16> {
  %r = embbag.offsets sum %t[%i] offsets(%o) weights(%w) : (tensor<1000x100xbf16>, tensor<?xi32>, tensor<?xi32>, tensor<?xbf16>) -> tensor<?x100xbf16>
  return %r : tensor<?x100xbf16>
}
