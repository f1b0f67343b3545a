// RUN: embbag-opt %s --embbag-to-nvvm | FileCheck %s --check-prefix=HOST
// RUN: embbag-opt %s --embbag-to-nvvm | %python %embbag_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX --implicit-check-not=.local --implicit-check-not=__nv_
// RUN: embbag-opt %s --embbag-to-nvvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// The sort's options go through to convert-embbag-to-gpu, which checks them.
// RUN: not embbag-opt %s --embbag-to-nvvm="training-owners=3" 2>&1 | FileCheck %s --check-prefix=OWNERS
// RUN: embbag-opt %s --embbag-to-nvvm="training-owners=2 training-chunk-positions=1 training-piece-positions=3" | FileCheck %s --check-prefix=HOST
// RUN: not embbag-opt %s --embbag-to-nvvm="training-piece-positions=0" 2>&1 | FileCheck %s --check-prefix=PIECES
// OWNERS: error: training-owners must be a power of two from 1 to 65536, not 3
// PIECES: error: training-piece-positions must be at least 1

// The training ops through the whole GPU pipeline (docs/GPU.md,
// "Training"): sgd of mean on an f16 table and row-wise Adagrad of max. The
// host asks the runtime for scratch memory; the kernels are PTX with no
// local memory and no libdevice call (the square root and the fused
// multiply-add are LLVM's intrinsics).

func.func @sgd(%lr: f32, %dy: tensor<?x64xf16>, %t: tensor<?x64xf16>, %i: tensor<?xi64>,
               %off: tensor<?xi64>, %tout: memref<?x64xf16>) {
  %t2 = embbag.offsets_update mean sgd(%lr) %dy, %t[%i] offsets(%off)
      : (f32, tensor<?x64xf16>, tensor<?x64xf16>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x64xf16>
  bufferization.materialize_in_destination %t2 in restrict writable %tout
      : (tensor<?x64xf16>, memref<?x64xf16>) -> ()
  return
}

func.func @adagrad(%lr: f32, %eps: f32, %s: tensor<?xf32>, %dy: tensor<?x64xf32>,
                   %t: tensor<?x64xf32>, %i: tensor<?xi32>, %off: tensor<?xi32>,
                   %tout: memref<?x64xf32>, %sout: memref<?xf32>) {
  %t2, %s2 = embbag.offsets_update max rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%off)
      : (f32, f32, tensor<?xf32>, tensor<?x64xf32>, tensor<?x64xf32>, tensor<?xi32>, tensor<?xi32>)
      -> (tensor<?x64xf32>, tensor<?xf32>)
  bufferization.materialize_in_destination %t2 in restrict writable %tout
      : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  bufferization.materialize_in_destination %s2 in restrict writable %sout
      : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}

// A sparse gradient of bf16: its rows and gradient rows are returned, new
// device memory from the runtime (embbagCudaAlloc), sized by the count the
// kernels leave in the count word.
func.func @sparse(%dy: tensor<?x64xbf16>, %t: tensor<?x64xbf16>, %i: tensor<?xi64>,
                  %off: tensor<?xi64>) -> (tensor<?xi64>, tensor<?x64xbf16>) {
  %rows, %values = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?xi64>, tensor<?xi64>)
      -> (tensor<?xi64>, tensor<?x64xbf16>)
  return %rows, %values : tensor<?xi64>, tensor<?x64xbf16>
}

// Each op: a host loop over the sort's passes (count, with the first
// pass's kernel or a later pass's; scan the digits' counts; place the
// digits; fill, the first pass's or a later pass's), then the rows
// zeroed, the pieces, the runs and, for an update, the step; max's winners
// come first.
// HOST:     llvm.func @sgd(
// HOST:       llvm.call @embbagCudaScratch(
// HOST:       llvm.intr.ctlz
// HOST-COUNT-10: gpu.launch_func
// HOST-NOT:   gpu.launch_func
// HOST:     llvm.func @adagrad(
// HOST:       llvm.call @embbagCudaScratch(
// HOST-COUNT-11: gpu.launch_func
// HOST-NOT:   gpu.launch_func
// HOST:     llvm.func @sparse(
// HOST:       llvm.call @embbagCudaScratch(
// HOST:       llvm.call @embbagCudaCountWord(
// The sort, the rows, pieces and runs, the count, the groups' sums, their
// ranks, the chunks' ranks; the host waits and reads the count.
// HOST-COUNT-13: gpu.launch_func
// HOST:       llvm.call @mgpuStreamSynchronize
// HOST:       llvm.call @embbagCudaAlloc(
// HOST:       llvm.call @embbagCudaAlloc(
// The list of rows and the copy of their gradient rows.
// HOST-COUNT-2: gpu.launch_func
// HOST:       llvm.return
// HOST:     llvm.func private @embbagCudaScratch(%{{.*}}: i64)

// sgd. The first pass's count kernel: mean's scale a reciprocal, the
// indices flagged (bit 32), the digit the row shifted and masked, the
// counts i64 words.
// PTX-LABEL: // gpu.binary @sgd_kernel
// PTX:       .visible .entry sgd_kernel(
// PTX:       .maxntid 256, 1, 1
// PTX:       rcp.rn.f32
// PTX:       atom.global.or.b32 {{.*}}, 32;
// PTX:       shr.u64
// PTX:       and.b64
// PTX:       st.global.b64
// A later pass's count: the rows of the slots, shifted.
// PTX-LABEL: // gpu.binary @sgd_kernel_0
// PTX:       shr.u64
// PTX:       and.b64
// PTX:       st.global.b64
// The scan of each digit's counts over the chunks: eight loads at once.
// PTX-LABEL: // gpu.binary @sgd_kernel_1
// PTX-COUNT-8: ld.global.b64
// PTX:       st.global.b64
// The one thread that places the digits: an exclusive scan.
// PTX-LABEL: // gpu.binary @sgd_kernel_2
// PTX:       ld.global.b64
// PTX:       st.global.b64
// The fill kernels: each slot's position, bag and row, whole 8-byte
// stores; the first pass's from the bags, a later pass's from the slots.
// PTX-LABEL: // gpu.binary @sgd_kernel_3
// PTX:       and.b64
// PTX:       st.global.b64
// PTX:       st.global.b64
// PTX:       st.global.b64
// PTX-LABEL: // gpu.binary @sgd_kernel_4
// PTX:       shr.u64
// PTX:       st.global.b64
// PTX:       st.global.b64
// PTX:       st.global.b64
// The rows zeroed, the touched bits cleared (atomics).
// PTX-LABEL: // gpu.binary @sgd_kernel_5
// PTX:       atom.global.and.b32
// The pieces: the f16 dy read, the touched bits set; the runs likewise.
// PTX-LABEL: // gpu.binary @sgd_kernel_6
// PTX:       ld.global.b16
// PTX:       atom.global.or.b32
// PTX-LABEL: // gpu.binary @sgd_kernel_7
// PTX:       atom.global.or.b32
// The step: one fma per element, rounded to f16.
// PTX-LABEL: // gpu.binary @sgd_kernel_8
// PTX:       fma.rn.f32
// PTX:       cvt.rn.f16.f32
// Row-wise Adagrad: the winners' kernel first, the step (one lane per
// row) last, which takes sqrt.rn.
// PTX-LABEL: // gpu.binary @adagrad_kernel
// PTX:       .visible .entry adagrad_kernel(
// PTX:       setp.gt.f32
// PTX-LABEL: // gpu.binary @adagrad_kernel_18
// PTX:       .visible .entry adagrad_kernel(
// PTX:       sqrt.rn.f32
// PTX:       fma.rn.f32

// The sparse gradient's kernels after the sort: the pieces and runs
// accumulate in f32 scratch rows and set the touched bits; the count and
// list kernels test lane 0's touched bit; the three ranking kernels load
// counts and store sums; the copy rounds to bf16.
// PTX-LABEL: // gpu.binary @sparse_kernel_25
// PTX:       atom.global.or.b32
// PTX-LABEL: // gpu.binary @sparse_kernel_26
// PTX:       atom.global.or.b32
// PTX-LABEL: // gpu.binary @sparse_kernel_27
// PTX:       and.b{{32|64}} {{.*}}, 1;
// PTX:       st.global
// PTX-LABEL: // gpu.binary @sparse_kernel_28
// PTX:       ld.global.b64
// PTX:       st.global
// PTX-LABEL: // gpu.binary @sparse_kernel_29
// PTX:       ld.global.b64
// PTX:       st.global
// PTX-LABEL: // gpu.binary @sparse_kernel_30
// PTX:       ld.global.b64
// PTX:       st.global
// PTX-LABEL: // gpu.binary @sparse_kernel_31
// PTX:       and.b{{32|64}} {{.*}}, 1;
// PTX:       st.global
// PTX-LABEL: // gpu.binary @sparse_kernel_32
// PTX:       st.global.{{u|b}}16

// The runtime's functions through their C interface.
// LLVM-DAG: declare void @_mlir_ciface_embbagCudaScratch(ptr, i64)
// LLVM-DAG: declare void @_mlir_ciface_embbagCudaAlloc(ptr, i64)
// LLVM-DAG: declare void @_mlir_ciface_embbagCudaCountWord(ptr)
