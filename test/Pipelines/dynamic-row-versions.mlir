// A table whose row length is known only at run time: --embbag-to-llvm
// builds one version of the bag loop per vector count, each an internal,
// noinline function, shared by the module's ops of one kind and called
// from a dispatcher's switch (docs/DynamicShapes.md). Each version's hot
// loop then keeps the table, the index list, the row stride and the
// prefetch distance in registers: no reload from the stack between the
// index load and the loop's back edge.

// REQUIRES: x86-registered-target
// RUN: embbag-opt %s --embbag-to-llvm="target=avx512" | mlir-translate --mlir-to-llvmir \
// RUN:   | FileCheck %s --check-prefix=LLVMIR
// RUN: embbag-opt %s --embbag-to-llvm="target=avx512" | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O3 -mtriple=x86_64-unknown-linux-gnu -mcpu=znver4 | FileCheck %s --check-prefix=ASM
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2" | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O3 -mtriple=x86_64-unknown-linux-gnu -mcpu=znver3 | FileCheck %s --check-prefix=AVX2

// The kernel calls its kind's dispatcher; versions 1 to 16 (whole zmm
// vectors, the last one masked; longer rows in blocks of 16), each called
// from the dispatcher's switch.
// LLVMIR-LABEL: define void @dyn(
// LLVMIR: call void @__embbag_rows_sum_f32__dispatch(
// LLVMIR-LABEL: define internal void @__embbag_rows_sum_f32__row_version_1(
// LLVMIR-SAME: #[[NOINLINE:[0-9]+]]
// LLVMIR-LABEL: define internal void @__embbag_rows_sum_f32__row_version_16(
// LLVMIR-LABEL: define internal void @__embbag_rows_sum_f32__dispatch(
// LLVMIR: switch i{{32|64}}
// LLVMIR-DAG: call void @__embbag_rows_sum_f32__row_version_1(
// LLVMIR-DAG: call void @__embbag_rows_sum_f32__row_version_4(
// LLVMIR-DAG: call void @__embbag_rows_sum_f32__row_version_16(
// LLVMIR: attributes #[[NOINLINE]] = { noinline }

// The version for rows of 49 to 64 floats: four accumulators, the last
// vector masked, no stack access inside the loop over a bag's indices, in
// each of its three loops (in LLVM's block order): rows prefetched into L1
// (a table the last-level cache holds), none prefetched (a table the L2
// holds), rows prefetched into L2 (a larger table); the table's size picks
// one at run time. The version reads a view of the table from its block's
// first column on, so that every load is a row's start plus a constant.
// ASM-LABEL: {{^}}__embbag_rows_sum_f32__row_version_4:
// ASM: Inner Loop Header: Depth=2
// ASM-NOT: (%rsp)
// ASM-COUNT-4: prefetcht0 {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}},4)
// ASM-NOT: prefetcht1
// ASM-NOT: (%rsp)
// ASM-COUNT-3: vaddps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}},4), %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// ASM-NOT: (%rsp)
// ASM: Inner Loop Header: Depth=2
// ASM-NOT: (%rsp)
// ASM-NOT: prefetch
// ASM-COUNT-3: vaddps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}},4), %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// ASM-NOT: (%rsp)
// ASM: Inner Loop Header: Depth=2
// ASM-NOT: (%rsp)
// ASM-COUNT-4: prefetcht1 {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}},4)
// ASM-NOT: prefetcht0
// ASM-NOT: (%rsp)
// ASM-COUNT-3: vaddps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}},4), %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// ASM-NOT: (%rsp)
// ASM: {{jl|jne|jb|jg|jmp}} .LBB
// ASM-LABEL: {{^}}__embbag_rows_sum_f32__row_version_5:
// Regression test: with AVX2's 16 registers, the version for rows of eight
// whole ymm vectors (key 16) kept each vector's column (the block's first
// column plus a constant) in a register, spilled them, and reloaded eight
// from the stack per index. It reads a view of its block instead: the
// eight loads are one row's start plus 0 to 224 bytes (the last first),
// nothing from the stack.
// AVX2-LABEL: {{^}}__embbag_rows_sum_f32__row_version_16:
// AVX2: Inner Loop Header: Depth=2
// AVX2-NOT: (%rsp)
// AVX2: vaddps 224(%[[T:[a-z0-9]+]],%[[R:[a-z0-9]+]],4), %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// AVX2-NEXT: vaddps (%[[T]],%[[R]],4)
// AVX2-NEXT: vaddps 32(%[[T]],%[[R]],4)
// AVX2-NEXT: vaddps 64(%[[T]],%[[R]],4)
// AVX2-NEXT: vaddps 96(%[[T]],%[[R]],4)
// AVX2-NEXT: vaddps 128(%[[T]],%[[R]],4)
// AVX2-NEXT: vaddps 160(%[[T]],%[[R]],4)
// AVX2-NEXT: vaddps 192(%[[T]],%[[R]],4)
// AVX2-NOT: (%rsp)
// AVX2: {{jl|jne|jb|jg|jmp}} .LBB
func.func @dyn(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>,
               %out: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  %r = embbag.offsets sum %t[%i] offsets(%o)
      : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
