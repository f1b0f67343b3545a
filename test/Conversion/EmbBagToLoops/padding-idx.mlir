// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2" --canonicalize --cse | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 checks=0" --canonicalize --cse | FileCheck %s --check-prefix=UNCHECKED

// padding_idx in the kernel: the loop over a bag's indices compares each
// index with it and skips the row in an scf.if, the accumulators staying
// iter_args; the count of the indices taken is one more iter_arg when the
// mean, sqrtn, max or a default needs it; the sqrtn norm loop leaves the
// padding's weights out (a select). The checked lowering checks padding_idx
// once, before the kernel. Without padding_idx nothing changes (the last
// case, and every other test of the kernel).

// CHECK-LABEL: func.func @mean(
// CHECK-SAME:      %{{[^:]*}}: tensor<5x8xf32>, %[[I:[^:]*]]: tensor<?xi64>, %{{[^:]*}}: tensor<?xi64>, %[[P:[^:]*]]: i64)
// CHECK:           %[[PI:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK:           cf.assert %{{.*}}, "embbag.offsets at {{.*}}: padding_idx out of range [0, num_emb) and not -1"
// CHECK:           scf.for
// CHECK:             %[[SUMS:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[N:.*]] = %{{.*}}) -> (vector<8xf32>, index) {
// CHECK:               %[[E:.*]] = tensor.extract %[[I]][%[[J]]]
// CHECK:               %[[ROW:.*]] = arith.index_cast %[[E]] : i64 to index
// CHECK:               %[[SKIP:.*]] = arith.cmpi eq, %[[ROW]], %[[PI]] : index
// CHECK:               %[[IF:.*]]:2 = scf.if %[[SKIP]] -> (vector<8xf32>, index) {
// CHECK-NEXT:            scf.yield %[[ACC]], %[[N]] : vector<8xf32>, index
// CHECK-NEXT:          } else {
// CHECK-NEXT:            %[[V:.*]] = vector.transfer_read %{{.*}}[%[[ROW]], %{{.*}}]
// CHECK-NEXT:            %[[ADD:.*]] = arith.addf %[[ACC]], %[[V]] : vector<8xf32>
// CHECK-NEXT:            %[[INC:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK-NEXT:            scf.yield %[[ADD]], %[[INC]] : vector<8xf32>, index
// CHECK-NEXT:          }
// CHECK-NEXT:          scf.yield %[[IF]]#0, %[[IF]]#1 : vector<8xf32>, index
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[MAX:.*]] = arith.maxui %[[SUMS]]#1, %{{.*}} : index
// CHECK:             arith.divf %[[SUMS]]#0
// UNCHECKED-LABEL: func.func @mean(
// UNCHECKED-NOT:   cf.assert
// UNCHECKED:       scf.if
// UNCHECKED-LABEL: func.func @sum(
func.func @mean(%t: tensor<5x8xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %p: i64) -> tensor<?x8xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) padding_idx(%p) : (tensor<5x8xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// A weighted sum needs no count; the weight is read only for an index
// taken.
// CHECK-LABEL: func.func @sum(
// CHECK:           %[[PI:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:           scf.for
// CHECK:             scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK:               %[[SKIP:.*]] = arith.cmpi eq, %{{.*}}, %[[PI]] : index
// CHECK:               scf.if %[[SKIP]] -> (vector<8xf32>) {
// CHECK-NEXT:            scf.yield %[[ACC]] : vector<8xf32>
// CHECK-NEXT:          } else {
// CHECK-NEXT:            tensor.extract
// CHECK-NEXT:            vector.broadcast
// CHECK-NEXT:            vector.transfer_read
// CHECK-NEXT:            vector.fma
func.func @sum(%t: tensor<5x8xf32>, %i: tensor<3x4xi32>, %p: i32, %w: tensor<3x4xf32>) -> tensor<3x8xf32> {
  %r = embbag.packed sum %t[%i] padding_idx(%p) weights(%w) : (tensor<5x8xf32>, tensor<3x4xi32>, i32, tensor<3x4xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// Weighted sqrtn: the norm loop selects the old sum for padding; an empty
// bag (count 0) is not divided.
// CHECK-LABEL: func.func @sqrtn(
// CHECK:           %[[PI:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:           %[[SUMS:.*]]:2 = scf.for {{.*}} -> (vector<8xf32>, index) {
// CHECK:             scf.if
// CHECK:           %[[NORM:.*]] = scf.for %{{.*}} iter_args(%[[SQ:.*]] = %{{.*}}) -> (f32) {
// CHECK:             %[[FMA:.*]] = math.fma
// CHECK:             %[[SKIP:.*]] = arith.cmpi eq, %{{.*}}, %[[PI]] : index
// CHECK:             %[[SEL:.*]] = arith.select %[[SKIP]], %[[SQ]], %[[FMA]] : f32
// CHECK:             scf.yield %[[SEL]] : f32
// CHECK:           arith.cmpi eq, %[[SUMS]]#1, %{{.*}} : index
// CHECK:           math.sqrt %[[NORM]]
func.func @sqrtn(%t: tensor<5x8xf32>, %i: tensor<3x4xi32>, %p: i32, %w: tensor<3x4xf32>) -> tensor<3x8xf32> {
  %r = embbag.packed sqrtn %t[%i] padding_idx(%p) weights(%w) : (tensor<5x8xf32>, tensor<3x4xi32>, i32, tensor<3x4xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// max with a default: the count decides both the zeros and the default row.
// CHECK-LABEL: func.func @segments_max(
// CHECK:           %[[SUMS:.*]]:2 = scf.for {{.*}} -> (vector<8xf32>, index) {
// CHECK:             scf.if
// CHECK:           %[[EMPTY:.*]] = arith.cmpi eq, %[[SUMS]]#1, %{{.*}} : index
// CHECK:           arith.select %[[EMPTY]]
func.func @segments_max(%t: tensor<5x8xf32>, %i: tensor<?xi64>, %s: tensor<?xi64>, %d: i64, %p: i64) -> tensor<3x8xf32> {
  %r = embbag.segments max %t[%i] segment_ids(%s) num_segments(3) default(%d) padding_idx(%p) : (tensor<5x8xf32>, tensor<?xi64>, tensor<?xi64>, i64, i64) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// Without padding_idx: no compare, no branch, no count in the loop.
// CHECK-LABEL: func.func @no_padding(
// CHECK-NOT:       padding_idx
// CHECK:           scf.for {{.*}} -> (vector<8xf32>) {
// CHECK-NEXT:        tensor.extract
// CHECK-NEXT:        arith.index_cast
// CHECK-NEXT:        vector.transfer_read
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        scf.yield
func.func @no_padding(%t: tensor<5x8xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x8xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) : (tensor<5x8xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
