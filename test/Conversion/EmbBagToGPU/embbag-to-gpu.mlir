// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu | FileCheck %s
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="checks=0" | FileCheck %s --check-prefix=OFF
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="host-loops=1 rows-in-flight=2" | FileCheck %s --check-prefix=HOST

// An offsets op whose result goes into the caller's buffer: the host checks
// the scalars and shapes, picks the 16-byte lanes when the row and buffers
// allow them, launches 256 threads per block on the runtime's stream (a
// `gpu.wait async`), waits for the kernel and reports its flag word with
// the CPU's messages. The kernel writes the destination directly: no new
// buffer, no copy.

// CHECK-LABEL: func.func @offsets_f32(
// CHECK-SAME:      %[[T:.*]]: tensor<1000x64xf32>, %[[I:.*]]: tensor<?xi64>, %[[O:.*]]: tensor<?xi64>, %[[D:.*]]: i64, %[[OUT:.*]]: memref<?x64xf32>)
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: default index out of range [0, num_emb) and not -1" {embbag.runtime_check}
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: the destination must have the shape of the result" {embbag.runtime_check}
// CHECK-NOT:     memref.alloc
// CHECK:         %[[FLAG:.*]] = call @embbagCudaStatusWord() : () -> memref<1xi32>
// CHECK:         memref.store %{{.*}}, %[[FLAG]]
// CHECK:         %[[STREAM:.*]] = gpu.wait async
// CHECK-NEXT:    %[[DONE:.*]] = gpu.launch async [%[[STREAM]]] blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c256
// CHECK:           memref.atomic_rmw ori {{%c2_i32[_0-9]*}}, %[[FLAG]]
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<1000x64xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:           memref.atomic_rmw ori {{%c32_i32[_0-9]*}}, %[[FLAG]]
// CHECK:           vector.store %{{.*}}, %[[OUT]]{{.*}} {alignment = 16 : i64} : memref<?x64xf32>, vector<4xf32>
// CHECK:           vector.load %{{.*}} {alignment = 4 : i64} : memref<1000x64xf32, strided<[?, 1], offset: ?>>, vector<1xf32>
// CHECK:           gpu.terminator
// CHECK:         gpu.wait [%[[DONE]]]
// CHECK:         %[[FLAGS:.*]] = memref.load %[[FLAG]]
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: offsets must be non-negative, non-decreasing and at most the number of indices" {embbag.runtime_check}
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: index out of range [0, num_emb)" {embbag.runtime_check}
// CHECK-NOT:     bufferization.materialize_in_destination
// CHECK:         return
// CHECK:       func.func private @embbagCudaStatusWord() -> memref<1xi32> attributes {llvm.emit_c_interface}

// Unchecked: no flag word, no check, and no wait: the launch stays
// asynchronous on the stream.
// OFF-LABEL: func.func @offsets_f32(
// OFF-NOT:     cf.assert
// OFF-NOT:     embbagCudaStatusWord
// OFF-NOT:     memref.atomic_rmw
// OFF:         %[[STREAM:.*]] = gpu.wait async
// OFF-NEXT:    gpu.launch async [%[[STREAM]]]
// OFF-NOT:     memref.atomic_rmw
// OFF-NOT:     gpu.wait
// OFF:         return

// The same kernel body in scf.parallel loops over blocks and threads, with
// a stack slot as the flag word. The loop over the bag's positions is
// software-pipelined: the first step's indices are loaded before it, and
// each step loads the next step's indices (nothing past the last step)
// before its own rows, whose indices it received.
// HOST-LABEL: func.func @offsets_f32(
// HOST:         %[[FLAG:.*]] = memref.alloca() : memref<1xi32>
// HOST:         scf.parallel (%[[BLOCK:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// HOST:           scf.parallel (%[[THREAD:.*]]) = (%{{.*}}) to (%{{c256[_0-9]*}}) step (%{{.*}}) {
// HOST:             arith.remui %[[THREAD]]
// HOST:             arith.muli %[[BLOCK]]
// HOST:             %[[FIRST:.*]]:2 = scf.if %{{.*}} -> (index, index) {
// HOST-COUNT-2:       memref.load
// HOST:             } else {
// HOST:             scf.for %{{.*}} step %{{c2[_0-9]*}} iter_args(%{{.*}} = %{{.*}}, %[[ROW0:.*]] = %[[FIRST]]#0, %[[ROW1:.*]] = %[[FIRST]]#1)
// HOST:               %[[NEXT:.*]]:2 = scf.if %{{.*}} -> (index, index) {
// HOST-COUNT-2:         memref.load
// HOST:               vector.load %{{.*}}[%[[ROW0]],
// HOST:               vector.load %{{.*}}[%[[ROW1]],
// HOST:               scf.yield %{{.*}}, %[[NEXT]]#0, %[[NEXT]]#1 :
// HOST:         memref.load %[[FLAG]]
func.func @offsets_f32(%t: tensor<1000x64xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %d: i64, %out: memref<?x64xf32>) {
  %r = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<1000x64xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}

// -----

// f16 rows load 8 elements (16 bytes) per lane and accumulate in f32; a row
// of 12 halves is not a whole number of 16-byte vectors, so its table takes
// one element per load only.

// CHECK-LABEL: func.func @packed_f16(
// CHECK:         gpu.launch
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<{{.*}}xf16, {{.*}}>, vector<8xf16>
// CHECK:           arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK:           arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK-LABEL: func.func @packed_f16_odd_row(
// CHECK-NOT:     vector<8xf16>
// CHECK:         vector.load %{{.*}} {alignment = 2 : i64} : memref<{{.*}}xf16, {{.*}}>, vector<1xf16>
// CHECK-NOT:     vector<8xf16>
// CHECK:         return
func.func @packed_f16(%t: tensor<?x128xf16>, %i: tensor<?x?xi32>, %out: memref<?x128xf16>) {
  %r = embbag.packed mean %t[%i] : (tensor<?x128xf16>, tensor<?x?xi32>) -> tensor<?x128xf16>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x128xf16>, memref<?x128xf16>) -> ()
  return
}
func.func @packed_f16_odd_row(%t: tensor<?x12xf16>, %i: tensor<?x?xi32>, %out: memref<?x12xf16>) {
  %r = embbag.packed sum %t[%i] : (tensor<?x12xf16>, tensor<?x?xi32>) -> tensor<?x12xf16>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x12xf16>, memref<?x12xf16>) -> ()
  return
}

// -----

// rowwise(i8): a lane loads 8 codes, one 8-byte word (rows of 64 codes and
// 8 bytes of scale and bias are only 8-byte aligned), and each row's f32
// scale and bias; the codes become floats through the mantissa of 2^23
// (no integer-to-float conversion), and a sum adds codes x scale into the
// columns with one fma per code and the rows' biases into one f32, added
// to every column at the end of the bag; the 8 f32 results are stored at
// the destination's 16-byte alignment.

// CHECK-LABEL: func.func @rowwise_i8(
// CHECK:         gpu.launch
// A checked row that is not taken is not read: its branch yields values
// made from the index, which the selects discard, never constants (LLVM
// would fold the conversion of constant zeros into the loading branch,
// between one row's load and the next's, which then no longer overlap).
// CHECK:           %[[ROW:.*]]:2 = scf.if %{{.*}} -> (vector<8xui8>, vector<8xui8>) {
// CHECK-COUNT-2:     vector.load
// CHECK:           } else {
// CHECK-NOT:         arith.constant
// CHECK:             arith.index_castui
// CHECK-NOT:         arith.constant
// CHECK:             vector.broadcast %{{.*}} : i8 to vector<8xi8>
// CHECK-NOT:         arith.constant
// CHECK:             scf.yield
// CHECK:           %[[CODES:.*]] = vector.load %{{.*}} {alignment = 8 : i64} : memref<?x72xui8, {{.*}}>, vector<8xui8>
// CHECK:           %[[TAIL:.*]] = vector.load %{{.*}}[%{{.*}}, %c64{{.*}}] {alignment = 8 : i64} : memref<?x72xui8, {{.*}}>, vector<8xui8>
// CHECK:           vector.bitcast %{{.*}} : vector<8xi8> to vector<2xf32>
// CHECK:           %[[WIDE:.*]] = arith.extui %{{.*}} : vector<8xi8> to vector<8xi32>
// CHECK:           %[[BIASED:.*]] = arith.ori %[[WIDE]], %{{.*}} : vector<8xi32>
// CHECK:           %[[F:.*]] = arith.bitcast %[[BIASED]] : vector<8xi32> to vector<8xf32>
// CHECK:           %[[CODEF:.*]] = arith.subf %[[F]], %{{.*}} : vector<8xf32>
// CHECK:           %[[SCALE:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK-NEXT:      vector.fma %[[CODEF]], %[[SCALE]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:      arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:           %[[BIASES:.*]] = vector.broadcast %[[SUMS:.*]]#1 : f32 to vector<8xf32>
// CHECK-NEXT:      arith.addf %[[SUMS]]#0, %[[BIASES]] : vector<8xf32>
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} : memref<?x64xf32>, vector<8xf32>
func.func @rowwise_i8(%t: tensor<?x72xui8>, %i: tensor<?xi64>, %o: tensor<?xi64>, %out: memref<?x64xf32>) {
  %r = embbag.offsets sum %t[%i] offsets(%o) rowwise(i8) : (tensor<?x72xui8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}

// rowwise(i4): 8 codes per 4-byte word, shifted out of it lowest bits first,
// and the row's f16 scale and bias from its last 4 bytes.
// CHECK-LABEL: func.func @rowwise_i4(
// CHECK:         gpu.launch
// CHECK:           %[[WORD:.*]] = vector.load %{{.*}} {alignment = 4 : i64} : memref<?x36xui8, {{.*}}>, vector<4xui8>
// CHECK:           vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
// CHECK:           arith.shrui %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK:           arith.andi %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK:           vector.load %{{.*}}[%{{.*}}, %c32{{.*}}] {alignment = 4 : i64} : memref<?x36xui8, {{.*}}>, vector<4xui8>
// CHECK:           vector.bitcast %{{.*}} : vector<4xi8> to vector<2xf16>
// CHECK:           vector.fma {{.*}} : vector<8xf32>
func.func @rowwise_i4(%t: tensor<?x36xui8>, %i: tensor<?x3xi64>, %out: memref<?x64xf32>) {
  %r = embbag.packed sum %t[%i] rowwise(i4) : (tensor<?x36xui8>, tensor<?x3xi64>) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}

// -----

// embbag.segments: each segment's range is found by binary search of the
// sorted ids (two scf.while loops per thread); with checks each id is
// compared with its segment, an id in range but elsewhere sets the
// unsorted bit (1 << 30), one outside the range rule's bit (1 << 4); with
// no segments the host flags any id before the launch.
// CHECK-LABEL: func.func @segments(
// CHECK:         memref.assume_alignment %{{.*}}, 8 : memref<?xi64, strided<[1], offset: ?>>
// CHECK:         arith.maxsi %{{.*}}, %c0{{.*}} : index
// CHECK:         memref.store %{{.*}}, %[[FLAG:.*]][%c0{{.*}}] : memref<1xi32>
// CHECK:         gpu.launch
// CHECK:           scf.while
// CHECK:             memref.load %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<?xi64
// CHECK:           scf.while
// CHECK:           scf.for
// CHECK:             arith.cmpi ne
// CHECK:             memref.atomic_rmw ori %c1073741824_i32{{.*}}, %[[FLAG]]
// CHECK:             memref.atomic_rmw ori %c16_i32{{.*}}, %[[FLAG]]
// CHECK:         cf.assert %{{.*}}, "{{.*}}segment id out of range [0, num_segments)
// CHECK:         cf.assert %{{.*}}, "{{.*}}segment ids not sorted: embbag.segments on the GPU needs sorted segment ids
// OFF-LABEL: func.func @segments(
// OFF:             scf.while
// OFF-NOT:         memref.atomic_rmw
// OFF:             return
func.func @segments(%t: tensor<?x64xf32>, %i: tensor<?xi64>, %s: tensor<?xi64>, %n: i64, %out: memref<?x64xf32>) {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<?x64xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}

// -----

// Rows of no elements beside a dynamic dim: the destination collapses to
// [num_bags, ?], not to the [?, 0] memref.collapse_shape infers and its
// verifier rejects; the table flattens to an empty [num_emb, 0].
// CHECK-LABEL: func.func @zero_width_rows(
// CHECK:         memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<?x?x0xf32> into memref<?x?xf32>
// CHECK:         gpu.launch
// OFF-LABEL: func.func @zero_width_rows(
// OFF:         memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<?x?x0xf32> into memref<?x?xf32>
func.func @zero_width_rows(%t: tensor<?x?x0xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %out: memref<?x?x0xf32>) {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<?x?x0xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?x0xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?x0xf32>, memref<?x?x0xf32>) -> ()
  return
}

// -----

// An unchecked kernel whose mean counts the rows a padding_idx leaves tests
// the next step's indices where it loads them and carries the tests as one
// i32 word (bit i: row i is taken), so that the step's indices need not
// stay live across its row loads; a sum counts nothing, and a checked
// kernel tests each row where it uses it (its tests also set the flag
// word): neither carries a word.
// OFF-LABEL: func.func @padded_mean(
// OFF:         scf.if %{{.*}} -> ({{(index, )+}}i32) {
// OFF-COUNT-8:   memref.load
// OFF:           arith.cmpi ne, %{{.*}}, %[[PAD:.*]] : index
// OFF-NEXT:      arith.extui %{{.*}} : i1 to i32
// OFF:           arith.cmpi ne, %{{.*}}, %[[PAD]] : index
// OFF-NEXT:      arith.extui %{{.*}} : i1 to i32
// OFF:           arith.shli %{{.*}}, %{{.*}} : i32
// OFF-NEXT:      arith.ori %{{.*}}, %{{.*}} : i32
// OFF:         scf.for {{.*}} iter_args({{.*}}, %[[MASK:.*]] = %{{.*}}#8) -> (vector<4xf32>, index, {{(index, )+}}i32) {
// OFF:           arith.andi %[[MASK]], %{{.*}} : i32
// OFF-LABEL: func.func @padded_sum(
// OFF-NOT:     i32)
// OFF:         return
// CHECK-LABEL: func.func @padded_mean(
// CHECK-NOT:     i32) {
// CHECK:         return
func.func @padded_mean(%t: tensor<?x64xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %p: i64, %out: memref<?x64xf32>) {
  %r = embbag.offsets mean %t[%i] offsets(%o) padding_idx(%p) : (tensor<?x64xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}

func.func @padded_sum(%t: tensor<?x64xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %p: i64, %out: memref<?x64xf32>) {
  %r = embbag.offsets sum %t[%i] offsets(%o) padding_idx(%p) : (tensor<?x64xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}
