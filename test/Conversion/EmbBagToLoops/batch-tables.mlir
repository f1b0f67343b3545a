// batch-tables: the independent bag ops of a block become one kernel, one
// scf.forall over chunks of all their work, in which each op computes the
// bags of the chunk's lines of work (often none); each op keeps its own
// result (a shared_out), clauses, shapes and element types. Ops that read a
// batched result, ops alone in their group and training ops take the per-op
// lowering.
//
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-loops="target=avx2 parallel=1 batch-tables=1" | FileCheck %s
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-loops="target=avx2 parallel=1 batch-tables=1 checks=0" | FileCheck %s --check-prefix=UNCHECKED
// Canonicalize and CSE before the lowering leave the ops batchable.
// RUN: embbag-opt %s --split-input-file --canonicalize --cse --convert-embbag-to-loops="target=avx2 parallel=1 batch-tables=1" | FileCheck %s --check-prefix=CANON
// The whole pipeline: one OpenMP region for the three ops of @three.
// RUN: embbag-opt %s --split-input-file --embbag-to-llvm="parallel=1 batch-tables=1" | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @three(
// The chunk count: a power of two of chunks of at least batch-chunk lines.
// CHECK:         arith.divui %{{.*}}, %c16384
// CHECK:         math.ctlz
// CHECK:         %[[R:.*]]:3 = scf.forall (%[[C:.*]]) in (%{{.*}}) shared_outs(%[[S0:.*]] = %{{.*}}, %[[S1:.*]] = %{{.*}}, %[[S2:.*]] = %{{.*}}) -> (tensor<3x4xf32>, tensor<4x8xf16>, tensor<?x?xf32>)
// CHECK-NOT:       scf.index_switch %[[C]]
// Each op: its first bag at the chunk's first line and at the next chunk's,
// a binary search only where the line falls in the op's work.
// CHECK:           %[[F0:.*]] = scf.if %{{.*}} -> (index) {
// CHECK:           } else {
// CHECK:             scf.while
// CHECK:           %[[E0:.*]] = scf.if %{{.*}} -> (index) {
// CHECK:             scf.while
// CHECK:           %[[N0:.*]] = arith.subi %[[E0]], %[[F0]]
// CHECK:           %[[X0:.*]] = tensor.extract_slice %[[S0]][%[[F0]], 0] [%[[N0]], 4] [1, 1]
// CHECK:           %[[ANY0:.*]] = arith.cmpi ult, %[[F0]], %[[E0]]
// The op's kernel runs only when it has bags in the chunk.
// CHECK:           %[[W0:.*]] = scf.if %[[ANY0]] -> (tensor<?x4xf32>) {
// CHECK:             scf.for
// CHECK:           } else {
// CHECK:             scf.yield %[[X0]]
// CHECK:           %[[W1:.*]] = scf.if %{{.*}} -> (tensor<?x8xf16>) {
// CHECK:             scf.for
// CHECK:           %[[W2:.*]] = scf.if %{{.*}} -> (tensor<?x?xf32>) {
// The dynamic row: its versions, switched on the row's length.
// CHECK:             scf.index_switch
// CHECK-NOT:       scf.forall (
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[W0]] into %[[S0]]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[W1]] into %[[S1]]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[W2]] into %[[S2]]
// CHECK:           }
// CHECK:         } {embbag.work_chunks}
// The threads' flag words of the offsets and indices, reported per op.
// CHECK:         memref.load
// CHECK:         cf.assert {{.*}}"embbag.offsets
// CHECK:         cf.assert {{.*}}"embbag.offsets
// CHECK:         memref.load
// CHECK:         cf.assert {{.*}}"embbag.packed
// CHECK-NOT:     scf.forall (
// CHECK:         return %[[R]]#0, %[[R]]#1, %[[R]]#2

// UNCHECKED-LABEL: func.func @three(
// UNCHECKED-NOT:   memref.alloca
// UNCHECKED-NOT:   cf.assert
// UNCHECKED:       scf.forall
// UNCHECKED-NOT:   cf.assert
// UNCHECKED-NOT:   scf.forall (
// UNCHECKED:       return

// CANON-LABEL: func.func @three(
// CANON:         scf.forall
// CANON-NOT:     scf.forall (
// CANON:         return

// Each op of the batch in a function of its own
// (embbag-outline-batched-kernels), called from the chunk loop.
// LLVM-DAG:   llvm.func internal @three__batched_op_0(
// LLVM-DAG:   llvm.func internal @three__batched_op_1(
// LLVM-DAG:   llvm.func internal @three__batched_op_2(
// LLVM-LABEL: llvm.func @three(
// LLVM-COUNT-1:  omp.parallel
// LLVM-NEXT:       omp.wsloop schedule(guided)
// LLVM-COUNT-3:        llvm.call @three__batched_op_
// LLVM-NOT:      omp.parallel
// LLVM:          llvm.return
func.func @three(%t0: tensor<10x4xf32>, %i0: tensor<6xi64>, %o0: tensor<3xi64>,
                 %t1: tensor<20x8xf16>, %i1: tensor<4x2xi32>,
                 %t2: tensor<?x?xf32>, %i2: tensor<?xi64>, %s2: tensor<?xi64>, %n2: i64)
    -> (tensor<3x4xf32>, tensor<4x8xf16>, tensor<?x?xf32>) {
  %0 = embbag.offsets sum %t0[%i0] offsets(%o0) : (tensor<10x4xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<3x4xf32>
  %1 = embbag.packed mean %t1[%i1] : (tensor<20x8xf16>, tensor<4x2xi32>) -> tensor<4x8xf16>
  %2 = embbag.segments max %t2[%i2] segment_ids(%s2) num_segments(%n2) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<4x8xf16>, tensor<?x?xf32>
}

// -----

// %2 reads %0's result: %0 and %1 are batched, %2 is lowered alone after
// them (its own loop over chunks of its bags, no search for their lines).
// CHECK-LABEL: func.func @dependent(
// CHECK:         %[[R:.*]]:2 = scf.forall {{.*}} -> (tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK:           scf.while
// CHECK:         scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<3x4xf32>)
// CHECK-NOT:       scf.while
// CHECK:         return
func.func @dependent(%t: tensor<10x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x4xf32>,
                     %j: tensor<3x1xi64>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %0 = embbag.packed sum %t[%i] : (tensor<10x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  %1 = embbag.packed sum %u[%j] : (tensor<3x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  %2 = embbag.packed sum %0[%j] : (tensor<3x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// A user of %0 between the ops closes the group: batching %0 with %1
// would move %0 after its user. Each op is lowered alone.
// CHECK-LABEL: func.func @used_between(
// CHECK-NOT:     scf.while
// CHECK:         scf.forall (%{{.*}}) in (%{{.*}}) shared_outs({{.*}}) -> (tensor<3x4xf32>)
// CHECK:         tensor.cast
// CHECK:         scf.forall (%{{.*}}) in (%{{.*}}) shared_outs({{.*}}) -> (tensor<3x4xf32>)
// CHECK-NOT:     scf.while
// CHECK:         return
func.func @used_between(%t: tensor<10x4xf32>, %i: tensor<3x2xi64>, %j: tensor<3x1xi64>)
    -> (tensor<?x4xf32>, tensor<3x4xf32>) {
  %0 = embbag.packed sum %t[%i] : (tensor<10x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  %c = tensor.cast %0 : tensor<3x4xf32> to tensor<?x4xf32>
  %1 = embbag.packed sum %t[%j] : (tensor<10x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  return %c, %1 : tensor<?x4xf32>, tensor<3x4xf32>
}

// -----

// A training op between two forward ops is not batched (the training
// kernels are lowered op by op) and does not split the group.
// CHECK-LABEL: func.func @training_between(
// CHECK:         scf.forall {{.*}} -> (tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK:           scf.while
// CHECK:         return
func.func @training_between(%t: tensor<10x4xf32>, %i: tensor<3x2xi64>, %dy: tensor<3x4xf32>,
                            %j: tensor<3x1xi64>) -> (tensor<3x4xf32>, tensor<10x4xf32>, tensor<3x4xf32>) {
  %0 = embbag.packed sum %t[%i] : (tensor<10x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  %g = embbag.packed_grad sum %dy, %t[%i] : (tensor<3x4xf32>, tensor<10x4xf32>, tensor<3x2xi64>) -> tensor<10x4xf32>
  %1 = embbag.packed sum %t[%j] : (tensor<10x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  return %0, %g, %1 : tensor<3x4xf32>, tensor<10x4xf32>, tensor<3x4xf32>
}

// -----

// Ops of different blocks are never batched together; the two ops in the
// loop's body are.
// CHECK-LABEL: func.func @blocks(
// CHECK:         scf.forall (%{{.*}}) in (%{{.*}}) shared_outs({{.*}}) -> (tensor<3x4xf32>)
// CHECK-NOT:       scf.while
// CHECK:         scf.for
// CHECK:           scf.forall {{.*}} -> (tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK:             scf.while
// CHECK:         return
func.func @blocks(%t: tensor<10x4xf32>, %i: tensor<3x2xi64>, %j: tensor<3x1xi64>, %n: index)
    -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = embbag.packed sum %t[%i] : (tensor<10x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a = %0, %b = %0) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
    %1 = embbag.packed sum %a[%i] : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
    %2 = embbag.packed sum %b[%j] : (tensor<3x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
    scf.yield %1, %2 : tensor<3x4xf32>, tensor<3x4xf32>
  }
  return %0, %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// The GPU path's ops are not batched: convert-embbag-to-gpu takes the f32
// ops first (scf.parallel loops here, host-loops), and the two integer
// ops it leaves are batched by the loops lowering.
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="host-loops leave-unsupported checks=0" --convert-embbag-to-loops="target=avx2 parallel=1 batch-tables=1 checks=0" | FileCheck %s --check-prefix=GPU
// GPU-LABEL: func.func @gpu_and_loops(
// GPU-COUNT-2:   scf.parallel
// GPU:           scf.forall {{.*}} -> (tensor<3x4xi32>, tensor<3x4xi32>)
// GPU:             scf.while
// GPU-NOT:       scf.forall (
// GPU:           return
func.func @gpu_and_loops(%t: tensor<10x4xf32>, %q: tensor<10x4xi32>, %i: tensor<3x2xi64>, %j: tensor<3x1xi64>)
    -> (tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x4xf32>, tensor<3x4xi32>) {
  %0 = embbag.packed sum %t[%i] : (tensor<10x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  %1 = embbag.packed sum %q[%i] : (tensor<10x4xi32>, tensor<3x2xi64>) -> tensor<3x4xi32>
  %2 = embbag.packed sum %t[%j] : (tensor<10x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  %3 = embbag.packed sum %q[%j] : (tensor<10x4xi32>, tensor<3x1xi64>) -> tensor<3x4xi32>
  return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x4xf32>, tensor<3x4xi32>
}
