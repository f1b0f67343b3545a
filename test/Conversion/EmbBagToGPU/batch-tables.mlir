// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="batch-tables=1 leave-unsupported=1" | FileCheck %s
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="batch-tables=1 host-loops=1 leave-unsupported=1" | FileCheck %s --check-prefix=HOST
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="batch-tables=1 checks=0 leave-unsupported=1" | FileCheck %s --check-prefix=OFF
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="leave-unsupported=1" | FileCheck %s --check-prefix=ONE
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="batch-tables=1 checks=0 leave-unsupported=1 kernel-param-bytes=700" | FileCheck %s --check-prefix=PARAMS
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="batch-tables=1 checks=0 host-loops=1 leave-unsupported=1 kernel-param-bytes=700" | FileCheck %s --check-prefix=PARAMS-HOST

// batch-tables: the three independent ops (f32 rows of 16, f16 rows of 64,
// bf16 rows of 8; offsets, packed, segments) become one launch at the last
// op. The host checks every op's scalars and shapes first, zeroes the one
// flag word, and launches the sum of the ops' blocks (none: no launch); a
// block finds its op among the bases (the prefix sums of the block counts)
// and runs that op's threads on its block number less the op's base. The
// ops' rules have bits of their own in the word (1, 2: the offsets op's
// offsets and indices; 4: the packed op's indices; 8, 16, 32: the
// segments op's indices, ids and unsorted ids), and after the one wait
// each op's bits are read back into its rules' own (1 << rule) and
// reported with its messages, op after op. The kernels write the
// destinations, whose materializations are gone.

// CHECK-LABEL: func.func @three_tables(
// CHECK-SAME:      %[[OUT0:[^:]*]]: memref<?x16xf32>, {{.*}}, %[[OUT1:[^:]*]]: memref<?x64xf16>, {{.*}}, %[[OUT2:[^:]*]]: memref<?x8xbf16>)
// CHECK:         "embbag.offsets at {{.*}}: the destination must have the shape of the result"
// CHECK:         "embbag.packed at {{.*}}: the destination must have the shape of the result"
// CHECK:         "embbag.segments at {{.*}}: num_segments must be non-negative"
// CHECK:         "embbag.segments at {{.*}}: the destination must have the shape of the result"
// CHECK:         %[[FLAG:.*]] = call @embbagCudaStatusWord() : () -> memref<1xi32>
// CHECK-NOT:     call @embbagCudaStatusWord
// CHECK:         %[[BASE2:.*]] = arith.addi %[[N0:.*]], %[[N1:.*]] : index
// CHECK-NEXT:    %[[GRID:.*]] = arith.addi %[[BASE2]], %[[N2:.*]] : index
// CHECK:         %[[ANY:.*]] = arith.cmpi ne, %[[GRID]], %c0
// CHECK:         scf.if %[[ANY]] {
// CHECK:           %[[STREAM:.*]] = gpu.wait async
// CHECK:           %[[DONE:.*]] = gpu.launch async [%[[STREAM]]] blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], %{{.*}}, %{{.*}}) threads({{.*}}) in (%{{.*}} = %c256
// CHECK:             %[[PAST1:.*]] = arith.cmpi uge, %[[B]], %[[N0]] : index
// CHECK:             %[[PAST2:.*]] = arith.cmpi uge, %[[B]], %[[BASE2]] : index
// CHECK:             scf.index_switch %[[WHICH:.*]]
// CHECK-NEXT:        case 0 {
// CHECK:               arith.muli %[[B]], %{{.*}} : index
// CHECK:               memref.atomic_rmw ori %c1_i32{{.*}}, %[[FLAG]]
// CHECK:               vector.load %{{.*}} : memref<{{.*}}xf32, {{.*}}>, vector<4xf32>
// CHECK:               memref.atomic_rmw ori %c2_i32{{.*}}, %[[FLAG]]
// CHECK:               vector.store %{{.*}}, %[[OUT0]]
// CHECK:             case 1 {
// CHECK-NEXT:          %[[B1:.*]] = arith.subi %[[B]], %[[N0]] : index
// CHECK:               arith.muli %[[B1]], %{{.*}} : index
// CHECK:               memref.atomic_rmw ori %c4_i32{{.*}}, %[[FLAG]]
// CHECK:               vector.load %{{.*}} : memref<{{.*}}xf16, {{.*}}>, vector<8xf16>
// CHECK:               vector.store %{{.*}}, %[[OUT1]]
// CHECK:             case 2 {
// CHECK-NEXT:          %[[B2:.*]] = arith.subi %[[B]], %[[BASE2]] : index
// CHECK:               arith.muli %[[B2]], %{{.*}} : index
// CHECK:               memref.atomic_rmw ori %c32_i32{{.*}}, %[[FLAG]]
// CHECK:               memref.atomic_rmw ori %c16_i32{{.*}}, %[[FLAG]]
// CHECK:               memref.atomic_rmw ori %c8_i32{{.*}}, %[[FLAG]]
// CHECK:               vector.store %{{.*}}, %[[OUT2]]
// CHECK:             default {
// CHECK:             gpu.terminator
// CHECK:           gpu.wait [%[[DONE]]]
// CHECK:         %[[WORD:.*]] = memref.load %[[FLAG]]
// CHECK:         "embbag.offsets at {{.*}}: offsets must be non-negative, non-decreasing and at most the number of indices"
// CHECK:         "embbag.offsets at {{.*}}: index out of range [0, num_emb)"
// CHECK:         "embbag.packed at {{.*}}: index out of range [0, num_emb)"
// CHECK:         "embbag.segments at {{.*}}: segment id out of range [0, num_segments)"
// CHECK:         "embbag.segments at {{.*}}: index out of range [0, num_emb)"
// CHECK:         "embbag.segments at {{.*}}: segment ids not sorted
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     bufferization.materialize_in_destination
// CHECK:         return

// The same launch's blocks as one outer scf.parallel on the host, over the
// sum of the ops' blocks, and one inner over the threads.
// HOST-LABEL: func.func @three_tables(
// HOST:         %[[FLAG:.*]] = memref.alloca() : memref<1xi32>
// HOST-NOT:     memref.alloca() : memref<1xi32>
// HOST:         memref.store %{{.*}}, %[[FLAG]]
// HOST:         memref.store %{{.*}}, %[[FLAG]]
// HOST-NEXT:    arith.addi
// HOST-NEXT:    %[[GRID:.*]] = arith.addi
// HOST:         scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[GRID]]) step (%{{.*}}) {
// HOST-NEXT:      scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{c256[_0-9]*}}) step (%{{.*}}) {
// HOST:             scf.index_switch
// HOST:             case 1 {
// HOST-NEXT:          arith.subi %[[B]], %{{.*}} : index
// HOST:             case 2 {
// HOST-NEXT:          arith.subi %[[B]], %{{.*}} : index
// HOST-NOT:     scf.parallel
// HOST:         memref.load %[[FLAG]]
// HOST-NOT:     scf.parallel
// HOST:         return

// Unchecked: one launch, no word, no wait.
// OFF-LABEL: func.func @three_tables(
// OFF-NOT:     embbagCudaStatusWord
// OFF-COUNT-1: gpu.launch async
// OFF-NOT:     gpu.launch
// OFF-NOT:     gpu.wait [
// OFF:         return

// Without batch-tables: a launch per op, each op's checks with its own
// word and the contract's bits.
// kernel-param-bytes bounds a launch's parameters (the ops' buffers'
// descriptors and scalars, bounded from above: 320, 296 and 328 bytes
// here, 40 for the flag word): within 700 bytes the first two ops share a
// launch and the third takes another. Host loops have no parameters.
// PARAMS-LABEL: func.func @three_tables(
// PARAMS:         gpu.launch async
// PARAMS:           scf.index_switch
// PARAMS-COUNT-2:   case
// PARAMS-NOT:       case
// PARAMS:         gpu.launch async
// PARAMS-NOT:       scf.index_switch
// PARAMS-NOT:     gpu.launch
// PARAMS:         return

// PARAMS-HOST-LABEL: func.func @three_tables(
// PARAMS-HOST:         scf.index_switch
// PARAMS-HOST-COUNT-3:   case
// PARAMS-HOST-NOT:     scf.index_switch
// PARAMS-HOST:         return

// ONE-LABEL: func.func @three_tables(
// ONE-COUNT-3: gpu.launch async
// ONE-NOT:     gpu.launch
// ONE:         return
func.func @three_tables(
    %t0: tensor<1000x16xf32>, %i0: tensor<?xi64>, %o0: tensor<?xi64>, %out0: memref<?x16xf32>,
    %t1: tensor<500x64xf16>, %i1: tensor<?x4xi32>, %out1: memref<?x64xf16>,
    %t2: tensor<100x8xbf16>, %i2: tensor<?xi64>, %s2: tensor<?xi64>, %n2: i64, %out2: memref<?x8xbf16>) {
  %r0 = embbag.offsets sum %t0[%i0] offsets(%o0) : (tensor<1000x16xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r0 in restrict writable %out0 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r1 = embbag.packed mean %t1[%i1] : (tensor<500x64xf16>, tensor<?x4xi32>) -> tensor<?x64xf16>
  bufferization.materialize_in_destination %r1 in restrict writable %out1 : (tensor<?x64xf16>, memref<?x64xf16>) -> ()
  %r2 = embbag.segments max %t2[%i2] segment_ids(%s2) num_segments(%n2) : (tensor<100x8xbf16>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x8xbf16>
  bufferization.materialize_in_destination %r2 in restrict writable %out2 : (tensor<?x8xbf16>, memref<?x8xbf16>) -> ()
  return
}

// -----

// An op that may see a destination before the launch (the load of %out0)
// ends the group: the first op's kernel must have written it. An op that
// the GPU lowering does not take (f64) is in no group and stays where it
// is, between two that are batched.

// CHECK-LABEL: func.func @reader_between(
// CHECK:         gpu.launch
// CHECK-NOT:     scf.index_switch
// CHECK:         gpu.terminator
// CHECK:         memref.load %{{.*}} : memref<?x16xf32>
// CHECK:         embbag.packed
// CHECK-SAME:      tensor<10x4xf64>
// CHECK-COUNT-1: gpu.launch
// CHECK:           scf.index_switch
// CHECK:             case 1 {
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @reader_between(%t0: tensor<1000x16xf32>, %i0: tensor<?x2xi64>, %out0: memref<?x16xf32>,
                          %t1: tensor<10x4xf64>, %i1: tensor<?x2xi64>,
                          %t2: tensor<50x32xf16>, %i2: tensor<?x3xi32>, %out2: memref<?x32xf16>,
                          %t3: tensor<50x8xf32>, %i3: tensor<?x1xi64>, %out3: memref<?x8xf32>) -> (f32, tensor<?x4xf64>) {
  %r0 = embbag.packed sum %t0[%i0] : (tensor<1000x16xf32>, tensor<?x2xi64>) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r0 in restrict writable %out0 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %out0[%c0, %c0] : memref<?x16xf32>
  %r2 = embbag.packed sum %t2[%i2] : (tensor<50x32xf16>, tensor<?x3xi32>) -> tensor<?x32xf16>
  bufferization.materialize_in_destination %r2 in restrict writable %out2 : (tensor<?x32xf16>, memref<?x32xf16>) -> ()
  %r1 = embbag.packed sum %t1[%i1] : (tensor<10x4xf64>, tensor<?x2xi64>) -> tensor<?x4xf64>
  %r3 = embbag.packed max %t3[%i3] : (tensor<50x8xf32>, tensor<?x1xi64>) -> tensor<?x8xf32>
  bufferization.materialize_in_destination %r3 in restrict writable %out3 : (tensor<?x8xf32>, memref<?x8xf32>) -> ()
  return %v, %r1 : f32, tensor<?x4xf64>
}

// -----

// Two ops writing one buffer are not launched together (the second
// wins, as without batching).

// CHECK-LABEL: func.func @same_destination(
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:     scf.index_switch
// CHECK:         return
func.func @same_destination(%t0: tensor<100x16xf32>, %i0: tensor<?x2xi64>, %t1: tensor<100x16xf32>, %i1: tensor<?x2xi64>, %out: memref<?x16xf32>) {
  %r0 = embbag.packed sum %t0[%i0] : (tensor<100x16xf32>, tensor<?x2xi64>) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r0 in restrict writable %out : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r1 = embbag.packed sum %t1[%i1] : (tensor<100x16xf32>, tensor<?x2xi64>) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r1 in restrict writable %out : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  return
}

// -----

// Eleven segments ops check 3 rules each: 33 bits do not fit the 31 of the
// flag word, so the first ten ops share a launch (the tenth's unsorted bit
// is 1 << 29) and the last has its own (with the contract's bits: 1 << 30).
// Unchecked, one launch takes them all.

// CHECK-LABEL: func.func @eleven_tables(
// CHECK:         gpu.launch
// CHECK:           scf.index_switch
// CHECK-COUNT-10:    case
// CHECK:               memref.atomic_rmw ori %c536870912_i32{{.*}}
// CHECK:             default
// CHECK:           gpu.terminator
// CHECK:         gpu.launch
// CHECK-NOT:       scf.index_switch
// CHECK:           memref.atomic_rmw ori %c1073741824_i32{{.*}}
// CHECK-NOT:     gpu.launch
// CHECK:         return
// OFF-LABEL: func.func @eleven_tables(
// OFF-COUNT-1: gpu.launch
// OFF:           scf.index_switch
// OFF-COUNT-11:    case
// OFF-NOT:     gpu.launch
// OFF:         return
func.func @eleven_tables(%t: tensor<100x16xf32>, %i: tensor<?xi64>, %s: tensor<?xi64>, %n: i64,
    %o0: memref<?x16xf32>, %o1: memref<?x16xf32>, %o2: memref<?x16xf32>, %o3: memref<?x16xf32>,
    %o4: memref<?x16xf32>, %o5: memref<?x16xf32>, %o6: memref<?x16xf32>, %o7: memref<?x16xf32>,
    %o8: memref<?x16xf32>, %o9: memref<?x16xf32>, %o10: memref<?x16xf32>) {
  %r0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r0 in restrict writable %o0 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r1 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r1 in restrict writable %o1 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r2 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r2 in restrict writable %o2 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r3 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r3 in restrict writable %o3 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r4 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r4 in restrict writable %o4 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r5 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r5 in restrict writable %o5 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r6 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r6 in restrict writable %o6 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r7 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r7 in restrict writable %o7 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r8 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r8 in restrict writable %o8 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r9 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r9 in restrict writable %o9 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r10 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<100x16xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r10 in restrict writable %o10 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  return
}
