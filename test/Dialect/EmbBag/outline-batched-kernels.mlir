// RUN: embbag-opt %s --embbag-outline-batched-kernels -split-input-file | FileCheck %s

// In a loop over chunks of work (marked embbag.work_chunks, on buffers),
// each result-less scf.if (one op's part of a batched chunk) gets its
// then-region outlined into a private function of its own: internal
// linkage and LLVM's noinline once lowered, the constants it uses copied
// in, what else it uses from outside passed as arguments. The scf.if that
// yields a value (the search for a chunk's first bag) stays.

// CHECK:       func.func private @batched__batched_op_0(%[[B:.*]]: memref<?xf32>, %[[A:.*]]: index)
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[A]]
// CHECK:           memref.store %[[ZERO]], %[[B]][%[[I]]]
// CHECK:       func.func private @batched__batched_op_1(
// CHECK-LABEL: func.func @batched(
// CHECK-SAME:      %[[N:.*]]: index, %[[T0:.*]]: memref<?xf32>, %[[T1:.*]]: memref<?xf32>)
// CHECK:         scf.forall (%[[C:.*]]) in (%[[N]]) {
// CHECK:           %[[FIRST:.*]] = scf.if %{{.*}} -> (index) {
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        func.call @batched__batched_op_0(%[[T0]], %[[FIRST]]) : (memref<?xf32>, index) -> ()
// CHECK-NEXT:      }
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        func.call @batched__batched_op_1(%[[T1]], %[[C]]) : (memref<?xf32>, index) -> ()
// CHECK-NEXT:      }
// CHECK:         } {embbag.work_chunks}
func.func @batched(%n: index, %t0: memref<?xf32>, %t1: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%c) in (%n) {
    %low = arith.cmpi ult, %c, %c1 : index
    %first = scf.if %low -> (index) {
      scf.yield %c0 : index
    } else {
      scf.yield %c : index
    }
    %any0 = arith.cmpi ult, %c0, %first : index
    scf.if %any0 {
      scf.for %i = %c0 to %first step %c1 {
        memref.store %zero, %t0[%i] : memref<?xf32>
      }
    }
    %any1 = arith.cmpi ugt, %c, %c0 : index
    scf.if %any1 {
      scf.for %i = %c0 to %c step %c1 {
        memref.store %zero, %t1[%i] : memref<?xf32>
      }
    }
  } {embbag.work_chunks}
  return
}

// -----

// Loops without the mark are the user's: left alone.
// CHECK-LABEL: func.func @unmarked(
// CHECK-NOT:     func.call
// CHECK:         scf.forall
// CHECK:           scf.if
// CHECK-NEXT:        scf.for
// CHECK-NOT:     func.func private
func.func @unmarked(%n: index, %t: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%c) in (%n) {
    %any = arith.cmpi ugt, %c, %c0 : index
    scf.if %any {
      scf.for %i = %c0 to %c step %c1 {
        memref.store %zero, %t[%i] : memref<?xf32>
      }
    }
  }
  return
}
