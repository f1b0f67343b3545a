// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-tables=1 batch-chunk=1" | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s
// RUN: sed 's/0, 7, 1\]/0, 3, 1]/; s/0, 2, 4, 6\]/0, 2, 6, 4]/' %s | embbag-opt --embbag-to-llvm="parallel=1 batch-tables=1 batch-chunk=1" 2>/dev/null | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s --check-prefix=OFFSETS
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-tables=1 batch-chunk=1 status=1" 2>/dev/null | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=i32 -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s --check-prefix=STATUS
// RUN: sed 's/0, 7, 1\]/0, 3, 1]/' %s | embbag-opt --embbag-to-llvm="parallel=1 batch-tables=1 batch-chunk=1 status=1" 2>/dev/null | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=i32 -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s --check-prefix=GOOD
// The three ops are one kernel:
// RUN: embbag-opt %s --convert-embbag-to-loops="parallel=1 batch-tables=1" | FileCheck %s --check-prefix=BATCHED

// A contract violation in one table of a batch is caught by the chunk that
// reads it (docs/Batching.md): three tables, the offsets op's bag 3 reads
// indices[6] = 7, outside its table of 5 rows. With batch-chunk=1 every bag
// is a chunk of its own, spread over the two threads; the thread running
// that chunk flags it and reads the bag as empty; after the loop the op
// stops with its message (abort) or @main returns status 1 (status=1).
// Offsets [0, 2, 6, 4] (prefix OFFSETS) break the offsets' rule instead.
// With indices[6] = 3 (prefix GOOD) every table's result is printed and the
// status is 0.

// BATCHED-COUNT-1: scf.forall (
// BATCHED-NOT:     scf.forall (

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 4, 0, 7, 1]> : tensor<8xi32>
  %o = arith.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
  %u = arith.constant dense<[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [4.0, 4.0, 4.0]]> : tensor<3x3xf32>
  %j = arith.constant dense<[[0, 1], [1, 2], [2, 2]]> : tensor<3x2xi64>
  %s = arith.constant dense<[0, 0, 2]> : tensor<3xi64>
  %n = arith.constant 3 : i64
  %a = embbag.packed sum %u[%j] : (tensor<3x3xf32>, tensor<3x2xi64>) -> tensor<3x3xf32>
  // CHECK: embbag.offsets at {{.*}}:[[@LINE+2]]:8: index out of range [0, num_emb)
  // OFFSETS: embbag.offsets at {{.*}}: offsets must be non-negative, non-decreasing and at most the number of indices
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<8xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  %b = embbag.segments mean %u[%s] segment_ids(%s) num_segments(%n) : (tensor<3x3xf32>, tensor<3xi64>, tensor<3xi64>, i64) -> tensor<3x3xf32>
  // CHECK-NOT: data =
  // OFFSETS-NOT: data =
  // GOOD:      data =
  // GOOD-NEXT: [3,   3,   3],
  // GOOD-NEXT: [6,   6,   6],
  // GOOD-NEXT: [8,   8,   8]]
  %pa = tensor.cast %a : tensor<3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%pa) : (tensor<*xf32>) -> ()
  // GOOD:      data =
  // GOOD-NEXT: [4,   6],
  // GOOD-NEXT: [12,   14],
  // GOOD-NEXT: [10,   12],
  // GOOD-NEXT: [10,   12]]
  %p = tensor.cast %r : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  // Segment 0 is rows 0 and 0, segment 1 empty, segment 2 row 2.
  // GOOD:      data =
  // GOOD-NEXT: [1,   1,   1],
  // GOOD-NEXT: [0,   0,   0],
  // GOOD-NEXT: [4,   4,   4]]
  %pb = tensor.cast %b : tensor<3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%pb) : (tensor<*xf32>) -> ()
  // STATUS-NOT: data =
  // STATUS:     {{^}}1{{$}}
  // GOOD:       {{^}}0{{$}}
  return
}
