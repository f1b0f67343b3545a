// RUN: embbag-opt %s --split-input-file --verify-diagnostics --convert-embbag-to-linalg | FileCheck %s

// CHECK-DAG: #[[BAGJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @packed_weighted(
// CHECK-SAME:    %[[T:.*]]: tensor<5x2xf32>, %[[I:.*]]: tensor<3x2xi32>, %[[W:.*]]: tensor<3x2xf32>
// CHECK:         cf.assert %{{.*}}, "embbag.packed at {{.*}}: index out of range [0, num_emb)"
// CHECK:         %[[ZERO:.*]] = linalg.fill
// CHECK:         linalg.generic {indexing_maps = [#[[BAGJ]], #[[BAGJ]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME:      ins(%[[I]], %[[W]] : tensor<3x2xi32>, tensor<3x2xf32>) outs(%[[ZERO]] : tensor<3x2xf32>)
// CHECK:           %[[B:.*]] = linalg.index 0
// CHECK:           %[[J:.*]] = linalg.index 1
// CHECK:           %[[C:.*]] = linalg.index 2
// CHECK:           %[[IDX:.*]] = tensor.extract %[[I]][%[[B]], %[[J]]]
// CHECK:           %[[ROW:.*]] = arith.index_cast %[[IDX]]
// CHECK:           %[[V:.*]] = tensor.extract %[[T]][%[[ROW]], %[[C]]]
// CHECK:           arith.mulf %[[V]]
// CHECK:           arith.addf
// CHECK:           linalg.yield
func.func @packed_weighted(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = embbag.packed sum %t[%i] weights(%w)
      : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

// A mean over bf16 accumulates in f32, then one elementwise generic divides
// by max(L, 1) and rounds.
// CHECK-LABEL: func.func @packed_mean_bf16(
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4xf32>)
// CHECK:           arith.extf
// CHECK:         %[[L:.*]] = arith.maxui
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<?x4xf32>) outs(%{{.*}} : tensor<?x4xbf16>)
// CHECK:           arith.divf
// CHECK:           arith.truncf {{.*}} : f32 to bf16
func.func @packed_mean_bf16(%t: tensor<?x4xbf16>, %i: tensor<?x?xi64>) -> tensor<?x4xbf16> {
  %r = embbag.packed mean %t[%i] : (tensor<?x4xbf16>, tensor<?x?xi64>) -> tensor<?x4xbf16>
  return %r : tensor<?x4xbf16>
}

// -----

func.func @offsets(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'embbag.offsets' op has bags of varying size, which are not a linalg reduction; lower it with --convert-embbag-to-loops}}
  %r = embbag.offsets sum %t[%i] offsets(%o)
      : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

func.func @segments(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32) -> tensor<?x2xf32> {
  // expected-error @+1 {{'embbag.segments' op has bags of varying size}}
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n)
      : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// -----

// padding_idx is not lowered to linalg (the count of each bag would be a
// reduction of its own): reported, the op left as it was.
func.func @padding_idx(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %p: i32) -> tensor<3x2xf32> {
  // expected-error @+1 {{'embbag.packed' op has padding_idx, which the linalg lowering does not support; lower it with --convert-embbag-to-loops}}
  %r = embbag.packed sum %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

// Nor are row-wise quantized tables (dequantizing is no generic over the
// table's bytes).
func.func @rowwise(%t: tensor<5x12xui8>, %i: tensor<3x2xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'embbag.packed' op has a row-wise quantized table, which the linalg lowering does not support; lower it with --convert-embbag-to-loops}}
  %r = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x12xui8>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
