// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 parallel=1 checks=0" --canonicalize --cse | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 parallel=1" --mlir-print-ir-before=convert-embbag-assert-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=OMP
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 parallel=1 omp-blocktime=7" --mlir-print-ir-before=convert-embbag-assert-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKTIME7
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 parallel=1 omp-blocktime=-1" | FileCheck %s --check-prefix=RUNTIME-BLOCKTIME
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 parallel=1 omp-schedule=static" | FileCheck %s --check-prefix=STATIC

// With `parallel`, the bag loop is an scf.forall over chunks of consecutive
// bags: the greatest power of two of chunks of at least `batch-chunk` cache
// lines of rows (16384 lines / 4 lines per row = 4096 indices and bags per
// chunk), at most one per bag. Each chunk computes its bags with the loops of the
// sequential kernel into a slice of the shared output and inserts it with
// tensor.parallel_insert_slice. --embbag-to-llvm="target=avx2 parallel=1"
// makes it an OpenMP worksharing loop.

// omp-blocktime=7: 7 ms.
// BLOCKTIME7-LABEL: func.func @offsets(
// BLOCKTIME7:         %[[MS:.*]] = arith.constant 7 : i32
// BLOCKTIME7-NEXT:    call @kmp_set_blocktime(%[[MS]]) : (i32) -> ()
// BLOCKTIME7-NEXT:    omp.parallel

// omp-schedule=static: the chunks in fixed blocks, one per thread.
// STATIC-LABEL: llvm.func @offsets(
// STATIC:         omp.wsloop schedule(static)

// omp-blocktime=-1 leaves libomp's blocktime alone.
// RUNTIME-BLOCKTIME-NOT: kmp_set_blocktime
// RUNTIME-BLOCKTIME:     omp.parallel
// RUNTIME-BLOCKTIME-NOT: kmp_set_blocktime

// CHECK-LABEL: func.func @offsets(
// CHECK-DAG:     %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-DAG:     %[[NI:.*]] = tensor.dim %arg1, %c0 : tensor<?xi32>
// CHECK-DAG:     %[[NB:.*]] = tensor.dim %arg2, %c0 : tensor<?xi32>
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%[[NB]]) : tensor<?x64xf32>
// CHECK:         %[[WORK:.*]] = arith.addi %[[NI]], %[[NB]] : index
// CHECK:         %[[ANY:.*]] = arith.cmpi ne, %[[NB]], %c0 : index
// CHECK:         %[[CHUNKS:.*]] = arith.divui %[[WORK]], %[[C4096]] : index
// CHECK:         %[[SOME:.*]] = arith.select %[[ANY]], %[[CHUNKS]], %c0 : index
// CHECK:         %[[ONE:.*]] = arith.maxui %[[SOME]], %c1 : index
// CHECK:         %[[ONE64:.*]] = arith.index_castui %[[ONE]] : index to i64
// CHECK:         %[[LZ:.*]] = math.ctlz %[[ONE64]] : i64
// CHECK:         %[[BITS:.*]] = arith.subi %c63_i64, %[[LZ]] : i64
// CHECK:         %[[POW:.*]] = arith.shli %c1_i64, %[[BITS]] : i64
// CHECK:         %[[POWI:.*]] = arith.index_castui %[[POW]] : i64 to index
// CHECK:         %[[N:.*]] = arith.minui %[[POWI]], %[[NB]] : index
// CHECK:         %[[R:.*]] = scf.forall (%[[C:.*]]) in (%[[N]]) shared_outs(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<?x64xf32>)
// Chunk c's first bag c * num_bags / N, as c * q + c * r / N (num_bags =
// q * N + r), so that no product exceeds num_bags (chunkStart, which table
// batching shares).
// CHECK:           %[[Q:.*]] = arith.divui %[[NB]], %[[N]] : index
// CHECK:           %[[REM:.*]] = arith.remui %[[NB]], %[[N]] : index
// CHECK:           %[[A:.*]] = arith.muli %[[C]], %[[REM]] : index
// CHECK:           %[[APART:.*]] = arith.divui %[[A]], %[[N]] : index
// CHECK:           %[[AQ:.*]] = arith.muli %[[C]], %[[Q]] : index
// CHECK:           %[[FIRST:.*]] = arith.addi %[[AQ]], %[[APART]] : index
// CHECK:           %[[NEXT:.*]] = arith.addi %[[C]], %c1 : index
// CHECK:           %[[B:.*]] = arith.muli %[[NEXT]], %[[REM]] : index
// CHECK:           %[[BPART:.*]] = arith.divui %[[B]], %[[N]] : index
// CHECK:           %[[BQ:.*]] = arith.muli %[[NEXT]], %[[Q]] : index
// CHECK:           %[[END:.*]] = arith.addi %[[BQ]], %[[BPART]] : index
// CHECK:           %[[COUNT:.*]] = arith.subi %[[END]], %[[FIRST]] : index
// CHECK:           %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[FIRST]], 0] [%[[COUNT]], 64] [1, 1] : tensor<?x64xf32> to tensor<?x64xf32>
// CHECK:           %[[ROWS:.*]] = scf.for %[[BAG:.*]] = %[[FIRST]] to %[[END]] step %c1 iter_args(%[[S:.*]] = %[[SLICE]]) -> (tensor<?x64xf32>)
// CHECK:             %[[ROW:.*]] = arith.subi %[[BAG]], %[[FIRST]] : index
// CHECK:             scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:             vector.transfer_write %{{.*}}, %[[S]][%[[ROW]], %c0]
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[ROWS]] into %[[OUT]][%[[FIRST]], 0] [%[[COUNT]], 64] [1, 1] : tensor<?x64xf32> into tensor<?x64xf32>
// The chunks' cost varies: the loop is marked for a balancing schedule.
// CHECK:         } {embbag.work_chunks}
// CHECK:         return %[[R]]

// The team has as many threads as the loop has chunks, at most
// omp_get_max_threads() (embbag-limit-omp-threads), the threads take the
// chunks in guided blocks (convert-embbag-work-chunks-to-openmp), and the
// workers sleep as soon as a region ends (omp-blocktime=0, the default):
// libomp is told so before every region.
// OMP-LABEL: func.func @offsets(
// OMP:         %[[MAX:.*]] = call @omp_get_max_threads() : () -> i32
// OMP:         %[[TEAM:.*]] = arith.trunci %{{.*}} : i64 to i32
// OMP:         call @kmp_set_blocktime(%{{.*}}) : (i32) -> ()
// OMP-NEXT:    omp.parallel num_threads(%[[TEAM]] : i32)
// OMP:           omp.wsloop schedule(guided)
// OMP:             omp.loop_nest
// OMP-NOT:           memref.alloca_scope
// OMP:               vector.transfer_read
func.func @offsets(%t: tensor<?x64xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x64xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<?x64xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// A static op of less work than two chunks: one chunk, and the canonicalizer
// folds the loop over it into the sequential loop over the bags; no
// parallel region is left.
// CHECK-LABEL: func.func @one_chunk(
// CHECK-NOT:     scf.forall
// CHECK:         scf.for %{{.*}} = %c0 to %c128 step %c1
// CHECK-NOT:     scf.forall
// CHECK:         return
// OMP-LABEL: func.func @one_chunk(
// OMP-NOT:       omp.parallel
// OMP:           return
func.func @one_chunk(%t: tensor<1000x64xf32>, %i: tensor<2560xi32>, %o: tensor<128xi32>) -> tensor<128x64xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<1000x64xf32>, tensor<2560xi32>, tensor<128xi32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// Twice as much work as a chunk of 4096 indices and bags: two chunks; a
// little less than three (12287 indices and bags): still two, a power of
// two; four times as much: four.
// CHECK-LABEL: func.func @two_chunks(
// CHECK:         scf.forall (%{{.*}}) in (2)
// OMP-LABEL: func.func @two_chunks(
// OMP:           omp.parallel num_threads
func.func @two_chunks(%t: tensor<1000x64xf32>, %i: tensor<8064xi32>, %o: tensor<128xi32>) -> tensor<128x64xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<1000x64xf32>, tensor<8064xi32>, tensor<128xi32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @almost_three_chunks(
// CHECK:         scf.forall (%{{.*}}) in (2)
func.func @almost_three_chunks(%t: tensor<1000x64xf32>, %i: tensor<12159xi32>, %o: tensor<128xi32>) -> tensor<128x64xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<1000x64xf32>, tensor<12159xi32>, tensor<128xi32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @four_chunks(
// CHECK:         scf.forall (%{{.*}}) in (4)
func.func @four_chunks(%t: tensor<1000x64xf32>, %i: tensor<16256xi32>, %o: tensor<128xi32>) -> tensor<128x64xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<1000x64xf32>, tensor<16256xi32>, tensor<128xi32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}
