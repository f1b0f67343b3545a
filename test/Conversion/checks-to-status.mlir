// RUN: embbag-opt %s --split-input-file --embbag-checks-to-status --verify-diagnostics | FileCheck %s

// Runtime checks (marked, or named after an embbag op) become an early
// return of status 1 from the public function, from inside loops too; the
// function returns 0 otherwise. Other asserts stay.

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      -> i32
// CHECK:         cf.cond_br %{{.*}}, ^[[CONT:bb[0-9]+]], ^[[FAIL1:bb[0-9]+]]
// CHECK:       ^[[CONT]]:
// CHECK:         cf.assert %{{.*}}, "not ours"
// CHECK:         memref.load
// CHECK:         cf.cond_br %{{.*}}, ^{{bb[0-9]+}}, ^[[FAIL2:bb[0-9]+]]
// CHECK:         %[[OK:.*]] = arith.constant 0 : i32
// CHECK:         return %[[OK]] : i32
// CHECK:       ^[[FAIL1]]:
// CHECK-NEXT:    %[[BAD:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    return %[[BAD]] : i32
// CHECK:       ^[[FAIL2]]:
// CHECK-NEXT:    memref.dealloc
// CHECK-NEXT:    %[[BAD2:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    return %[[BAD2]] : i32
func.func @kernel(%m: memref<?xi32>, %n: index, %ok: i1, %other: i1) {
  cf.assert %ok, "embbag.packed at k.mlir:1:1: index out of range"
  cf.assert %other, "not ours"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%i] : memref<?xi32>
    %c = arith.cmpi sge, %v, %v : i32
    cf.assert %c, "marked" {embbag.runtime_check}
    memref.store %v, %buf[%i] : memref<?xi32>
  }
  memref.dealloc %buf : memref<?xi32>
  return
}

// A function without checks returns 0 too: every exported function has
// the same C signature shape.
// CHECK-LABEL: func.func @no_checks() -> i32
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[Z]] : i32
func.func @no_checks() {
  return
}

// Private functions without checks, and declarations, are left alone.
// CHECK-LABEL: func.func private @helper()
// CHECK-NEXT:    return{{$}}
func.func private @helper() {
  return
}

// -----

// expected-error @+1 {{status mode: @with_result returns values; write its results into out-arguments}}
func.func @with_result(%ok: i1) -> i32 {
  cf.assert %ok, "embbag.offsets: bad offsets"
  %c = arith.constant 3 : i32
  return %c : i32
}

// -----

func.func private @private_check(%ok: i1) {
  // expected-error @+1 {{status mode: a runtime check in the private function @private_check cannot report a status}}
  cf.assert %ok, "embbag.segments: bad id" {embbag.runtime_check}
  return
}

// -----

func.func @callee() {
  return
}

func.func @caller() {
  // expected-error @+1 {{status mode: @callee returns a status now}}
  call @callee() : () -> ()
  return
}

// -----

func.func @in_parallel_region(%ok: i1) {
  omp.parallel {
    // expected-error @+1 {{status mode: a runtime check inside 'omp.parallel' cannot return a status}}
    cf.assert %ok, "embbag.packed: index" {embbag.runtime_check}
    omp.terminator
  }
  return
}
