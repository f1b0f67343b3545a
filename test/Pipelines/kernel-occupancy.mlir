// RUN: embbag-opt %s --pass-pipeline="builtin.module(gpu.module(embbag-set-kernel-occupancy))" | FileCheck %s
// RUN: embbag-opt %s --pass-pipeline="builtin.module(gpu.module(embbag-set-kernel-occupancy{min-blocks=2}))" | FileCheck %s --check-prefix=TWO
// RUN: embbag-opt %s --pass-pipeline="builtin.module(gpu.module(embbag-set-kernel-occupancy{min-blocks=0}))" | FileCheck %s --check-prefix=NONE

// embbag-set-kernel-occupancy asks for min-blocks resident blocks per SM
// (nvvm.minctasm) on the kernels that do not ask for a number themselves;
// functions that are not kernels, and min-blocks=0, are left alone.

// CHECK-LABEL: gpu.func @bag_kernel
// CHECK-SAME:    nvvm.minctasm = 4 : i32
// CHECK-LABEL: gpu.func @own_bound
// CHECK-SAME:    nvvm.minctasm = 1 : i32
// CHECK-LABEL: gpu.func @helper
// CHECK-NOT:     nvvm.minctasm
// TWO:         gpu.func @bag_kernel{{.*}}nvvm.minctasm = 2 : i32
// NONE-NOT:    nvvm.minctasm = 4
// NONE:        nvvm.minctasm = 1 : i32
// NONE-NOT:    nvvm.minctasm
gpu.module @kernels {
  gpu.func @bag_kernel(%m: memref<4xf32>) kernel {
    gpu.return
  }
  gpu.func @own_bound(%m: memref<4xf32>) kernel attributes {nvvm.minctasm = 1 : i32} {
    gpu.return
  }
  gpu.func @helper(%x: f32) -> f32 {
    gpu.return %x : f32
  }
}
