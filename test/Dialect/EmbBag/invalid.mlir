// RUN: embbag-opt %s -split-input-file -verify-diagnostics

// Every verifier message of the embbag ops, every ODS type constraint and the
// errors of the custom syntax. Each case breaks exactly one rule.

//===----------------------------------------------------------------------===//
// ODS type constraints
//===----------------------------------------------------------------------===//

func.func @table_i1(%t: tensor<5x2xi1>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op operand #0 must be ranked tensor of rank >= 1 of integer (not i1), f16, bf16, f32 or f64 values, but got 'tensor<5x2xi1>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xi1>, tensor<3x2xi32>) -> tensor<3x2xi1>
  return
}

// -----

func.func @table_rank0(%t: tensor<f32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op operand #0 must be ranked tensor of rank >= 1 of integer (not i1), f16, bf16, f32 or f64 values, but got 'tensor<f32>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<f32>, tensor<3x2xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @table_unranked(%t: tensor<*xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets' op operand #0 must be ranked tensor of rank >= 1 of integer (not i1), f16, bf16, f32 or f64 values, but got 'tensor<*xf32>'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<*xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @table_index_element(%t: tensor<5x2xindex>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op operand #0 must be ranked tensor of rank >= 1 of integer (not i1), f16, bf16, f32 or f64 values, but got 'tensor<5x2xindex>'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xindex>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xindex>
  return
}

// -----

func.func @table_f8(%t: tensor<5x2xf8E4M3FN>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op operand #0 must be ranked tensor of rank >= 1 of integer (not i1), f16, bf16, f32 or f64 values, but got 'tensor<5x2xf8E4M3FN>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf8E4M3FN>, tensor<3x2xi32>) -> tensor<3x2xf8E4M3FN>
  return
}

// -----

func.func @indices_i16(%t: tensor<5x2xf32>, %i: tensor<3x2xi16>) {
  // expected-error @+1 {{'embbag.packed' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3x2xi16>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi16>) -> tensor<3x2xf32>
  return
}

// -----

func.func @indices_si32(%t: tensor<5x2xf32>, %i: tensor<4xsi32>, %o: tensor<3xsi32>) {
  // expected-error @+1 {{'embbag.offsets' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xsi32>'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xsi32>, tensor<3xsi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @indices_unranked(%t: tensor<5x2xf32>, %i: tensor<*xi32>) {
  // expected-error @+1 {{'embbag.packed' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<*xi32>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<*xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_index_element(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xindex>) {
  // expected-error @+1 {{'embbag.offsets' op operand #2 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xindex>'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xindex>) -> tensor<3x2xf32>
  return
}

// -----

func.func @segment_ids_i16(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi16>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op operand #2 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi16>'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi16>, i32) -> tensor<?x2xf32>
  return
}

// -----

func.func @default_f32(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %d: f32) {
  // expected-error @+1 {{'embbag.offsets' op operand #3 must be i32 or i64, but got 'f32'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, f32) -> tensor<3x2xf32>
  return
}

// -----

func.func @default_i16(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32, %d: i16) {
  // expected-error @+1 {{'embbag.segments' op operand #4 must be i32 or i64, but got 'i16'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i16) -> tensor<?x2xf32>
  return
}

// -----

func.func @default_tensor(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %d: tensor<i32>) {
  // expected-error @+1 {{'embbag.offsets' op operand #3 must be i32 or i64, but got 'tensor<i32>'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<i32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @num_segments_index(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: index) {
  // expected-error @+1 {{'embbag.segments' op operand #3 must be i32 or i64, but got 'index'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, index) -> tensor<?x2xf32>
  return
}

// -----

func.func @weights_i1(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xi1>) {
  // expected-error @+1 {{'embbag.packed' op operand #2 must be ranked tensor of integer (not i1), f16, bf16, f32 or f64 values, but got 'tensor<3x2xi1>'}}
  %0 = embbag.packed sum %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xi1>) -> tensor<3x2xf32>
  return
}

// -----

func.func @weights_unranked(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %w: tensor<*xf32>) {
  // expected-error @+1 {{'embbag.offsets' op operand #3 must be ranked tensor of integer (not i1), f16, bf16, f32 or f64 values, but got 'tensor<*xf32>'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<*xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @result_unranked(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op result #0 must be ranked tensor of integer (not i1), f16, bf16, f32 or f64 values, but got 'tensor<*xf32>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @result_memref(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op result #0 must be ranked tensor of integer (not i1), f16, bf16, f32 or f64 values, but got 'memref<3x2xf32>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> memref<3x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Ranks of the index operands
//===----------------------------------------------------------------------===//

func.func @packed_indices_1d(%t: tensor<5x2xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.packed' op indices must be a 2-D tensor [batch, indices_per_bag], but got 'tensor<3xi32>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @packed_indices_3d(%t: tensor<5x2xf32>, %i: tensor<3x2x1xi32>) {
  // expected-error @+1 {{'embbag.packed' op indices must be a 2-D tensor [batch, indices_per_bag], but got 'tensor<3x2x1xi32>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2x1xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_indices_2d(%t: tensor<5x2xf32>, %i: tensor<2x2xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets' op indices must be a 1-D tensor [num_indices], but got 'tensor<2x2xi32>'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<2x2xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_offsets_0d(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<i32>) {
  // expected-error @+1 {{'embbag.offsets' op offsets must be a 1-D tensor [batch], but got 'tensor<i32>'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<i32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_indices_2d(%t: tensor<5x2xf32>, %i: tensor<4x1xi32>, %s: tensor<4xi32>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op indices must be a 1-D tensor [num_indices], but got 'tensor<4x1xi32>'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4x1xi32>, tensor<4xi32>, i32) -> tensor<?x2xf32>
  return
}

// -----

func.func @segment_ids_2d(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4x1xi32>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op segment_ids must be a 1-D tensor [num_indices], but got 'tensor<4x1xi32>'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4x1xi32>, i32) -> tensor<?x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// One index type T_IND per op
//===----------------------------------------------------------------------===//

func.func @offsets_type_mismatch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi64>) {
  // expected-error @+1 {{'embbag.offsets' op offsets has element type 'i64' but the indices have element type 'i32'; every index-like operand must have the same type (i32 or i64)}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_default_type_mismatch(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %o: tensor<3xi64>, %d: i32) {
  // expected-error @+1 {{'embbag.offsets' op default has type 'i32' but the indices have element type 'i64'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @segment_ids_type_mismatch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi64>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op segment_ids has element type 'i64' but the indices have element type 'i32'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi64>, i32) -> tensor<?x2xf32>
  return
}

// -----

func.func @num_segments_type_mismatch(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %s: tensor<4xi64>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op num_segments has type 'i32' but the indices have element type 'i64'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i32) -> tensor<?x2xf32>
  return
}

// -----

func.func @segments_default_type_mismatch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32, %d: i64) {
  // expected-error @+1 {{'embbag.segments' op default has type 'i64' but the indices have element type 'i32'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i64) -> tensor<?x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Weights
//===----------------------------------------------------------------------===//

func.func @packed_weights_element_type(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf16>) {
  // expected-error @+1 {{'embbag.packed' op weights must have the table element type 'f32', but got 'f16'}}
  %0 = embbag.packed sum %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf16>) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_weights_signedness(%t: tensor<5x2xi32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %w: tensor<4xsi32>) {
  // expected-error @+1 {{'embbag.offsets' op weights must have the table element type 'i32', but got 'si32'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) weights(%w) : (tensor<5x2xi32>, tensor<4xi32>, tensor<3xi32>, tensor<4xsi32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @packed_weights_rank(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<6xf32>) {
  // expected-error @+1 {{'embbag.packed' op weights must have the shape of indices 'tensor<3x2xi32>', but got 'tensor<6xf32>'}}
  %0 = embbag.packed sum %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<6xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_weights_rank(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32, %w: tensor<4x1xf32>) {
  // expected-error @+1 {{'embbag.segments' op weights must have the shape of indices 'tensor<4xi32>', but got 'tensor<4x1xf32>'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, tensor<4x1xf32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @packed_weights_dim1(%t: tensor<5x2xf32>, %i: tensor<?x2xi32>, %w: tensor<?x3xf32>) {
  // expected-error @+1 {{'embbag.packed' op weights dimension 1 is 3 but indices dimension 1 is 2}}
  %0 = embbag.packed sum %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<?x2xi32>, tensor<?x3xf32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @offsets_weights_dim0(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %d: i32, %w: tensor<5xf32>) {
  // expected-error @+1 {{'embbag.offsets' op weights dimension 0 is 5 but indices dimension 0 is 4}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<5xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_weights_dim0(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32, %w: tensor<3xf32>) {
  // expected-error @+1 {{'embbag.segments' op weights dimension 0 is 3 but indices dimension 0 is 4}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, tensor<3xf32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @packed_mean_weights(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'embbag.packed' op weights are only supported with the 'sum' and 'sqrtn' reductions, not with 'mean'}}
  %0 = embbag.packed mean %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_mean_weights(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'embbag.offsets' op weights are only supported with the 'sum' and 'sqrtn' reductions, not with 'mean'}}
  %0 = embbag.offsets mean %t[%i] offsets(%o) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_mean_weights(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32, %d: i32, %w: tensor<4xf32>) {
  // expected-error @+1 {{'embbag.segments' op weights are only supported with the 'sum' and 'sqrtn' reductions, not with 'mean'}}
  %0 = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n) default(%d) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @packed_max_weights(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'embbag.packed' op weights are only supported with the 'sum' and 'sqrtn' reductions, not with 'max'}}
  %0 = embbag.packed max %t[%i] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_max_weights(%t: tensor<5x2xi8>, %i: tensor<4xi64>, %o: tensor<3xi64>, %w: tensor<4xi8>) {
  // expected-error @+1 {{'embbag.offsets' op weights are only supported with the 'sum' and 'sqrtn' reductions, not with 'max'}}
  %0 = embbag.offsets max %t[%i] offsets(%o) weights(%w) : (tensor<5x2xi8>, tensor<4xi64>, tensor<3xi64>, tensor<4xi8>) -> tensor<3x2xi8>
  return
}

// -----

func.func @segments_max_weights(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'embbag.segments' op weights are only supported with the 'sum' and 'sqrtn' reductions, not with 'max'}}
  %0 = embbag.segments max %t[%i] segment_ids(%s) num_segments(3) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) -> tensor<3x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Result type
//===----------------------------------------------------------------------===//

func.func @result_element_type(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op result element type 'f16' must be the table element type 'f32'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf16>
  return
}

// -----

func.func @result_element_signedness(%t: tensor<5x2xui8>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets' op result element type 'i8' must be the table element type 'ui8'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xui8>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xi8>
  return
}

// -----

func.func @result_rank_low(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op result must have rank 2 (batch followed by the table's row dimensions), but got 'tensor<3xf32>'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @result_rank_high(%t: tensor<6x2x3xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op result must have rank 3 (batch followed by the table's row dimensions), but got 'tensor<?x2x3x1xf32>'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2x3x1xf32>
  return
}

// -----

func.func @packed_result_batch(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op result dimension 0 is 4 but indices dimension 0 (batch) is 3}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @offsets_result_batch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets' op result dimension 0 is 4 but the number of offsets (batch) is 3}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @packed_result_row(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op result dimension 1 is 3 but table dimension 1 is 2}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @offsets_result_row_multidim(%t: tensor<6x2x3xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets' op result dimension 2 is 4 but table dimension 2 is 3}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Segments and default index
//===----------------------------------------------------------------------===//

func.func @segment_ids_length(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<3xi32>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op segment_ids must have one id per index: 3 ids for 4 indices}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<?x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Custom syntax
//===----------------------------------------------------------------------===//

func.func @unknown_reduction(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{custom op 'embbag.offsets' expected reduction 'sum', 'mean', 'max' or 'sqrtn', but got 'min'}}
  %0 = embbag.offsets min %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @missing_reduction(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{custom op 'embbag.packed' expected valid keyword}}
  %0 = embbag.packed %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @missing_lsquare(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{expected '['}}
  %0 = embbag.packed sum %t %i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @weights_before_default(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %d: i32, %w: tensor<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) weights(%w) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @default_before_num_segments(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32, %d: i32) {
  // expected-error @+1 {{custom op 'embbag.segments' expected 'num_segments'}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) default(%d) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<?x2xf32>
  return
}

// -----

func.func @too_few_types(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{custom op 'embbag.offsets' number of operands and types do not match: got 3 operands and 2 types}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @too_many_types(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{custom op 'embbag.packed' number of operands and types do not match: got 2 operands and 3 types}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @missing_offsets(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{custom op 'embbag.offsets' expected 'offsets'}}
  %0 = embbag.offsets sum %t[%i] : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @missing_segment_ids(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %n: i32) {
  // expected-error @+1 {{custom op 'embbag.segments' expected 'segment_ids'}}
  %0 = embbag.segments sum %t[%i] num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, i32) -> tensor<?x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Generic form
//===----------------------------------------------------------------------===//

func.func @generic_missing_reduction(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op requires attribute 'reduction'}}
  %0 = "embbag.packed"(%t, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @generic_unknown_reduction(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+2 {{expected ::mlir::embbag::Reduction to be one of: sum, mean, max, sqrtn}}
  // expected-error @+1 {{failed to parse EmbBag_ReductionAttr parameter 'value'}}
  %0 = "embbag.packed"(%t, %i) <{reduction = #embbag<reduction min>}> : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @generic_segment_sizes(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets' op operand count (3) does not match with the total size (4) specified in attribute 'operandSegmentSizes'}}
  %0 = "embbag.offsets"(%t, %i, %o) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Static forms of default and num_segments
//===----------------------------------------------------------------------===//

func.func @static_default_below_minus1(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets' op static default index must be >= -1 (-1 means no default), but got -2}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(-2) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @default_both_forms(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %d: i32) {
  // expected-error @+1 {{'embbag.offsets' op default index given both as a value and as a static attribute}}
  %0 = "embbag.offsets"(%t, %i, %o, %d) <{reduction = #embbag<reduction sum>, static_default_index = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @static_num_segments_negative(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'embbag.segments' op static num_segments must be non-negative, but got -3}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(-3) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @static_num_segments_result_batch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'embbag.segments' op result dimension 0 is 2 but the static num_segments is 3}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(3) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @num_segments_missing(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'embbag.segments' op num_segments must be given either as a value or as a static attribute, exactly once}}
  %0 = "embbag.segments"(%t, %i, %s) <{reduction = #embbag<reduction sum>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @num_segments_both_forms(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32) {
  // expected-error @+1 {{'embbag.segments' op num_segments must be given either as a value or as a static attribute, exactly once}}
  %0 = "embbag.segments"(%t, %i, %s, %n) <{reduction = #embbag<reduction sum>, static_num_segments = 3 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @num_segments_not_an_index(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{expected integer value}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(x) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<?x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// sqrtn
//===----------------------------------------------------------------------===//

func.func @packed_sqrtn_int(%t: tensor<5x2xi32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed' op the 'sqrtn' reduction needs a float element type, but the table has 'i32'}}
  %0 = embbag.packed sqrtn %t[%i] : (tensor<5x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @offsets_sqrtn_unsigned(%t: tensor<5x2xui8>, %i: tensor<4xi64>, %o: tensor<3xi64>) {
  // expected-error @+1 {{'embbag.offsets' op the 'sqrtn' reduction needs a float element type, but the table has 'ui8'}}
  %0 = embbag.offsets sqrtn %t[%i] offsets(%o) : (tensor<5x2xui8>, tensor<4xi64>, tensor<3xi64>) -> tensor<3x2xui8>
  return
}

// -----

func.func @segments_sqrtn_int(%t: tensor<5x2xi16>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'embbag.segments' op the 'sqrtn' reduction needs a float element type, but the table has 'i16'}}
  %0 = embbag.segments sqrtn %t[%i] segment_ids(%s) num_segments(3) : (tensor<5x2xi16>, tensor<4xi32>, tensor<4xi32>) -> tensor<3x2xi16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// include_last_offset
//===----------------------------------------------------------------------===//

func.func @last_offset_no_offsets(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<0xi32>) {
  // expected-error @+1 {{'embbag.offsets' op offsets must have at least one entry with include_last_offset (it ends the last bag)}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<5x2xf32>, tensor<4xi32>, tensor<0xi32>) -> tensor<0x2xf32>
  return
}

// -----

func.func @last_offset_batch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'embbag.offsets' op result dimension 0 is 4 but the number of offsets - 1 (batch) is 3}}
  %0 = "embbag.offsets"(%t, %i, %o) <{include_last_offset, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @last_offset_custom_batch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'embbag.offsets' op result dimension 0 is 4 but the number of offsets - 1 (batch) is 3}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @last_offset_order(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(1) include_last_offset : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<3x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// padding_idx
//===----------------------------------------------------------------------===//

func.func @packed_padding_type_mismatch(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %p: i64) {
  // expected-error @+1 {{'embbag.packed' op padding_idx has type 'i64' but the indices have element type 'i32'; every index-like operand must have the same type (i32 or i64)}}
  %0 = embbag.packed sum %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<3x2xi32>, i64) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_padding_type_mismatch(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %o: tensor<3xi64>, %p: i32) {
  // expected-error @+1 {{'embbag.offsets' op padding_idx has type 'i32' but the indices have element type 'i64'}}
  %0 = embbag.offsets mean %t[%i] offsets(%o) padding_idx(%p) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_padding_type_mismatch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %p: i64) {
  // expected-error @+1 {{'embbag.segments' op padding_idx has type 'i64' but the indices have element type 'i32'}}
  %0 = embbag.segments max %t[%i] segment_ids(%s) num_segments(3) padding_idx(%p) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i64) -> tensor<3x2xf32>
  return
}

// -----

func.func @padding_f32(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %p: f32) {
  // expected-error @+1 {{'embbag.packed' op operand #2 must be i32 or i64, but got 'f32'}}
  %0 = embbag.packed sum %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<3x2xi32>, f32) -> tensor<3x2xf32>
  return
}

// -----

func.func @padding_static(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // padding_idx is an SSA operand only (a constant -1 is dropped by
  // canonicalization, any other stays an operand).
  // expected-error @+1 {{expected ')'}}
  %0 = embbag.packed sum %t[%i] padding_idx(2) : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @padding_after_weights(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %p: i32, %w: tensor<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) weights(%w) padding_idx(%p) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @padding_before_default(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %p: i32, %d: i32) {
  // expected-error @+1 {{expected ':'}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) padding_idx(%p) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, i32) -> tensor<3x2xf32>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @padding_weights_types_swapped(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %p: i32, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{use of value '%p' expects different type than prior uses: 'tensor<3x2xf32>' vs 'i32'}}
  %0 = embbag.packed sum %t[%i] padding_idx(%p) weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>, i32) -> tensor<3x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// Row-wise quantized tables
//===----------------------------------------------------------------------===//

// -----

func.func @rowwise_width(%t: tensor<5x12xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{rowwise(...) takes i8, i4 or i2 (the bits per code), but got 'i3'}}
  %0 = embbag.packed sum %t[%i] rowwise(i3) : (tensor<5x12xui8>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @rowwise_float_table(%t: tensor<5x12xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{a rowwise(i8) table must be a 2-D tensor of ui8 or i8 bytes, but got 'tensor<5x12xf32>'}}
  %0 = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x12xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @rowwise_rank3_table(%t: tensor<5x2x12xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{a rowwise(i8) table must be a 2-D tensor of ui8 or i8 bytes, but got 'tensor<5x2x12xui8>'}}
  %0 = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x2x12xui8>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @rowwise_signed_bytes(%t: tensor<5x12xsi8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{a rowwise(i8) table must be a 2-D tensor of ui8 or i8 bytes, but got 'tensor<5x12xsi8>'}}
  %0 = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x12xsi8>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @rowwise_integer_result(%t: tensor<5x12xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{the result of a rowwise(i8) table must be a 2-D tensor of f32 or f16, but got 'tensor<3x4xi32>'}}
  %0 = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x12xui8>, tensor<3x2xi32>) -> tensor<3x4xi32>
  return
}

// -----

func.func @rowwise_bf16_result(%t: tensor<5x12xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{the result of a rowwise(i8) table must be a 2-D tensor of f32 or f16, but got 'tensor<3x4xbf16>'}}
  %0 = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x12xui8>, tensor<3x2xi32>) -> tensor<3x4xbf16>
  return
}

// -----

func.func @rowwise_i8_row_bytes(%t: tensor<5x12xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{a rowwise(i8) row of 5 columns takes 13 bytes (5 of codes, 8 of f32 scale and bias), but table dimension 1 is 12}}
  %0 = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x12xui8>, tensor<3x2xi32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @rowwise_i4_row_bytes(%t: tensor<5x36xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{a rowwise(i4) row of 66 columns takes 37 bytes (33 of codes, 4 of f16 scale and bias), but table dimension 1 is 36}}
  %0 = embbag.packed sum %t[%i] rowwise(i4) : (tensor<5x36xui8>, tensor<3x2xi32>) -> tensor<3x66xf32>
  return
}

// -----

func.func @rowwise_i2_row_bytes(%t: tensor<5x20xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{a rowwise(i2) row of 65 columns takes 21 bytes (17 of codes, 4 of f16 scale and bias), but table dimension 1 is 20}}
  %0 = embbag.packed sum %t[%i] rowwise(i2) : (tensor<5x20xui8>, tensor<3x2xi32>) -> tensor<3x65xf32>
  return
}

// -----

func.func @rowwise_i4_dynamic_columns(%t: tensor<5x36xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{the result of a rowwise(i4) table needs a static dimension 1: a row of n bytes holds more than one possible number of 4-bit codes}}
  %0 = embbag.packed sum %t[%i] rowwise(i4) : (tensor<5x36xui8>, tensor<3x2xi32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @rowwise_i8_short_row(%t: tensor<5x7xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{a rowwise(i8) table row needs at least 8 bytes (the f32 scale and bias), but table dimension 1 is 7}}
  %0 = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x7xui8>, tensor<3x2xi32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @rowwise_weights_type(%t: tensor<5x12xui8>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{weights must have the result element type 'f16', but got 'f32'}}
  %0 = embbag.packed sum %t[%i] weights(%w) rowwise(i8) : (tensor<5x12xui8>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x4xf16>
  return
}

// -----

func.func @rowwise_batch(%t: tensor<5x12xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{result dimension 0 is 4 but indices dimension 0 (batch) is 3}}
  %0 = embbag.packed sum %t[%i] rowwise(i8) : (tensor<5x12xui8>, tensor<3x2xi32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f16_result_without_rowwise(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{result element type 'f16' must be the table element type 'f32'}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf16>
  return
}

// -----

func.func @rowwise_after_attr_dict(%t: tensor<5x12xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = embbag.packed sum %t[%i] {foo} rowwise(i8) : (tensor<5x12xui8>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return
}
