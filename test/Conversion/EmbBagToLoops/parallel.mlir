// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 parallel=1 checks=0" --canonicalize --cse | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 parallel=1" --mlir-print-ir-before=convert-embbag-assert-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=OMP
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 parallel=1 omp-blocktime=7" --mlir-print-ir-before=convert-embbag-assert-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKTIME7
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 parallel=1 omp-blocktime=-1" | FileCheck %s --check-prefix=RUNTIME-BLOCKTIME

// With `parallel`, the bag loop is an scf.forall: each bag computes its
// result row in a [1, row] slice of the shared output and inserts it with
// tensor.parallel_insert_slice; the loops inside are those of the sequential
// kernel. --embbag-to-llvm="target=avx2 parallel=1" makes it an OpenMP worksharing loop.

// omp-blocktime=7: 7 ms.
// BLOCKTIME7-LABEL: func.func @offsets(
// BLOCKTIME7:         %[[MS:.*]] = arith.constant 7 : i32
// BLOCKTIME7-NEXT:    call @kmp_set_blocktime(%[[MS]]) : (i32) -> ()
// BLOCKTIME7-NEXT:    omp.parallel

// omp-blocktime=-1 leaves libomp's blocktime alone.
// RUNTIME-BLOCKTIME-NOT: kmp_set_blocktime
// RUNTIME-BLOCKTIME:     omp.parallel
// RUNTIME-BLOCKTIME-NOT: kmp_set_blocktime

// CHECK-LABEL: func.func @offsets(
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<?x64xf32>
// CHECK:         %[[R:.*]] = scf.forall (%[[BAG:.*]]) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<?x64xf32>)
// CHECK:           %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[BAG]], 0] [1, 64] [1, 1] : tensor<?x64xf32> to tensor<1x64xf32>
// CHECK:           scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:           %[[W:.*]] = vector.transfer_write %{{.*}}, %[[SLICE]][%c0, %c0]
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[BAG]], 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<?x64xf32>
// CHECK:         return %[[R]]

// The workers sleep as soon as a region ends (omp-blocktime=0, the
// default): libomp is told so before every region.
// OMP-LABEL: func.func @offsets(
// OMP:         call @kmp_set_blocktime(%{{.*}}) : (i32) -> ()
// OMP-NEXT:    omp.parallel
// OMP:           omp.wsloop
// OMP:             omp.loop_nest
// OMP-NOT:           memref.alloca_scope
// OMP:               vector.transfer_read
func.func @offsets(%t: tensor<?x64xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x64xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<?x64xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}
