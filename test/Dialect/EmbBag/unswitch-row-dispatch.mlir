// RUN: embbag-opt %s --embbag-unswitch-row-dispatch="outline=0" -split-input-file | FileCheck %s --check-prefix=UNSWITCH
// RUN: embbag-opt %s --embbag-unswitch-row-dispatch -split-input-file | FileCheck %s --check-prefix=OUTLINE

// A marked bag loop around a switch on a key from outside: one loop per
// case, each with that case's body in place of the switch; the mark goes.

// UNSWITCH-LABEL: func.func @marked(
// UNSWITCH-SAME: %[[N:.*]]: index, %[[KEY:.*]]: index, %[[OFF:.*]]: memref<?xindex>, %[[OUT:.*]]: memref<?xf32>)
// UNSWITCH: scf.index_switch %[[KEY]]
// UNSWITCH-NEXT: case 1 {
// UNSWITCH-NEXT: scf.for %[[B1:.*]] = %{{.*}} to %[[N]]
// UNSWITCH-NEXT: %[[S1:.*]] = memref.load %[[OFF]][%[[B1]]]
// UNSWITCH-NEXT: memref.store %{{.*}}, %[[OUT]][%[[S1]]]
// UNSWITCH-NEXT: }
// UNSWITCH-NOT: embbag.row_dispatch
// UNSWITCH-NEXT: scf.yield
// UNSWITCH-NEXT: }
// UNSWITCH-NEXT: default {
// UNSWITCH-NEXT: scf.for %[[B2:.*]] = %{{.*}} to %[[N]]
// UNSWITCH-NEXT: %[[S2:.*]] = memref.load %[[OFF]][%[[B2]]]
// UNSWITCH-NEXT: memref.store %{{.*}}, %[[OUT]][%[[B2]]]
// UNSWITCH-NEXT: }
// UNSWITCH-NOT: embbag.row_dispatch
// UNSWITCH: return

// With outlining, each version is a private function taking what it uses
// from outside (the constants it uses are copied in), called from the
// switch; it gets internal linkage and LLVM's noinline once lowered. The
// default region is version 0.

// OUTLINE-LABEL: func.func private @marked__row_version_0(
// OUTLINE-SAME: %[[OFF0:.*]]: memref<?xindex>, %[[OUT0:.*]]: memref<?xf32>, %[[N0:.*]]: index)
// OUTLINE-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// OUTLINE: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// OUTLINE: scf.for %[[B0:.*]] = %{{.*}} to %[[N0]]
// OUTLINE: memref.store %[[TWO]], %[[OUT0]][%[[B0]]]
// OUTLINE-LABEL: func.func private @marked__row_version_1(
// OUTLINE: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// OUTLINE: memref.store %[[ONE]]
// OUTLINE-LABEL: func.func @marked(
// OUTLINE-SAME: %[[N:.*]]: index, %[[KEY:.*]]: index, %[[OFF:.*]]: memref<?xindex>, %[[OUT:.*]]: memref<?xf32>)
// OUTLINE: scf.index_switch %[[KEY]]
// OUTLINE-NEXT: case 1 {
// OUTLINE-NEXT: func.call @marked__row_version_1(%[[OFF]], %[[OUT]], %[[N]])
// OUTLINE: default {
// OUTLINE-NEXT: func.call @marked__row_version_0(%[[OFF]], %[[OUT]], %[[N]])
func.func @marked(%n: index, %key: index, %offsets: memref<?xindex>,
                  %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  scf.for %bag = %c0 to %n step %c1 {
    %start = memref.load %offsets[%bag] : memref<?xindex>
    scf.index_switch %key
    case 1 {
      memref.store %one, %out[%start] : memref<?xf32>
      scf.yield
    }
    default {
      memref.store %two, %out[%bag] : memref<?xf32>
    }
  } {embbag.row_dispatch}
  return
}

// -----

// A loop without the mark is not the pass's: it stays as it is.

// UNSWITCH-LABEL: func.func @unmarked(
// UNSWITCH: scf.for
// UNSWITCH-NEXT: scf.index_switch
// OUTLINE-LABEL: func.func @unmarked(
// OUTLINE-NOT: func.call
// OUTLINE: scf.for
// OUTLINE-NEXT: scf.index_switch
func.func @unmarked(%n: index, %key: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.for %bag = %c0 to %n step %c1 {
    scf.index_switch %key
    case 1 {
      memref.store %one, %out[%bag] : memref<?xf32>
      scf.yield
    }
    default {
    }
  }
  return
}

// -----

// A key computed inside the loop cannot be hoisted: the loop stays, and
// only the mark goes.

// UNSWITCH-LABEL: func.func @key_inside(
// UNSWITCH: scf.for
// UNSWITCH: scf.index_switch
// UNSWITCH-NOT: embbag.row_dispatch
// UNSWITCH: return
// OUTLINE-LABEL: func.func @key_inside(
// OUTLINE-NOT: func.call
// OUTLINE-NOT: embbag.row_dispatch
// OUTLINE: return
func.func @key_inside(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.for %bag = %c0 to %n step %c1 {
    scf.index_switch %bag
    case 1 {
      memref.store %one, %out[%bag] : memref<?xf32>
      scf.yield
    }
    default {
    }
  } {embbag.row_dispatch}
  return
}
