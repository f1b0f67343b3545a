// The hot loop of every op, for an f32 table with rows of 64: one pass over
// a bag's indices with the 64-float row accumulated in eight <8 x float>
// registers, the four cache lines of a row further ahead prefetched into
// L2 (prefetcht1: the table is beyond the last-level cache), the index
// list further still into L1 (prefetcht0), contiguous row loads, and no
// store inside the loop. The loop comes twice: for tables whose rows start
// on cache lines, four prefetches per row; for the others, a fifth one of
// the row's last element (at byte 252).

// REQUIRES: x86-registered-target
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2" | mlir-translate --mlir-to-llvmir \
// RUN:   | FileCheck %s --check-prefix=LLVMIR
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2" | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O3 -mtriple=x86_64-unknown-linux-gnu -mcpu=znver3 | FileCheck %s --check-prefix=ASM

// LLVMIR-NOT: masked.gather
// LLVMIR-LABEL: define void @packed(
// LLVMIR-COUNT-8: fadd <8 x float>
// LLVMIR-LABEL: define void @offsets(
// LLVMIR-COUNT-8: call <8 x float> @llvm.fmuladd.v8f32(
// LLVMIR-LABEL: define void @segments(
// LLVMIR-COUNT-8: call <8 x float> @llvm.fmuladd.v8f32(
// LLVMIR-NOT: masked.gather

// ASM-LABEL: {{^}}packed:
// ASM: Inner Loop Header: Depth=2
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: prefetcht0 (%{{[a-z0-9]+}},%{{[a-z0-9]+}},4)
// ASM-COUNT-4: prefetcht1 {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NOT: prefetcht
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM-COUNT-8: vaddps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}}), %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: prefetcht0 (%{{[a-z0-9]+}},%{{[a-z0-9]+}},4)
// ASM-COUNT-4: prefetcht1 {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NEXT: prefetcht1 252(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM-COUNT-8: vaddps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}}), %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: {{jl|jne|jb|jg}} .LBB
func.func @packed(%t: tensor<100000x64xf32>, %i: tensor<?x?xi32>,
                  %out: memref<?x64xf32>) attributes {llvm.emit_c_interface} {
  %r = embbag.packed sum %t[%i]
      : (tensor<100000x64xf32>, tensor<?x?xi32>) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}

// ASM-LABEL: {{^}}offsets:
// ASM: Inner Loop Header: Depth=2
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: prefetcht0 (%{{[a-z0-9]+}},%{{[a-z0-9]+}},4)
// ASM-COUNT-4: prefetcht1 {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NOT: prefetcht
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM-COUNT-8: vfmadd231ps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}}), %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: prefetcht0 (%{{[a-z0-9]+}},%{{[a-z0-9]+}},4)
// ASM-COUNT-4: prefetcht1 {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NEXT: prefetcht1 252(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM-COUNT-8: vfmadd231ps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}}), %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: {{jl|jne|jb|jg}} .LBB
func.func @offsets(%t: tensor<100000x64xf32>, %i: tensor<?xi32>,
                   %o: tensor<?xi32>, %w: tensor<?xf32>,
                   %out: memref<?x64xf32>) attributes {llvm.emit_c_interface} {
  %r = embbag.offsets sum %t[%i] offsets(%o) weights(%w)
      : (tensor<100000x64xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xf32>)
      -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}

// The first inner loop is the scan of the ids, filling the starts of the
// segments an id skips; the second is the kernel's loop over a bag's rows.
// ASM-LABEL: {{^}}segments:
// ASM: Inner Loop Header: Depth=2
// ASM: Inner Loop Header: Depth=2
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: prefetcht0 (%{{[a-z0-9]+}},%{{[a-z0-9]+}},4)
// ASM-COUNT-4: prefetcht1 {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NOT: prefetcht
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM-COUNT-8: vfmadd231ps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}}), %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: prefetcht0 (%{{[a-z0-9]+}},%{{[a-z0-9]+}},4)
// ASM-COUNT-4: prefetcht1 {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NEXT: prefetcht1 252(%{{[a-z0-9]+}},%{{[a-z0-9]+}})
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM-COUNT-8: vfmadd231ps {{[0-9]*}}(%{{[a-z0-9]+}},%{{[a-z0-9]+}}), %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// ASM-NOT: vmovups %ymm{{[0-9]+}}, {{.*}}(%
// ASM: {{jl|jne|jb|jg}} .LBB
func.func @segments(%t: tensor<100000x64xf32>, %i: tensor<?xi32>,
                    %s: tensor<?xi32>, %n: i32, %w: tensor<?xf32>,
                    %out: memref<?x64xf32>) attributes {llvm.emit_c_interface} {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) weights(%w)
      : (tensor<100000x64xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>)
      -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}
