// RUN: embbag-opt %s --convert-embbag-to-linalg="leave-unsupported" | FileCheck %s

// --convert-embbag-to-linalg rewrites embbag.packed and nothing else: a
// function without it comes out exactly as it went in (nothing folded,
// erased or moved), and so does the code around the op, including an op it
// leaves for the loops path. Its index check is a cf.assert marked
// embbag.runtime_check; the user's assert is not.

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
// CHECK-SAME:    %[[X:[a-z0-9]+]]: i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[C1]], %[[C2]] : i32
// CHECK-NOT:     embbag.packed
// CHECK:         cf.assert %{{.*}}, "embbag.packed at {{.*}}: index out of range [0, num_emb)" {embbag.runtime_check}
// CHECK:         linalg.generic
// CHECK-NOT:     embbag.packed
// CHECK:         embbag.offsets sum
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[X]], %[[S]] : i32
// CHECK-NEXT:    return %{{.*}}, %{{.*}}, %[[Y]] : tensor<3x2xf32>, tensor<3x2xf32>, i32
func.func @around(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %fi: tensor<4xi32>,
                  %o: tensor<3xi32>, %x: i32)
    -> (tensor<3x2xf32>, tensor<3x2xf32>, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %s = arith.addi %c1, %c2 : i32
  %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %q = embbag.offsets sum %t[%fi] offsets(%o)
      : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %y = arith.addi %x, %s : i32
  return %r, %q, %y : tensor<3x2xf32>, tensor<3x2xf32>, i32
}
