// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="checks=0 prefetch-distance=2" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="target=generic unroll=2" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 max-vectors=1" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-chunk=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s

// Row-wise quantized tables (docs/Semantics.md): rows of codes
// followed by their scale and bias, dequantized as code * scale + bias.
// The tables are written byte by byte, so every value below can be checked
// by hand. The path=linalg run lowers them through the loops too (the
// linalg lowering leaves them); the others take 128- and 256-bit vectors,
// one accumulator per pass, prefetch and the parallel bag loop.
//
// 8-bit rows (D = 4; f32 scale, f32 bias, little endian):
//   r0 codes [0, 1, 2, 3],      scale 0.5,  bias 1  -> [1, 1.5, 2, 2.5]
//   r1 codes [10, 20, 30, 255], scale 1,    bias -2 -> [8, 18, 28, 253]
//   r2 codes [4, 4, 4, 4],      scale 0.25, bias 0  -> [1, 1, 1, 1]
// 4-bit rows (D = 5; the low nibble first; f16 scale and bias):
//   q0 codes [1, 2, 3, 4, 15], scale 0.5, bias 1 -> [1.5, 2, 2.5, 3, 8.5]
//   q1 codes [0, 0, 0, 0, 0],  scale 1,   bias -1 -> [-1, -1, -1, -1, -1]
// 2-bit row (D = 5): codes [1, 2, 3, 0, 1], scale 1, bias 0.5
//   -> [1.5, 2.5, 3.5, 0.5, 1.5]

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print_f16(%r: tensor<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xf16>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x?xf16>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  call @print(%e) : (tensor<?x?xf32>) -> ()
  return
}

// Dynamic everything: the row length is the row's bytes - 8.
func.func @max_dynamic(%t: tensor<?x?xui8>, %i: tensor<?xi64>, %o: tensor<?xi64>, %d: i64) -> tensor<?x?xf32> attributes {no_inline} {
  %r = embbag.offsets max %t[%i] offsets(%o) default(%d) rowwise(i8) : (tensor<?x?xui8>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %t8 = arith.constant dense<[[0, 1, 2, 3,       0, 0, 0, 63,   0, 0, 128, 63],
                              [10, 20, 30, 255,  0, 0, 128, 63, 0, 0, 0, 192],
                              [4, 4, 4, 4,       0, 0, 128, 62, 0, 0, 0, 0]]> : tensor<3x12xui8>
  %i = arith.constant dense<[0, 1, 2, 1]> : tensor<4xi64>
  %o = arith.constant dense<[0, 2, 4]> : tensor<3xi64>

  // CHECK: [9,   19.5,   30,   255.5],
  // CHECK-NEXT: [9,   19,   29,   254],
  // CHECK-NEXT: [1,   1,   1,   1]]
  %sum = embbag.offsets sum %t8[%i] offsets(%o) default(2) rowwise(i8) : (tensor<3x12xui8>, tensor<4xi64>, tensor<3xi64>) -> tensor<3x4xf32>
  %sum_ = tensor.cast %sum : tensor<3x4xf32> to tensor<?x?xf32>
  call @print(%sum_) : (tensor<?x?xf32>) -> ()

  // CHECK: [8,   18,   28,   253],
  // CHECK-NEXT: [8,   18,   28,   253],
  // CHECK-NEXT: [1,   1,   1,   1]]
  %td = tensor.cast %t8 : tensor<3x12xui8> to tensor<?x?xui8>
  %id = tensor.cast %i : tensor<4xi64> to tensor<?xi64>
  %od = tensor.cast %o : tensor<3xi64> to tensor<?xi64>
  %c2 = arith.constant 2 : i64
  %max = call @max_dynamic(%td, %id, %od, %c2) : (tensor<?x?xui8>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>
  call @print(%max) : (tensor<?x?xf32>) -> ()

  // padding_idx 1 is skipped and not counted: bag 0 is r0 alone, bag 1 r2
  // alone, bag 2 (empty) takes the default row r2, undivided.
  // CHECK: [1,   1.5,   2,   2.5],
  // CHECK-NEXT: [1,   1,   1,   1],
  // CHECK-NEXT: [1,   1,   1,   1]]
  %p = arith.constant 1 : i64
  %mean = embbag.offsets mean %t8[%i] offsets(%o) default(2) padding_idx(%p) rowwise(i8) : (tensor<3x12xui8>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x4xf32>
  %mean_ = tensor.cast %mean : tensor<3x4xf32> to tensor<?x?xf32>
  call @print(%mean_) : (tensor<?x?xf32>) -> ()

  %t4 = arith.constant dense<[[33, 67, 15, 0, 56, 0, 60],
                              [0, 0, 0,    0, 60, 0, 188]]> : tensor<2x7xi8>
  %i4 = arith.constant dense<[[0, 1], [1, 1]]> : tensor<2x2xi32>

  // 2 * q0 + q1 and 0.5 * q1 + 0.5 * q1.
  // CHECK: [2,   3,   4,   5,   16],
  // CHECK-NEXT: [-1,   -1,   -1,   -1,   -1]]
  %w4 = arith.constant dense<[[2.0, 1.0], [0.5, 0.5]]> : tensor<2x2xf32>
  %wsum = embbag.packed sum %t4[%i4] weights(%w4) rowwise(i4) : (tensor<2x7xi8>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %wsum_ = tensor.cast %wsum : tensor<2x5xf32> to tensor<?x?xf32>
  call @print(%wsum_) : (tensor<?x?xf32>) -> ()

  // An f16 result and f16 weights: 3 * q0 + 4 * q1, then 2 * q1.
  // CHECK: [0.5,   2,   3.5,   5,   21.5],
  // CHECK-NEXT: [-2,   -2,   -2,   -2,   -2]]
  %w16 = arith.constant dense<[[3.0, 4.0], [1.0, 1.0]]> : tensor<2x2xf16>
  %half = embbag.packed sum %t4[%i4] weights(%w16) rowwise(i4) : (tensor<2x7xi8>, tensor<2x2xi32>, tensor<2x2xf16>) -> tensor<2x5xf16>
  %half_ = tensor.cast %half : tensor<2x5xf16> to tensor<?x?xf16>
  call @print_f16(%half_) : (tensor<?x?xf16>) -> ()

  // Segment 0 is empty (zeros); segment 1 is the mean of three copies.
  // CHECK: [0,   0,   0,   0,   0],
  // CHECK-NEXT: [1.5,   2.5,   3.5,   0.5,   1.5]]
  %t2 = arith.constant dense<[[57, 1, 0, 60, 0, 56]]> : tensor<1x6xui8>
  %i2 = arith.constant dense<[0, 0, 0]> : tensor<3xi32>
  %s2 = arith.constant dense<[1, 1, 1]> : tensor<3xi32>
  %seg = embbag.segments mean %t2[%i2] segment_ids(%s2) num_segments(2) rowwise(i2) : (tensor<1x6xui8>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x5xf32>
  %seg_ = tensor.cast %seg : tensor<2x5xf32> to tensor<?x?xf32>
  call @print(%seg_) : (tensor<?x?xf32>) -> ()

  // A row of 20 4-bit codes c = j mod 16 (scale 1, bias 0): more than one
  // vector, the last one masked inside the row's bytes.
  // CHECK: [0,   2,   4,   6,   8,   10,   12,   14,   16,   18,   20,   22,   24,   26,   28,   30,   0,   2,   4,   6]]
  %t20 = arith.constant dense<[[16, 50, 84, 118, 152, 186, 220, 254, 16, 50, 0, 60, 0, 0]]> : tensor<1x14xui8>
  %i20 = arith.constant dense<[[0, 0]]> : tensor<1x2xi64>
  %long = embbag.packed sum %t20[%i20] rowwise(i4) : (tensor<1x14xui8>, tensor<1x2xi64>) -> tensor<1x20xf32>
  %long_ = tensor.cast %long : tensor<1x20xf32> to tensor<?x?xf32>
  call @print(%long_) : (tensor<?x?xf32>) -> ()

  // A row of 36 2-bit codes c = j mod 4 (every byte 0b11100100; scale 1,
  // bias 0): two whole vectors read and unpacked together, then a masked
  // one.
  // CHECK: [0,   2,   4,   6,   0,   2,   4,   6,   0,   2,   4,   6,   0,   2,   4,   6,   0,   2,   4,   6,   0,   2,   4,   6,   0,   2,   4,   6,   0,   2,   4,   6,   0,   2,   4,   6]]
  %t36 = arith.constant dense<[[228, 228, 228, 228, 228, 228, 228, 228, 228, 0, 60, 0, 0]]> : tensor<1x13xui8>
  %long2 = embbag.packed sum %t36[%i20] rowwise(i2) : (tensor<1x13xui8>, tensor<1x2xi64>) -> tensor<1x36xf32>
  %long2_ = tensor.cast %long2 : tensor<1x36xf32> to tensor<?x?xf32>
  call @print(%long2_) : (tensor<?x?xf32>) -> ()
  return
}
