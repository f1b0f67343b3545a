// RUN: embbag-opt %s -split-input-file -verify-diagnostics --embbag-verify-constants | FileCheck %s

// The errors of --embbag-verify-constants, and constant operands it must
// accept. The pass changes nothing: the accepted cases are printed unchanged
// (FileCheck), the rejected ones print nothing.

//===----------------------------------------------------------------------===//
// Indices
//===----------------------------------------------------------------------===//

func.func @packed_index_out_of_range(%t: tensor<5x2xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<[[0, 4], [2, 5]]> : tensor<2x2xi32>
  // expected-error @+1 {{'embbag.packed' op index 5 at indices[1, 1] is out of range [0, 5) of the table}}
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @packed_index_negative(%t: tensor<5x2xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<[[0, -1], [2, 3]]> : tensor<2x2xi64>
  // expected-error @+1 {{'embbag.packed' op index -1 at indices[0, 1] is out of range [0, 5) of the table}}
  %0 = embbag.packed mean %t[%i] : (tensor<5x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @packed_index_multidim_rows(%t: tensor<3x2x4xf32>, %w: tensor<1x3xf32>) -> tensor<1x2x4xf32> {
  %i = arith.constant dense<[[2, 1, 3]]> : tensor<1x3xi32>
  // expected-error @+1 {{'embbag.packed' op index 3 at indices[0, 2] is out of range [0, 3) of the table}}
  %0 = embbag.packed sum %t[%i] weights(%w) : (tensor<3x2x4xf32>, tensor<1x3xi32>, tensor<1x3xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

func.func @offsets_index_out_of_range(%t: tensor<5x2xf32>) -> tensor<3x2xf32> {
  %i = arith.constant dense<[0, 2, 7, 4]> : tensor<4xi32>
  %o = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op index 7 at indices[2] is out of range [0, 5) of the table}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @offsets_index_negative(%t: tensor<5x2xf32>, %d: i64) -> tensor<2x2xf32> {
  %i = arith.constant dense<[0, 2, 3, -4]> : tensor<4xi64>
  %o = arith.constant dense<[1, 2]> : tensor<2xi64>
  // expected-error @+1 {{'embbag.offsets' op index -4 at indices[3] is out of range [0, 5) of the table}}
  %0 = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<4xi64>, tensor<2xi64>, i64) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// The last bag runs to the end of the indices.
func.func @offsets_index_in_last_bag(%t: tensor<5x2xf32>) -> tensor<3x2xf32> {
  %i = arith.constant dense<[0, 2, 3, 5]> : tensor<4xi32>
  %c = arith.constant dense<[0, 2, 4]> : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op index 5 at indices[3] is out of range [0, 5) of the table}}
  %0 = embbag.offsets sum %t[%i] offsets(%c) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @segments_index_out_of_range(%t: tensor<5x2xf32>) -> tensor<3x2xf32> {
  %i = arith.constant dense<[0, 2, 3, 9]> : tensor<4xi32>
  %s = arith.constant dense<[0, 0, 2, 2]> : tensor<4xi32>
  %n = arith.constant 3 : i32
  // expected-error @+1 {{'embbag.segments' op index 9 at indices[3] is out of range [0, 5) of the table}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @segments_index_negative(%t: tensor<5x2xf32>, %s: tensor<4xi64>, %n: i64) -> tensor<?x2xf32> {
  %i = arith.constant dense<[-1, 2, 3, 4]> : tensor<4xi64>
  // expected-error @+1 {{'embbag.segments' op index -1 at indices[0] is out of range [0, 5) of the table}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Offsets
//===----------------------------------------------------------------------===//

func.func @offsets_first_negative(%t: tensor<5x2xf32>, %i: tensor<4xi32>) -> tensor<3x2xf32> {
  %o = arith.constant dense<[-1, 2, 2]> : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op offsets[0] = -1 is negative}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @offsets_later_negative(%t: tensor<5x2xf32>, %i: tensor<?xi32>) -> tensor<3x2xf32> {
  %o = arith.constant dense<[0, -2, 2]> : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op offsets[1] = -2 is smaller than the offset before it, 0}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<?xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @offsets_decreasing(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %w: tensor<4xf32>) -> tensor<3x2xf32> {
  %o = arith.constant dense<[0, 3, 2]> : tensor<3xi64>
  // expected-error @+1 {{'embbag.offsets' op offsets[2] = 2 is smaller than the offset before it, 3}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) weights(%w) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @offsets_exceed_num_indices(%t: tensor<5x2xf32>, %i: tensor<4xi32>) -> tensor<3x2xf32> {
  %o = arith.constant dense<[0, 2, 5]> : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op offsets[2] = 5 exceeds the number of indices, 4}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @offsets_first_exceeds_num_indices(%t: tensor<?x2xf32>) -> tensor<1x2xf32> {
  %i = arith.constant dense<[0, 1]> : tensor<2xi32>
  %o = arith.constant dense<[3]> : tensor<1xi32>
  // expected-error @+1 {{'embbag.offsets' op offsets[0] = 3 exceeds the number of indices, 2}}
  %0 = embbag.offsets mean %t[%i] offsets(%o) : (tensor<?x2xf32>, tensor<2xi32>, tensor<1xi32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Segment ids
//===----------------------------------------------------------------------===//

func.func @segment_id_out_of_range_constant(%t: tensor<5x2xf32>, %i: tensor<4xi32>) -> tensor<3x2xf32> {
  %s = arith.constant dense<[0, 0, 2, 3]> : tensor<4xi32>
  %n = arith.constant 3 : i32
  // expected-error @+1 {{'embbag.segments' op segment id 3 at segment_ids[3] is out of range [0, 3)}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @segment_id_out_of_range_constant_dynamic_result(%t: tensor<5x2xf32>, %i: tensor<4xi64>) -> tensor<?x2xf32> {
  %s = arith.constant dense<[0, 4, 1, 1]> : tensor<4xi64>
  %n = arith.constant 2 : i64
  // expected-error @+1 {{'embbag.segments' op segment id 4 at segment_ids[1] is out of range [0, 2)}}
  %0 = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @segment_id_out_of_range_static_result(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %n: i32) -> tensor<2x2xf32> {
  %s = arith.constant dense<[0, 0, 1, 2]> : tensor<4xi32>
  // expected-error @+1 {{'embbag.segments' op segment id 2 at segment_ids[3] is out of range [0, 2)}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @segment_id_negative(%t: tensor<5x2xf32>, %i: tensor<4xi32>) -> tensor<3x2xf32> {
  %s = arith.constant dense<[0, -1, 2, 2]> : tensor<4xi32>
  %n = arith.constant 3 : i32
  // expected-error @+1 {{'embbag.segments' op segment id -1 at segment_ids[1] is out of range [0, 3)}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @segment_id_zero_segments(%t: tensor<5x2xf32>, %i: tensor<1xi32>) -> tensor<0x2xf32> {
  %s = arith.constant dense<[0]> : tensor<1xi32>
  %n = arith.constant 0 : i32
  // expected-error @+1 {{'embbag.segments' op segment id 0 at segment_ids[0] is out of range [0, 0)}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<1xi32>, tensor<1xi32>, i32) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

// -----

// Every op with a bad constant is reported, not only the first.
func.func @two_errors(%t: tensor<5x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %a = arith.constant dense<[[5]]> : tensor<1x1xi32>
  %b = arith.constant dense<[[-3]]> : tensor<1x1xi32>
  // expected-error @+1 {{'embbag.packed' op index 5 at indices[0, 0] is out of range [0, 5) of the table}}
  %0 = embbag.packed sum %t[%a] : (tensor<5x2xf32>, tensor<1x1xi32>) -> tensor<1x2xf32>
  // expected-error @+1 {{'embbag.packed' op index -3 at indices[0, 0] is out of range [0, 5) of the table}}
  %1 = embbag.packed sum %t[%b] : (tensor<5x2xf32>, tensor<1x1xi32>) -> tensor<1x2xf32>
  return %0, %1 : tensor<1x2xf32>, tensor<1x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Accepted: printed unchanged
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @valid_packed(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<{{\[}}[0, 4], [4, 0]]> : tensor<2x2xi32>
// CHECK-NEXT:      %[[R:.*]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<2x2xf32>
func.func @valid_packed(%t: tensor<5x2xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<[[0, 4], [4, 0]]> : tensor<2x2xi32>
  %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// include_last_offset: the last offset ends the last bag; the indices from
// it on are never read (index 9 here), those before it are.
// CHECK-LABEL: func.func @valid_index_after_last_offset(
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset
func.func @valid_index_after_last_offset(%t: tensor<5x2xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<[0, 2, 3, 9]> : tensor<4xi32>
  %o = arith.constant dense<[0, 2, 3]> : tensor<3xi32>
  %0 = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @last_offset_index_read(%t: tensor<5x2xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<[0, 2, 9, 9]> : tensor<4xi32>
  %o = arith.constant dense<[0, 2, 3]> : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op index 9 at indices[2] is out of range [0, 5) of the table}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @last_offset_exceeds(%t: tensor<5x2xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
  %o = arith.constant dense<[0, 2, 5]> : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op offsets[2] = 5 exceeds the number of indices, 4}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Indices before offsets[0] belong to no bag and are never read.
// CHECK-LABEL: func.func @valid_index_before_first_offset(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<[9, -1, 2, 3, 4]> : tensor<5xi32>
// CHECK-NEXT:      %[[O:.*]] = arith.constant dense<[2, 3, 3]> : tensor<3xi32>
// CHECK-NEXT:      %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<3x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
func.func @valid_index_before_first_offset(%t: tensor<5x2xf32>) -> tensor<3x2xf32> {
  %i = arith.constant dense<[9, -1, 2, 3, 4]> : tensor<5xi32>
  %o = arith.constant dense<[2, 3, 3]> : tensor<3xi32>
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Without constant offsets the pass does not know which indices are read.
// CHECK-LABEL: func.func @valid_non_constant_offsets(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>, %[[O:.*]]: tensor<3xi32>)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<[7, 0, 1, 2]> : tensor<4xi32>
// CHECK-NEXT:      %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
func.func @valid_non_constant_offsets(%t: tensor<5x2xf32>, %o: tensor<3xi32>) -> tensor<3x2xf32> {
  %i = arith.constant dense<[7, 0, 1, 2]> : tensor<4xi32>
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// offsets[b] == num_indices: trailing empty bags.
// CHECK-LABEL: func.func @valid_trailing_empty_bags(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi64>
// CHECK-NEXT:      %[[O:.*]] = arith.constant dense<[0, 2, 4, 4]> : tensor<4xi64>
// CHECK-NEXT:      %[[D:.*]] = arith.constant 1 : i64
// CHECK-NEXT:      %[[R:.*]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<4x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<4x2xf32>
func.func @valid_trailing_empty_bags(%t: tensor<5x2xf32>) -> tensor<4x2xf32> {
  %i = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi64>
  %o = arith.constant dense<[0, 2, 4, 4]> : tensor<4xi64>
  %d = arith.constant 1 : i64
  %0 = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// No indices at all, every offset 0: every bag is empty.
// CHECK-LABEL: func.func @valid_no_indices(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<> : tensor<0xi32>
// CHECK-NEXT:      %[[O:.*]] = arith.constant dense<0> : tensor<2xi32>
// CHECK-NEXT:      %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<5x2xf32>, tensor<0xi32>, tensor<2xi32>) -> tensor<2x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<2x2xf32>
func.func @valid_no_indices(%t: tensor<5x2xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<> : tensor<0xi32>
  %o = arith.constant dense<0> : tensor<2xi32>
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<0xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A dynamic table has no static bound for the indices.
// CHECK-LABEL: func.func @valid_dynamic_table(
// CHECK-SAME:      %[[T:.*]]: tensor<?x2xf32>)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<{{\[}}[100, 1000]]> : tensor<1x2xi64>
// CHECK-NEXT:      %[[R:.*]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<?x2xf32>, tensor<1x2xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<1x2xf32>
func.func @valid_dynamic_table(%t: tensor<?x2xf32>) -> tensor<1x2xf32> {
  %i = arith.constant dense<[[100, 1000]]> : tensor<1x2xi64>
  %0 = embbag.packed sum %t[%i] : (tensor<?x2xf32>, tensor<1x2xi64>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

// CHECK-LABEL: func.func @valid_dynamic_table_offsets(
// CHECK-SAME:      %[[T:.*]]: tensor<?x2xf32>)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<[100, 1000]> : tensor<2xi32>
// CHECK-NEXT:      %[[O:.*]] = arith.constant dense<[0, 1]> : tensor<2xi32>
// CHECK-NEXT:      %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<2x2xf32>
func.func @valid_dynamic_table_offsets(%t: tensor<?x2xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<[100, 1000]> : tensor<2xi32>
  %o = arith.constant dense<[0, 1]> : tensor<2xi32>
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Segment ids in range, unsorted, with an empty segment; the upper bound
// num_segments - 1 is allowed.
// CHECK-LABEL: func.func @valid_segments(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
// CHECK-NEXT:      %[[S:.*]] = arith.constant dense<[2, 0, 2, 0]> : tensor<4xi32>
// CHECK-NEXT:      %[[N:.*]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[D:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK-NEXT:      %[[R:.*]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
func.func @valid_segments(%t: tensor<5x2xf32>) -> tensor<3x2xf32> {
  %i = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
  %s = arith.constant dense<[2, 0, 2, 0]> : tensor<4xi32>
  %n = arith.constant 3 : i32
  %d = arith.constant 0 : i32
  %w = arith.constant dense<0.5> : tensor<4xf32>
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Neither num_segments nor the result's dim 0 is static: the ids have no
// static bound.
// CHECK-LABEL: func.func @valid_segments_dynamic(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>, %[[N:.*]]: i64)
// CHECK-NEXT:      %[[I:.*]] = arith.constant dense<[0, 1]> : tensor<2xi64>
// CHECK-NEXT:      %[[S:.*]] = arith.constant dense<[0, 1000]> : tensor<2xi64>
// CHECK-NEXT:      %[[R:.*]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf32>, tensor<2xi64>, tensor<2xi64>, i64) -> tensor<?x2xf32>
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf32>
func.func @valid_segments_dynamic(%t: tensor<5x2xf32>, %n: i64) -> tensor<?x2xf32> {
  %i = arith.constant dense<[0, 1]> : tensor<2xi64>
  %s = arith.constant dense<[0, 1000]> : tensor<2xi64>
  %0 = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<2xi64>, tensor<2xi64>, i64) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// Non-constant operands are not checked.
// CHECK-LABEL: func.func @valid_non_constant(
// CHECK-SAME:      %[[T:.*]]: tensor<5x2xf32>, %[[I:.*]]: tensor<3x2xi32>, %[[J:.*]]: tensor<4xi32>, %[[S:.*]]: tensor<4xi32>)
// CHECK-NEXT:      %[[N:.*]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R0:.*]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK-NEXT:      %[[R1:.*]] = embbag.segments sum %[[T]][%[[J]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
// CHECK-NEXT:      return %[[R0]], %[[R1]] : tensor<3x2xf32>, tensor<3x2xf32>
func.func @valid_non_constant(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %j: tensor<4xi32>, %s: tensor<4xi32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %n = arith.constant 3 : i32
  %0 = embbag.packed mean %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %1 = embbag.segments sum %t[%j] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// default and num_segments (constant operands the verifier accepts, since it
// looks at types and attributes only)
//===----------------------------------------------------------------------===//

func.func @segments_result_batch(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  %n = arith.constant 3 : i32
  // expected-error @+1 {{'embbag.segments' op num_segments is 3 but the result has 2 rows}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<2x2xf32>
  return
}

// -----

func.func @segments_result_batch_zero(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  %n = arith.constant 3 : i32
  // expected-error @+1 {{'embbag.segments' op num_segments is 3 but the result has 0 rows}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<0x2xf32>
  return
}

// -----

func.func @segments_zero_result_batch(%t: tensor<5x2xf32>, %i: tensor<0xi64>, %s: tensor<0xi64>) {
  %n = arith.constant 0 : i64
  // expected-error @+1 {{'embbag.segments' op num_segments is 0 but the result has 1 rows}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<0xi64>, tensor<0xi64>, i64) -> tensor<1x2xf32>
  return
}

// -----

func.func @num_segments_negative(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  %n = arith.constant -1 : i32
  // expected-error @+1 {{'embbag.segments' op num_segments must be non-negative, but got -1}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf32>
  return
}

// -----

func.func @offsets_default_below_minus1(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  %d = arith.constant -2 : i32
  // expected-error @+1 {{'embbag.offsets' op default index must be >= -1 (-1 means no default), but got -2}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_default_below_minus1(%t: tensor<?x2xf32>, %i: tensor<4xi64>, %s: tensor<4xi64>, %n: i64) {
  %d = arith.constant -5 : i64
  // expected-error @+1 {{'embbag.segments' op default index must be >= -1 (-1 means no default), but got -5}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) : (tensor<?x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<?x2xf32>
  return
}

// -----

func.func @offsets_default_num_emb(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  %d = arith.constant 5 : i32
  // expected-error @+1 {{'embbag.offsets' op default index 5 is out of range for a table of 5 rows}}
  %0 = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_default_num_emb(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %s: tensor<4xi64>, %n: i64) {
  %d = arith.constant 100 : i64
  // expected-error @+1 {{'embbag.segments' op default index 100 is out of range for a table of 5 rows}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<?x2xf32>
  return
}

// -----

func.func @default_empty_table(%t: tensor<0x2xf32>, %i: tensor<0xi32>, %o: tensor<3xi32>) {
  %d = arith.constant 0 : i32
  // expected-error @+1 {{'embbag.offsets' op default index 0 is out of range for a table of 0 rows}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<0x2xf32>, tensor<0xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @static_default_num_emb(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets' op default index 7 is out of range for a table of 5 rows}}
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(7) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @static_num_segments_ids(%t: tensor<5x2xf32>, %i: tensor<2xi32>) {
  %s = arith.constant dense<[0, 3]> : tensor<2xi32>
  // expected-error @+1 {{'embbag.segments' op segment id 3 at segment_ids[1] is out of range [0, 3)}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(3) : (tensor<5x2xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// padding_idx
//===----------------------------------------------------------------------===//

func.func @packed_padding_below_minus1(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  %p = arith.constant -2 : i32
  // expected-error @+1 {{'embbag.packed' op padding_idx must be >= -1 (-1 means none), but got -2}}
  %0 = embbag.packed sum %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @offsets_padding_num_emb(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %o: tensor<3xi64>) {
  %p = arith.constant 5 : i64
  // expected-error @+1 {{'embbag.offsets' op padding_idx 5 is out of range for a table of 5 rows}}
  %0 = embbag.offsets mean %t[%i] offsets(%o) padding_idx(%p) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_padding_num_emb(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) {
  %p = arith.constant 9 : i32
  // expected-error @+1 {{'embbag.segments' op padding_idx 9 is out of range for a table of 5 rows}}
  %0 = embbag.segments max %t[%i] segment_ids(%s) num_segments(3) padding_idx(%p) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return
}

// -----

func.func @segments_padding_below_minus1(%t: tensor<?x2xf32>, %i: tensor<4xi64>, %s: tensor<4xi64>) {
  %p = arith.constant -3 : i64
  // expected-error @+1 {{'embbag.segments' op padding_idx must be >= -1 (-1 means none), but got -3}}
  %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(3) padding_idx(%p) : (tensor<?x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<3x2xf32>
  return
}

// -----

// Accepted: -1 (none), the last row, an unknown num_emb for a large one, and
// indices equal to padding_idx (in the table, since padding_idx is).
// CHECK-LABEL: func.func @padding_accepted(
// CHECK:         embbag.packed mean {{.*}} padding_idx(
// CHECK:         embbag.segments sum {{.*}} padding_idx(
// CHECK:         embbag.segments sum {{.*}} padding_idx(
func.func @padding_accepted(%t: tensor<5x2xf32>, %td: tensor<?x2xf32>, %s: tensor<4xi32>) -> (tensor<2x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %none = arith.constant -1 : i32
  %last = arith.constant 4 : i32
  %large = arith.constant 1000 : i32
  %i = arith.constant dense<[[4, 4], [0, 4]]> : tensor<2x2xi32>
  %i1 = arith.constant dense<[0, 4, 4, 1]> : tensor<4xi32>
  %0 = embbag.packed mean %t[%i] padding_idx(%last) : (tensor<5x2xf32>, tensor<2x2xi32>, i32) -> tensor<2x2xf32>
  %1 = embbag.segments sum %t[%i1] segment_ids(%s) num_segments(3) padding_idx(%none) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  %2 = embbag.segments sum %td[%i1] segment_ids(%s) num_segments(3) padding_idx(%large) : (tensor<?x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}
