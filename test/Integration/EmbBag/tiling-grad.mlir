// The gradient ops untiled and tiled by upstream's transform ops: over
// their bags as a partial reduction (tile_reduction_using_for, through
// PartialReductionOpInterface) and over their columns (tile_using_for).
// Every run prints the values below, derived from the semantics; the
// inputs are small integers and halves, so every partial sum is exact and
// tiling changes no bit.
//
// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-grad-bags.mlir \
// RUN:   --transform-interpreter | FileCheck %s --check-prefix=BAGS
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-grad-bags.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-grad-columns.mlir \
// RUN:   --transform-interpreter | FileCheck %s --check-prefix=COLUMNS
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-grad-columns.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm | %mlir_runner | FileCheck %s

// Tiled over bags: one loop per op, each tile's gradient added into the
// accumulator in place (a linalg.generic into the accumulator's tile).
// BAGS:     = scf.for %
// BAGS:     embbag.offsets_grad sum
// BAGS:     arith.addf
// BAGS:     = scf.for %
// BAGS:     embbag.packed_grad mean
// BAGS:     arith.addf
// BAGS:     = scf.for %
// BAGS:     embbag.segments_grad max
// BAGS:     arith.addf
// BAGS:     = scf.for %
// BAGS:     embbag.segments_grad sum
// BAGS:     arith.addf
// BAGS:     = scf.for %
// BAGS:     embbag.offsets_grad mean
// BAGS:     arith.extf {{.*}} : f16 to f32
// BAGS:     arith.addf
// BAGS:     arith.truncf {{.*}} : f32 to f16
// BAGS-NOT: = scf.for %
// Tiled over columns: the unweighted ops only.
// COLUMNS-COUNT-3: = scf.for %
// COLUMNS-NOT:     = scf.for %

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print2(%r: tensor<5x4xf32>) {
  %u = tensor.cast %r : tensor<5x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print1(%r: tensor<?xf32>) {
  %u = tensor.cast %r : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  // Table row i is 10^i * [1, 2, 3, 4] (max and the weights gradient read it).
  %t = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0],
                             [100.0, 200.0, 300.0, 400.0],
                             [1000.0, 2000.0, 3000.0, 4000.0],
                             [10000.0, 20000.0, 30000.0, 40000.0]]> : tensor<5x4xf32>
  %dy = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, 1.0, 1.5, 2.0],
                              [2.0, 0.0, 1.0, 0.0]]> : tensor<3x4xf32>

  // offsets sum, weighted: bags [0, 2], [2, 4, 1], [0].
  %i = arith.constant dense<[0, 2, 2, 4, 1, 0]> : tensor<6xi64>
  %off = arith.constant dense<[0, 2, 5]> : tensor<3xi64>
  %w = arith.constant dense<[1.0, 2.0, 0.5, 1.0, 2.0, 4.0]> : tensor<6xf32>
  %g0, %dw0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) weights(%w)
      {test.weighted}
      : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<6xi64>, tensor<3xi64>, tensor<6xf32>)
      -> (tensor<5x4xf32>, tensor<6xf32>)
  // row 0: dy0 * 1 + dy2 * 4; row 1: dy1 * 2; row 2: dy0 * 2 + dy1 * 0.5;
  // row 4: dy1 * 1. dw: dot(dy[bag], t[index]).
  // CHECK:      [9,   2,   7,   4]
  // CHECK-NEXT: [1,   2,   3,   4]
  // CHECK-NEXT: [2.25,   4.5,   6.75,   9]
  // CHECK-NEXT: [0,   0,   0,   0]
  // CHECK-NEXT: [0.5,   1,   1.5,   2]
  call @print2(%g0) : (tensor<5x4xf32>) -> ()
  // CHECK:      [30,  3000,  1500,  150000,  150,  5]
  %dw0d = tensor.cast %dw0 : tensor<6xf32> to tensor<?xf32>
  call @print1(%dw0d) : (tensor<?xf32>) -> ()

  // packed mean, padding_idx 3: bags [0, 1], [1, 3] (count 1), [3, 3]
  // (empty).
  %ip = arith.constant dense<[[0, 1], [1, 3], [3, 3]]> : tensor<3x2xi64>
  %pad = arith.constant 3 : i64
  %g1 = embbag.packed_grad mean %dy, %t[%ip] padding_idx(%pad)
      {test.plain} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<3x2xi64>, i64) -> tensor<5x4xf32>
  // row 0: dy0 / 2; row 1: dy0 / 2 + dy1.
  // CHECK:      [0.5,   1,   1.5,   2]
  // CHECK-NEXT: [1,   2,   3,   4]
  // CHECK-NEXT: [0,   0,   0,   0]
  // CHECK-NEXT: [0,   0,   0,   0]
  // CHECK-NEXT: [0,   0,   0,   0]
  call @print2(%g1) : (tensor<5x4xf32>) -> ()

  // segments max: segment 0 = rows [4, 1], segment 1 empty, segment 2 =
  // rows [2, 2] (the first gets the gradient).
  %is = arith.constant dense<[4, 1, 2, 2]> : tensor<4xi64>
  %seg = arith.constant dense<[0, 0, 2, 2]> : tensor<4xi64>
  %g2 = embbag.segments_grad max %dy, %t[%is] segment_ids(%seg) num_segments(3)
      {test.plain} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<5x4xf32>
  // CHECK:      [0,   0,   0,   0]
  // CHECK-NEXT: [0,   0,   0,   0]
  // CHECK-NEXT: [2,   0,   1,   0]
  // CHECK-NEXT: [0,   0,   0,   0]
  // CHECK-NEXT: [1,   2,   3,   4]
  call @print2(%g2) : (tensor<5x4xf32>) -> ()

  // segments sum, weighted: the same bags, weights [1, 2, 0.5, 1].
  %ws = arith.constant dense<[1.0, 2.0, 0.5, 1.0]> : tensor<4xf32>
  %g3, %dw3 = embbag.segments_grad sum %dy, %t[%is] segment_ids(%seg) num_segments(3) weights(%ws)
      {test.weighted} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xf32>)
      -> (tensor<5x4xf32>, tensor<4xf32>)
  // row 1: dy0 * 2; row 2: dy2 * 1.5; row 4: dy0.
  // CHECK:      [0,   0,   0,   0]
  // CHECK-NEXT: [2,   4,   6,   8]
  // CHECK-NEXT: [3,   0,   1.5,   0]
  // CHECK-NEXT: [0,   0,   0,   0]
  // CHECK-NEXT: [1,   2,   3,   4]
  call @print2(%g3) : (tensor<5x4xf32>) -> ()
  // CHECK:      [300000,  300,  500,  500]
  %dw3d = tensor.cast %dw3 : tensor<4xf32> to tensor<?xf32>
  call @print1(%dw3d) : (tensor<?xf32>) -> ()

  // f16, dynamic shapes, offsets mean with include_last_offset: bags
  // [1, 1], [3]; the trailing index 0 is read by no bag. Tiled over bags,
  // the gradient is accumulated in f32 and rounded once, by the merge.
  %th = arith.constant dense<1.0> : tensor<5x4xf16>
  %dyh = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, 1.0, 1.5, 2.0]]> : tensor<2x4xf16>
  %ih = arith.constant dense<[1, 1, 3, 0]> : tensor<4xi32>
  %offh = arith.constant dense<[0, 2, 3]> : tensor<3xi32>
  %thd = tensor.cast %th : tensor<5x4xf16> to tensor<?x?xf16>
  %dyhd = tensor.cast %dyh : tensor<2x4xf16> to tensor<?x?xf16>
  %ihd = tensor.cast %ih : tensor<4xi32> to tensor<?xi32>
  %offhd = tensor.cast %offh : tensor<3xi32> to tensor<?xi32>
  %g4 = embbag.offsets_grad mean %dyhd, %thd[%ihd] offsets(%offhd) include_last_offset
      {test.plain} : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf16>
  %g4s = tensor.cast %g4 : tensor<?x?xf16> to tensor<5x4xf16>
  %e = tensor.empty() : tensor<5x4xf32>
  %g4f = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%g4s : tensor<5x4xf16>) outs(%e : tensor<5x4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<5x4xf32>
  // row 1: dy0 / 2 twice; row 3: dy1.
  // CHECK:      [0,   0,   0,   0]
  // CHECK-NEXT: [1,   2,   3,   4]
  // CHECK-NEXT: [0,   0,   0,   0]
  // CHECK-NEXT: [0.5,   1,   1.5,   2]
  // CHECK-NEXT: [0,   0,   0,   0]
  call @print2(%g4f) : (tensor<5x4xf32>) -> ()
  return
}
