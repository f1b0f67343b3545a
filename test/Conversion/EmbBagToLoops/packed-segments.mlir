// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2" --canonicalize --cse | FileCheck %s

// Packed: bag b holds indices[b * L, (b + 1) * L) of the flattened indices.
// A row shorter than a vector (3 floats) is read whole, unmasked.
// CHECK-LABEL: func.func @packed_short_row(
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x6xi32> into tensor<24xi32>
// CHECK:         cf.assert %{{.*}}, "embbag.packed at {{.*}}: index out of range [0, num_emb)"
// CHECK:         scf.for
// CHECK:           %[[S:.*]] = arith.muli
// CHECK:           %[[E:.*]] = arith.addi %[[S]]
// CHECK:           scf.for %{{.*}} = %[[S]] to %[[E]] {{.*}} -> (vector<3xf32>)
// CHECK:             vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<10x3xf32>, vector<3xf32>
// CHECK:             arith.addf
func.func @packed_short_row(%t: tensor<10x3xf32>, %i: tensor<4x6xi32>) -> tensor<4x3xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<10x3xf32>, tensor<4x6xi32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// f16 accumulates in f32 and rounds once; multi-dim rows are flattened.
// CHECK-LABEL: func.func @packed_f16_rows(
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<10x2x4xf16> into tensor<10x8xf16>
// CHECK:         scf.for {{.*}} -> (vector<8xf32>)
// CHECK:           vector.transfer_read {{.*}} : tensor<10x8xf16>, vector<8xf16>
// CHECK:           arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK:         arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK:         tensor.expand_shape {{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 2, 4] : tensor<4x8xf16> into tensor<4x2x4xf16>
func.func @packed_f16_rows(%t: tensor<10x2x4xf16>, %i: tensor<4x6xi32>) -> tensor<4x2x4xf16> {
  %r = embbag.packed sum %t[%i] : (tensor<10x2x4xf16>, tensor<4x6xi32>) -> tensor<4x2x4xf16>
  return %r : tensor<4x2x4xf16>
}

// Unsigned mean: the wrapped ui8 sum, widened unsigned, divided unsigned by
// the true count, truncated. si/ui values are viewed as signless.
// CHECK-LABEL: func.func @packed_mean_ui8(
// CHECK:         scf.for {{.*}} -> (vector<32xi8>)
// CHECK:           builtin.unrealized_conversion_cast {{.*}} : vector<32xui8> to vector<32xi8>
// CHECK:           arith.addi {{.*}} : vector<32xi8>
// CHECK:         arith.extui {{.*}} : vector<32xi8> to vector<32xi64>
// CHECK:         arith.divui {{.*}} : vector<32xi64>
// CHECK:         arith.trunci {{.*}} : vector<32xi64> to vector<32xi8>
func.func @packed_mean_ui8(%t: tensor<10x32xui8>, %i: tensor<4x6xi32>) -> tensor<4x32xui8> {
  %r = embbag.packed mean %t[%i] : (tensor<10x32xui8>, tensor<4x6xi32>) -> tensor<4x32xui8>
  return %r : tensor<4x32xui8>
}

// Segments: checks, one scan of the ids that notes whether they are sorted
// and fills each segment's start where the id grows (then the starts after
// the last id); unsorted ids take a histogram, its prefix sum and a stable
// bucketing instead. Then the bag kernel over [starts[s], starts[s + 1]).
// CHECK-LABEL: func.func @segments(
// CHECK:         cf.assert %{{.*}}, "embbag.segments at {{.*}}: num_segments must be non-negative"
// CHECK:         cf.assert %{{.*}}, "embbag.segments at {{.*}}: segment id out of range [0, num_segments)"
// CHECK:         cf.assert %{{.*}}, "embbag.segments at {{.*}}: index out of range [0, num_emb)"
// CHECK:         %[[SCAN:.*]]:3 = scf.for {{.*}} -> (tensor<?xindex>, i1, index)
// CHECK:           %[[ID:.*]] = tensor.extract
// CHECK:           %[[GROWS:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// CHECK:           scf.if %[[GROWS]] -> (tensor<?xindex>)
// CHECK:             scf.for {{.*}} -> (tensor<?xindex>)
// CHECK:           arith.cmpi sge
// CHECK:           arith.maxsi
// CHECK:         %[[FILLED:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[SCAN]]#0) -> (tensor<?xindex>)
// CHECK:         %[[SORTED:.*]]:3 = scf.if %[[SCAN]]#1 -> (tensor<?xindex>, tensor<?xi32>, tensor<?xf32>)
// CHECK:           scf.yield %[[FILLED]], %{{.*}}, %{{.*}}
// CHECK:         } else {
// CHECK:           %[[HIST:.*]] = scf.for {{.*}} -> (tensor<?xindex>)
// CHECK:           %[[PREFIX:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[HIST]]) -> (tensor<?xindex>)
// CHECK:           scf.for {{.*}} -> (tensor<?xi32>, tensor<?xindex>, tensor<?xf32>)
// CHECK:           scf.yield %[[PREFIX]],
// CHECK:         scf.for
// CHECK:           tensor.extract %[[SORTED]]#0
// CHECK:           scf.for {{.*}} -> (vector<8xf32>)
// CHECK:             tensor.extract %[[SORTED]]#1
// CHECK:             tensor.extract %[[SORTED]]#2
// CHECK:             vector.fma
func.func @segments(%t: tensor<10x8xf32>, %i: tensor<?xi32>, %s: tensor<?xi32>,
                    %n: i32, %w: tensor<?xf32>) -> tensor<?x8xf32> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) weights(%w)
      : (tensor<10x8xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
