// RUN: embbag-opt %s --pass-pipeline='builtin.module(convert-embbag-to-gpu,canonicalize,cse,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,gpu-launch-sink-index-computations,gpu-kernel-outlining,rocdl-attach-target{chip=gfx90a},gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl,canonicalize,cse,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | %python %embbag_src_root/utils/extract-ptx.py | FileCheck %s

// The GPU kernels of convert-embbag-to-gpu through upstream's ROCDL path to
// AMDGPU assembly (gfx90a), with Debian's LLVM alone. COMPILE-ONLY: no AMD
// GPU was available to run them, and embbag has no ROCm runtime (the host
// code keeps its gpu.launch_func ops); docs/GPU.md, "AMD GPUs". The
// kernels keep their 16-byte row loads and stores (8-byte words for 8-bit
// codes), the checks' flag word becomes compare-and-swap loops, and no
// kernel needs scratch memory (no spills).

// CHECK-LABEL: // gpu.binary @bag_f32_kernel
// CHECK:       .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
// CHECK:       global_load_dwordx4
// CHECK:       global_atomic_cmpswap
// CHECK:       global_store_dwordx4
// CHECK:       .private_segment_fixed_size: 0
func.func @bag_f32(%t: tensor<?x?xf32>, %i: tensor<?x?xi32>, %out: memref<?x?xf32>) {
  %r = embbag.packed sum %t[%i] : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

// CHECK-LABEL: // gpu.binary @bag_f16_kernel
// CHECK:       global_load_dwordx4
// CHECK:       v_cvt_f32_f16
// CHECK:       .private_segment_fixed_size: 0
func.func @bag_f16(%t: tensor<?x128xf16>, %i: tensor<?xi64>, %o: tensor<?xi64>, %out: memref<?x128xf16>) {
  %r = embbag.offsets mean %t[%i] offsets(%o) : (tensor<?x128xf16>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x128xf16>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x128xf16>, memref<?x128xf16>) -> ()
  return
}

// CHECK-LABEL: // gpu.binary @bag_q8_kernel
// CHECK:       global_load_dwordx2
// CHECK:       .private_segment_fixed_size: 0
func.func @bag_q8(%t: tensor<?x72xui8>, %i: tensor<?xi64>, %o: tensor<?xi64>, %out: memref<?x64xf32>) {
  %r = embbag.offsets sum %t[%i] offsets(%o) rowwise(i8) : (tensor<?x72xui8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}
