// RUN: embbag-opt %s --embbag-to-nvvm | FileCheck %s --check-prefix=HOST
// RUN: embbag-opt %s --embbag-to-nvvm | %python %embbag_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX --implicit-check-not=.local --implicit-check-not=__nv_
// RUN: embbag-opt %s --embbag-to-nvvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

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

// HOST:     llvm.func @sgd(
// HOST:       llvm.call @embbagCudaScratch(
// HOST:       gpu.launch_func
// HOST:     llvm.func @adagrad(
// HOST:       llvm.call @embbagCudaScratch(
// HOST:       gpu.launch_func
// HOST:       gpu.launch_func
// HOST:     llvm.func private @embbagCudaScratch(%{{.*}}: i64)

// sgd: the row owners; mean's scale a reciprocal; the touched bits
// are atomics; the step one fma per element, rounded to f16.
// PTX-LABEL: // gpu.binary @sgd_kernel
// PTX:       .visible .entry sgd_kernel(
// PTX:       .maxntid 256, 1, 1
// PTX:       atom.global.and.b32
// PTX:       rcp.rn.f32
// PTX:       atom.global.or.b32
// PTX:       fma.rn.f32
// PTX:       cvt.rn.f16.f32
// Row-wise Adagrad: the winners' kernel, then the row owners' (one lane
// per row), whose step takes sqrt.rn.
// PTX-LABEL: // gpu.binary @adagrad_kernel
// PTX:       .visible .entry adagrad_kernel(
// PTX:       setp.gt.f32
// PTX-LABEL: // gpu.binary @adagrad_kernel_0
// PTX:       .visible .entry adagrad_kernel(
// PTX:       sqrt.rn.f32
// PTX:       fma.rn.f32

// The runtime's scratch function through its C interface.
// LLVM: declare void @_mlir_ciface_embbagCudaScratch(ptr, i64)
