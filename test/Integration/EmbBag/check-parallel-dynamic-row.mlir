// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-chunk=1" | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s
// RUN: sed 's/0, 7, 1\]/0, 3, 1]/; s/0, 2, 4, 6\]/0, 2, 6, 4]/' %s | embbag-opt --embbag-to-llvm="parallel=1 batch-chunk=1" 2>/dev/null | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s --check-prefix=OFFSETS
// RUN: sed 's/0, 7, 1\]/0, 3, 1]/' %s | embbag-opt --embbag-to-llvm="parallel=1 batch-chunk=1" | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s --check-prefix=GOOD
// RUN: embbag-opt %s --convert-embbag-to-loops="parallel=1" | FileCheck %s --check-prefix=IR

// A parallel kernel with checks over a table whose row length is dynamic:
// its row-length versions are functions of the module shared by the ops of
// its kind (docs/DynamicShapes.md), and they check each bag they read into
// the op's flag word, passed to them, as the inline kernel does
// (check-parallel-index-out-of-range.mlir). Four bags, a chunk each, on two
// threads: bag 3 reads indices[6] = 7, outside the table of 5 rows (prefix
// CHECK); offsets [0, 2, 6, 4] break the offsets' rule in bag 2 (OFFSETS);
// with indices[6] = 3 the sums come out (GOOD).

// IR-LABEL: func.func @kernel(
// IR:         %[[FLAG:.*]] = memref.alloca() : memref<1xi32>
// IR:         call @{{.*}}dispatch(%{{[^,]*}}, %{{[^,]*}}, %[[FLAG]], {{.*}}) : ({{.*}}, memref<1xi32>, {{.*}}) -> tensor<?x?xf32>
// IR:         memref.load %[[FLAG]]
// IR:       func.func private @{{.*}}row_version_1({{.*}}%arg2: memref<1xi32>,
// IR:         scf.forall
// IR:           memref.atomic_rmw ori %{{.*}}, %arg2

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x?xf32> {
  // CHECK: embbag.offsets at {{.*}}:[[@LINE+2]]:8: index out of range [0, num_emb)
  // OFFSETS: embbag.offsets at {{.*}}: offsets must be non-negative, non-decreasing and at most the number of indices
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 4, 0, 7, 1]> : tensor<8xi32>
  %o = arith.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
  %td = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>
  %id = tensor.cast %i : tensor<8xi32> to tensor<?xi32>
  %od = tensor.cast %o : tensor<4xi32> to tensor<?xi32>
  %r = call @kernel(%td, %id, %od) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  // CHECK-NOT: data =
  // OFFSETS-NOT: data =
  // GOOD:      data =
  // GOOD-NEXT: [4,   6],
  // GOOD-NEXT: [12,   14],
  // GOOD-NEXT: [10,   12],
  // GOOD-NEXT: [10,   12]]
  %p = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
