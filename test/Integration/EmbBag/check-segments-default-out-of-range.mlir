// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check (docs/EmbBag/EmbBagOps.md): a default index of embbag.segments below -1
// (default -3) stops the program: the message, naming the op and its
// location, goes to stderr, then the program aborts (hence `not --crash`).
// The operands reach a non-inlined kernel as arguments, so that the
// compile-time check (embbag-verify-constants) cannot see them.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<2xi64>, %s: tensor<2xi64>, %n: i64, %d: i64) -> tensor<?x2xf32> {
  // CHECK: embbag.segments at {{.*}}check-segments-default-out-of-range.mlir:[[@LINE+1]]:8: default index out of range [0, num_emb) and not -1
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) : (tensor<5x2xf32>, tensor<2xi64>, tensor<2xi64>, i64, i64) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1]> : tensor<2xi64>
  %s = arith.constant dense<[0, 2]> : tensor<2xi64>
  %n = arith.constant 3 : i64
  %d = arith.constant -3 : i64
  %r = call @kernel(%t, %i, %s, %n, %d) : (tensor<5x2xf32>, tensor<2xi64>, tensor<2xi64>, i64, i64) -> tensor<?x2xf32>
  // The program stops in @kernel: nothing is printed.
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
