// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="unroll=4 target=generic" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-chunk=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s

// padding_idx (PyTorch's, docs/Semantics.md): the indices equal to it
// are skipped. They are not summed, not counted by mean and sqrtn, not part
// of max, their weights are ignored (also in the sqrtn norm), and a bag of
// only padding is an empty bag (the default row if any, else zeros,
// undivided). padding_idx = -1 skips nothing. The path=linalg run lowers
// embbag.packed with padding_idx through the loops too (the linalg lowering
// leaves it), the others the unrolled loop with 128-bit vectors (several
// passes over the row of 70) and the parallel bag loop.
//
// Table rows (padding_idx 3 is the largest row, so that a row that was not
// skipped shows): r0 = [1, 2], r1 = [3, -4], r2 = [5, 6], r3 = [70, 80],
// r4 = [-1, 9].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF64(tensor<*xf64>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// Dynamic everything, padding_idx an argument: kernels the constants of
// main do not reach (not inlined).
func.func @offsets_dynamic(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %p: i32) -> tensor<?x?xf32> attributes {no_inline} {
  %r = embbag.offsets mean %t[%i] offsets(%o) include_last_offset padding_idx(%p) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @packed_dynamic(%t: tensor<?x?xf32>, %i: tensor<?x?xi64>, %w: tensor<?x?xf32>, %p: i64) -> tensor<?x?xf32> attributes {no_inline} {
  %r = embbag.packed sum %t[%i] padding_idx(%p) weights(%w) : (tensor<?x?xf32>, tensor<?x?xi64>, i64, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @segments_dynamic(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %s: tensor<?xi64>, %n: i64, %d: i64, %p: i64) -> tensor<?x?xf32> attributes {no_inline} {
  %r = embbag.segments max %t[%i] segment_ids(%s) num_segments(%n) default(%d) padding_idx(%p) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, i64, i64) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, -4.0], [5.0, 6.0], [70.0, 80.0], [-1.0, 9.0]]> : tensor<5x2xf32>
  %p64 = arith.constant 3 : i64
  %p32 = arith.constant 3 : i32
  %none = arith.constant -1 : i64

  // embbag.packed over bags {0, 3}, {3, 3} (only padding), {1, 2}, {3, 4}.
  %pi = arith.constant dense<[[0, 3], [3, 3], [1, 2], [3, 4]]> : tensor<4x2xi64>

  // sum: r0, zeros, r1 + r2, r4.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [8, 2]
  // CHECK-NEXT: [-1, 9]
  %r0 = embbag.packed sum %t[%pi] padding_idx(%p64) : (tensor<5x2xf32>, tensor<4x2xi64>, i64) -> tensor<4x2xf32>
  %c0 = tensor.cast %r0 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c0) : (tensor<?x?xf32>) -> ()

  // Weighted sum, the padding's weights (100, 5, 5, 100) ignored:
  // 2 r0, zeros, r1 - r2, 3 r4.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [2, 4]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [-2, -10]
  // CHECK-NEXT: [-3, 27]
  %pw = arith.constant dense<[[2.0, 100.0], [5.0, 5.0], [1.0, -1.0], [100.0, 3.0]]> : tensor<4x2xf32>
  %r1 = embbag.packed sum %t[%pi] padding_idx(%p64) weights(%pw) : (tensor<5x2xf32>, tensor<4x2xi64>, i64, tensor<4x2xf32>) -> tensor<4x2xf32>
  %c1 = tensor.cast %r1 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c1) : (tensor<?x?xf32>) -> ()

  // mean divides by the indices taken: r0, zeros (not NaN), (r1 + r2) / 2,
  // r4.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [4, 1]
  // CHECK-NEXT: [-1, 9]
  %r2 = embbag.packed mean %t[%pi] padding_idx(%p64) : (tensor<5x2xf32>, tensor<4x2xi64>, i64) -> tensor<4x2xf32>
  %c2 = tensor.cast %r2 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c2) : (tensor<?x?xf32>) -> ()

  // max: r0, zeros (not -inf), max(r1, r2), r4 (not r3).
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [5, 6]
  // CHECK-NEXT: [-1, 9]
  %r3 = embbag.packed max %t[%pi] padding_idx(%p64) : (tensor<5x2xf32>, tensor<4x2xi64>, i64) -> tensor<4x2xf32>
  %c3 = tensor.cast %r3 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c3) : (tensor<?x?xf32>) -> ()

  // padding_idx -1 skips nothing: r0 + r3, 2 r3, r1 + r2, r3 + r4.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [71, 82]
  // CHECK-NEXT: [140, 160]
  // CHECK-NEXT: [8, 2]
  // CHECK-NEXT: [69, 89]
  %r4 = embbag.packed sum %t[%pi] padding_idx(%none) : (tensor<5x2xf32>, tensor<4x2xi64>, i64) -> tensor<4x2xf32>
  %c4 = tensor.cast %r4 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c4) : (tensor<?x?xf32>) -> ()

  // sqrtn: {0, 1, 3, 2, 4} has 4 indices taken, sum [8, 13] / sqrt(4);
  // {3, 3, 3, 3, 3} is empty: zeros.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [4, 6.5]
  // CHECK-NEXT: [0, 0]
  %si = arith.constant dense<[[0, 1, 3, 2, 4], [3, 3, 3, 3, 3]]> : tensor<2x5xi32>
  %r5 = embbag.packed sqrtn %t[%si] padding_idx(%p32) : (tensor<5x2xf32>, tensor<2x5xi32>, i32) -> tensor<2x2xf32>
  %c5 = tensor.cast %r5 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%c5) : (tensor<?x?xf32>) -> ()

  // Weighted sqrtn: (3 r1 + 4 r2) / sqrt(3^2 + 4^2) = [29, 12] / 5, the
  // padding's weight 100 in neither sum.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.8, 2.4]
  // CHECK-NEXT: [0, 0]
  %swi = arith.constant dense<[[1, 3, 2], [3, 3, 3]]> : tensor<2x3xi32>
  %sw = arith.constant dense<[[3.0, 100.0, 4.0], [1.0, 1.0, 1.0]]> : tensor<2x3xf32>
  %r6 = embbag.packed sqrtn %t[%swi] padding_idx(%p32) weights(%sw) : (tensor<5x2xf32>, tensor<2x3xi32>, i32, tensor<2x3xf32>) -> tensor<2x2xf32>
  %c6 = tensor.cast %r6 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%c6) : (tensor<?x?xf32>) -> ()

  // embbag.offsets with include_last_offset: bags {3, 0, 3}, {1, 3}, {3}
  // (only padding) and {2, 4, 3}; the 3 after the last offset is not read.
  // mean with default 4: r0, r1, r4 (the default, undivided),
  // (r2 + r4) / 2; without a default the bag of padding is zeros.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [3, -4]
  // CHECK-NEXT: [-1, 9]
  // CHECK-NEXT: [2, 7.5]
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [3, -4]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [2, 7.5]
  %oi = arith.constant dense<[3, 0, 3, 1, 3, 3, 2, 4, 3, 3]> : tensor<10xi64>
  %oo = arith.constant dense<[0, 3, 5, 6, 9]> : tensor<5xi64>
  %r7 = embbag.offsets mean %t[%oi] offsets(%oo) include_last_offset default(4) padding_idx(%p64) : (tensor<5x2xf32>, tensor<10xi64>, tensor<5xi64>, i64) -> tensor<4x2xf32>
  %c7 = tensor.cast %r7 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c7) : (tensor<?x?xf32>) -> ()
  %r8 = embbag.offsets mean %t[%oi] offsets(%oo) include_last_offset padding_idx(%p64) : (tensor<5x2xf32>, tensor<10xi64>, tensor<5xi64>, i64) -> tensor<4x2xf32>
  %c8 = tensor.cast %r8 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c8) : (tensor<?x?xf32>) -> ()

  // max over offsets [0, 3, 5, 6], the last bag {2, 4, 3, 3} running to
  // the end: r0, r1, zeros, max(r2, r4).
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [3, -4]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [5, 9]
  %oo4 = arith.constant dense<[0, 3, 5, 6]> : tensor<4xi64>
  %r9 = embbag.offsets max %t[%oi] offsets(%oo4) padding_idx(%p64) : (tensor<5x2xf32>, tensor<10xi64>, tensor<4xi64>, i64) -> tensor<4x2xf32>
  %c9 = tensor.cast %r9 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c9) : (tensor<?x?xf32>) -> ()

  // Weighted sqrtn over offsets (the padding's weight 100 ignored): bag
  // {1, 3, 2} gives [5.8, 2.4], bag {3} is empty, bag {0} weight -2 gives
  // -r0 (norm 2).
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.8, 2.4]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [-1, -2]
  %qi = arith.constant dense<[1, 3, 2, 3, 0]> : tensor<5xi32>
  %qo = arith.constant dense<[0, 3, 4]> : tensor<3xi32>
  %qw = arith.constant dense<[3.0, 100.0, 4.0, 7.0, -2.0]> : tensor<5xf32>
  %r10 = embbag.offsets sqrtn %t[%qi] offsets(%qo) padding_idx(%p32) weights(%qw) : (tensor<5x2xf32>, tensor<5xi32>, tensor<3xi32>, i32, tensor<5xf32>) -> tensor<3x2xf32>
  %c10 = tensor.cast %r10 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c10) : (tensor<?x?xf32>) -> ()

  // embbag.segments, sorted ids [0, 0, 0, 1, 2, 2] of [3, 0, 1, 3, 2, 3]
  // with weights [9, 2, 1, 9, 3, 9]: 2 r0 + r1, segment 1 only padding
  // (zeros), 3 r2, segment 3 empty (zeros).
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [15, 18]
  // CHECK-NEXT: [0, 0]
  %gi = arith.constant dense<[3, 0, 1, 3, 2, 3]> : tensor<6xi64>
  %gs = arith.constant dense<[0, 0, 0, 1, 2, 2]> : tensor<6xi64>
  %gw = arith.constant dense<[9.0, 2.0, 1.0, 9.0, 3.0, 9.0]> : tensor<6xf32>
  %r11 = embbag.segments sum %t[%gi] segment_ids(%gs) num_segments(4) padding_idx(%p64) weights(%gw) : (tensor<5x2xf32>, tensor<6xi64>, tensor<6xi64>, i64, tensor<6xf32>) -> tensor<4x2xf32>
  %c11 = tensor.cast %r11 : tensor<4x2xf32> to tensor<?x?xf32>
  call @print(%c11) : (tensor<?x?xf32>) -> ()

  // Unsorted ids [2, 0, 2, 1, 0, 2] of [3, 0, 2, 3, 4, 0], default 1:
  // segment 0 = {0, 4}, segment 1 = {3} (only padding: the default r1),
  // segment 2 = {3, 2, 0}. mean: (r0 + r4) / 2, r1, (r2 + r0) / 2; max:
  // max(r0, r4), r1, max(r2, r0).
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 5.5]
  // CHECK-NEXT: [3, -4]
  // CHECK-NEXT: [3, 4]
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 9]
  // CHECK-NEXT: [3, -4]
  // CHECK-NEXT: [5, 6]
  %ui = arith.constant dense<[3, 0, 2, 3, 4, 0]> : tensor<6xi64>
  %us = arith.constant dense<[2, 0, 2, 1, 0, 2]> : tensor<6xi64>
  %r12 = embbag.segments mean %t[%ui] segment_ids(%us) num_segments(3) default(1) padding_idx(%p64) : (tensor<5x2xf32>, tensor<6xi64>, tensor<6xi64>, i64) -> tensor<3x2xf32>
  %c12 = tensor.cast %r12 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c12) : (tensor<?x?xf32>) -> ()
  %r13 = embbag.segments max %t[%ui] segment_ids(%us) num_segments(3) default(1) padding_idx(%p64) : (tensor<5x2xf32>, tensor<6xi64>, tensor<6xi64>, i64) -> tensor<3x2xf32>
  %c13 = tensor.cast %r13 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c13) : (tensor<?x?xf32>) -> ()

  // Unsorted ids, weighted sqrtn in f64: segment 0 = {1 (w 3), 3 (w 100),
  // 2 (w 4)}, segment 1 = {3 (w 1)} only padding: zeros.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.8, 2.4]
  // CHECK-NEXT: [0, 0]
  %t64 = arith.constant dense<[[1.0, 2.0], [3.0, -4.0], [5.0, 6.0], [70.0, 80.0], [-1.0, 9.0]]> : tensor<5x2xf64>
  %vi = arith.constant dense<[3, 1, 3, 2]> : tensor<4xi32>
  %vs = arith.constant dense<[0, 0, 1, 0]> : tensor<4xi32>
  %vw = arith.constant dense<[100.0, 3.0, 1.0, 4.0]> : tensor<4xf64>
  %r14 = embbag.segments sqrtn %t64[%vi] segment_ids(%vs) num_segments(2) padding_idx(%p32) weights(%vw) : (tensor<5x2xf64>, tensor<4xi32>, tensor<4xi32>, i32, tensor<4xf64>) -> tensor<2x2xf64>
  %c14 = tensor.cast %r14 : tensor<2x2xf64> to tensor<*xf64>
  call @printMemrefF64(%c14) : (tensor<*xf64>) -> ()

  // Dynamic shapes (the row length known at run time only), padding_idx
  // an argument of the kernels.
  %td = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>

  // The offsets of %r7 (mean, no default): r0, r1, zeros, (r2 + r4) / 2.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [3, -4]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [2, 7.5]
  %oi32 = arith.constant dense<[3, 0, 3, 1, 3, 3, 2, 4, 3, 3]> : tensor<10xi32>
  %oo32 = arith.constant dense<[0, 3, 5, 6, 9]> : tensor<5xi32>
  %oid = tensor.cast %oi32 : tensor<10xi32> to tensor<?xi32>
  %ood = tensor.cast %oo32 : tensor<5xi32> to tensor<?xi32>
  %r15 = call @offsets_dynamic(%td, %oid, %ood, %p32) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x?xf32>
  call @print(%r15) : (tensor<?x?xf32>) -> ()

  // The weighted packed sum of %r1, then with padding_idx -1: 2 r0 + 100
  // r3, 10 r3, r1 - r2, 100 r3 + 3 r4.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [2, 4]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [-2, -10]
  // CHECK-NEXT: [-3, 27]
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [7002, 8004]
  // CHECK-NEXT: [700, 800]
  // CHECK-NEXT: [-2, -10]
  // CHECK-NEXT: [6997, 8027]
  %pid = tensor.cast %pi : tensor<4x2xi64> to tensor<?x?xi64>
  %pwd = tensor.cast %pw : tensor<4x2xf32> to tensor<?x?xf32>
  %r16 = call @packed_dynamic(%td, %pid, %pwd, %p64) : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>, i64) -> tensor<?x?xf32>
  call @print(%r16) : (tensor<?x?xf32>) -> ()
  %r17 = call @packed_dynamic(%td, %pid, %pwd, %none) : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>, i64) -> tensor<?x?xf32>
  call @print(%r17) : (tensor<?x?xf32>) -> ()

  // The segments max of %r13, num_segments, default and padding_idx given
  // at run time; then with default -1 the segment of padding is zeros.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 9]
  // CHECK-NEXT: [3, -4]
  // CHECK-NEXT: [5, 6]
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1, 9]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [5, 6]
  %n3 = arith.constant 3 : i64
  %d1 = arith.constant 1 : i64
  %uid = tensor.cast %ui : tensor<6xi64> to tensor<?xi64>
  %usd = tensor.cast %us : tensor<6xi64> to tensor<?xi64>
  %r18 = call @segments_dynamic(%td, %uid, %usd, %n3, %d1, %p64) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, i64, i64) -> tensor<?x?xf32>
  call @print(%r18) : (tensor<?x?xf32>) -> ()
  %r19 = call @segments_dynamic(%td, %uid, %usd, %n3, %none, %p64) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, i64, i64) -> tensor<?x?xf32>
  call @print(%r19) : (tensor<?x?xf32>) -> ()

  // Rows of 70 elements, columns 66..69 printed: bags {0, 3, 2} (mean
  // (1000 + 3000) / 2 + c) and {3, 3, 3} (zeros); static, then dynamic.
  // t70[k, c] = 1000 * (k + 1) + c.
  // CHECK: sizes = [2, 4] strides = [{{[0-9]+}}, 1] data =
  // CHECK-NEXT: [2066, 2067, 2068, 2069]
  // CHECK-NEXT: [0, 0, 0, 0]
  // CHECK: sizes = [2, 4] strides = [{{[0-9]+}}, 1] data =
  // CHECK-NEXT: [2066, 2067, 2068, 2069]
  // CHECK-NEXT: [0, 0, 0, 0]
  %e70 = tensor.empty() : tensor<5x70xf32>
  %t70 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e70 : tensor<5x70xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %col = linalg.index 1 : index
    %one = arith.constant 1 : index
    %thousand = arith.constant 1000 : index
    %k1 = arith.addi %k, %one : index
    %k1000 = arith.muli %k1, %thousand : index
    %v = arith.addi %k1000, %col : index
    %vint = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vint : i64 to f32
    linalg.yield %vf : f32
  } -> tensor<5x70xf32>
  %li = arith.constant dense<[[0, 3, 2], [3, 3, 3]]> : tensor<2x3xi64>
  %r20 = embbag.packed mean %t70[%li] padding_idx(%p64) : (tensor<5x70xf32>, tensor<2x3xi64>, i64) -> tensor<2x70xf32>
  %s20 = tensor.extract_slice %r20[0, 66] [2, 4] [1, 1] : tensor<2x70xf32> to tensor<2x4xf32>
  %c20 = tensor.cast %s20 : tensor<2x4xf32> to tensor<?x?xf32>
  call @print(%c20) : (tensor<?x?xf32>) -> ()
  %t70d = tensor.cast %t70 : tensor<5x70xf32> to tensor<?x?xf32>
  %lid = tensor.cast %li : tensor<2x3xi64> to tensor<?x?xi64>
  %half = arith.constant dense<0.5> : tensor<2x3xf32>
  %halfd = tensor.cast %half : tensor<2x3xf32> to tensor<?x?xf32>
  %r21 = call @packed_dynamic(%t70d, %lid, %halfd, %p64) : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>, i64) -> tensor<?x?xf32>
  %s21 = tensor.extract_slice %r21[0, 66] [2, 4] [1, 1] : tensor<?x?xf32> to tensor<2x4xf32>
  %c21 = tensor.cast %s21 : tensor<2x4xf32> to tensor<?x?xf32>
  call @print(%c21) : (tensor<?x?xf32>) -> ()
  return
}
