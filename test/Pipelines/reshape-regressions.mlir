// Regressions found by the differential tester: each of these used to fail
// to compile (invalid reshape) or crash in expand-strided-metadata.
// RUN: embbag-opt %s --split-input-file --embbag-to-llvm | FileCheck %s

// Packed indices 0x?: no index at all, no collapse of 0x? into 0.
// CHECK-LABEL: llvm.func @zero_batch_dynamic_bag
func.func @zero_batch_dynamic_bag(%t: tensor<?x7xsi64>, %i: tensor<0x?xi32>) -> tensor<0x7xsi64> {
  %r = embbag.packed mean %t[%i] : (tensor<?x7xsi64>, tensor<0x?xi32>) -> tensor<0x7xsi64>
  return %r : tensor<0x7xsi64>
}

// -----

// Two dynamic row dims: tensor.reshape instead of an expand_shape group with
// several dynamic sizes.
// CHECK-LABEL: llvm.func @two_dynamic_row_dims
func.func @two_dynamic_row_dims(%t: tensor<?x2x?x?xbf16>, %i: tensor<?x?xi32>) -> tensor<?x2x?x?xbf16> {
  %r = embbag.packed mean %t[%i] : (tensor<?x2x?x?xbf16>, tensor<?x?xi32>) -> tensor<?x2x?x?xbf16>
  return %r : tensor<?x2x?x?xbf16>
}

// -----

// A constant num_segments gives a static batch; rank-1 and rank-3 tables.
// CHECK-LABEL: llvm.func @segments_static_batch
func.func @segments_static_batch(%t: tensor<6x2x3xf32>, %t1: tensor<5xf32>, %i: tensor<3xi64>, %s: tensor<3xi64>)
    -> (tensor<3x2x3xf32>, tensor<3xf32>) {
  %n = arith.constant 3 : i64
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n)
      : (tensor<6x2x3xf32>, tensor<3xi64>, tensor<3xi64>, i64) -> tensor<3x2x3xf32>
  %r1 = embbag.segments sum %t1[%i] segment_ids(%s) num_segments(%n)
      : (tensor<5xf32>, tensor<3xi64>, tensor<3xi64>, i64) -> tensor<3xf32>
  return %r, %r1 : tensor<3x2x3xf32>, tensor<3xf32>
}

// -----

// A table that is a slice of a larger tensor bufferizes to a strided
// subview. The prefetches read the table through a to_buffer with a fully
// dynamic layout, which the subview casts to: no copy of the table (with an
// identity layout, bufferization copied the whole table into a new buffer
// on every call). The only allocation left is the result's.
// CHECK-LABEL: llvm.func @sliced_table
// CHECK-NOT:     memcpy
// CHECK:         llvm.call @malloc
// CHECK-NOT:     llvm.call @malloc
// CHECK-NOT:     memcpy
// CHECK:         llvm.return
func.func @sliced_table(%big: tensor<2000x128xf32>, %i: tensor<?x4xi32>) -> tensor<?x64xf32> {
  %t = tensor.extract_slice %big[0, 0] [1000, 64] [1, 1] : tensor<2000x128xf32> to tensor<1000x64xf32>
  %r = embbag.packed sum %t[%i] : (tensor<1000x64xf32>, tensor<?x4xi32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}
