// The chunks of a batched kernel are cut from the work of all its ops
// together, an index or a bag weighing its row's cache lines: here
// (2000 + 100) x 4 lines for @small's f32 x 64 offsets op and (300 + 100) x 1
// for its f32 x 16 packed op, 8800 lines in all. The count is the least
// power of two of chunks of at least batch-chunk lines, at most one per
// bag, so the team follows the whole batch's work and not the number of ops.
//
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-loops="target=avx2 parallel=1 batch-tables=1 batch-chunk=1000" --canonicalize | FileCheck %s --check-prefix=EIGHT
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-loops="target=avx2 parallel=1 batch-tables=1 batch-chunk=4400" --canonicalize | FileCheck %s --check-prefix=TWO
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-loops="target=avx2 parallel=1 batch-tables=1 batch-chunk=8800" --canonicalize | FileCheck %s --check-prefix=ONE
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-loops="target=avx2 parallel=1 batch-tables=1 batch-chunk=1" --canonicalize | FileCheck %s --check-prefix=BAGS

// 8800 / 1000 -> 8 whole chunks -> 8.
// EIGHT-LABEL: func.func @small(
// EIGHT:         scf.forall (%{{.*}}) in (8) shared_outs
// 8800 / 4400 -> 2 chunks, on two threads; 8799 would be one.
// TWO-LABEL: func.func @small(
// TWO:         scf.forall (%{{.*}}) in (2) shared_outs
// Both ops in one chunk: the canonicalizer leaves no parallel loop, so the
// lowering forks no threads for the batch.
// ONE-LABEL: func.func @small(
// ONE-NOT:     scf.forall
// ONE:         return
// One line per chunk: 8192 chunks wanted, at most one per bag (200).
// BAGS-LABEL: func.func @small(
// BAGS:         scf.forall (%{{.*}}) in (200) shared_outs
func.func @small(%t0: tensor<1000x64xf32>, %i0: tensor<2000xi32>, %o0: tensor<100xi32>,
                 %t1: tensor<500x16xf32>, %i1: tensor<100x3xi64>)
    -> (tensor<100x64xf32>, tensor<100x16xf32>) {
  %0 = embbag.offsets sum %t0[%i0] offsets(%o0) : (tensor<1000x64xf32>, tensor<2000xi32>, tensor<100xi32>) -> tensor<100x64xf32>
  %1 = embbag.packed sum %t1[%i1] : (tensor<500x16xf32>, tensor<100x3xi64>) -> tensor<100x16xf32>
  return %0, %1 : tensor<100x64xf32>, tensor<100x16xf32>
}
