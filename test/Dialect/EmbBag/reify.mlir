// RUN: embbag-opt %s --resolve-ranked-shaped-type-result-dims --canonicalize | FileCheck %s

// The dynamic result dims of every op are reified from its operands.

// CHECK-LABEL: func.func @packed(
// CHECK-SAME:    %[[T:.*]]: tensor<?x?xf32>, %[[I:.*]]: tensor<?x3xi32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[B:.*]] = tensor.dim %[[I]], %[[C0]]
// CHECK-DAG:     %[[R:.*]] = tensor.dim %[[T]], %[[C1]]
// CHECK:         return %[[B]], %[[R]]
func.func @packed(%t: tensor<?x?xf32>, %i: tensor<?x3xi32>) -> (index, index) {
  %r = embbag.packed sum %t[%i] : (tensor<?x?xf32>, tensor<?x3xi32>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %r, %c0 : tensor<?x?xf32>
  %d = tensor.dim %r, %c1 : tensor<?x?xf32>
  return %b, %d : index, index
}

// CHECK-LABEL: func.func @offsets(
// CHECK-SAME:    %[[T:.*]]: tensor<?x2x?xf32>, %[[I:.*]]: tensor<?xi64>, %[[O:.*]]: tensor<?xi64>
// CHECK-DAG:     %[[B:.*]] = tensor.dim %[[O]], %{{.*}}
// CHECK-DAG:     %[[R:.*]] = tensor.dim %[[T]], %{{.*}}
// CHECK:         return %[[B]], %[[R]]
func.func @offsets(%t: tensor<?x2x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> (index, index) {
  %r = embbag.offsets sum %t[%i] offsets(%o)
      : (tensor<?x2x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x2x?xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %r, %c0 : tensor<?x2x?xf32>
  %d = tensor.dim %r, %c2 : tensor<?x2x?xf32>
  return %b, %d : index, index
}

// CHECK-LABEL: func.func @segments(
// CHECK-SAME:    %{{.*}}: tensor<5x2xf32>, %{{.*}}: tensor<?xi32>, %{{.*}}: tensor<?xi32>, %[[N:.*]]: i32
// CHECK:         %[[B:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK:         return %[[B]]
func.func @segments(%t: tensor<5x2xf32>, %i: tensor<?xi32>, %s: tensor<?xi32>, %n: i32) -> index {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n)
      : (tensor<5x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  %c0 = arith.constant 0 : index
  %b = tensor.dim %r, %c0 : tensor<?x2xf32>
  return %b : index
}

// include_last_offset: one bag fewer than offsets (never below 0).
// CHECK-LABEL: func.func @offsets_last(
// CHECK-SAME:    %{{.*}}: tensor<5x2xf32>, %{{.*}}: tensor<?xi64>, %[[O:.*]]: tensor<?xi64>
// CHECK:         %[[N:.*]] = tensor.dim %[[O]], %{{.*}}
// CHECK:         %[[M:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK:         %[[B:.*]] = arith.maxsi %[[M]], %{{.*}} : index
// CHECK:         return %[[B]]
func.func @offsets_last(%t: tensor<5x2xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> index {
  %r = embbag.offsets sum %t[%i] offsets(%o) include_last_offset
      : (tensor<5x2xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x2xf32>
  %c0 = arith.constant 0 : index
  %b = tensor.dim %r, %c0 : tensor<?x2xf32>
  return %b : index
}
