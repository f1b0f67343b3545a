// RUN: embbag-opt %s --split-input-file --convert-embbag-to-loops="target=avx2 checks=0" --canonicalize --cse | FileCheck %s

// The target model's cache sizes (docs/Target.md), given by the module's DLTI
// description of the machine, decide the prefetch of the same op on a static
// table of 1 MiB (4096 rows of 64 f32, 256 bytes each).

// The named target's caches (512 KiB of L2, 4 MiB of last level): only the
// last level holds the table, whose rows are prefetched 16 indices ahead
// into every level (locality 3). The L1 size decides nothing.
// CHECK-LABEL: func.func @last_level_holds_table(
// CHECK-DAG:     %[[AHEAD:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[TABLE:.*]] = bufferization.to_buffer %arg0 read_only
// CHECK:         arith.addi %{{.*}}, %[[AHEAD]] : index
// CHECK:         memref.prefetch %[[TABLE]][%{{.*}}, %{{.*}}], read, locality<3>, data
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 49152 : i64>>} {
  func.func @last_level_holds_table(%t: tensor<4096x64xf32>, %i: tensor<8x4xi32>) -> tensor<8x64xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4096x64xf32>, tensor<8x4xi32>) -> tensor<8x64xf32>
    return %r : tensor<8x64xf32>
  }
}

// -----

// A last level of 512 KiB does not hold the table: its rows come from DRAM,
// 16 KiB of them in flight (64 indices ahead), into L2 (locality 2).
// CHECK-LABEL: func.func @small_last_level(
// CHECK-DAG:     %[[AHEAD:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[TABLE:.*]] = bufferization.to_buffer %arg0 read_only
// CHECK:         arith.addi %{{.*}}, %[[AHEAD]] : index
// CHECK:         memref.prefetch %[[TABLE]][%{{.*}}, %{{.*}}], read, locality<2>, data
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 524288 : i64>>} {
  func.func @small_last_level(%t: tensor<4096x64xf32>, %i: tensor<8x4xi32>) -> tensor<8x64xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4096x64xf32>, tensor<8x4xi32>) -> tensor<8x64xf32>
    return %r : tensor<8x64xf32>
  }
}

// -----

// An L2 of 2 MiB holds the table: no prefetch at all.
// CHECK-LABEL: func.func @l2_holds_table(
// CHECK-NOT:     memref.prefetch
// CHECK:         return
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 2097152 : i64>>} {
  func.func @l2_holds_table(%t: tensor<4096x64xf32>, %i: tensor<8x4xi32>) -> tensor<8x64xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4096x64xf32>, tensor<8x4xi32>) -> tensor<8x64xf32>
    return %r : tensor<8x64xf32>
  }
}

// -----

// The vector width and registers: 512-bit vectors (16 f32) from
// max_vector_op_width, on an avx2 target; a device other than "CPU" is not
// read.
// CHECK-LABEL: func.func @vector_width(
// CHECK:         vector.transfer_read {{.*}} : tensor<4096x64xf32>, vector<16xf32>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"max_vector_op_width" = 512 : i64,
                                      "vector_register_count" = 32 : i64,
                                      "has_mask_registers" = true>,
    "GPU" = #dlti.target_device_spec<"max_vector_op_width" = 64 : i64>>} {
  func.func @vector_width(%t: tensor<4096x64xf32>, %i: tensor<8x4xi32>) -> tensor<8x64xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4096x64xf32>, tensor<8x4xi32>) -> tensor<8x64xf32>
    return %r : tensor<8x64xf32>
  }
}
