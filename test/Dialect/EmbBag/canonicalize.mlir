// RUN: embbag-opt %s -split-input-file --canonicalize | FileCheck %s

// The canonicalization patterns of the embbag ops, one case each, and the
// cases each pattern must leave alone (docs/Semantics.md).
// test/Integration/EmbBag/canonicalize-results.mlir runs the same rewrites
// and shows they leave the computed values unchanged.

//===----------------------------------------------------------------------===//
// tensor.cast producers fold into the ops; the result type is refined
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @fold_casts(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>, %[[I:.*]]: tensor<3x2xi32>)
// CHECK-NOT:       tensor.cast %[[T]]
// CHECK-NOT:       tensor.cast %[[I]]
// CHECK:           %[[R:.*]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK:           %[[C:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<?x?xf32>
// CHECK:           return %[[C]]
func.func @fold_casts(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) -> tensor<?x?xf32> {
  %tc = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>
  %ic = tensor.cast %i : tensor<3x2xi32> to tensor<?x?xi32>
  %0 = embbag.packed sum %tc[%ic] : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @fold_casts_segments(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>, %[[I:.*]]: tensor<4xi64>, %[[S:.*]]: tensor<4xi64>, %[[N:.*]]: i64, %[[W:.*]]: tensor<4xf32>)
// CHECK:           embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, tensor<4xf32>) -> tensor<?x2xf32>
func.func @fold_casts_segments(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %s: tensor<4xi64>, %n: i64, %w: tensor<4xf32>) -> tensor<?x?xf32> {
  %tc = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>
  %ic = tensor.cast %i : tensor<4xi64> to tensor<?xi64>
  %sc = tensor.cast %s : tensor<4xi64> to tensor<?xi64>
  %wc = tensor.cast %w : tensor<4xf32> to tensor<?xf32>
  %0 = embbag.segments sum %tc[%ic] segment_ids(%sc) num_segments(%n) weights(%wc) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A cast that makes sizes more static is a runtime assertion, not a fold.
// CHECK-LABEL: func.func @keep_refining_cast(
// CHECK:           %[[C:.*]] = tensor.cast %{{.*}} : tensor<?x2xf32> to tensor<5x2xf32>
// CHECK:           embbag.packed sum %[[C]]
func.func @keep_refining_cast(%t: tensor<?x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %tc = tensor.cast %t : tensor<?x2xf32> to tensor<5x2xf32>
  %0 = embbag.packed sum %tc[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Folding the cast would give 4 weights for 5 indices, which the verifier
// rejects (this op must never run, but it is valid IR): not folded.
// CHECK-LABEL: func.func @keep_cast_that_would_not_verify(
// CHECK:           %[[C:.*]] = tensor.cast %{{.*}} : tensor<4xf32> to tensor<?xf32>
// CHECK:           embbag.offsets sum {{.*}} weights(%[[C]])
func.func @keep_cast_that_would_not_verify(%t: tensor<5x2xf32>, %i: tensor<5xi32>, %o: tensor<3xi32>, %w: tensor<4xf32>) -> tensor<3x2xf32> {
  %wc = tensor.cast %w : tensor<4xf32> to tensor<?xf32>
  %0 = embbag.offsets sum %t[%i] offsets(%o) weights(%wc) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>, tensor<?xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// default: -1 is dropped, a valid constant becomes static, others stay
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @default_forms(
// CHECK-NOT:       arith.constant -1
// CHECK-NOT:       arith.constant 2
// CHECK:           %[[M2:.*]] = arith.constant -2 : i32
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<3x2xf32>
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(2) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<3x2xf32>
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(%[[M2]]) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<3x2xf32>
func.func @default_forms(%t: tensor<5x2xf32>, %i: tensor<5xi32>, %o: tensor<3xi32>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %m1 = arith.constant -1 : i32
  %d2 = arith.constant 2 : i32
  %m2 = arith.constant -2 : i32
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(%m1) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %1 = embbag.offsets sum %t[%i] offsets(%o) default(%d2) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %2 = embbag.offsets sum %t[%i] offsets(%o) default(%m2) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %3 = embbag.offsets sum %t[%i] offsets(%o) default(-1) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0, %1, %2, %3 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// An arith.select on a known condition folds into default(-2) inside a
// branch that never runs: the IR stays valid (regression: the verifier used
// to read the constant and reject it) and the constant is not folded into
// the static form.
// CHECK-LABEL: func.func @select_into_invalid_default(
// CHECK:           scf.if
// CHECK:             embbag.offsets sum {{.*}} default(%{{.*}}) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>, i32)
func.func @select_into_invalid_default(%t: tensor<5x2xf32>, %i: tensor<5xi32>, %o: tensor<3xi32>, %run: i1) -> tensor<3x2xf32> {
  %true = arith.constant true
  %m2 = arith.constant -2 : i32
  %c0 = arith.constant 0 : i32
  %d = arith.select %true, %m2, %c0 : i32
  %r = scf.if %run -> tensor<3x2xf32> {
    %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
    scf.yield %0 : tensor<3x2xf32>
  } else {
    %e = tensor.empty() : tensor<3x2xf32>
    scf.yield %e : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// num_segments: a valid constant becomes static, the batch static
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @static_num_segments(
// CHECK:           %[[R:.*]] = embbag.segments sum %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(3) default(0) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<3x2xf32>
// CHECK:           %[[C:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<?x2xf32>
// CHECK:           return %[[C]]
func.func @static_num_segments(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) -> tensor<?x2xf32> {
  %n = arith.constant 3 : i32
  %d = arith.constant 0 : i32
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// Negative, or disagreeing with the static batch: left for
// --embbag-verify-constants and the runtime check.
// CHECK-LABEL: func.func @keep_invalid_num_segments(
// CHECK:           embbag.segments sum {{.*}} num_segments(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf32>
// CHECK:           embbag.segments sum {{.*}} num_segments(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<2x2xf32>
func.func @keep_invalid_num_segments(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) -> (tensor<?x2xf32>, tensor<2x2xf32>) {
  %m1 = arith.constant -1 : i32
  %n3 = arith.constant 3 : i32
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%m1) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf32>
  %1 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n3) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<2x2xf32>
  return %0, %1 : tensor<?x2xf32>, tensor<2x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Weights of ones in a sum are dropped
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @ones_weights(
// CHECK:           embbag.packed sum %{{.*}}[%{{.*}}] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK:           embbag.segments sum %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(%{{.*}}) : (tensor<5x2xi16>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xi16>
// CHECK:           embbag.packed sum %{{.*}}[%{{.*}}] weights(%{{.*}}) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
func.func @ones_weights(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %ti: tensor<5x2xi16>, %i1: tensor<4xi32>, %s: tensor<4xi32>, %n: i32) -> (tensor<3x2xf32>, tensor<?x2xi16>, tensor<3x2xf32>) {
  %w = arith.constant dense<1.0> : tensor<3x2xf32>
  %wi = arith.constant dense<1> : tensor<4xi16>
  %w2 = arith.constant dense<[[1.0, 1.0], [1.0, 2.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %0 = embbag.packed sum %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = embbag.segments sum %ti[%i1] segment_ids(%s) num_segments(%n) weights(%wi) : (tensor<5x2xi16>, tensor<4xi32>, tensor<4xi32>, i32, tensor<4xi16>) -> tensor<?x2xi16>
  %2 = embbag.packed sum %t[%i] weights(%w2) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<?x2xi16>, tensor<3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Offsets cutting the indices into bags of one size: embbag.packed
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @uniform_offsets(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>, %[[I:.*]]: tensor<6xi32>)
// CHECK:           %[[E:.*]] = tensor.expand_shape %[[I]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xi32> into tensor<3x2xi32>
// CHECK:           embbag.packed mean %[[T]][%[[E]]] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK-NOT:       embbag.offsets
func.func @uniform_offsets(%t: tensor<5x2xf32>, %i: tensor<6xi32>) -> tensor<3x2xf32> {
  %o = arith.constant dense<[0, 2, 4]> : tensor<3xi32>
  %0 = embbag.offsets mean %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// max of uniform bags: no bag is empty, so packed computes the same rows.
// CHECK-LABEL: func.func @uniform_offsets_max(
// CHECK:           embbag.packed max %{{.*}}[%{{.*}}] : (tensor<5x2xi8>, tensor<3x2xi32>) -> tensor<3x2xi8>
// CHECK-NOT:       embbag.offsets
func.func @uniform_offsets_max(%t: tensor<5x2xi8>, %i: tensor<6xi32>) -> tensor<3x2xi8> {
  %o = arith.constant dense<[0, 2, 4]> : tensor<3xi32>
  %0 = embbag.offsets max %t[%i] offsets(%o) : (tensor<5x2xi8>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// -----

// include_last_offset: uniform offsets [0, 2, 4] are two bags, not three
// running to the end; the pattern leaves them alone.
// CHECK-LABEL: func.func @keep_uniform_last_offset(
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<2x2xf32>
// CHECK-NOT:       embbag.packed
func.func @keep_uniform_last_offset(%t: tensor<5x2xf32>, %i: tensor<6xi32>) -> tensor<2x2xf32> {
  %o = arith.constant dense<[0, 2, 4]> : tensor<3xi32>
  %0 = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// One offset and include_last_offset: zero bags, but the offset is still
// checked at run time, so the op stays.
// CHECK-LABEL: func.func @keep_zero_bags_last_offset(
// CHECK:           embbag.offsets sum
func.func @keep_zero_bags_last_offset(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %o: tensor<1xi32>) -> tensor<0x2xf32> {
  %0 = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<5x2xf32>, tensor<6xi32>, tensor<1xi32>) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

// -----

// All-ones weights are dropped from sums only: sqrtn divides by the norm of
// the weights and keeps them.
// CHECK-LABEL: func.func @keep_ones_weights_sqrtn(
// CHECK:           embbag.packed sqrtn %{{.*}}[%{{.*}}] weights(%{{.*}})
func.func @keep_ones_weights_sqrtn(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<1.0> : tensor<3x2xf32>
  %0 = embbag.packed sqrtn %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Indices before offsets[0] are not read: they are sliced off. A static
// default inside the table is never used (no bag is empty) and dropped.
// CHECK-LABEL: func.func @uniform_offsets_start(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>, %[[I:.*]]: tensor<7xi64>, %[[W:.*]]: tensor<7xf32>)
// CHECK:           %[[IS:.*]] = tensor.extract_slice %[[I]][1] [6] [1] : tensor<7xi64> to tensor<6xi64>
// CHECK:           %[[IE:.*]] = tensor.expand_shape %[[IS]] {{\[\[}}0, 1]] output_shape [2, 3]
// CHECK:           %[[WS:.*]] = tensor.extract_slice %[[W]][1] [6] [1] : tensor<7xf32> to tensor<6xf32>
// CHECK:           %[[WE:.*]] = tensor.expand_shape %[[WS]] {{\[\[}}0, 1]] output_shape [2, 3]
// CHECK:           embbag.packed sum %[[T]][%[[IE]]] weights(%[[WE]]) : (tensor<5x2xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x2xf32>
func.func @uniform_offsets_start(%t: tensor<5x2xf32>, %i: tensor<7xi64>, %w: tensor<7xf32>) -> tensor<2x2xf32> {
  %o = arith.constant dense<[1, 4]> : tensor<2xi64>
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(4) weights(%w) : (tensor<5x2xf32>, tensor<7xi64>, tensor<2xi64>, tensor<7xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Not uniform, an empty bag, or a default whose runtime check could fail
// (dynamic, or outside the table): stays embbag.offsets.
// CHECK-LABEL: func.func @keep_offsets(
// CHECK-COUNT-4:   embbag.offsets
// CHECK-NOT:       embbag.packed
func.func @keep_offsets(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %d: i32) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %uneven = arith.constant dense<[0, 1, 4]> : tensor<3xi32>
  %empty = arith.constant dense<[0, 3, 3]> : tensor<3xi32>
  %o = arith.constant dense<[0, 2, 4]> : tensor<3xi32>
  %0 = embbag.offsets sum %t[%i] offsets(%uneven) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %1 = embbag.offsets sum %t[%i] offsets(%empty) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %2 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %3 = embbag.offsets sum %t[%i] offsets(%o) default(5) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0, %1, %2, %3 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// No bags: an empty tensor
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @zero_bags(
// CHECK-SAME:      %[[T:.*]]: tensor<5x?xf32>
// CHECK:           %[[D:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<5x?xf32>
// CHECK:           %[[E:.*]] = tensor.empty(%[[D]]) : tensor<0x?xf32>
// CHECK:           %[[E2:.*]] = tensor.empty() : tensor<0x2xf32>
// CHECK:           %[[E3:.*]] = tensor.empty() : tensor<0x2xf32>
// CHECK-NOT:       embbag
// CHECK:           return %[[E]], %[[E2]], %[[E3]]
func.func @zero_bags(%t: tensor<5x?xf32>, %t2: tensor<5x2xf32>, %i: tensor<0x4xi32>, %i1: tensor<3xi32>, %o: tensor<0xi32>, %i0: tensor<0xi32>) -> (tensor<0x?xf32>, tensor<0x2xf32>, tensor<0x2xf32>) {
  %0 = embbag.packed sum %t[%i] : (tensor<5x?xf32>, tensor<0x4xi32>) -> tensor<0x?xf32>
  %1 = embbag.offsets mean %t2[%i1] offsets(%o) default(1) : (tensor<5x2xf32>, tensor<3xi32>, tensor<0xi32>) -> tensor<0x2xf32>
  %2 = embbag.segments sum %t2[%i0] segment_ids(%i0) num_segments(0) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>) -> tensor<0x2xf32>
  return %0, %1, %2 : tensor<0x?xf32>, tensor<0x2xf32>, tensor<0x2xf32>
}

// -----

// Zero segments with indices: every id is out of range, a runtime error the
// checked lowering must still report; a dynamic default must still be
// checked. Not folded.
// CHECK-LABEL: func.func @keep_zero_bags_with_checks(
// CHECK:           embbag.segments
// CHECK:           embbag.offsets
func.func @keep_zero_bags_with_checks(%t: tensor<5x2xf32>, %i: tensor<3xi32>, %o: tensor<0xi32>, %d: i32) -> (tensor<0x2xf32>, tensor<0x2xf32>) {
  %0 = embbag.segments sum %t[%i] segment_ids(%i) num_segments(0) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<0x2xf32>
  %1 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<3xi32>, tensor<0xi32>, i32) -> tensor<0x2xf32>
  return %0, %1 : tensor<0x2xf32>, tensor<0x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// CSE and DCE apply (no memory effects)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dead_op(
// CHECK-NOT:       embbag.packed
// CHECK:           return
func.func @dead_op(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// padding_idx: -1 is dropped, any other value is kept by every pattern
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @padding_none(
// CHECK-NOT:       padding_idx
// CHECK:           embbag.packed sum %{{.*}}[%{{.*}}] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK-NOT:       padding_idx
// CHECK:           embbag.offsets mean %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset default(1) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<2x2xf32>
// CHECK-NOT:       padding_idx
// CHECK:           embbag.segments sum %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(%{{.*}}) weights(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, tensor<4xf32>)
// CHECK-NOT:       padding_idx
// CHECK:           embbag.segments max %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64)
// CHECK-NOT:       padding_idx
func.func @padding_none(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %i1: tensor<4xi64>, %o: tensor<3xi64>, %s: tensor<4xi64>, %n: i64, %w: tensor<4xf32>) -> (tensor<3x2xf32>, tensor<2x2xf32>, tensor<?x2xf32>) {
  %none32 = arith.constant -1 : i32
  %none64 = arith.constant -1 : i64
  %0 = embbag.packed sum %t[%i] padding_idx(%none32) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
  %1 = embbag.offsets mean %t[%i1] offsets(%o) include_last_offset default(1) padding_idx(%none64) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<2x2xf32>
  %2 = embbag.segments sum %t[%i1] segment_ids(%s) num_segments(%n) padding_idx(%none64) weights(%w) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64, tensor<4xf32>) -> tensor<?x2xf32>
  %3 = embbag.segments max %t[%i1] segment_ids(%s) num_segments(%n) padding_idx(%none64) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<?x2xf32>
  %4 = arith.addf %2, %3 : tensor<?x2xf32>
  return %0, %1, %4 : tensor<3x2xf32>, tensor<2x2xf32>, tensor<?x2xf32>
}

// -----

// A constant padding_idx other than -1 stays (in the table, or breaking the
// contract: the checked lowering stops on it).
// CHECK-LABEL: func.func @padding_constants_kept(
// CHECK-DAG:       %[[P:.*]] = arith.constant 2 : i32
// CHECK-DAG:       %[[BAD:.*]] = arith.constant -2 : i32
// CHECK:           embbag.packed sum %{{.*}}[%{{.*}}] padding_idx(%[[P]])
// CHECK:           embbag.packed sum %{{.*}}[%{{.*}}] padding_idx(%[[BAD]])
func.func @padding_constants_kept(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %p = arith.constant 2 : i32
  %bad = arith.constant -2 : i32
  %0 = embbag.packed sum %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
  %1 = embbag.packed sum %t[%i] padding_idx(%bad) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// The other patterns keep padding_idx: the cast fold and the refined
// result, all-ones weights dropped from a sum, default(-1) dropped.
// CHECK-LABEL: func.func @padding_kept_by_patterns(
// CHECK-SAME:      %[[T:[^:]*]]: tensor<5x2xf32>, %[[I:[^:]*]]: tensor<4xi32>, %[[O:[^:]*]]: tensor<3xi32>, %[[P:[^:]*]]: i32)
// CHECK:           %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) padding_idx(%[[P]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
// CHECK:           tensor.cast %[[R]] : tensor<3x2xf32> to tensor<?x?xf32>
func.func @padding_kept_by_patterns(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %p: i32) -> tensor<?x?xf32> {
  %tc = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>
  %ones = arith.constant dense<1.0> : tensor<4xf32>
  %none = arith.constant -1 : i32
  %0 = embbag.offsets sum %tc[%i] offsets(%o) default(%none) padding_idx(%p) weights(%ones) : (tensor<?x?xf32>, tensor<4xi32>, tensor<3xi32>, i32, i32, tensor<4xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Offsets of one bag size become embbag.packed with the same padding_idx;
// not with a default as well: a bag of only padding would take the default
// row, which embbag.packed has not.
// CHECK-LABEL: func.func @padding_uniform_offsets(
// CHECK-SAME:      %[[T:[^:]*]]: tensor<5x2xf32>, %[[I:[^:]*]]: tensor<6xi32>, %[[P:[^:]*]]: i32)
// CHECK:           %[[E:.*]] = tensor.expand_shape %[[I]]
// CHECK:           embbag.packed mean %[[T]][%[[E]]] padding_idx(%[[P]]) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
// CHECK:           embbag.offsets mean %[[T]][%[[I]]] offsets(%{{.*}}) default(1) padding_idx(%[[P]])
func.func @padding_uniform_offsets(%t: tensor<5x2xf32>, %i: tensor<6xi32>, %p: i32) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %o = arith.constant dense<[0, 2, 4]> : tensor<3xi32>
  %0 = embbag.offsets mean %t[%i] offsets(%o) padding_idx(%p) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %1 = embbag.offsets mean %t[%i] offsets(%o) default(1) padding_idx(%p) : (tensor<5x2xf32>, tensor<6xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// Zero bags: folded when the padding_idx check cannot fail (a constant in
// [-1, num_emb)), kept for a dynamic one or one past the table.
// CHECK-LABEL: func.func @padding_zero_bags(
// CHECK:           tensor.empty() : tensor<0x2xf32>
// CHECK:           embbag.packed sum {{.*}} padding_idx(%{{.*}}) : (tensor<5x2xf32>, tensor<0x4xi32>, i32)
// CHECK:           embbag.segments sum {{.*}} padding_idx(%{{.*}}) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32)
// CHECK:           embbag.packed sum {{.*}} padding_idx(%{{.*}}) : (tensor<?x2xf32>, tensor<0x4xi32>, i32)
func.func @padding_zero_bags(%t: tensor<5x2xf32>, %td: tensor<?x2xf32>, %i: tensor<0x4xi32>, %i0: tensor<0xi32>, %p: i32) -> (tensor<0x2xf32>, tensor<0x2xf32>, tensor<0x2xf32>, tensor<0x2xf32>) {
  %in = arith.constant 4 : i32
  %past = arith.constant 5 : i32
  %0 = embbag.packed sum %t[%i] padding_idx(%in) : (tensor<5x2xf32>, tensor<0x4xi32>, i32) -> tensor<0x2xf32>
  %1 = embbag.packed sum %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<0x4xi32>, i32) -> tensor<0x2xf32>
  %2 = embbag.segments sum %t[%i0] segment_ids(%i0) num_segments(0) padding_idx(%past) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32) -> tensor<0x2xf32>
  %3 = embbag.packed sum %td[%i] padding_idx(%in) : (tensor<?x2xf32>, tensor<0x4xi32>, i32) -> tensor<0x2xf32>
  return %0, %1, %2, %3 : tensor<0x2xf32>, tensor<0x2xf32>, tensor<0x2xf32>, tensor<0x2xf32>
}

// -----

// A row-wise quantized table: the cast folds, and the result's row of 8-bit
// codes becomes static from the row's bytes (72 - 8).
// CHECK-LABEL: func.func @rowwise_refine(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<10x72xui8>
// CHECK:         %[[R:.*]] = embbag.offsets sum %[[T]][%{{.*}}] offsets(%{{.*}}) rowwise(i8) : (tensor<10x72xui8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x64xf32>
// CHECK:         tensor.cast %[[R]] : tensor<?x64xf32> to tensor<?x?xf32>
func.func @rowwise_refine(%t: tensor<10x72xui8>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xf32> {
  %c = tensor.cast %t : tensor<10x72xui8> to tensor<?x?xui8>
  %r = embbag.offsets sum %c[%i] offsets(%o) rowwise(i8) : (tensor<?x?xui8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Zero bags of a quantized table: the empty result's row is the row's
// bytes - 8, not the table's row.
// CHECK-LABEL: func.func @rowwise_zero_bags(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x?xui8>
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[B:.*]] = tensor.dim %[[T]], %[[C1]]
// CHECK:         %[[D:.*]] = arith.subi %[[B]], %[[C8]]
// CHECK:         %[[E:.*]] = tensor.empty(%[[D]]) : tensor<0x?xf32>
// CHECK:         return %[[E]]
func.func @rowwise_zero_bags(%t: tensor<?x?xui8>, %i: tensor<0x2xi32>) -> tensor<0x?xf32> {
  %r = embbag.packed sum %t[%i] rowwise(i8) : (tensor<?x?xui8>, tensor<0x2xi32>) -> tensor<0x?xf32>
  return %r : tensor<0x?xf32>
}

// -----

// embbag.offsets of bags of one size becomes embbag.packed on the same
// quantized table, its f16 result kept.
// CHECK-LABEL: func.func @rowwise_to_packed(
// CHECK:         embbag.packed max %{{.*}}[%{{.*}}] rowwise(i4) : (tensor<10x36xui8>, tensor<2x2xi32>) -> tensor<2x64xf16>
func.func @rowwise_to_packed(%t: tensor<10x36xui8>, %i: tensor<4xi32>) -> tensor<2x64xf16> {
  %o = arith.constant dense<[0, 2]> : tensor<2xi32>
  %r = embbag.offsets max %t[%i] offsets(%o) rowwise(i4) : (tensor<10x36xui8>, tensor<4xi32>, tensor<2xi32>) -> tensor<2x64xf16>
  return %r : tensor<2x64xf16>
}

// -----

// The shared patterns that rebuild an op (all-ones weights, padding_idx(-1),
// a constant default) keep its result type, even where the operands alone
// would give a less static one, and its discardable attributes.
// CHECK-LABEL: func.func @rebuilt_op_keeps_type_and_attributes(
// CHECK:           %[[R:.*]] = embbag.segments sum %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(%{{.*}}) default(2) {test.kept = "yes"} : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
// CHECK-NEXT:      return %[[R]]
func.func @rebuilt_op_keeps_type_and_attributes(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32) -> tensor<3x2xf32> {
  %d = arith.constant 2 : i32
  %none = arith.constant -1 : i32
  %w = arith.constant dense<1.0> : tensor<4xf32>
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) padding_idx(%none) weights(%w) {test.kept = "yes"} : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
