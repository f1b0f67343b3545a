// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-chunk=1" | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-tables=1 batch-chunk=1" | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s

// A table of rows of no elements reads nothing, but its op's contract
// still holds (docs/Semantics.md): index 9 of a 4-row table stops the
// program, whether the bags are checked before the kernel or by the
// threads that read them (zero-width-rows.mlir has the valid case).

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = tensor.empty() : tensor<4x0xf32>
  %t2 = arith.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>
  %i = arith.constant dense<[3, 1, 9, 0, 2]> : tensor<5xi64>
  %o = arith.constant dense<[0, 2, 2]> : tensor<3xi64>
  %good = arith.constant dense<[3, 1, 2, 0, 2]> : tensor<5xi64>
  // CHECK: embbag.offsets at {{.*}}:[[@LINE+1]]:8: index out of range [0, num_emb)
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<4x0xf32>, tensor<5xi64>, tensor<3xi64>) -> tensor<3x0xf32>
  %r2 = embbag.offsets sum %t2[%good] offsets(%o) : (tensor<4x1xf32>, tensor<5xi64>, tensor<3xi64>) -> tensor<3x1xf32>
  // CHECK-NOT: sizes =
  %p = tensor.cast %r : tensor<3x0xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  %p2 = tensor.cast %r2 : tensor<3x1xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}
