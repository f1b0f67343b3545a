// --convert-embbag-work-chunks-to-openmp lowers the scf.forall loops marked
// embbag.work_chunks (the kernels' loops over chunks of work, on buffers) to
// OpenMP worksharing loops with a guided schedule, or the `omp-schedule`
// option's; it leaves every other loop to scf-forall-to-parallel and
// convert-scf-to-openmp.
//
// RUN: embbag-opt %s --split-input-file --verify-diagnostics --convert-embbag-work-chunks-to-openmp | FileCheck %s
// RUN: embbag-opt %s --split-input-file --verify-diagnostics --convert-embbag-work-chunks-to-openmp=omp-schedule=dynamic | FileCheck %s --check-prefix=DYNAMIC
// RUN: embbag-opt %s --split-input-file --verify-diagnostics --convert-embbag-work-chunks-to-openmp=omp-schedule=static | FileCheck %s --check-prefix=STATIC

// CHECK-LABEL: func.func @marked(
// CHECK-SAME:      %[[BUF:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop schedule(guided) {
// CHECK-NEXT:        omp.loop_nest (%[[C:.*]]) : index = (%[[C0]]) to (%[[N]]) step (%[[C1]]) {
// CHECK-NEXT:          memref.alloca_scope
// CHECK-NEXT:            %[[X:.*]] = arith.index_cast %[[C]] : index to i32
// CHECK-NEXT:            %[[F:.*]] = arith.sitofp %[[X]] : i32 to f32
// CHECK-NEXT:            memref.store %[[F]], %[[BUF]][%[[C]]] : memref<?xf32>
// CHECK-NEXT:          }
// CHECK-NEXT:          omp.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.terminator
// CHECK-NEXT:    }
// CHECK-NOT:     scf.forall
// CHECK-NOT:     embbag.work_chunks
// CHECK:         return
// DYNAMIC-LABEL: func.func @marked(
// DYNAMIC:         omp.wsloop schedule(dynamic) {
// STATIC-LABEL: func.func @marked(
// STATIC:          omp.wsloop schedule(static) {
func.func @marked(%buf: memref<?xf32>, %n: index) {
  scf.forall (%c) in (%n) {
    %x = arith.index_cast %c : index to i32
    %f = arith.sitofp %x : i32 to f32
    memref.store %f, %buf[%c] : memref<?xf32>
  } {embbag.work_chunks}
  return
}

// -----

// Bounds and steps of any rank, static or not, become the nest's.
// CHECK-LABEL: func.func @two_dims(
// CHECK-SAME:      %[[BUF:.*]]: memref<?x?xf32>, %[[N:.*]]: index)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[S3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[S2:.*]] = arith.constant 2 : index
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop schedule(guided) {
// CHECK-NEXT:        omp.loop_nest (%[[I:.*]], %[[J:.*]]) : index = (%[[C2]], %[[C3]]) to (%[[N]], %[[C8]]) step (%[[S3]], %[[S2]]) collapse(2) {
// CHECK:                 memref.store %{{.*}}, %[[BUF]][%[[I]], %[[J]]]
func.func @two_dims(%buf: memref<?x?xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (2, 3) to (%n, 8) step (3, 2) {
    memref.store %zero, %buf[%i, %j] : memref<?x?xf32>
  } {embbag.work_chunks}
  return
}

// -----

// An unmarked loop is the user's: left as it is.
// CHECK-LABEL: func.func @unmarked(
// CHECK-NOT:     omp.
// CHECK:         scf.forall (%{{.*}}) in (%{{.*}}) {
// CHECK-NOT:     omp.
// CHECK:         return
func.func @unmarked(%buf: memref<?xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%c) in (%n) {
    memref.store %zero, %buf[%c] : memref<?xf32>
  }
  return
}

// -----

// A marked loop still on tensors: the pass runs after bufferization.
func.func @on_tensors(%t: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  // expected-error @+1 {{a loop marked 'embbag.work_chunks' must be bufferized before convert-embbag-work-chunks-to-openmp (it has shared outputs)}}
  %r = scf.forall (%i) in (%n) shared_outs(%o = %t) -> (tensor<8xf32>) {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
    }
  } {embbag.work_chunks}
  return %r : tensor<8xf32>
}
