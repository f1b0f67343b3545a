// RUN: embbag-opt %s --split-input-file --embbag-limit-omp-threads --verify-diagnostics | FileCheck %s

// A region that is one worksharing loop gets num_threads(clamp(iterations,
// 1, omp_get_max_threads())), computed before it; one declaration per
// module.

// CHECK-LABEL: module
// CHECK:         func.func private @omp_get_max_threads() -> i32
// CHECK-NOT:     func.func private @omp_get_max_threads
// CHECK-LABEL:   func.func @loop(
// CHECK-SAME:      %[[LB:.*]]: index, %[[UB:.*]]: index)
// CHECK:           %[[C4:.*]] = arith.constant 4 : index
// CHECK:           %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK:           %[[C0:.*]] = arith.constant 0 : index
// CHECK:           %[[POS:.*]] = arith.maxsi %[[SPAN]], %[[C0]] : index
// CHECK:           %[[TRIPS:.*]] = arith.ceildivui %[[POS]], %[[C4]] : index
// CHECK:           %[[TRIPS64:.*]] = arith.index_castui %[[TRIPS]] : index to i64
// CHECK:           %[[MAX:.*]] = call @omp_get_max_threads() : () -> i32
// CHECK:           %[[MAX64:.*]] = arith.extsi %[[MAX]] : i32 to i64
// CHECK:           %[[MIN:.*]] = arith.minsi %[[TRIPS64]], %[[MAX64]] : i64
// CHECK:           %[[ONE:.*]] = arith.constant 1 : i64
// CHECK:           %[[TEAM64:.*]] = arith.maxsi %[[MIN]], %[[ONE]] : i64
// CHECK:           %[[TEAM:.*]] = arith.trunci %[[TEAM64]] : i64 to i32
// CHECK:           omp.parallel num_threads(%[[TEAM]] : i32)
// CHECK:           call @omp_get_max_threads()
// CHECK:           omp.parallel num_threads(%{{.*}} : i32)
func.func @loop(%lb: index, %ub: index) {
  %c4 = arith.constant 4 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%lb) to (%ub) step (%c4) {
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%lb) to (%ub) step (%c4) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// An inclusive nest of two i32 loops: (ub - lb + 1) iterations each,
// widened without sign and multiplied as i64.

// CHECK-LABEL: func.func @inclusive_nest(
// CHECK-SAME:      %[[N:.*]]: i32, %[[M:.*]]: i32)
// CHECK:           %[[A:.*]] = arith.addi %[[N]], %{{.*}} : i32
// CHECK:           %[[AP:.*]] = arith.maxsi %[[A]], %{{.*}} : i32
// CHECK:           %[[A64:.*]] = arith.extui %[[AP]] : i32 to i64
// CHECK:           %[[B:.*]] = arith.addi %[[M]], %{{.*}} : i32
// CHECK:           %[[BP:.*]] = arith.maxsi %[[B]], %{{.*}} : i32
// CHECK:           %[[B64:.*]] = arith.extui %[[BP]] : i32 to i64
// CHECK:           %[[TRIPS:.*]] = arith.muli %[[A64]], %[[B64]] : i64
// CHECK:           arith.minsi %[[TRIPS]], %{{.*}} : i64
// CHECK:           omp.parallel num_threads(%{{.*}} : i32)
func.func @inclusive_nest(%n: i32, %m: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i, %j) : i32 = (%c0, %c0) to (%n, %m) inclusive step (%c1, %c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Regions whose team size the program could see, or that have one, are left
// alone: another op beside the loop, a thread count or an `if` already, a
// step that is not a positive constant, a bound computed inside the region.
// Nothing is declared then.

// CHECK-NOT:   omp_get_max_threads
// CHECK-LABEL: func.func @left_alone(
// CHECK:         omp.parallel {
// CHECK:         omp.parallel num_threads(%{{.*}} : i32) {
// CHECK:         omp.parallel if(%{{.*}}) {
// CHECK:         omp.parallel {
// CHECK:         omp.parallel {
// CHECK-NOT:   omp_get_max_threads
func.func @left_alone(%ub: index, %step: index, %n: i32, %cond: i1, %m: memref<index>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    memref.store %c0, %m[] : memref<index>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%ub) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%ub) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel if(%cond) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%ub) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%ub) step (%step) {
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    %inner = memref.load %m[] : memref<index>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%inner) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A symbol of that name that is not libomp's function is not called.

// expected-error @+1 {{'omp_get_max_threads' is libomp's '() -> i32' function; embbag-limit-omp-threads cannot call this one}}
func.func private @omp_get_max_threads() -> i64
func.func @clash(%ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%ub) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
