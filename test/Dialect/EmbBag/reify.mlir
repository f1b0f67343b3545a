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

// A dense gradient has the table's shape, a weights gradient the weights'.
// CHECK-LABEL: func.func @offsets_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<?x?xf32>, %[[T:.*]]: tensor<?x?xf32>, %[[I:.*]]: tensor<?xi64>, %[[O:.*]]: tensor<?xi64>, %[[W:.*]]: tensor<?xf32>
// CHECK-DAG:     %[[N:.*]] = tensor.dim %[[T]], %c0
// CHECK-DAG:     %[[R:.*]] = tensor.dim %[[T]], %c1
// CHECK-DAG:     %[[P:.*]] = tensor.dim %[[W]], %c0
// CHECK:         return %[[N]], %[[R]], %[[P]]
func.func @offsets_grad(%dy: tensor<?x?xf32>, %t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %w: tensor<?xf32>) -> (index, index, index) {
  %g, %gw = embbag.offsets_grad sum %dy, %t[%i] offsets(%o) weights(%w)
      : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %g, %c0 : tensor<?x?xf32>
  %r = tensor.dim %g, %c1 : tensor<?x?xf32>
  %p = tensor.dim %gw, %c0 : tensor<?xf32>
  return %n, %r, %p : index, index, index
}

// A sparse gradient's rows are known only at run time: its dims stay.
// CHECK-LABEL: func.func @sparse_grad(
// CHECK:         %[[G:.*]]:2 = embbag.packed_grad
// CHECK:         %[[U:.*]] = tensor.dim %[[G]]#1, %c0
// CHECK:         return %[[U]]
func.func @sparse_grad(%dy: tensor<?x4xf32>, %t: tensor<?x4xf32>, %i: tensor<?x2xi32>) -> index {
  %rows, %g = embbag.packed_grad sum %dy, %t[%i] sparse
      : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x2xi32>) -> (tensor<?xi32>, tensor<?x4xf32>)
  %c0 = arith.constant 0 : index
  %u = tensor.dim %g, %c0 : tensor<?x4xf32>
  return %u : index
}

// An update's results have the table's and the state's shapes.
// CHECK-LABEL: func.func @segments_update(
// CHECK-SAME:    %[[T:[^:]*]]: tensor<?x?xf32>, %{{[^:]*}}: tensor<?xi32>, %{{[^:]*}}: tensor<?xi32>, %[[S:[^:]*]]: tensor<?xf32>
// CHECK-DAG:     %[[N:.*]] = tensor.dim %[[T]], %c0
// CHECK-DAG:     %[[R:.*]] = tensor.dim %[[T]], %c1
// CHECK-DAG:     %[[M:.*]] = tensor.dim %[[S]], %c0
// CHECK:         return %[[N]], %[[R]], %[[M]]
func.func @segments_update(%lr: f32, %eps: f32, %dy: tensor<3x?xf32>, %t: tensor<?x?xf32>, %i: tensor<?xi32>, %ids: tensor<?xi32>, %s: tensor<?xf32>) -> (index, index, index) {
  %t2, %s2 = embbag.segments_update sum rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] segment_ids(%ids) num_segments(3)
      : (f32, f32, tensor<?xf32>, tensor<3x?xf32>, tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?x?xf32>, tensor<?xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %t2, %c0 : tensor<?x?xf32>
  %r = tensor.dim %t2, %c1 : tensor<?x?xf32>
  %m = tensor.dim %s2, %c0 : tensor<?xf32>
  return %n, %r, %m : index, index, index
}
