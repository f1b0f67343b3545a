// RUN: embbag-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of the training ops (issue 22) and the errors of their
// custom syntax. Each case breaks exactly one rule. The forward ops' clause
// rules are shared code (EmbBagOps.cpp); a few cases show the training ops
// reach them.

//===----------------------------------------------------------------------===//
// Tables: floats only, not quantized
//===----------------------------------------------------------------------===//

func.func @grad_rowwise(%dy: tensor<3x64xf32>, %t: tensor<10x72xui8>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_grad' op cannot train a rowwise(i8) quantized table: the training ops need a table of floats}}
  %0 = embbag.packed_grad sum %dy, %t[%i] rowwise(i8)
         : (tensor<3x64xf32>, tensor<10x72xui8>, tensor<3x2xi32>) -> tensor<10x72xui8>
  return
}

// -----

func.func @update_rowwise(%lr: f32, %dy: tensor<3x64xf32>, %t: tensor<10x36xui8>, %i: tensor<4xi32>, %off: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets_update' op cannot train a rowwise(i4) quantized table: the training ops need a table of floats}}
  %0 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off) rowwise(i4)
         : (f32, tensor<3x64xf32>, tensor<10x36xui8>, tensor<4xi32>, tensor<3xi32>) -> tensor<10x36xui8>
  return
}

// -----

func.func @grad_integer_table(%dy: tensor<3x2xi32>, %t: tensor<5x2xi32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_grad' op the training ops need a table of f16, bf16, f32 or f64, but the table has 'i32'}}
  %0 = embbag.packed_grad sum %dy, %t[%i]
         : (tensor<3x2xi32>, tensor<5x2xi32>, tensor<3x2xi32>) -> tensor<5x2xi32>
  return
}

//===----------------------------------------------------------------------===//
// Reduction and weights (the forward ops' rules)
//===----------------------------------------------------------------------===//

// -----

func.func @grad_mean_weights(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'embbag.packed_grad' op weights are only supported with the 'sum' and 'sqrtn' reductions, not with 'mean'}}
  %0:2 = embbag.packed_grad mean %dy, %t[%i] weights(%w)
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> (tensor<5x2xf32>, tensor<3x2xf32>)
  return
}

// -----

func.func @update_max_weights(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %off: tensor<3xi32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'embbag.offsets_update' op weights are only supported with the 'sum' and 'sqrtn' reductions, not with 'max'}}
  %0 = embbag.offsets_update max sgd(%lr) %dy, %t[%i] offsets(%off) weights(%w)
         : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @grad_weights_type(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf16>) {
  // expected-error @+1 {{'embbag.packed_grad' op weights must have the table element type 'f32', but got 'f16'}}
  %0:2 = embbag.packed_grad sum %dy, %t[%i] weights(%w)
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf16>) -> (tensor<5x2xf32>, tensor<3x2xf16>)
  return
}

// -----

func.func @grad_weights_shape(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %seg: tensor<4xi32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{'embbag.segments_grad' op weights dimension 0 is 5 but indices dimension 0 is 4}}
  %0:2 = embbag.segments_grad sum %dy, %t[%i] segment_ids(%seg) num_segments(3) weights(%w)
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, tensor<5xf32>) -> (tensor<5x2xf32>, tensor<5xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dy: the forward op's result type
//===----------------------------------------------------------------------===//

// -----

func.func @dy_element_type(%dy: tensor<3x2xf16>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_grad' op dy element type 'f16' must be the table element type 'f32'}}
  %0 = embbag.packed_grad sum %dy, %t[%i]
         : (tensor<3x2xf16>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @dy_rank(%dy: tensor<3xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_grad' op dy must have rank 2 (batch followed by the table's row dimensions), but got 'tensor<3xf32>'}}
  %0 = embbag.packed_grad sum %dy, %t[%i]
         : (tensor<3xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @dy_batch_packed(%dy: tensor<4x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_grad' op dy dimension 0 is 4 but indices dimension 0 (batch) is 3}}
  %0 = embbag.packed_grad sum %dy, %t[%i]
         : (tensor<4x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @dy_batch_offsets(%lr: f32, %dy: tensor<4x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %off: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets_update' op dy dimension 0 is 4 but the number of offsets (batch) is 3}}
  %0 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off)
         : (f32, tensor<4x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @dy_batch_include_last_offset(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %off: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets_grad' op dy dimension 0 is 3 but the number of offsets - 1 (batch) is 2}}
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) include_last_offset
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @dy_batch_segments(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %seg: tensor<4xi32>) {
  // expected-error @+1 {{'embbag.segments_grad' op dy dimension 0 is 3 but the static num_segments is 2}}
  %0 = embbag.segments_grad sum %dy, %t[%i] segment_ids(%seg) num_segments(2)
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @dy_row(%dy: tensor<3x4xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_grad' op dy dimension 1 is 4 but table dimension 1 is 2}}
  %0 = embbag.packed_grad sum %dy, %t[%i]
         : (tensor<3x4xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// The forward ops' clause rules, shared
//===----------------------------------------------------------------------===//

// -----

func.func @packed_indices_rank(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.packed_grad' op indices must be a 2-D tensor [batch, indices_per_bag], but got 'tensor<3xi32>'}}
  %0 = embbag.packed_grad sum %dy, %t[%i]
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @offsets_index_type(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %off: tensor<3xi64>) {
  // expected-error @+1 {{'embbag.offsets_grad' op offsets has element type 'i64' but the indices have element type 'i32'; every index-like operand must have the same type (i32 or i64)}}
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<3xi64>) -> tensor<5x2xf32>
  return
}

// -----

func.func @segments_count(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %seg: tensor<5xi32>) {
  // expected-error @+1 {{'embbag.segments_update' op segment_ids must have one id per index: 5 ids for 4 indices}}
  %0 = embbag.segments_update sum sgd(%lr) %dy, %t[%i] segment_ids(%seg) num_segments(3)
         : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<5xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @default_below_minus_one(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %off: tensor<3xi32>) {
  // expected-error @+1 {{'embbag.offsets_grad' op static default index must be >= -1 (-1 means no default), but got -2}}
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) default(-2)
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<5x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// _grad results
//===----------------------------------------------------------------------===//

// -----

func.func @grad_no_weights_gradient(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'embbag.packed_grad' op must have 2 result(s) (the table gradient, the weights gradient), but has 1}}
  %0 = embbag.packed_grad sum %dy, %t[%i] weights(%w)
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @grad_table_gradient_type(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_grad' op result #0 (the table gradient) must be 'tensor<5x2xf32>', but got 'tensor<?x2xf32>'}}
  %0 = embbag.packed_grad sum %dy, %t[%i]
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @grad_weights_gradient_type(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'embbag.packed_grad' op result #1 (the weights gradient) must be 'tensor<3x2xf32>', but got 'tensor<3x2xf16>'}}
  %0:2 = embbag.packed_grad sum %dy, %t[%i] weights(%w)
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> (tensor<5x2xf32>, tensor<3x2xf16>)
  return
}

// -----

func.func @sparse_one_result(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{'embbag.packed_grad' op must have 2 result(s) (the sorted unique rows, their gradient rows), but has 1}}
  %0 = embbag.packed_grad sum %dy, %t[%i] sparse
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> tensor<5x2xf32>
  return
}

// -----

func.func @sparse_rows_static(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{'embbag.packed_grad' op result #0 (the sorted unique rows) must be 'tensor<?xi64>', but got 'tensor<5xi64>'}}
  %0:2 = embbag.packed_grad sum %dy, %t[%i] sparse
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> (tensor<5xi64>, tensor<?x2xf32>)
  return
}

// -----

func.func @sparse_rows_index_type(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{'embbag.packed_grad' op result #0 (the sorted unique rows) must be 'tensor<?xi64>', but got 'tensor<?xi32>'}}
  %0:2 = embbag.packed_grad sum %dy, %t[%i] sparse
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> (tensor<?xi32>, tensor<?x2xf32>)
  return
}

// -----

func.func @sparse_gradient_rows(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{'embbag.packed_grad' op result #1 (their gradient rows) must be 'tensor<?x2xf32>', but got 'tensor<5x2xf32>'}}
  %0:2 = embbag.packed_grad sum %dy, %t[%i] sparse
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> (tensor<?xi64>, tensor<5x2xf32>)
  return
}

//===----------------------------------------------------------------------===//
// _update: optimizer operands and results
//===----------------------------------------------------------------------===//

// -----

func.func @lr_not_float(%lr: i32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op operand #0 must be f16, bf16, f32 or f64, but got 'i32'}}
  %0 = embbag.packed_update sum sgd(%lr) %dy, %t[%i]
         : (i32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @state_not_float(%lr: f32, %s: tensor<5xi32>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op operand #2 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<5xi32>'}}
  %0:2 = embbag.packed_update sum rowwise_adagrad(%lr, %lr) state(%s) %dy, %t[%i]
           : (f32, f32, tensor<5xi32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> (tensor<5x2xf32>, tensor<5xi32>)
  return
}

// -----

func.func @state_rank(%lr: f32, %s: tensor<5x1xf32>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op the rowwise_adagrad state must be a 1-D tensor of one entry per table row, but got 'tensor<5x1xf32>'}}
  %0:2 = embbag.packed_update sum rowwise_adagrad(%lr, %lr) state(%s) %dy, %t[%i]
           : (f32, f32, tensor<5x1xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> (tensor<5x2xf32>, tensor<5x1xf32>)
  return
}

// -----

func.func @state_rows(%lr: f32, %s: tensor<4xf32>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op the rowwise_adagrad state has 4 entries but the table has 5 rows}}
  %0:2 = embbag.packed_update sum rowwise_adagrad(%lr, %lr) state(%s) %dy, %t[%i]
           : (f32, f32, tensor<4xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> (tensor<5x2xf32>, tensor<4xf32>)
  return
}

// -----

// The custom form cannot say it; the generic form can.
func.func @sgd_with_state(%lr: f32, %s: tensor<5xf32>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op sgd takes no epsilon and no state}}
  %0:2 = "embbag.packed_update"(%lr, %lr, %s, %dy, %t, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0, 0>, optimizer = #embbag<optimizer sgd>, reduction = #embbag<reduction sum>}>
           : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> (tensor<5x2xf32>, tensor<5xf32>)
  return
}

// -----

func.func @adagrad_without_state(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op rowwise_adagrad needs an epsilon and a state}}
  %0 = "embbag.packed_update"(%lr, %lr, %dy, %t, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 1, 0, 0>, optimizer = #embbag<optimizer rowwise_adagrad>, reduction = #embbag<reduction sum>}>
         : (f32, f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @update_table_type(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op result #0 (the updated table) must be 'tensor<5x2xf32>', but got 'tensor<5x2xf16>'}}
  %0 = embbag.packed_update sum sgd(%lr) %dy, %t[%i]
         : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf16>
  return
}

// -----

func.func @update_no_state_result(%lr: f32, %s: tensor<5xf32>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op must have 2 result(s) (the updated table, the updated state), but has 1}}
  %0 = embbag.packed_update sum rowwise_adagrad(%lr, %lr) state(%s) %dy, %t[%i]
         : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @update_state_result_type(%lr: f32, %s: tensor<?xf32>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'embbag.packed_update' op result #1 (the updated state) must be 'tensor<?xf32>', but got 'tensor<5xf32>'}}
  %0:2 = embbag.packed_update sum rowwise_adagrad(%lr, %lr) state(%s) %dy, %t[%i]
           : (f32, f32, tensor<?xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> (tensor<5x2xf32>, tensor<5xf32>)
  return
}

//===----------------------------------------------------------------------===//
// Custom syntax
//===----------------------------------------------------------------------===//

// -----

func.func @unknown_optimizer(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{expected optimizer 'sgd' or 'rowwise_adagrad', but got 'adam'}}
  %0 = embbag.packed_update sum adam(%lr) %dy, %t[%i]
         : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @adagrad_without_state_clause(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{expected 'state'}}
  %0 = embbag.packed_update sum rowwise_adagrad(%lr, %lr) %dy, %t[%i]
         : (f32, f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @update_sparse(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = embbag.packed_update sum sgd(%lr) %dy, %t[%i] sparse
         : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @sparse_before_weights(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{expected ':'}}
  %0:3 = embbag.packed_grad sum %dy, %t[%i] sparse weights(%w)
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> (tensor<?xi32>, tensor<?x2xf32>, tensor<3x2xf32>)
  return
}
