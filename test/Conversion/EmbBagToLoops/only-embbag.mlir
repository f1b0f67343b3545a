// RUN: embbag-opt %s --convert-embbag-to-loops | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops="parallel=1 checks=0" | FileCheck %s --check-prefix=UNRELATED

// --convert-embbag-to-loops rewrites the embbag ops and nothing else: a
// function without them comes out exactly as it went in (nothing folded,
// erased or moved), and so does the code around an op. Its runtime checks
// are cf.asserts marked embbag.runtime_check; the user's assert is not.

// CHECK-LABEL: func.func @unrelated(
// CHECK-SAME:    %[[OK:[a-z0-9]+]]: i1, %[[X:[a-z0-9]+]]: i32) -> i32 {
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %{{.*}} = arith.muli %[[X]], %[[X]] : i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[C1]], %[[C2]] : i32
// CHECK-NEXT:    cf.assert %[[OK]], "user check"{{$}}
// CHECK-NEXT:    %[[R:.*]] = arith.addi %[[X]], %[[S]] : i32
// CHECK-NEXT:    return %[[R]] : i32
// CHECK-NEXT:  }
// UNRELATED-LABEL: func.func @unrelated(
// UNRELATED-NEXT:    arith.constant 1 : i32
// UNRELATED-NEXT:    arith.constant 2 : i32
// UNRELATED-NEXT:    arith.muli
// UNRELATED-NEXT:    arith.addi
// UNRELATED-NEXT:    cf.assert %{{.*}}, "user check"{{$}}
// UNRELATED-NEXT:    arith.addi
// UNRELATED-NEXT:    return
// Unrelated code: foldable constants, a dead op, a user assert.
func.func @unrelated(%ok: i1, %x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %dead = arith.muli %x, %x : i32
  %s = arith.addi %c1, %c2 : i32
  cf.assert %ok, "user check"
  %r = arith.addi %x, %s : i32
  return %r : i32
}

// CHECK-LABEL: func.func @around(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[C1]], %[[C2]] : i32
// CHECK-NOT:     embbag.packed sum
// CHECK:         cf.assert %{{.*}}, "embbag.packed at {{.*}}: index out of range [0, num_emb)" {embbag.runtime_check}
// CHECK-NOT:     embbag.packed sum
// CHECK:         %[[Y:.*]] = arith.addi %[[X]], %[[S]] : i32
// CHECK-NEXT:    return %{{.*}}, %[[Y]] : tensor<3x2xf32>, i32
func.func @around(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %x: i32)
    -> (tensor<3x2xf32>, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %s = arith.addi %c1, %c2 : i32
  %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %y = arith.addi %x, %s : i32
  return %r, %y : tensor<3x2xf32>, i32
}

// An op in a block without predecessors is lowered too (walkAndApplyPatterns
// would skip the block and leave the op behind); the block stays.
// CHECK-LABEL: func.func @unreachable(
// CHECK:         return
// CHECK-NEXT:  ^bb1:
// CHECK-NOT:     embbag.packed sum
// CHECK:         scf.for
// CHECK-NOT:     embbag.packed sum
// CHECK:         return
func.func @unreachable(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  return %e : tensor<3x2xf32>
^bb1:
  %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
