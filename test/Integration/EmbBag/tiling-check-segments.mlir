// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-bags-1.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Segment id 5 with num_segments 3: after tiling over segments, every tile
// sees it as -1, not as one of the others' ids (which it would drop), so
// the tile's check stops the program as the untiled op's does.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<3xi32>, %s: tensor<3xi32>) -> tensor<3x2xf32> {
  // CHECK: embbag.segments at {{.*}}tiling-check-segments.mlir:[[@LINE+1]]:8: segment id out of range [0, num_segments)
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(3) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2]> : tensor<3xi32>
  %s = arith.constant dense<[0, 5, 1]> : tensor<3xi32>
  %r = call @kernel(%t, %i, %s) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  // CHECK-NOT: data =
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
