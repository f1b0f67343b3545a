// RUN: embbag-opt %s --convert-embbag-assert-to-llvm | FileCheck %s

// A failed cf.assert writes its message and a newline to fd 2 (unbuffered,
// so it survives a pipe) and aborts. Equal messages share one global.

// CHECK-DAG: llvm.func @write(i32, !llvm.ptr, i64) -> i64
// CHECK-DAG: llvm.func @abort()
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:embbag_assert_msg_[0-9]+]]("index bad\0A")
// CHECK-DAG: llvm.mlir.global internal constant @{{embbag_assert_msg_[0-9]+}}("offsets bad\0A")
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
func.func @f(%ok: i1, %ok2: i1, %n: index) {
  cf.assert %ok, "index bad"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    cf.assert %ok2, "index bad"
  }
  cf.assert %ok2, "offsets bad"
  return
}
