// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 checks=0" --canonicalize --cse | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx512 checks=0" --canonicalize --cse | FileCheck %s --check-prefix=AVX512
// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 checks=0 max-vectors=8 prefetch-distance=0" --canonicalize --cse | FileCheck %s --check-prefix=FIXED

// Register blocking and prefetch. By default a static row takes as few
// passes over each bag as the vector registers allow (16 with AVX2, less one
// for a weight and two for a masked tail): full passes, then a thinner last
// one. A pass prefetches the lines of its chunk of the row
// `prefetch-distance` indices ahead (by default 16 KiB of rows in flight,
// or 32 rows of at most two lines),
// through a read-only buffer view of the table; when a static row takes
// several passes, the first one prefetches the whole row and the others none.

// 128 floats = 16 vectors, weighted: a pass of 15 and a pass of 1 (16
// accumulators and the weight do not fit). The 512-byte rows of a 51 MB
// table are prefetched 32 indices ahead (16 KiB) by the first pass, one prefetch per 64-byte line; the
// second pass prefetches nothing. Rows of whole lines are prefetched by a
// loop without the extra prefetch of the last element when the table's
// rows start on cache lines (its first element and row stride, checked
// once), by one with it otherwise. The rows of a table beyond the
// last-level cache go to L2 (locality 2, x86 prefetcht1); the index list
// itself is prefetched 64 positions further on, into every level. The row
// being read is read from its last vector on (112), which is prefetched
// into L1 just before (docs/Kernel.md, "The row's last line first").
// CHECK-LABEL: func.func @row128(
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<100000x128xf32> to memref<100000x128xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[IBUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<?xi32> to memref<?xi32, strided<[?], offset: ?>>
// CHECK:         memref.extract_strided_metadata %[[BUF]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK:         arith.andi
// CHECK:         %[[ON_LINES:[a-z0-9]+]] = arith.andi
// CHECK:         scf.for
// CHECK:           scf.if %[[ON_LINES]] -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:             scf.for %[[J:[a-z0-9]+]] = {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:               %[[AHEAD:[a-z0-9]+]] = arith.addi %[[J]], %[[C32]] : index
// CHECK:               %[[LEAD:[a-z0-9]+]] = arith.addi %[[J]], %c96 : index
// CHECK:               %[[LEAD_CLAMPED:[a-z0-9]+]] = arith.minui %[[LEAD]], %{{.*}} : index
// CHECK:               memref.prefetch %[[IBUF]][%[[LEAD_CLAMPED]]], read, locality<3>, data
// CHECK:               %[[CLAMPED:[a-z0-9]+]] = arith.minui %[[AHEAD]], %{{.*}} : index
// CHECK:               tensor.extract %{{.*}}[%[[CLAMPED]]]
// CHECK-COUNT-8:       memref.prefetch %[[BUF]][%{{.*}}, %c{{0|16|32|48|64|80|96|112}}], read, locality<2>, data : memref<100000x128xf32, strided<[?, ?], offset: ?>>
// CHECK:               %[[ROW:.*]] = arith.index_cast
// CHECK:               vector.broadcast
// CHECK-NEXT:          memref.prefetch %[[BUF]][%[[ROW]], %c112], read, locality<3>, data
// CHECK-NEXT:          vector.transfer_read %{{.*}}[%[[ROW]], %c112]
// CHECK-NOT:           memref.prefetch
// CHECK-COUNT-14:      vector.transfer_read
// CHECK-NOT:           vector.transfer_read
// CHECK:               scf.yield
// CHECK:           } else {
// CHECK:             scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:               memref.prefetch %[[IBUF]]
// CHECK-COUNT-8:       memref.prefetch %[[BUF]][%{{.*}}, %c{{0|16|32|48|64|80|96|112}}]
// CHECK-NEXT:          memref.prefetch %[[BUF]][%{{.*}}, %c127]
// CHECK:               memref.prefetch %[[BUF]][%{{.*}}, %c112], read, locality<3>
// CHECK-NOT:           memref.prefetch
// CHECK-COUNT-15:      vector.transfer_read
// CHECK-NOT:           vector.transfer_read
// CHECK:               scf.yield
// CHECK-COUNT-15:  vector.transfer_write
// CHECK:           scf.for {{.*}} -> (vector<8xf32>) {
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.transfer_read %{{.*}}[%{{.*}}, %c120]
// CHECK:             scf.yield
// CHECK:           vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %c120]
// AVX512-LABEL: func.func @row128(
// AVX512:         scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// FIXED-LABEL: func.func @row128(
// FIXED-NOT:     bufferization.to_buffer
// FIXED:         scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// FIXED-NOT:     memref.prefetch
func.func @row128(%t: tensor<100000x128xf32>, %i: tensor<?x32xi32>, %w: tensor<?x32xf32>) -> tensor<?x128xf32> {
  %r = embbag.packed sum %t[%i] weights(%w) : (tensor<100000x128xf32>, tensor<?x32xi32>, tensor<?x32xf32>) -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}

// 128 floats unweighted: 16 accumulators, one pass (in each of the two
// prefetch variants), nothing after it.
// CHECK-LABEL: func.func @row128_sum(
// CHECK:         scf.if %{{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:           scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:         } else {
// CHECK:           scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @row128_sum(%t: tensor<100000x128xf32>, %i: tensor<?x32xi32>) -> tensor<?x128xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<100000x128xf32>, tensor<?x32xi32>) -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}

// 100 floats with AVX-512: 7 vectors of 16, the last masked, in one pass.
// With max-vectors=8 and AVX2: a pass of 8 vectors and an epilogue of 5.
// AVX512-LABEL: func.func @row100_weighted(
// AVX512:         vector.constant_mask [4] : vector<16xi1>
// AVX512:         scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// AVX512-NOT:     scf.for
// AVX512:         return
// FIXED-LABEL: func.func @row100_weighted(
// FIXED:         scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// FIXED:         vector.constant_mask [4] : vector<8xi1>
// FIXED:         scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
func.func @row100_weighted(%t: tensor<1000x100xf32>, %i: tensor<?x32xi32>, %w: tensor<?x32xf32>) -> tensor<?x100xf32> {
  %r = embbag.packed sum %t[%i] weights(%w) : (tensor<1000x100xf32>, tensor<?x32xi32>, tensor<?x32xf32>) -> tensor<?x100xf32>
  return %r : tensor<?x100xf32>
}

// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 checks=0 unroll=2" --canonicalize --cse | FileCheck %s --check-prefix=UNROLL
// `unroll` unrolls the loop over a bag's indices; an epilogue loop takes the
// remainder and continues from the unrolled loop's sums.
// UNROLL-LABEL: func.func @unrolled(
// UNROLL:         %[[IF:.*]]:8 = scf.if
// UNROLL:           %[[MAIN:.*]]:8 = scf.for %{{.*}} step %c2 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// UNROLL-COUNT-16:    vector.fma
// UNROLL:             scf.yield
// UNROLL:           %[[EPI:.*]]:8 = scf.for %{{.*}} step %c1 iter_args(%{{.*}} = %[[MAIN]]#0, %{{.*}} = %[[MAIN]]#1, %{{.*}} = %[[MAIN]]#2, %{{.*}} = %[[MAIN]]#3, %{{.*}} = %[[MAIN]]#4, %{{.*}} = %[[MAIN]]#5, %{{.*}} = %[[MAIN]]#6, %{{.*}} = %[[MAIN]]#7)
// UNROLL-COUNT-8:     vector.fma
// UNROLL:           scf.yield %[[EPI]]#0, %[[EPI]]#1, %[[EPI]]#2, %[[EPI]]#3, %[[EPI]]#4, %[[EPI]]#5, %[[EPI]]#6, %[[EPI]]#7
// UNROLL:         } else {
// UNROLL:           scf.for %{{.*}} step %c2
// UNROLL:           scf.for %{{.*}} step %c1
// UNROLL:         vector.transfer_write %[[IF]]#0
func.func @unrolled(%t: tensor<100000x64xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %w: tensor<?xf32>) -> tensor<?x64xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) weights(%w) : (tensor<100000x64xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// A table known to fit in 512 KiB (the L2 cache) is not prefetched; one
// known to fit in 4 MiB is prefetched 16 indices ahead whatever its rows (it
// lives in the last-level cache); a larger one keeps 16 KiB of rows in
// flight: 64 rows of 256 bytes.
// CHECK-LABEL: func.func @l2_table(
// CHECK-NOT:     bufferization.to_buffer
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @l2_table(%t: tensor<2048x64xf32>, %i: tensor<?x8xi32>) -> tensor<?x64xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<2048x64xf32>, tensor<?x8xi32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// CHECK-LABEL: func.func @cached_table(
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         scf.for %[[J:[a-z0-9]+]] = {{.*}} -> (vector<8xf32>
// CHECK-NEXT:      arith.addi %[[J]], %[[C16]] : index
// CHECK:           memref.prefetch %{{.*}} : memref<?xi32
// CHECK:           memref.prefetch %{{.*}}, read, locality<3>, data : memref<4096x64xf32
func.func @cached_table(%t: tensor<4096x64xf32>, %i: tensor<?x8xi32>) -> tensor<?x64xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<4096x64xf32>, tensor<?x8xi32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// CHECK-LABEL: func.func @dram_table(
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         scf.for %[[J:[a-z0-9]+]] = {{.*}} -> (vector<8xf32>
// CHECK-NEXT:      arith.addi %[[J]], %[[C64]] : index
// CHECK:           memref.prefetch %{{.*}} : memref<?xi32
// CHECK:           memref.prefetch %{{.*}}, read, locality<2>, data : memref<16385x64xf32
func.func @dram_table(%t: tensor<16385x64xf32>, %i: tensor<?x8xi32>) -> tensor<?x64xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<16385x64xf32>, tensor<?x8xi32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// Rows of at most two cache lines (128 bytes) of a table beyond the
// last-level cache go 32 indices ahead, not 16 KiB of rows (128 ahead at
// most): a short row costs its page's translation more than its bytes, and
// the translation of a row prefetched further ahead is gone again when the
// row is read. A row of 132 bytes keeps 16 KiB in flight: 124 rows.
// CHECK-LABEL: func.func @one_line_rows(
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         scf.for %[[J:[a-z0-9]+]] = {{.*}} -> (vector<8xf32>
// CHECK-NEXT:      arith.addi %[[J]], %[[C32]] : index
// CHECK:           memref.prefetch %{{.*}}, read, locality<2>, data : memref<100000x16xf32
func.func @one_line_rows(%t: tensor<100000x16xf32>, %i: tensor<?x8xi32>) -> tensor<?x16xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<100000x16xf32>, tensor<?x8xi32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// CHECK-LABEL: func.func @two_line_rows(
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         scf.for %[[J:[a-z0-9]+]] = {{.*}} -> (vector<8xf32>
// CHECK-NEXT:      arith.addi %[[J]], %[[C32]] : index
func.func @two_line_rows(%t: tensor<100000x32xf32>, %i: tensor<?x8xi32>) -> tensor<?x32xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<100000x32xf32>, tensor<?x8xi32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// CHECK-LABEL: func.func @longer_rows(
// CHECK-DAG:     %[[C124:.*]] = arith.constant 124 : index
// CHECK:         scf.for %[[J:[a-z0-9]+]] = {{.*}} -> (vector<8xf32>
// CHECK-NEXT:      arith.addi %[[J]], %[[C124]] : index
func.func @longer_rows(%t: tensor<100000x33xf32>, %i: tensor<?x8xi32>) -> tensor<?x33xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<100000x33xf32>, tensor<?x8xi32>) -> tensor<?x33xf32>
  return %r : tensor<?x33xf32>
}

// A table of unknown size: the distance (16 ahead up to 4 MiB, else 64 for
// rows of 256 bytes), whether to prefetch at all (above 512 KiB) and where
// (into L1 up to 4 MiB, the last-level cache's latency being short; into
// L2 beyond) are computed once, before the bag loop; each pass over a bag
// branches to a loop with prefetches (four: into L1 or L2, rows on cache
// lines or not) or one without.
// CHECK-LABEL: func.func @unknown_size_table(
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[BYTES:.*]] = arith.muli %{{.*}}, %c256 : index
// CHECK:         %[[SMALL:.*]] = arith.cmpi ule, %[[BYTES]], %c4194304 : index
// CHECK:         %[[DIST:.*]] = arith.select %[[SMALL]], %[[C16]], %[[C64]] : index
// CHECK:         %[[ON:.*]] = arith.cmpi ugt, %[[BYTES]], %c524288 : index
// CHECK:         scf.for
// CHECK:           scf.if %[[ON]]
// CHECK:             scf.if %[[SMALL]]
// CHECK:               scf.if
// CHECK:                 scf.for %[[J:[a-z0-9]+]] =
// CHECK-NEXT:              arith.addi %[[J]], %[[DIST]] : index
// CHECK:                   memref.prefetch %{{.*}}[%{{.*}}, %c0], read, locality<3>
// CHECK:               } else {
// CHECK:                 scf.for
// CHECK:                   memref.prefetch %{{.*}}[%{{.*}}, %c0], read, locality<3>
// CHECK:             } else {
// CHECK:               scf.if
// CHECK:                 scf.for
// CHECK:                   memref.prefetch %{{.*}}[%{{.*}}, %c0], read, locality<2>
// CHECK:               } else {
// CHECK:                 scf.for
// CHECK:                   memref.prefetch %{{.*}}[%{{.*}}, %c0], read, locality<2>
// CHECK:           } else {
// CHECK:             scf.for
// CHECK-NOT:           memref.prefetch
// CHECK:               scf.yield
func.func @unknown_size_table(%t: tensor<?x64xf32>, %i: tensor<?x8xi32>) -> tensor<?x64xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<?x64xf32>, tensor<?x8xi32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// A row of unknown length: the same rule, evaluated once per call by the
// shared version of the bag loop (16 KiB of rows within [16, 128], 32 for
// rows of at most 128 bytes, 16 for a table of at most 4 MiB).
// (The shared versions follow the module's functions.)
// CHECK-LABEL: func.func @unknown_row(
// CHECK-LABEL: func.func private @__embbag_rows_sum_f32__row_version_1(
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[SMALL:.*]] = arith.cmpi ule, %{{.*}}, %c4194304 : index
// CHECK:         %[[PER_ROW:.*]] = arith.divui %c16384, %{{.*}} : index
// CHECK:         %[[AT_LEAST:.*]] = arith.maxui %[[PER_ROW]], %[[C16]] : index
// CHECK:         %[[LONG:.*]] = arith.minui %[[AT_LEAST]], %c128 : index
// CHECK:         %[[SHORT:.*]] = arith.cmpi ule, %{{.*}}, %c128 : index
// CHECK:         %[[BEYOND:.*]] = arith.select %[[SHORT]], %[[C32]], %[[LONG]] : index
// CHECK:         %[[DIST:.*]] = arith.select %[[SMALL]], %[[C16]], %[[BEYOND]] : index
// CHECK:         scf.for %[[J:[a-z0-9]+]] = {{.*}} -> (vector<8xf32>)
// CHECK-NEXT:      arith.addi %[[J]], %[[DIST]] : index
func.func @unknown_row(%t: tensor<100000x?xf32>, %i: tensor<?x8xi32>) -> tensor<?x?xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<100000x?xf32>, tensor<?x8xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
