// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-chunk=1" | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s
// RUN: sed 's/0, 7, 1\]/0, 3, 1]/; s/0, 2, 4, 6\]/0, 2, 6, 4]/' %s | embbag-opt --embbag-to-llvm="parallel=1 batch-chunk=1" 2>/dev/null | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s --check-prefix=OFFSETS
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-chunk=1 status=1" 2>/dev/null | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=i32 -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s --check-prefix=STATUS
// RUN: sed 's/0, 7, 1\]/0, 3, 1]/' %s | embbag-opt --embbag-to-llvm="parallel=1 batch-chunk=1 status=1" 2>/dev/null | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=i32 -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s --check-prefix=GOOD

// With parallel=1 each thread checks the indices of the bags it reads
// (docs/Kernel.md, "Runtime checks"). Four bags on two threads, a chunk
// per bag (batch-chunk=1): the static schedule gives bags 2 and 3 to the
// second thread, and bag 3 reads
// indices[6] = 7, outside the table of 5 rows. That thread flags it and
// reads the bag as empty; after the loop the op stops with the message the
// check before the loop gives (abort), or returns status 1 (status=1).
// Offsets [0, 2, 6, 4] (prefix OFFSETS) break the offsets' rule in bag 2,
// also the second thread's: the offsets' message. The same kernel with
// indices[6] = 3 (prefix GOOD) returns status 0. (With
// status=1, @main returns the status, which mlir-runner prints.)

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 4, 0, 7, 1]> : tensor<8xi32>
  %o = arith.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
  // CHECK: embbag.offsets at {{.*}}:[[@LINE+2]]:8: index out of range [0, num_emb)
  // OFFSETS: embbag.offsets at {{.*}}: offsets must be non-negative, non-decreasing and at most the number of indices
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<8xi32>, tensor<4xi32>) -> tensor<4x2xf32>
  // CHECK-NOT: data =
  // OFFSETS-NOT: data =
  // GOOD:      data =
  // GOOD-NEXT: [4,   6],
  // GOOD-NEXT: [12,   14],
  // GOOD-NEXT: [10,   12],
  // GOOD-NEXT: [10,   12]]
  %p = tensor.cast %r : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  // STATUS-NOT: data =
  // STATUS:     {{^}}1{{$}}
  // GOOD:       {{^}}0{{$}}
  return
}
