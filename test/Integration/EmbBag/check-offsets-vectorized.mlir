// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check (docs/EmbBag/EmbBagOps.md) in the vector part of the offsets check: it
// compares eight pairs of neighbouring offsets at a time, then the last
// (num_bags - 1) % 8 pairs one by one. Eleven offsets make eight pairs in
// the vector part and two in the scalar one.
//
// First call: valid offsets [0, 0, 1, 1, 2, 4, 4, 6, 8, 9, 10] (repeated
// offsets, empty bags, the last equal to num_indices): no check fires.
// Second call: offsets [0, 1, 2, 3, 4, 5, 6, 7, 3, 9, 10], where 7 > 3 is
// the eighth pair, in the vector part: the program stops before printing
// (@kernel comes last so that its message is checked after the first
// result).
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [1000, 2000].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0]]> : tensor<4x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 0, 1, 2, 3, 0, 1]> : tensor<10xi32>

  // CHECK: sizes = [11, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [1100, 2200]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [1100, 2200]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [0, 0]
  %good = arith.constant dense<[0, 0, 1, 1, 2, 4, 4, 6, 8, 9, 10]> : tensor<11xi32>
  %r0 = call @kernel(%t, %i, %good) : (tensor<4x2xf32>, tensor<10xi32>, tensor<11xi32>) -> tensor<11x2xf32>
  %p0 = tensor.cast %r0 : tensor<11x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  %bad = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 3, 9, 10]> : tensor<11xi32>
  %r1 = call @kernel(%t, %i, %bad) : (tensor<4x2xf32>, tensor<10xi32>, tensor<11xi32>) -> tensor<11x2xf32>
  %p1 = tensor.cast %r1 : tensor<11x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  return
}

func.func @kernel(%t: tensor<4x2xf32>, %i: tensor<10xi32>, %o: tensor<11xi32>) -> tensor<11x2xf32> {
  // CHECK-NOT: data =
  // CHECK: embbag.offsets at {{.*}}check-offsets-vectorized.mlir:[[@LINE+1]]:8: offsets must be non-negative, non-decreasing and at most the number of indices
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<4x2xf32>, tensor<10xi32>, tensor<11xi32>) -> tensor<11x2xf32>
  return %r : tensor<11x2xf32>
}
