// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | %mlir_runner | FileCheck %s

// include_last_offset (PyTorch's, docs/EmbBag/EmbBagOps.md): batch + 1
// offsets, bag b = [offsets[b], offsets[b + 1]); the indices from the last
// offset on are never read (nor checked: index 99 below is out of range).
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [-1, -2].
// Indices [0, 1, 2, 3, 99], offsets [0, 2, 2, 4]: bags {0, 1}, {}, {2, 3}.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// The operands as arguments of a kernel that is not inlined: nothing about
// them is known at compile time.
func.func @kernel(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %w: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %s = embbag.offsets sum %t[%i] offsets(%o) include_last_offset weights(%w) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x?xf32>
  %m = embbag.offsets mean %t[%i] offsets(%o) include_last_offset default(1) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  %x = embbag.offsets max %t[%i] offsets(%o) include_last_offset : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %s, %m, %x : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [-1.0, -2.0]]> : tensor<4x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 99]> : tensor<5xi64>
  %o = arith.constant dense<[0, 2, 2, 4]> : tensor<4xi64>
  %w = arith.constant dense<[1.0, 2.0, 0.5, 4.0, 8.0]> : tensor<5xf32>

  // Static shapes: sum, then mean (the empty bag takes r1 undivided).
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [99, 198]
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.5, 11]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [49.5, 99]
  %r0 = embbag.offsets sum %t[%i] offsets(%o) include_last_offset : (tensor<4x2xf32>, tensor<5xi64>, tensor<4xi64>) -> tensor<3x2xf32>
  %c0 = tensor.cast %r0 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c0) : (tensor<?x?xf32>) -> ()
  %r1 = embbag.offsets mean %t[%i] offsets(%o) include_last_offset default(1) : (tensor<4x2xf32>, tensor<5xi64>, tensor<4xi64>) -> tensor<3x2xf32>
  %c1 = tensor.cast %r1 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c1) : (tensor<?x?xf32>) -> ()

  // Dynamic shapes: weighted sum (1 * r0 + 2 * r1; 0.5 * r2 + 4 * r3), mean,
  // max.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [21, 42]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [46, 92]
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.5, 11]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [49.5, 99]
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [100, 200]
  %td = tensor.cast %t : tensor<4x2xf32> to tensor<?x?xf32>
  %id = tensor.cast %i : tensor<5xi64> to tensor<?xi64>
  %od = tensor.cast %o : tensor<4xi64> to tensor<?xi64>
  %wd = tensor.cast %w : tensor<5xf32> to tensor<?xf32>
  %s, %m, %x = call @kernel(%td, %id, %od, %wd) {no_inline} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
  call @print(%s) : (tensor<?x?xf32>) -> ()
  call @print(%m) : (tensor<?x?xf32>) -> ()
  call @print(%x) : (tensor<?x?xf32>) -> ()

  // One offset: no bag at all.
  // CHECK: sizes = [0, 2]
  %o1 = arith.constant dense<[3]> : tensor<1xi64>
  %o1d = tensor.cast %o1 : tensor<1xi64> to tensor<?xi64>
  %s1, %m1, %x1 = call @kernel(%td, %id, %o1d, %wd) {no_inline} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
  call @print(%s1) : (tensor<?x?xf32>) -> ()
  return
}
