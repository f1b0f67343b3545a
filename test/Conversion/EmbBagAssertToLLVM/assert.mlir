// RUN: embbag-opt %s --convert-embbag-assert-to-llvm | FileCheck %s

// A failed runtime check (a cf.assert marked embbag.runtime_check) writes
// its message and a newline to fd 2 (unbuffered, so it survives a pipe) and
// aborts. Equal messages share one global. A cf.assert without the mark is
// the user's: it is left for convert-cf-to-llvm, mark-free and in place.

// CHECK-DAG: llvm.func @write(i32, !llvm.ptr, i64) -> i64
// CHECK-DAG: llvm.func @abort()
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:embbag_assert_msg_[0-9]+]]("index bad\0A")
// CHECK-DAG: llvm.mlir.global internal constant @{{embbag_assert_msg_[0-9]+}}("offsets bad\0A")
// CHECK-NOT: user's
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[OK:.*]]: i1, %[[OK2:.*]]: i1
// CHECK-NOT:     cf.assert
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         %[[BAD:.*]] = arith.xori %[[OK]], %[[TRUE]] : i1
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[FD:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:           %[[LEN:.*]] = llvm.mlir.constant(10 : i64) : i64
// CHECK:           %[[PTR:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
// CHECK:           llvm.call @write(%[[FD]], %[[PTR]], %[[LEN]])
// CHECK:           llvm.call @abort()
// CHECK:         scf.for
// CHECK:           scf.if
// CHECK:             llvm.mlir.addressof @[[MSG]]
// CHECK:           cf.assert %[[OK]], "the user's, in a loop"{{$}}
// CHECK-NOT:     cf.assert
// CHECK:         return
func.func @f(%ok: i1, %ok2: i1, %n: index) {
  cf.assert %ok, "index bad" {embbag.runtime_check}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    cf.assert %ok2, "index bad" {embbag.runtime_check}
    cf.assert %ok, "the user's, in a loop"
  }
  cf.assert %ok2, "offsets bad" {embbag.runtime_check}
  return
}

// A function holding only user asserts comes out unchanged.
// CHECK-LABEL: func.func @user_only(
// CHECK-NEXT:    cf.assert %{{.*}}, "the user's"{{$}}
// CHECK-NEXT:    return
func.func @user_only(%ok: i1) {
  cf.assert %ok, "the user's"
  return
}

// Nothing else in the module changes: nothing folded, erased or moved.
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
