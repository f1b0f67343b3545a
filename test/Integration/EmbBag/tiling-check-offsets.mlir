// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-bags-1.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Offsets [0, 3, 2] decrease between bags 1 and 2, which one-bag tiles put
// in different tiles: the tile of bag 1 reads the indices up to the next
// tile's first offset, 2, below its own offset 3, so its rebased offset
// lies past its indices and its check stops the program as the untiled
// op's does (docs/Bufferization.md).

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) -> tensor<3x2xf32> {
  // CHECK: embbag.offsets at {{.*}}tiling-check-offsets.mlir:[[@LINE+1]]:8: offsets must be non-negative, non-decreasing and at most the number of indices
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %o = arith.constant dense<[0, 3, 2]> : tensor<3xi32>
  %r = call @kernel(%t, %i, %o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  // CHECK-NOT: data =
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
