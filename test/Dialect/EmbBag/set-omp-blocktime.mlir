// RUN: embbag-opt %s --split-input-file --embbag-set-omp-blocktime --verify-diagnostics | FileCheck %s
// RUN: embbag-opt %s --split-input-file --embbag-set-omp-blocktime="ms=5" --verify-diagnostics | FileCheck %s --check-prefix=MS5

// One call before every parallel region, one declaration per module.

// CHECK-LABEL: module
// CHECK:         func.func private @kmp_set_blocktime(i32)
// CHECK-LABEL:   func.func @two_regions(
// CHECK:           %[[MS:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      call @kmp_set_blocktime(%[[MS]]) : (i32) -> ()
// CHECK-NEXT:      omp.parallel
// CHECK:           call @kmp_set_blocktime(%{{.*}}) : (i32) -> ()
// CHECK-NEXT:      omp.parallel
// CHECK-NOT:     func.func private @kmp_set_blocktime
// MS5-LABEL:   func.func @two_regions(
// MS5:           arith.constant 5 : i32
func.func @two_regions() {
  omp.parallel {
    omp.terminator
  }
  omp.parallel {
    omp.terminator
  }
  return
}

// -----

// No parallel region: nothing is declared or called.

// CHECK-LABEL: func.func @serial(
// CHECK-NOT:     kmp_set_blocktime
func.func @serial(%a: i32) -> i32 {
  return %a : i32
}

// -----

// A declaration the user already wrote is reused.

// CHECK-LABEL: module
// CHECK-COUNT-1: func.func private @kmp_set_blocktime
// CHECK:         call @kmp_set_blocktime
func.func private @kmp_set_blocktime(i32)
func.func @declared() {
  omp.parallel {
    omp.terminator
  }
  return
}

// -----

// A symbol of that name that is not libomp's function is not called.

// expected-error @+1 {{'kmp_set_blocktime' is libomp's '(i32) -> ()' function; embbag-set-omp-blocktime cannot call this one}}
func.func private @kmp_set_blocktime(i64)
func.func @clash() {
  omp.parallel {
    omp.terminator
  }
  return
}
