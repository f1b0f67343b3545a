// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check (docs/EmbBag/EmbBagOps.md): a negative segment id of embbag.segments
// (segment_ids[0] = -1; i64, mean) stops the program: the message, naming
// the op and its location, goes to stderr, then the program aborts (hence
// `not --crash`). The operands reach a non-inlined kernel as arguments, so
// that the compile-time check (embbag-verify-constants) cannot see them.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %s: tensor<4xi64>, %n: i64) -> tensor<?x2xf32> {
  // CHECK: embbag.segments at {{.*}}check-segments-id-negative.mlir:[[@LINE+1]]:8: segment id out of range [0, num_segments)
  %r = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi64>
  %s = arith.constant dense<[-1, 0, 0, 2]> : tensor<4xi64>
  %n = arith.constant 3 : i64
  %r = call @kernel(%t, %i, %s, %n) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
  // The program stops in @kernel: nothing is printed.
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
