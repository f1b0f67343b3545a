// RUN: embbag-opt %s --split-input-file --embbag-inline-parallel-alloca-scopes | FileCheck %s

// The scope around an OpenMP loop body holding a call (which upstream
// canonicalization cannot see into) is inlined.

// CHECK-LABEL: func.func @call_in_body(
// CHECK:         omp.loop_nest
// CHECK-NOT:       memref.alloca_scope
// CHECK:           func.call @helper(%{{.*}}) : (index) -> ()
// CHECK-NEXT:      omp.yield
func.func private @helper(index)
func.func @call_in_body(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          func.call @helper(%i) : (index) -> ()
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A stack allocation of the iteration: the inlined body goes between a
// stack save and restore, which free it when the iteration ends, as the
// scope did. (A scope that stayed would no longer verify once
// convert-scf-to-cf split a loop inside it into blocks; see
// test/Integration/EmbBag/gpu-loops-in-user-forall.mlir.)

// CHECK-LABEL: func.func @alloca_in_body(
// CHECK:         omp.loop_nest
// CHECK-NEXT:      %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT:      %[[A:.*]] = memref.alloca() : memref<4xf32>
// CHECK-NEXT:      func.call @use(%[[A]])
// CHECK-NEXT:      llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT:      omp.yield
// CHECK-NOT:     memref.alloca_scope
func.func private @use(memref<4xf32>)
func.func @alloca_in_body(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          %a = memref.alloca() : memref<4xf32>
          func.call @use(%a) : (memref<4xf32>) -> ()
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// An alloca in a nested allocation scope (an inner parallel region) is that
// scope's: the outer scope goes.

// CHECK-LABEL: func.func @alloca_in_nested_scope(
// CHECK:         omp.loop_nest
// CHECK-NEXT:      omp.parallel
// CHECK-NEXT:        memref.alloca()
func.func @alloca_in_nested_scope(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          omp.parallel {
            %a = memref.alloca() : memref<4xf32>
            func.call @use(%a) : (memref<4xf32>) -> ()
            omp.terminator
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
func.func private @use(memref<4xf32>)

// -----

// A scope that is not an OpenMP loop body is not this pass's.

// CHECK-LABEL: func.func @not_a_loop_body(
// CHECK:         memref.alloca_scope
// CHECK-NEXT:      func.call @helper
func.func private @helper(index)
func.func @not_a_loop_body(%i: index) {
  memref.alloca_scope {
    func.call @helper(%i) : (index) -> ()
  }
  return
}
