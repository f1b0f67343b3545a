// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops parallel=1" | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops parallel=1 batch-tables=1" | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops" | %mlir_runner | FileCheck %s
// RUN: sed 's/\[1, 4\]\]/[1, 7]]/' %s | embbag-opt --embbag-to-llvm="path=gpu-loops parallel=1" | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s --check-prefix=BAD

// GPU-shaped kernels (path=gpu-loops) inside the iterations of a user's
// scf.forall: each iteration's kernels check into a flag word on its own
// stack (memref.alloca). With parallel=1, convert-scf-to-openmp wraps the
// iteration in a memref.alloca_scope, which convert-scf-to-cf left holding
// several blocks ("'memref.alloca_scope' op expects region #0 to have 0 or
// 1 blocks"); embbag-inline-parallel-alloca-scopes now inlines it between a
// stack save and restore. The sed run puts index 7 into a 5-row table: the
// iterations stop the program.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @forall(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %j: tensor<3x2xi32>) -> tensor<4x3x2xf32> {
  %init = tensor.empty() : tensor<4x3x2xf32>
  %res = scf.forall (%k) in (4) shared_outs(%o = %init) -> tensor<4x3x2xf32> {
    // BAD: embbag.packed at {{.*}}:[[@LINE+1]]:10: index out of range [0, num_emb)
    %a = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    %b = embbag.packed max %a[%j] : (tensor<3x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %b into %o[%k, 0, 0] [1, 3, 2] [1, 1, 1] : tensor<3x2xf32> into tensor<4x3x2xf32>
    }
  }
  return %res : tensor<4x3x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[[0, 2], [2, 1], [1, 4]]> : tensor<3x2xi32>
  %j = arith.constant dense<[[0, 2], [2, 1], [1, 0]]> : tensor<3x2xi32>
  // %a = [[6, 8], [8, 10], [12, 14]]; %b = the max of %a's rows 0 and 2,
  // 2 and 1, 1 and 0; every iteration the same.
  // CHECK: sizes = [4, 3, 2]
  // CHECK-COUNT-4: {{\[\[}}12,   14],{{[[:space:]]*}}[12,   14],{{[[:space:]]*}}[8,   10]]
  // BAD-NOT: sizes =
  %r = call @forall(%t, %i, %j) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<4x3x2xf32>
  %u = tensor.cast %r : tensor<4x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
