// RUN: embbag-opt %s | embbag-opt | FileCheck %s
// RUN: embbag-opt %s --mlir-print-op-generic | embbag-opt | FileCheck %s
// RUN: embbag-opt %s --mlir-print-op-generic | embbag-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round-trip tests of the embbag ops: every op, every combination of the
// optional operands, both reductions, static and dynamic shapes, multi-dim
// rows, every element type family and both index types. The custom form is
// checked after a custom and a generic round trip (the two CHECK runs), the
// generic form after a generic round trip (GENERIC).

//=============================================================================
// embbag.packed
//=============================================================================

// CHECK-LABEL: func.func @packed_sum(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_sum"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_sum(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = embbag.packed sum %table[%indices] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @packed_sum_weights(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_sum_weights"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_sum_weights(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @packed_mean(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_mean"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_mean(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @packed_sum_i64_indices(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_sum_i64_indices"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_sum_i64_indices(%table: tensor<5x2xf32>, %indices: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %0 = embbag.packed sum %table[%indices] : (tensor<5x2xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @packed_mean_i64_indices(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xf64>, tensor<3x2xi64>) -> tensor<3x2xf64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf64>
// GENERIC-LABEL: sym_name = "packed_mean_i64_indices"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf64>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf64>, tensor<3x2xi64>) -> tensor<3x2xf64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf64>) -> ()
func.func @packed_mean_i64_indices(%table: tensor<5x2xf64>, %indices: tensor<3x2xi64>) -> tensor<3x2xf64> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xf64>, tensor<3x2xi64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// CHECK-LABEL: func.func @packed_dynamic_batch(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<?x2xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xf32>, tensor<?x2xi32>, tensor<?x2xf32>) -> tensor<?x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf32>
// GENERIC-LABEL: sym_name = "packed_dynamic_batch"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<?x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<?x2xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<?x2xi32>, tensor<?x2xf32>) -> tensor<?x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xf32>) -> ()
func.func @packed_dynamic_batch(%table: tensor<5x2xf32>, %indices: tensor<?x2xi32>, %weights: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xf32>, tensor<?x2xi32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// CHECK-LABEL: func.func @packed_dynamic_indices_per_bag(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x?xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x?xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_dynamic_indices_per_bag"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x?xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<3x?xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_dynamic_indices_per_bag(%table: tensor<5x2xf32>, %indices: tensor<3x?xi32>) -> tensor<3x2xf32> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xf32>, tensor<3x?xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @packed_dynamic_num_emb(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<?x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_dynamic_num_emb"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<?x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_dynamic_num_emb(%table: tensor<?x2xf32>, %indices: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = embbag.packed sum %table[%indices] : (tensor<?x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @packed_dynamic_row(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x?xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5x?xf32>, tensor<3x2xi32>) -> tensor<3x?xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x?xf32>
// GENERIC-LABEL: sym_name = "packed_dynamic_row"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x?xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x?xf32>, tensor<3x2xi32>) -> tensor<3x?xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x?xf32>) -> ()
func.func @packed_dynamic_row(%table: tensor<5x?xf32>, %indices: tensor<3x2xi32>) -> tensor<3x?xf32> {
  %0 = embbag.packed sum %table[%indices] : (tensor<5x?xf32>, tensor<3x2xi32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @packed_all_dynamic(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x?xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?x?xi64>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<?x?xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x?xf32>
// GENERIC-LABEL: sym_name = "packed_all_dynamic"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x?xf32>, %[[I:[a-z0-9_-]+]]: tensor<?x?xi64>, %[[W:[a-z0-9_-]+]]: tensor<?x?xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x?xf32>) -> ()
func.func @packed_all_dynamic(%table: tensor<?x?xf32>, %indices: tensor<?x?xi64>, %weights: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Weights may be less static than the indices.
// CHECK-LABEL: func.func @packed_weights_more_dynamic(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<?x?xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<?x?xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_weights_more_dynamic"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<?x?xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<?x?xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_weights_more_dynamic(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>, %weights: tensor<?x?xf32>) -> tensor<3x2xf32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<?x?xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// Weights may be more static than the indices.
// CHECK-LABEL: func.func @packed_weights_more_static(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?x?xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xf32>, tensor<?x?xi32>, tensor<3x2xf32>) -> tensor<?x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf32>
// GENERIC-LABEL: sym_name = "packed_weights_more_static"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<?x?xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<?x?xi32>, tensor<3x2xf32>) -> tensor<?x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xf32>) -> ()
func.func @packed_weights_more_static(%table: tensor<5x2xf32>, %indices: tensor<?x?xi32>, %weights: tensor<3x2xf32>) -> tensor<?x2xf32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xf32>, tensor<?x?xi32>, tensor<3x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// The result type may be less static than the inferred one.
// CHECK-LABEL: func.func @packed_result_more_dynamic(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<?x?xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x?xf32>
// GENERIC-LABEL: sym_name = "packed_result_more_dynamic"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<?x?xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x?xf32>) -> ()
func.func @packed_result_more_dynamic(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>) -> tensor<?x?xf32> {
  %0 = embbag.packed sum %table[%indices] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// The result type may be more static than the inferred one.
// CHECK-LABEL: func.func @packed_result_more_static(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x?xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<?x?xf32>, tensor<?x2xi32>) -> tensor<3x4xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x4xf32>
// GENERIC-LABEL: sym_name = "packed_result_more_static"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x?xf32>, %[[I:[a-z0-9_-]+]]: tensor<?x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<?x?xf32>, tensor<?x2xi32>) -> tensor<3x4xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x4xf32>) -> ()
func.func @packed_result_more_static(%table: tensor<?x?xf32>, %indices: tensor<?x2xi32>) -> tensor<3x4xf32> {
  %0 = embbag.packed sum %table[%indices] : (tensor<?x?xf32>, tensor<?x2xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// No indices per bag: every bag is empty.
// CHECK-LABEL: func.func @packed_zero_per_bag(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x0xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x0xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_zero_per_bag"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x0xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<3x0xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_zero_per_bag(%table: tensor<5x2xf32>, %indices: tensor<3x0xi32>) -> tensor<3x2xf32> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xf32>, tensor<3x0xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @packed_empty_batch(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<0x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<0x2xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xf32>, tensor<0x2xi32>, tensor<0x2xf32>) -> tensor<0x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<0x2xf32>
// GENERIC-LABEL: sym_name = "packed_empty_batch"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<0x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<0x2xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<0x2xi32>, tensor<0x2xf32>) -> tensor<0x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<0x2xf32>) -> ()
func.func @packed_empty_batch(%table: tensor<5x2xf32>, %indices: tensor<0x2xi32>, %weights: tensor<0x2xf32>) -> tensor<0x2xf32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xf32>, tensor<0x2xi32>, tensor<0x2xf32>) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

// A rank-1 table has scalar rows.
// CHECK-LABEL: func.func @packed_rank1_table(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5xf32>, tensor<3x2xi32>) -> tensor<3xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3xf32>
// GENERIC-LABEL: sym_name = "packed_rank1_table"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5xf32>, tensor<3x2xi32>) -> tensor<3xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3xf32>) -> ()
func.func @packed_rank1_table(%table: tensor<5xf32>, %indices: tensor<3x2xi32>) -> tensor<3xf32> {
  %0 = embbag.packed sum %table[%indices] : (tensor<5xf32>, tensor<3x2xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @packed_multidim_rows(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<6x2x3xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4x2xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<6x2x3xf32>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x2x3xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<4x2x3xf32>
// GENERIC-LABEL: sym_name = "packed_multidim_rows"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<6x2x3xf32>, %[[I:[a-z0-9_-]+]]: tensor<4x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<4x2xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<6x2x3xf32>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x2x3xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<4x2x3xf32>) -> ()
func.func @packed_multidim_rows(%table: tensor<6x2x3xf32>, %indices: tensor<4x2xi32>, %weights: tensor<4x2xf32>) -> tensor<4x2x3xf32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<6x2x3xf32>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @packed_multidim_rows_dynamic(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x2x?x4xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?x3xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<?x2x?x4xf32>, tensor<?x3xi64>) -> tensor<?x2x?x4xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2x?x4xf32>
// GENERIC-LABEL: sym_name = "packed_multidim_rows_dynamic"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x2x?x4xf32>, %[[I:[a-z0-9_-]+]]: tensor<?x3xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<?x2x?x4xf32>, tensor<?x3xi64>) -> tensor<?x2x?x4xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2x?x4xf32>) -> ()
func.func @packed_multidim_rows_dynamic(%table: tensor<?x2x?x4xf32>, %indices: tensor<?x3xi64>) -> tensor<?x2x?x4xf32> {
  %0 = embbag.packed mean %table[%indices] : (tensor<?x2x?x4xf32>, tensor<?x3xi64>) -> tensor<?x2x?x4xf32>
  return %0 : tensor<?x2x?x4xf32>
}

// Discardable attributes print before the type.
// CHECK-LABEL: func.func @packed_discardable_attr(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] {tag = "x"} : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "packed_discardable_attr"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> {tag = "x"} : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @packed_discardable_attr(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = embbag.packed sum %table[%indices] {tag = "x"} : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

//=============================================================================
// embbag.packed: element types
//=============================================================================

// CHECK-LABEL: func.func @packed_sum_f16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xf16>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xf16>, tensor<3x2xi32>, tensor<3x2xf16>) -> tensor<3x2xf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf16>
// GENERIC-LABEL: sym_name = "packed_sum_f16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf16>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xf16>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf16>, tensor<3x2xi32>, tensor<3x2xf16>) -> tensor<3x2xf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf16>) -> ()
func.func @packed_sum_f16(%table: tensor<5x2xf16>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xf16>) -> tensor<3x2xf16> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xf16>, tensor<3x2xi32>, tensor<3x2xf16>) -> tensor<3x2xf16>
  return %0 : tensor<3x2xf16>
}

// CHECK-LABEL: func.func @packed_mean_f16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xf16>, tensor<3x2xi64>) -> tensor<3x2xf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf16>
// GENERIC-LABEL: sym_name = "packed_mean_f16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf16>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf16>, tensor<3x2xi64>) -> tensor<3x2xf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf16>) -> ()
func.func @packed_mean_f16(%table: tensor<5x2xf16>, %indices: tensor<3x2xi64>) -> tensor<3x2xf16> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xf16>, tensor<3x2xi64>) -> tensor<3x2xf16>
  return %0 : tensor<3x2xf16>
}

// CHECK-LABEL: func.func @packed_sum_bf16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xbf16>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xbf16>, tensor<3x2xi32>, tensor<3x2xbf16>) -> tensor<3x2xbf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xbf16>
// GENERIC-LABEL: sym_name = "packed_sum_bf16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xbf16>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xbf16>, tensor<3x2xi32>, tensor<3x2xbf16>) -> tensor<3x2xbf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xbf16>) -> ()
func.func @packed_sum_bf16(%table: tensor<5x2xbf16>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xbf16>) -> tensor<3x2xbf16> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xbf16>, tensor<3x2xi32>, tensor<3x2xbf16>) -> tensor<3x2xbf16>
  return %0 : tensor<3x2xbf16>
}

// CHECK-LABEL: func.func @packed_mean_bf16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xbf16>, tensor<3x2xi64>) -> tensor<3x2xbf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xbf16>
// GENERIC-LABEL: sym_name = "packed_mean_bf16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xbf16>, tensor<3x2xi64>) -> tensor<3x2xbf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xbf16>) -> ()
func.func @packed_mean_bf16(%table: tensor<5x2xbf16>, %indices: tensor<3x2xi64>) -> tensor<3x2xbf16> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xbf16>, tensor<3x2xi64>) -> tensor<3x2xbf16>
  return %0 : tensor<3x2xbf16>
}

// CHECK-LABEL: func.func @packed_sum_f64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xf64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xf64>, tensor<3x2xi32>, tensor<3x2xf64>) -> tensor<3x2xf64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf64>
// GENERIC-LABEL: sym_name = "packed_sum_f64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf64>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xf64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf64>, tensor<3x2xi32>, tensor<3x2xf64>) -> tensor<3x2xf64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf64>) -> ()
func.func @packed_sum_f64(%table: tensor<5x2xf64>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xf64>, tensor<3x2xi32>, tensor<3x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// CHECK-LABEL: func.func @packed_mean_f64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xf64>, tensor<3x2xi64>) -> tensor<3x2xf64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf64>
// GENERIC-LABEL: sym_name = "packed_mean_f64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf64>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf64>, tensor<3x2xi64>) -> tensor<3x2xf64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf64>) -> ()
func.func @packed_mean_f64(%table: tensor<5x2xf64>, %indices: tensor<3x2xi64>) -> tensor<3x2xf64> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xf64>, tensor<3x2xi64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// CHECK-LABEL: func.func @packed_sum_i8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xi8>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xi8>, tensor<3x2xi32>, tensor<3x2xi8>) -> tensor<3x2xi8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi8>
// GENERIC-LABEL: sym_name = "packed_sum_i8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi8>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xi8>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi8>, tensor<3x2xi32>, tensor<3x2xi8>) -> tensor<3x2xi8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi8>) -> ()
func.func @packed_sum_i8(%table: tensor<5x2xi8>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xi8>) -> tensor<3x2xi8> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xi8>, tensor<3x2xi32>, tensor<3x2xi8>) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// CHECK-LABEL: func.func @packed_mean_i8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xi8>, tensor<3x2xi64>) -> tensor<3x2xi8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi8>
// GENERIC-LABEL: sym_name = "packed_mean_i8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi8>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi8>, tensor<3x2xi64>) -> tensor<3x2xi8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi8>) -> ()
func.func @packed_mean_i8(%table: tensor<5x2xi8>, %indices: tensor<3x2xi64>) -> tensor<3x2xi8> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xi8>, tensor<3x2xi64>) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// CHECK-LABEL: func.func @packed_sum_i16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xi16>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xi16>, tensor<3x2xi32>, tensor<3x2xi16>) -> tensor<3x2xi16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi16>
// GENERIC-LABEL: sym_name = "packed_sum_i16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi16>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xi16>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi16>, tensor<3x2xi32>, tensor<3x2xi16>) -> tensor<3x2xi16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi16>) -> ()
func.func @packed_sum_i16(%table: tensor<5x2xi16>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xi16>) -> tensor<3x2xi16> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xi16>, tensor<3x2xi32>, tensor<3x2xi16>) -> tensor<3x2xi16>
  return %0 : tensor<3x2xi16>
}

// CHECK-LABEL: func.func @packed_mean_i16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xi16>, tensor<3x2xi64>) -> tensor<3x2xi16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi16>
// GENERIC-LABEL: sym_name = "packed_mean_i16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi16>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi16>, tensor<3x2xi64>) -> tensor<3x2xi16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi16>) -> ()
func.func @packed_mean_i16(%table: tensor<5x2xi16>, %indices: tensor<3x2xi64>) -> tensor<3x2xi16> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xi16>, tensor<3x2xi64>) -> tensor<3x2xi16>
  return %0 : tensor<3x2xi16>
}

// CHECK-LABEL: func.func @packed_sum_i32(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xi32>, tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi32>
// GENERIC-LABEL: sym_name = "packed_sum_i32"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi32>, tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi32>) -> ()
func.func @packed_sum_i32(%table: tensor<5x2xi32>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xi32>) -> tensor<3x2xi32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xi32>, tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// CHECK-LABEL: func.func @packed_mean_i32(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xi32>, tensor<3x2xi64>) -> tensor<3x2xi32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi32>
// GENERIC-LABEL: sym_name = "packed_mean_i32"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi32>, tensor<3x2xi64>) -> tensor<3x2xi32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi32>) -> ()
func.func @packed_mean_i32(%table: tensor<5x2xi32>, %indices: tensor<3x2xi64>) -> tensor<3x2xi32> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xi32>, tensor<3x2xi64>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// CHECK-LABEL: func.func @packed_sum_i64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xi64>, tensor<3x2xi32>, tensor<3x2xi64>) -> tensor<3x2xi64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi64>
// GENERIC-LABEL: sym_name = "packed_sum_i64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi64>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi64>, tensor<3x2xi32>, tensor<3x2xi64>) -> tensor<3x2xi64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi64>) -> ()
func.func @packed_sum_i64(%table: tensor<5x2xi64>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xi64>) -> tensor<3x2xi64> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xi64>, tensor<3x2xi32>, tensor<3x2xi64>) -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}

// CHECK-LABEL: func.func @packed_mean_i64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi64>
// GENERIC-LABEL: sym_name = "packed_mean_i64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi64>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi64>) -> ()
func.func @packed_mean_i64(%table: tensor<5x2xi64>, %indices: tensor<3x2xi64>) -> tensor<3x2xi64> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}

// CHECK-LABEL: func.func @packed_sum_si8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xsi8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xsi8>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xsi8>, tensor<3x2xi32>, tensor<3x2xsi8>) -> tensor<3x2xsi8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xsi8>
// GENERIC-LABEL: sym_name = "packed_sum_si8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xsi8>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xsi8>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xsi8>, tensor<3x2xi32>, tensor<3x2xsi8>) -> tensor<3x2xsi8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xsi8>) -> ()
func.func @packed_sum_si8(%table: tensor<5x2xsi8>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xsi8>) -> tensor<3x2xsi8> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xsi8>, tensor<3x2xi32>, tensor<3x2xsi8>) -> tensor<3x2xsi8>
  return %0 : tensor<3x2xsi8>
}

// CHECK-LABEL: func.func @packed_mean_si8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xsi8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xsi8>, tensor<3x2xi64>) -> tensor<3x2xsi8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xsi8>
// GENERIC-LABEL: sym_name = "packed_mean_si8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xsi8>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xsi8>, tensor<3x2xi64>) -> tensor<3x2xsi8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xsi8>) -> ()
func.func @packed_mean_si8(%table: tensor<5x2xsi8>, %indices: tensor<3x2xi64>) -> tensor<3x2xsi8> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xsi8>, tensor<3x2xi64>) -> tensor<3x2xsi8>
  return %0 : tensor<3x2xsi8>
}

// CHECK-LABEL: func.func @packed_sum_si32(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xsi32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xsi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xsi32>, tensor<3x2xi32>, tensor<3x2xsi32>) -> tensor<3x2xsi32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xsi32>
// GENERIC-LABEL: sym_name = "packed_sum_si32"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xsi32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xsi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xsi32>, tensor<3x2xi32>, tensor<3x2xsi32>) -> tensor<3x2xsi32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xsi32>) -> ()
func.func @packed_sum_si32(%table: tensor<5x2xsi32>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xsi32>) -> tensor<3x2xsi32> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xsi32>, tensor<3x2xi32>, tensor<3x2xsi32>) -> tensor<3x2xsi32>
  return %0 : tensor<3x2xsi32>
}

// CHECK-LABEL: func.func @packed_mean_si32(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xsi32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xsi32>, tensor<3x2xi64>) -> tensor<3x2xsi32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xsi32>
// GENERIC-LABEL: sym_name = "packed_mean_si32"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xsi32>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xsi32>, tensor<3x2xi64>) -> tensor<3x2xsi32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xsi32>) -> ()
func.func @packed_mean_si32(%table: tensor<5x2xsi32>, %indices: tensor<3x2xi64>) -> tensor<3x2xsi32> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xsi32>, tensor<3x2xi64>) -> tensor<3x2xsi32>
  return %0 : tensor<3x2xsi32>
}

// CHECK-LABEL: func.func @packed_sum_ui8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xui8>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xui8>, tensor<3x2xi32>, tensor<3x2xui8>) -> tensor<3x2xui8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui8>
// GENERIC-LABEL: sym_name = "packed_sum_ui8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui8>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xui8>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xui8>, tensor<3x2xi32>, tensor<3x2xui8>) -> tensor<3x2xui8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui8>) -> ()
func.func @packed_sum_ui8(%table: tensor<5x2xui8>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xui8>) -> tensor<3x2xui8> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xui8>, tensor<3x2xi32>, tensor<3x2xui8>) -> tensor<3x2xui8>
  return %0 : tensor<3x2xui8>
}

// CHECK-LABEL: func.func @packed_mean_ui8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xui8>, tensor<3x2xi64>) -> tensor<3x2xui8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui8>
// GENERIC-LABEL: sym_name = "packed_mean_ui8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui8>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xui8>, tensor<3x2xi64>) -> tensor<3x2xui8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui8>) -> ()
func.func @packed_mean_ui8(%table: tensor<5x2xui8>, %indices: tensor<3x2xi64>) -> tensor<3x2xui8> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xui8>, tensor<3x2xi64>) -> tensor<3x2xui8>
  return %0 : tensor<3x2xui8>
}

// CHECK-LABEL: func.func @packed_sum_ui16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xui16>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xui16>, tensor<3x2xi32>, tensor<3x2xui16>) -> tensor<3x2xui16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui16>
// GENERIC-LABEL: sym_name = "packed_sum_ui16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui16>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xui16>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xui16>, tensor<3x2xi32>, tensor<3x2xui16>) -> tensor<3x2xui16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui16>) -> ()
func.func @packed_sum_ui16(%table: tensor<5x2xui16>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xui16>) -> tensor<3x2xui16> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xui16>, tensor<3x2xi32>, tensor<3x2xui16>) -> tensor<3x2xui16>
  return %0 : tensor<3x2xui16>
}

// CHECK-LABEL: func.func @packed_mean_ui16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xui16>, tensor<3x2xi64>) -> tensor<3x2xui16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui16>
// GENERIC-LABEL: sym_name = "packed_mean_ui16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui16>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xui16>, tensor<3x2xi64>) -> tensor<3x2xui16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui16>) -> ()
func.func @packed_mean_ui16(%table: tensor<5x2xui16>, %indices: tensor<3x2xi64>) -> tensor<3x2xui16> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xui16>, tensor<3x2xi64>) -> tensor<3x2xui16>
  return %0 : tensor<3x2xui16>
}

// CHECK-LABEL: func.func @packed_sum_ui64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xui64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xui64>, tensor<3x2xi32>, tensor<3x2xui64>) -> tensor<3x2xui64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui64>
// GENERIC-LABEL: sym_name = "packed_sum_ui64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui64>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xui64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xui64>, tensor<3x2xi32>, tensor<3x2xui64>) -> tensor<3x2xui64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui64>) -> ()
func.func @packed_sum_ui64(%table: tensor<5x2xui64>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xui64>) -> tensor<3x2xui64> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xui64>, tensor<3x2xi32>, tensor<3x2xui64>) -> tensor<3x2xui64>
  return %0 : tensor<3x2xui64>
}

// CHECK-LABEL: func.func @packed_mean_ui64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xui64>, tensor<3x2xi64>) -> tensor<3x2xui64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui64>
// GENERIC-LABEL: sym_name = "packed_mean_ui64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui64>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xui64>, tensor<3x2xi64>) -> tensor<3x2xui64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui64>) -> ()
func.func @packed_mean_ui64(%table: tensor<5x2xui64>, %indices: tensor<3x2xi64>) -> tensor<3x2xui64> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xui64>, tensor<3x2xi64>) -> tensor<3x2xui64>
  return %0 : tensor<3x2xui64>
}

// CHECK-LABEL: func.func @packed_sum_i4(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi4>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xi4>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xi4>, tensor<3x2xi32>, tensor<3x2xi4>) -> tensor<3x2xi4>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi4>
// GENERIC-LABEL: sym_name = "packed_sum_i4"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi4>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi32>, %[[W:[a-z0-9_-]+]]: tensor<3x2xi4>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi4>, tensor<3x2xi32>, tensor<3x2xi4>) -> tensor<3x2xi4>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi4>) -> ()
func.func @packed_sum_i4(%table: tensor<5x2xi4>, %indices: tensor<3x2xi32>, %weights: tensor<3x2xi4>) -> tensor<3x2xi4> {
  %0 = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xi4>, tensor<3x2xi32>, tensor<3x2xi4>) -> tensor<3x2xi4>
  return %0 : tensor<3x2xi4>
}

// CHECK-LABEL: func.func @packed_mean_i4(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi4>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xi4>, tensor<3x2xi64>) -> tensor<3x2xi4>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi4>
// GENERIC-LABEL: sym_name = "packed_mean_i4"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi4>, %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.packed"(%[[T]], %[[I]]) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi4>, tensor<3x2xi64>) -> tensor<3x2xi4>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi4>) -> ()
func.func @packed_mean_i4(%table: tensor<5x2xi4>, %indices: tensor<3x2xi64>) -> tensor<3x2xi4> {
  %0 = embbag.packed mean %table[%indices] : (tensor<5x2xi4>, tensor<3x2xi64>) -> tensor<3x2xi4>
  return %0 : tensor<3x2xi4>
}

//=============================================================================
// embbag.offsets
//=============================================================================

// CHECK-LABEL: func.func @offsets_sum(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_sum"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_sum(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_sum_default(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_sum_default"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_sum_default(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32) -> tensor<3x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_sum_weights(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_sum_weights"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_sum_weights(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %weights: tensor<4xf32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) weights(%weights) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_sum_default_weights(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_sum_default_weights"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_sum_default_weights(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xf32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_mean(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_mean"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_mean(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_mean_default(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_mean_default"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_mean_default(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32) -> tensor<3x2xf32> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_i64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_i64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_i64(%table: tensor<5x2xf32>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64, %weights: tensor<4xf32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_mean_i64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_mean_i64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_mean_i64(%table: tensor<5x2xf32>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64) -> tensor<3x2xf32> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_dynamic_batch(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<?xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf32>
// GENERIC-LABEL: sym_name = "offsets_dynamic_batch"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<?xi32>, %[[D:[a-z0-9_-]+]]: i32):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xf32>) -> ()
func.func @offsets_dynamic_batch(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<?xi32>, %default: i32) -> tensor<?x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xf32>, tensor<4xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// CHECK-LABEL: func.func @offsets_dynamic_num_indices(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<?xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<?xi32>, tensor<3xi32>, tensor<?xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_dynamic_num_indices"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<?xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[W:[a-z0-9_-]+]]: tensor<?xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<?xi32>, tensor<3xi32>, tensor<?xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_dynamic_num_indices(%table: tensor<5x2xf32>, %indices: tensor<?xi32>, %offsets: tensor<3xi32>, %weights: tensor<?xf32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) weights(%weights) : (tensor<5x2xf32>, tensor<?xi32>, tensor<3xi32>, tensor<?xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_dynamic_num_emb(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<?x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_dynamic_num_emb"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<?x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_dynamic_num_emb(%table: tensor<?x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) : (tensor<?x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_dynamic_row(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x?xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x?xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x?xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x?xf32>
// GENERIC-LABEL: sym_name = "offsets_dynamic_row"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x?xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x?xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x?xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x?xf32>) -> ()
func.func @offsets_dynamic_row(%table: tensor<5x?xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32) -> tensor<3x?xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) : (tensor<5x?xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @offsets_all_dynamic(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x?xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<?xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<?xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, tensor<?xf32>) -> tensor<?x?xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x?xf32>
// GENERIC-LABEL: sym_name = "offsets_all_dynamic"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x?xf32>, %[[I:[a-z0-9_-]+]]: tensor<?xi64>, %[[O:[a-z0-9_-]+]]: tensor<?xi64>, %[[D:[a-z0-9_-]+]]: i64, %[[W:[a-z0-9_-]+]]: tensor<?xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, tensor<?xf32>) -> tensor<?x?xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x?xf32>) -> ()
func.func @offsets_all_dynamic(%table: tensor<?x?xf32>, %indices: tensor<?xi64>, %offsets: tensor<?xi64>, %default: i64, %weights: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @offsets_multidim_rows(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<6x2x3xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2x3xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2x3xf32>
// GENERIC-LABEL: sym_name = "offsets_multidim_rows"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<6x2x3xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2x3xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2x3xf32>) -> ()
func.func @offsets_multidim_rows(%table: tensor<6x2x3xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xf32>) -> tensor<3x2x3xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2x3xf32>
  return %0 : tensor<3x2x3xf32>
}

// No indices at all: every bag is empty.
// CHECK-LABEL: func.func @offsets_no_indices(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<0xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<0xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<0xi32>, tensor<3xi32>, tensor<0xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_no_indices"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<0xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[W:[a-z0-9_-]+]]: tensor<0xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<0xi32>, tensor<3xi32>, tensor<0xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_no_indices(%table: tensor<5x2xf32>, %indices: tensor<0xi32>, %offsets: tensor<3xi32>, %weights: tensor<0xf32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) weights(%weights) : (tensor<5x2xf32>, tensor<0xi32>, tensor<3xi32>, tensor<0xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_empty_batch(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<0xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<0xi32>) -> tensor<0x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<0x2xf32>
// GENERIC-LABEL: sym_name = "offsets_empty_batch"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<0xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<0xi32>) -> tensor<0x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<0x2xf32>) -> ()
func.func @offsets_empty_batch(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<0xi32>) -> tensor<0x2xf32> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) : (tensor<5x2xf32>, tensor<4xi32>, tensor<0xi32>) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

// A constant default of -1 means no default.
// CHECK-LABEL: func.func @offsets_const_default_minus1(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>)
// CHECK-NEXT:      %[[D:[a-z0-9_-]+]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_const_default_minus1"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>):
// GENERIC-NEXT:    %[[D:[a-z0-9_-]+]] = "arith.constant"() <{value = -1 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_const_default_minus1(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>) -> tensor<3x2xf32> {
  %default = arith.constant -1 : i32
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// The last row of the table is a valid default.
// CHECK-LABEL: func.func @offsets_const_default_last_row(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>)
// CHECK-NEXT:      %[[D:[a-z0-9_-]+]] = arith.constant 4 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_const_default_last_row"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>):
// GENERIC-NEXT:    %[[D:[a-z0-9_-]+]] = "arith.constant"() <{value = 4 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_const_default_last_row(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>) -> tensor<3x2xf32> {
  %default = arith.constant 4 : i32
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// A dynamic table has no static bound for the default.
// CHECK-LABEL: func.func @offsets_const_default_dynamic_table(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>)
// CHECK-NEXT:      %[[D:[a-z0-9_-]+]] = arith.constant 100 : i64
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<?x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "offsets_const_default_dynamic_table"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>):
// GENERIC-NEXT:    %[[D:[a-z0-9_-]+]] = "arith.constant"() <{value = 100 : i64}> : () -> i64
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<?x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @offsets_const_default_dynamic_table(%table: tensor<?x2xf32>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>) -> tensor<3x2xf32> {
  %default = arith.constant 100 : i64
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) : (tensor<?x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @offsets_sum_f16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf16>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf16>) -> tensor<3x2xf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf16>
// GENERIC-LABEL: sym_name = "offsets_sum_f16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf16>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf16>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf16>) -> tensor<3x2xf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf16>) -> ()
func.func @offsets_sum_f16(%table: tensor<5x2xf16>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xf16>) -> tensor<3x2xf16> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xf16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf16>) -> tensor<3x2xf16>
  return %0 : tensor<3x2xf16>
}

// CHECK-LABEL: func.func @offsets_mean_f16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf16>
// GENERIC-LABEL: sym_name = "offsets_mean_f16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf16>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf16>) -> ()
func.func @offsets_mean_f16(%table: tensor<5x2xf16>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64) -> tensor<3x2xf16> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xf16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf16>
  return %0 : tensor<3x2xf16>
}

// CHECK-LABEL: func.func @offsets_sum_bf16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xbf16>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xbf16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xbf16>) -> tensor<3x2xbf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xbf16>
// GENERIC-LABEL: sym_name = "offsets_sum_bf16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xbf16>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xbf16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xbf16>) -> tensor<3x2xbf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xbf16>) -> ()
func.func @offsets_sum_bf16(%table: tensor<5x2xbf16>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xbf16>) -> tensor<3x2xbf16> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xbf16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xbf16>) -> tensor<3x2xbf16>
  return %0 : tensor<3x2xbf16>
}

// CHECK-LABEL: func.func @offsets_mean_bf16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xbf16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xbf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xbf16>
// GENERIC-LABEL: sym_name = "offsets_mean_bf16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xbf16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xbf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xbf16>) -> ()
func.func @offsets_mean_bf16(%table: tensor<5x2xbf16>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64) -> tensor<3x2xbf16> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xbf16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xbf16>
  return %0 : tensor<3x2xbf16>
}

// CHECK-LABEL: func.func @offsets_sum_f64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf64>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf64>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf64>) -> tensor<3x2xf64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf64>
// GENERIC-LABEL: sym_name = "offsets_sum_f64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf64>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf64>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf64>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf64>) -> tensor<3x2xf64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf64>) -> ()
func.func @offsets_sum_f64(%table: tensor<5x2xf64>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xf64>) -> tensor<3x2xf64> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xf64>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// CHECK-LABEL: func.func @offsets_mean_f64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xf64>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf64>
// GENERIC-LABEL: sym_name = "offsets_mean_f64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf64>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf64>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf64>) -> ()
func.func @offsets_mean_f64(%table: tensor<5x2xf64>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64) -> tensor<3x2xf64> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xf64>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// CHECK-LABEL: func.func @offsets_sum_i8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xi8>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xi8>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xi8>) -> tensor<3x2xi8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi8>
// GENERIC-LABEL: sym_name = "offsets_sum_i8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi8>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xi8>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi8>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xi8>) -> tensor<3x2xi8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi8>) -> ()
func.func @offsets_sum_i8(%table: tensor<5x2xi8>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xi8>) -> tensor<3x2xi8> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xi8>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xi8>) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// CHECK-LABEL: func.func @offsets_mean_i8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xi8>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xi8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi8>
// GENERIC-LABEL: sym_name = "offsets_mean_i8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi8>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi8>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xi8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi8>) -> ()
func.func @offsets_mean_i8(%table: tensor<5x2xi8>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64) -> tensor<3x2xi8> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xi8>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// CHECK-LABEL: func.func @offsets_sum_i32(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xi32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xi32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xi32>) -> tensor<3x2xi32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi32>
// GENERIC-LABEL: sym_name = "offsets_sum_i32"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xi32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xi32>) -> tensor<3x2xi32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi32>) -> ()
func.func @offsets_sum_i32(%table: tensor<5x2xi32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xi32>) -> tensor<3x2xi32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xi32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// CHECK-LABEL: func.func @offsets_mean_i32(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xi32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xi32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi32>
// GENERIC-LABEL: sym_name = "offsets_mean_i32"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi32>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xi32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi32>) -> ()
func.func @offsets_mean_i32(%table: tensor<5x2xi32>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64) -> tensor<3x2xi32> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xi32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// CHECK-LABEL: func.func @offsets_sum_si16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xsi16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xsi16>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xsi16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xsi16>) -> tensor<3x2xsi16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xsi16>
// GENERIC-LABEL: sym_name = "offsets_sum_si16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xsi16>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xsi16>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xsi16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xsi16>) -> tensor<3x2xsi16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xsi16>) -> ()
func.func @offsets_sum_si16(%table: tensor<5x2xsi16>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xsi16>) -> tensor<3x2xsi16> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xsi16>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xsi16>) -> tensor<3x2xsi16>
  return %0 : tensor<3x2xsi16>
}

// CHECK-LABEL: func.func @offsets_mean_si16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xsi16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xsi16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xsi16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xsi16>
// GENERIC-LABEL: sym_name = "offsets_mean_si16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xsi16>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xsi16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xsi16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xsi16>) -> ()
func.func @offsets_mean_si16(%table: tensor<5x2xsi16>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64) -> tensor<3x2xsi16> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xsi16>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xsi16>
  return %0 : tensor<3x2xsi16>
}

// CHECK-LABEL: func.func @offsets_sum_ui32(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xui32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xui32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xui32>) -> tensor<3x2xui32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui32>
// GENERIC-LABEL: sym_name = "offsets_sum_ui32"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[O:[a-z0-9_-]+]]: tensor<3xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xui32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xui32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xui32>) -> tensor<3x2xui32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui32>) -> ()
func.func @offsets_sum_ui32(%table: tensor<5x2xui32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %default: i32, %weights: tensor<4xui32>) -> tensor<3x2xui32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xui32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xui32>) -> tensor<3x2xui32>
  return %0 : tensor<3x2xui32>
}

// CHECK-LABEL: func.func @offsets_mean_ui32(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<3xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<5x2xui32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xui32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui32>
// GENERIC-LABEL: sym_name = "offsets_mean_ui32"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui32>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[O:[a-z0-9_-]+]]: tensor<3xi64>, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.offsets"(%[[T]], %[[I]], %[[O]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xui32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xui32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui32>) -> ()
func.func @offsets_mean_ui32(%table: tensor<5x2xui32>, %indices: tensor<4xi64>, %offsets: tensor<3xi64>, %default: i64) -> tensor<3x2xui32> {
  %0 = embbag.offsets mean %table[%indices] offsets(%offsets) default(%default) : (tensor<5x2xui32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xui32>
  return %0 : tensor<3x2xui32>
}

//=============================================================================
// embbag.segments
//=============================================================================

// CHECK-LABEL: func.func @segments_sum(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_sum"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_sum(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_sum_default(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_sum_default"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_sum_default(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_sum_weights(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_sum_weights"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_sum_weights(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %weights: tensor<4xf32>) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) weights(%weights) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_sum_default_weights(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_sum_default_weights"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_sum_default_weights(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xf32>) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_mean(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_mean"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_mean(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_mean_default(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_mean_default"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_mean_default(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// A non-constant num_segments gives a dynamic result dim 0.
// CHECK-LABEL: func.func @segments_dynamic_num_segments(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<?x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf32>
// GENERIC-LABEL: sym_name = "segments_dynamic_num_segments"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[N:[a-z0-9_-]+]]: i32, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<?x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xf32>) -> ()
func.func @segments_dynamic_num_segments(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %num_segments: i32, %default: i32, %weights: tensor<4xf32>) -> tensor<?x2xf32> {
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// The result may be more static than num_segments says.
// CHECK-LABEL: func.func @segments_dynamic_num_segments_static_result(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i32)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_dynamic_num_segments_static_result"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[N:[a-z0-9_-]+]]: i32):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_dynamic_num_segments_static_result(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %num_segments: i32) -> tensor<3x2xf32> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// The result may be less static than a constant num_segments.
// CHECK-LABEL: func.func @segments_const_num_segments_dynamic_result(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf32>
// GENERIC-LABEL: sym_name = "segments_const_num_segments_dynamic_result"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xf32>) -> ()
func.func @segments_const_num_segments_dynamic_result(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>) -> tensor<?x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// CHECK-LABEL: func.func @segments_zero_segments(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<0x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<0x2xf32>
// GENERIC-LABEL: sym_name = "segments_zero_segments"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<0x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<0x2xf32>) -> ()
func.func @segments_zero_segments(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>) -> tensor<0x2xf32> {
  %num_segments = arith.constant 0 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

// CHECK-LABEL: func.func @segments_i64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i64
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_i64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[D:[a-z0-9_-]+]]: i64, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i64}> : () -> i64
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_i64(%table: tensor<5x2xf32>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %default: i64, %weights: tensor<4xf32>) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i64
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_i64_dynamic(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<?x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf32>
// GENERIC-LABEL: sym_name = "segments_i64_dynamic"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[N:[a-z0-9_-]+]]: i64, %[[D:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<?x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xf32>) -> ()
func.func @segments_i64_dynamic(%table: tensor<5x2xf32>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %num_segments: i64, %default: i64) -> tensor<?x2xf32> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// CHECK-LABEL: func.func @segments_dynamic_num_indices(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<?xi32>,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<?xf32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_dynamic_num_indices"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<?xi32>, %[[S:[a-z0-9_-]+]]: tensor<?xi32>, %[[W:[a-z0-9_-]+]]: tensor<?xf32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_dynamic_num_indices(%table: tensor<5x2xf32>, %indices: tensor<?xi32>, %segment_ids: tensor<?xi32>, %weights: tensor<?xf32>) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) weights(%weights) : (tensor<5x2xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_dynamic_num_emb(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<?x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_dynamic_num_emb"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<?x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_dynamic_num_emb(%table: tensor<?x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<?x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_dynamic_row(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x?xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x?xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x?xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x?xf32>
// GENERIC-LABEL: sym_name = "segments_dynamic_row"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x?xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x?xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x?xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x?xf32>) -> ()
func.func @segments_dynamic_row(%table: tensor<5x?xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>) -> tensor<3x?xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x?xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @segments_all_dynamic(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<?x?xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<?xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<?xf32>)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, i64, tensor<?xf32>) -> tensor<?x?xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x?xf32>
// GENERIC-LABEL: sym_name = "segments_all_dynamic"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<?x?xf32>, %[[I:[a-z0-9_-]+]]: tensor<?xi64>, %[[S:[a-z0-9_-]+]]: tensor<?xi64>, %[[N:[a-z0-9_-]+]]: i64, %[[D:[a-z0-9_-]+]]: i64, %[[W:[a-z0-9_-]+]]: tensor<?xf32>):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, i64, tensor<?xf32>) -> tensor<?x?xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x?xf32>) -> ()
func.func @segments_all_dynamic(%table: tensor<?x?xf32>, %indices: tensor<?xi64>, %segment_ids: tensor<?xi64>, %num_segments: i64, %default: i64, %weights: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, i64, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @segments_multidim_rows(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<6x2x3xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2x3xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2x3xf32>
// GENERIC-LABEL: sym_name = "segments_multidim_rows"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<6x2x3xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2x3xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2x3xf32>) -> ()
func.func @segments_multidim_rows(%table: tensor<6x2x3xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xf32>) -> tensor<3x2x3xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<6x2x3xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2x3xf32>
  return %0 : tensor<3x2x3xf32>
}

// CHECK-LABEL: func.func @segments_no_indices(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<0xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<0xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_no_indices"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<0xi32>, %[[S:[a-z0-9_-]+]]: tensor<0xi32>, %[[D:[a-z0-9_-]+]]: i32):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_no_indices(%table: tensor<5x2xf32>, %indices: tensor<0xi32>, %segment_ids: tensor<0xi32>, %default: i32) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) : (tensor<5x2xf32>, tensor<0xi32>, tensor<0xi32>, i32, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_const_default_minus1(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[D:[a-z0-9_-]+]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf32>
// GENERIC-LABEL: sym_name = "segments_const_default_minus1"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[D:[a-z0-9_-]+]] = "arith.constant"() <{value = -1 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf32>) -> ()
func.func @segments_const_default_minus1(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>) -> tensor<3x2xf32> {
  %num_segments = arith.constant 3 : i32
  %default = arith.constant -1 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_sum_f16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf16>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf16>) -> tensor<3x2xf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf16>
// GENERIC-LABEL: sym_name = "segments_sum_f16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf16>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf16>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf16>) -> tensor<3x2xf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf16>) -> ()
func.func @segments_sum_f16(%table: tensor<5x2xf16>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xf16>) -> tensor<3x2xf16> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf16>) -> tensor<3x2xf16>
  return %0 : tensor<3x2xf16>
}

// CHECK-LABEL: func.func @segments_mean_f16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf16>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf16>
// GENERIC-LABEL: sym_name = "segments_mean_f16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf16>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[N:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf16>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xf16>) -> ()
func.func @segments_mean_f16(%table: tensor<5x2xf16>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %num_segments: i64) -> tensor<?x2xf16> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xf16>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf16>
  return %0 : tensor<?x2xf16>
}

// CHECK-LABEL: func.func @segments_sum_bf16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xbf16>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xbf16>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xbf16>) -> tensor<3x2xbf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xbf16>
// GENERIC-LABEL: sym_name = "segments_sum_bf16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xbf16>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xbf16>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xbf16>) -> tensor<3x2xbf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xbf16>) -> ()
func.func @segments_sum_bf16(%table: tensor<5x2xbf16>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xbf16>) -> tensor<3x2xbf16> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xbf16>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xbf16>) -> tensor<3x2xbf16>
  return %0 : tensor<3x2xbf16>
}

// CHECK-LABEL: func.func @segments_mean_bf16(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xbf16>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xbf16>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xbf16>
// GENERIC-LABEL: sym_name = "segments_mean_bf16"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xbf16>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[N:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xbf16>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xbf16>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xbf16>) -> ()
func.func @segments_mean_bf16(%table: tensor<5x2xbf16>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %num_segments: i64) -> tensor<?x2xbf16> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xbf16>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xbf16>
  return %0 : tensor<?x2xbf16>
}

// CHECK-LABEL: func.func @segments_sum_f64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf64>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf64>) -> tensor<3x2xf64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xf64>
// GENERIC-LABEL: sym_name = "segments_sum_f64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf64>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xf64>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf64>) -> tensor<3x2xf64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xf64>) -> ()
func.func @segments_sum_f64(%table: tensor<5x2xf64>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xf64>) -> tensor<3x2xf64> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xf64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// CHECK-LABEL: func.func @segments_mean_f64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xf64>
// GENERIC-LABEL: sym_name = "segments_mean_f64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xf64>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[N:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xf64>) -> ()
func.func @segments_mean_f64(%table: tensor<5x2xf64>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %num_segments: i64) -> tensor<?x2xf64> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf64>
  return %0 : tensor<?x2xf64>
}

// CHECK-LABEL: func.func @segments_sum_i8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xi8>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xi8>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xi8>) -> tensor<3x2xi8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi8>
// GENERIC-LABEL: sym_name = "segments_sum_i8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi8>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xi8>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi8>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xi8>) -> tensor<3x2xi8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi8>) -> ()
func.func @segments_sum_i8(%table: tensor<5x2xi8>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xi8>) -> tensor<3x2xi8> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xi8>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xi8>) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// CHECK-LABEL: func.func @segments_mean_i8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xi8>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xi8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xi8>
// GENERIC-LABEL: sym_name = "segments_mean_i8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi8>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[N:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi8>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xi8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xi8>) -> ()
func.func @segments_mean_i8(%table: tensor<5x2xi8>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %num_segments: i64) -> tensor<?x2xi8> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xi8>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xi8>
  return %0 : tensor<?x2xi8>
}

// CHECK-LABEL: func.func @segments_sum_i64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xi64>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xi64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xi64>) -> tensor<3x2xi64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xi64>
// GENERIC-LABEL: sym_name = "segments_sum_i64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi64>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xi64>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xi64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xi64>) -> tensor<3x2xi64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xi64>) -> ()
func.func @segments_sum_i64(%table: tensor<5x2xi64>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xi64>) -> tensor<3x2xi64> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xi64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xi64>) -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}

// CHECK-LABEL: func.func @segments_mean_i64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xi64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xi64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xi64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xi64>
// GENERIC-LABEL: sym_name = "segments_mean_i64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xi64>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[N:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xi64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xi64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xi64>) -> ()
func.func @segments_mean_i64(%table: tensor<5x2xi64>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %num_segments: i64) -> tensor<?x2xi64> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xi64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// CHECK-LABEL: func.func @segments_sum_si64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xsi64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xsi64>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xsi64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xsi64>) -> tensor<3x2xsi64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xsi64>
// GENERIC-LABEL: sym_name = "segments_sum_si64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xsi64>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xsi64>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xsi64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xsi64>) -> tensor<3x2xsi64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xsi64>) -> ()
func.func @segments_sum_si64(%table: tensor<5x2xsi64>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xsi64>) -> tensor<3x2xsi64> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xsi64>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xsi64>) -> tensor<3x2xsi64>
  return %0 : tensor<3x2xsi64>
}

// CHECK-LABEL: func.func @segments_mean_si64(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xsi64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xsi64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xsi64>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xsi64>
// GENERIC-LABEL: sym_name = "segments_mean_si64"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xsi64>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[N:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xsi64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xsi64>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xsi64>) -> ()
func.func @segments_mean_si64(%table: tensor<5x2xsi64>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %num_segments: i64) -> tensor<?x2xsi64> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xsi64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xsi64>
  return %0 : tensor<?x2xsi64>
}

// CHECK-LABEL: func.func @segments_sum_ui8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xui8>)
// CHECK-NEXT:      %[[N:[a-z0-9_-]+]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[R:.+]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xui8>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xui8>) -> tensor<3x2xui8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<3x2xui8>
// GENERIC-LABEL: sym_name = "segments_sum_ui8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui8>, %[[I:[a-z0-9_-]+]]: tensor<4xi32>, %[[S:[a-z0-9_-]+]]: tensor<4xi32>, %[[D:[a-z0-9_-]+]]: i32, %[[W:[a-z0-9_-]+]]: tensor<4xui8>):
// GENERIC-NEXT:    %[[N:[a-z0-9_-]+]] = "arith.constant"() <{value = 3 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]], %[[D]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xui8>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xui8>) -> tensor<3x2xui8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<3x2xui8>) -> ()
func.func @segments_sum_ui8(%table: tensor<5x2xui8>, %indices: tensor<4xi32>, %segment_ids: tensor<4xi32>, %default: i32, %weights: tensor<4xui8>) -> tensor<3x2xui8> {
  %num_segments = arith.constant 3 : i32
  %0 = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xui8>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xui8>) -> tensor<3x2xui8>
  return %0 : tensor<3x2xui8>
}

// CHECK-LABEL: func.func @segments_mean_ui8(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xui8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64)
// CHECK-NEXT:      %[[R:.+]] = embbag.segments mean %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) : (tensor<5x2xui8>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xui8>{{$}}
// CHECK-NEXT:      return %[[R]] : tensor<?x2xui8>
// GENERIC-LABEL: sym_name = "segments_mean_ui8"
// GENERIC-NEXT:    ^bb0(%[[T:[a-z0-9_-]+]]: tensor<5x2xui8>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[S:[a-z0-9_-]+]]: tensor<4xi64>, %[[N:[a-z0-9_-]+]]: i64):
// GENERIC-NEXT:    %[[R:.+]] = "embbag.segments"(%[[T]], %[[I]], %[[S]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xui8>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xui8>{{$}}
// GENERIC-NEXT:    "func.return"(%[[R]]) : (tensor<?x2xui8>) -> ()
func.func @segments_mean_ui8(%table: tensor<5x2xui8>, %indices: tensor<4xi64>, %segment_ids: tensor<4xi64>, %num_segments: i64) -> tensor<?x2xui8> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) : (tensor<5x2xui8>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xui8>
  return %0 : tensor<?x2xui8>
}

//===----------------------------------------------------------------------===//
// Static forms: default(2), num_segments(3)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @offsets_static_default(
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(2) weights(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-LABEL: sym_name = "offsets_static_default"
// GENERIC:         "embbag.offsets"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, reduction = #embbag<reduction sum>, static_default_index = 2 : i64}>
func.func @offsets_static_default(%table: tensor<5x2xf32>, %indices: tensor<4xi32>, %offsets: tensor<3xi32>, %weights: tensor<4xf32>) -> tensor<3x2xf32> {
  %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(2) weights(%weights) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, tensor<4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @segments_static(
// CHECK:           embbag.segments mean %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(3) default(0) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<3x2xf32>{{$}}
// GENERIC-LABEL: sym_name = "segments_static"
// GENERIC:         "embbag.segments"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, reduction = #embbag<reduction mean>, static_default_index = 0 : i64, static_num_segments = 3 : i64}>
func.func @segments_static(%table: tensor<5x2xf32>, %indices: tensor<4xi64>, %ids: tensor<4xi64>) -> tensor<3x2xf32> {
  %0 = embbag.segments mean %table[%indices] segment_ids(%ids) num_segments(3) default(0) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// The verifier looks at types and attributes only: a constant operand that
// breaks the runtime contract (here in a branch that never runs) is valid
// IR, reported by --embbag-verify-constants and stopped by the checked
// lowering only if executed. Regression: these used to be verifier errors,
// so --canonicalize folding an arith.select into such a constant failed.
// CHECK-LABEL: func.func @contract_constants_verify(
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK:           embbag.segments sum %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<2x2xf32>{{$}}
func.func @contract_constants_verify(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>, %s: tensor<4xi32>) -> (tensor<3x2xf32>, tensor<2x2xf32>) {
  %d = arith.constant -2 : i32
  %n = arith.constant -1 : i32
  %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %1 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<2x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<2x2xf32>
}

//=============================================================================
// max (PyTorch's mode="max")
//=============================================================================

// CHECK-LABEL: func.func @max_all_ops(
// CHECK:           embbag.packed max %{{.*}}[%{{.*}}] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// CHECK:           embbag.offsets max %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(%{{.*}}) : (tensor<5x2xui8>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xui8>{{$}}
// CHECK:           embbag.segments max %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(3) default(1) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<3x2xf32>{{$}}
// GENERIC-LABEL: sym_name = "max_all_ops"
// GENERIC:         "embbag.packed"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction max>}>
// GENERIC:         "embbag.offsets"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction max>}>
// GENERIC:         "embbag.segments"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, reduction = #embbag<reduction max>, static_default_index = 1 : i64, static_num_segments = 3 : i64}>
func.func @max_all_ops(%t: tensor<5x2xf32>, %p: tensor<3x2xi32>, %tu: tensor<5x2xui8>, %i: tensor<4xi32>, %o: tensor<3xi32>, %d: i32) -> (tensor<3x2xf32>, tensor<3x2xui8>, tensor<3x2xf32>) {
  %0 = embbag.packed max %t[%p] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %1 = embbag.offsets max %tu[%i] offsets(%o) default(%d) : (tensor<5x2xui8>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xui8>
  %2 = embbag.segments max %t[%i] segment_ids(%i) num_segments(3) default(1) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<3x2xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<3x2xui8>, tensor<3x2xf32>
}

//=============================================================================
// sqrtn (TensorFlow's combiner="sqrtn") and include_last_offset (PyTorch)
//=============================================================================

// CHECK-LABEL: func.func @sqrtn_all_ops(
// CHECK:           embbag.packed sqrtn %{{.*}}[%{{.*}}] weights(%{{.*}}) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>{{$}}
// CHECK:           embbag.offsets sqrtn %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(0) : (tensor<5x2xbf16>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xbf16>{{$}}
// CHECK:           embbag.segments sqrtn %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(%{{.*}}) : (tensor<5x2xf64>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf64>{{$}}
// GENERIC-LABEL: sym_name = "sqrtn_all_ops"
// GENERIC:         "embbag.packed"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reduction = #embbag<reduction sqrtn>}>
// GENERIC:         <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sqrtn>, static_default_index = 0 : i64}>
// GENERIC:         <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>, reduction = #embbag<reduction sqrtn>}>
func.func @sqrtn_all_ops(%t: tensor<5x2xf32>, %p: tensor<3x2xi32>, %w: tensor<3x2xf32>, %tb: tensor<5x2xbf16>, %td: tensor<5x2xf64>, %i: tensor<4xi32>, %o: tensor<3xi32>, %n: i32) -> (tensor<3x2xf32>, tensor<3x2xbf16>, tensor<?x2xf64>) {
  %0 = embbag.packed sqrtn %t[%p] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = embbag.offsets sqrtn %tb[%i] offsets(%o) default(0) : (tensor<5x2xbf16>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xbf16>
  %2 = embbag.segments sqrtn %td[%i] segment_ids(%i) num_segments(%n) : (tensor<5x2xf64>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x2xf64>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<3x2xbf16>, tensor<?x2xf64>
}

// One bag fewer than offsets; the clause sits between offsets and default.
// CHECK-LABEL: func.func @include_last_offset(
// CHECK:           embbag.offsets max %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset default(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<3x2xf32>{{$}}
// CHECK:           embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset weights(%{{.*}}) : (tensor<5x2xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x2xf32>{{$}}
// CHECK:           embbag.offsets mean %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset : (tensor<5x2xf32>, tensor<4xi64>, tensor<1xi64>) -> tensor<0x2xf32>{{$}}
// GENERIC-LABEL: sym_name = "include_last_offset"
// GENERIC:         "embbag.offsets"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{include_last_offset, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, reduction = #embbag<reduction max>}>
func.func @include_last_offset(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %o: tensor<4xi64>, %d: i64, %id: tensor<?xi64>, %od: tensor<?xi64>, %w: tensor<?xf32>, %o1: tensor<1xi64>) -> (tensor<3x2xf32>, tensor<?x2xf32>, tensor<0x2xf32>) {
  %0 = embbag.offsets max %t[%i] offsets(%o) include_last_offset default(%d) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<3x2xf32>
  %1 = embbag.offsets sum %t[%id] offsets(%od) include_last_offset weights(%w) : (tensor<5x2xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x2xf32>
  %2 = embbag.offsets mean %t[%i] offsets(%o1) include_last_offset : (tensor<5x2xf32>, tensor<4xi64>, tensor<1xi64>) -> tensor<0x2xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<?x2xf32>, tensor<0x2xf32>
}

//=============================================================================
// padding_idx (PyTorch's): an SSA operand of T_IND on the three ops, after
// default and before weights, in the clauses and in the functional type
//=============================================================================

// CHECK-LABEL: func.func @padding_idx_packed(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<3x2xi64>,
// CHECK-SAME:      %[[P:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<3x2xf32>)
// CHECK-NEXT:      embbag.packed sum %[[T]][%[[I]]] padding_idx(%[[P]]) : (tensor<5x2xf32>, tensor<3x2xi64>, i64) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      embbag.packed sqrtn %[[T]][%[[I]]] padding_idx(%[[P]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<3x2xi64>, i64, tensor<3x2xf32>) -> tensor<3x2xf32>{{$}}
// GENERIC-LABEL: sym_name = "padding_idx_packed"
// GENERIC:         "embbag.packed"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<3x2xi64>, i64) -> tensor<3x2xf32>
// GENERIC:         "embbag.packed"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>, reduction = #embbag<reduction sqrtn>}> : (tensor<5x2xf32>, tensor<3x2xi64>, i64, tensor<3x2xf32>) -> tensor<3x2xf32>
func.func @padding_idx_packed(%t: tensor<5x2xf32>, %i: tensor<3x2xi64>, %p: i64, %w: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %0 = embbag.packed sum %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<3x2xi64>, i64) -> tensor<3x2xf32>
  %1 = embbag.packed sqrtn %t[%i] padding_idx(%p) weights(%w) : (tensor<5x2xf32>, tensor<3x2xi64>, i64, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xf32>
}

// CHECK-LABEL: func.func @padding_idx_offsets(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<4xi32>,
// CHECK-SAME:      %[[P:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i32,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf32>,
// CHECK-SAME:      %[[ID:[a-z0-9_-]+]]: tensor<?xi32>,
// CHECK-SAME:      %[[OD:[a-z0-9_-]+]]: tensor<?xi32>)
// CHECK-NEXT:      embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) include_last_offset padding_idx(%[[P]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT:      embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) padding_idx(%[[P]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<4x2xf32>{{$}}
// CHECK-NEXT:      embbag.offsets max %[[T]][%[[ID]]] offsets(%[[OD]]) default(3) padding_idx(%[[P]]) : (tensor<5x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>{{$}}
// GENERIC-LABEL: sym_name = "padding_idx_offsets"
// GENERIC:         "embbag.offsets"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{include_last_offset, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>, reduction = #embbag<reduction mean>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
// GENERIC:         "embbag.offsets"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>, reduction = #embbag<reduction sum>}> : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<4x2xf32>
// GENERIC:         "embbag.offsets"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>, reduction = #embbag<reduction max>, static_default_index = 3 : i64}> : (tensor<5x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
func.func @padding_idx_offsets(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<4xi32>, %p: i32, %d: i32, %w: tensor<4xf32>, %id: tensor<?xi32>, %od: tensor<?xi32>) -> (tensor<3x2xf32>, tensor<4x2xf32>, tensor<?x2xf32>) {
  %0 = embbag.offsets mean %t[%i] offsets(%o) include_last_offset padding_idx(%p) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  %1 = embbag.offsets sum %t[%i] offsets(%o) default(%d) padding_idx(%p) weights(%w) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<4x2xf32>
  %2 = embbag.offsets max %t[%id] offsets(%od) default(3) padding_idx(%p) : (tensor<5x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<4x2xf32>, tensor<?x2xf32>
}

// CHECK-LABEL: func.func @padding_idx_segments(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<5x2xf64>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[S:[a-z0-9_-]+]]: tensor<4xi64>,
// CHECK-SAME:      %[[N:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[D:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[P:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<4xf64>)
// CHECK-NEXT:      embbag.segments sqrtn %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) padding_idx(%[[P]]) weights(%[[W]]) : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64, i64, i64, tensor<4xf64>) -> tensor<?x2xf64>{{$}}
// CHECK-NEXT:      embbag.segments max %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(3) padding_idx(%[[P]]) : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<3x2xf64>{{$}}
// GENERIC-LABEL: sym_name = "padding_idx_segments"
// GENERIC:         "embbag.segments"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, reduction = #embbag<reduction sqrtn>}> : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64, i64, i64, tensor<4xf64>) -> tensor<?x2xf64>
// GENERIC:         "embbag.segments"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0>, reduction = #embbag<reduction max>, static_num_segments = 3 : i64}> : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<3x2xf64>
func.func @padding_idx_segments(%t: tensor<5x2xf64>, %i: tensor<4xi64>, %s: tensor<4xi64>, %n: i64, %d: i64, %p: i64, %w: tensor<4xf64>) -> (tensor<?x2xf64>, tensor<3x2xf64>) {
  %0 = embbag.segments sqrtn %t[%i] segment_ids(%s) num_segments(%n) default(%d) padding_idx(%p) weights(%w) : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64, i64, i64, tensor<4xf64>) -> tensor<?x2xf64>
  %1 = embbag.segments max %t[%i] segment_ids(%s) num_segments(3) padding_idx(%p) : (tensor<5x2xf64>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<3x2xf64>
  return %0, %1 : tensor<?x2xf64>, tensor<3x2xf64>
}

//=============================================================================
// Row-wise quantized tables
//=============================================================================

// CHECK-LABEL: func.func @rowwise(
// CHECK-SAME:      %[[Q8:[a-z0-9_-]+]]: tensor<?x?xui8>,
// CHECK-SAME:      %[[Q4:[a-z0-9_-]+]]: tensor<10x36xi8>,
// CHECK-SAME:      %[[Q2:[a-z0-9_-]+]]: tensor<?x20xui8>,
// CHECK-SAME:      %[[I:[a-z0-9_-]+]]: tensor<?xi64>,
// CHECK-SAME:      %[[O:[a-z0-9_-]+]]: tensor<?xi64>,
// CHECK-SAME:      %[[P:[a-z0-9_-]+]]: i64,
// CHECK-SAME:      %[[W:[a-z0-9_-]+]]: tensor<?xf16>,
// CHECK-SAME:      %[[IP:[a-z0-9_-]+]]: tensor<3x2xi32>)
// CHECK-NEXT:      embbag.offsets max %[[Q8]][%[[I]]] offsets(%[[O]]) include_last_offset default(2) padding_idx(%[[P]]) rowwise(i8) : (tensor<?x?xui8>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>{{$}}
// CHECK-NEXT:      embbag.segments sqrtn %[[Q4]][%[[I]]] segment_ids(%[[O]]) num_segments(4) weights(%[[W]]) rowwise(i4) : (tensor<10x36xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?xf16>) -> tensor<4x64xf16>{{$}}
// CHECK-NEXT:      embbag.packed mean %[[Q2]][%[[IP]]] rowwise(i2) : (tensor<?x20xui8>, tensor<3x2xi32>) -> tensor<3x64xf32>{{$}}
// GENERIC-LABEL: sym_name = "rowwise"
// GENERIC:         "embbag.offsets"({{.*}}) <{include_last_offset, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>, reduction = #embbag<reduction max>, rowwise = i8, static_default_index = 2 : i64}>
// GENERIC:         "embbag.segments"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1>, reduction = #embbag<reduction sqrtn>, rowwise = i4, static_num_segments = 4 : i64}>
// GENERIC:         "embbag.packed"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduction = #embbag<reduction mean>, rowwise = i2}>
func.func @rowwise(%q8: tensor<?x?xui8>, %q4: tensor<10x36xi8>, %q2: tensor<?x20xui8>, %i: tensor<?xi64>, %o: tensor<?xi64>, %p: i64, %w: tensor<?xf16>, %ip: tensor<3x2xi32>) -> (tensor<?x?xf32>, tensor<4x64xf16>, tensor<3x64xf32>) {
  %0 = embbag.offsets max %q8[%i] offsets(%o) include_last_offset default(2) padding_idx(%p) rowwise(i8) : (tensor<?x?xui8>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>
  %1 = embbag.segments sqrtn %q4[%i] segment_ids(%o) num_segments(4) weights(%w) rowwise(i4) : (tensor<10x36xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?xf16>) -> tensor<4x64xf16>
  %2 = embbag.packed mean %q2[%ip] rowwise(i2) : (tensor<?x20xui8>, tensor<3x2xi32>) -> tensor<3x64xf32>
  return %0, %1, %2 : tensor<?x?xf32>, tensor<4x64xf16>, tensor<3x64xf32>
}
