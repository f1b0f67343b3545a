// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check of a training op: an index of embbag.offsets_update equal
// to num_emb (indices[2] = 5) stops the program before the table is
// touched, with the forward op's message naming the training op and its
// location (the contract component's checks, not a copy of them). The
// operands reach a non-inlined kernel as arguments, so that the
// compile-time check cannot see them.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%lr: f32, %dy: tensor<2x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi32>, %off: tensor<2xi32>) -> tensor<5x2xf32> {
  // CHECK: embbag.offsets_update at {{.*}}check-training-index-out-of-range.mlir:[[@LINE+1]]:8: index out of range [0, num_emb)
  %r = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off)
      : (f32, tensor<2x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<2xi32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

func.func @main() {
  %lr = arith.constant 0.5 : f32
  %dy = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 2, 5, 4]> : tensor<4xi32>
  %off = arith.constant dense<[0, 2]> : tensor<2xi32>
  %r = call @kernel(%lr, %dy, %t, %i, %off) : (f32, tensor<2x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<2xi32>) -> tensor<5x2xf32>
  // The program stops in @kernel: nothing is printed.
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
