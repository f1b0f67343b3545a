// RUN: embbag-opt %s --embbag-verify-constants | FileCheck %s

// --embbag-verify-constants only reads the embbag ops' operands: a function
// without them, and the code around an op, come out exactly as they went in
// (nothing folded, erased or moved).

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
// CHECK-SAME:    %[[T:[a-z0-9]+]]: tensor<5x2xf32>, %[[X:[a-z0-9]+]]: i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[C1]], %[[C2]] : i32
// CHECK-NEXT:    %[[I:.*]] = arith.constant dense<{{\[\[}}0, 4], [2, 1]]> : tensor<2x2xi32>
// CHECK-NEXT:    %[[R:.*]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[X]], %[[S]] : i32
// CHECK-NEXT:    return %[[R]], %[[Y]] : tensor<2x2xf32>, i32
func.func @around(%t: tensor<5x2xf32>, %x: i32) -> (tensor<2x2xf32>, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %s = arith.addi %c1, %c2 : i32
  %i = arith.constant dense<[[0, 4], [2, 1]]> : tensor<2x2xi32>
  %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %y = arith.addi %x, %s : i32
  return %r, %y : tensor<2x2xf32>, i32
}
