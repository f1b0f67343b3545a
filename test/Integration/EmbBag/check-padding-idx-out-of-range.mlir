// RUN: embbag-opt %s --embbag-to-llvm | not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs 2>&1 | FileCheck %s --check-prefix=PACKED
// RUN: embbag-opt %s --embbag-to-llvm | not --crash mlir-runner -e main_offsets -entry-point-result=void -shared-libs=%mlir_runner_libs 2>&1 | FileCheck %s --check-prefix=OFFSETS
// RUN: embbag-opt %s --embbag-to-llvm | not --crash mlir-runner -e main_segments -entry-point-result=void -shared-libs=%mlir_runner_libs 2>&1 | FileCheck %s --check-prefix=SEGMENTS

// Runtime check (docs/Semantics.md): a padding_idx outside
// [0, num_emb) and not -1 stops the program, whether or not an index equals
// it: the message, naming the op and its location, goes to stderr, then the
// program aborts (hence `not --crash`), before any result is printed.
// num_emb = 5; padding_idx 5 (packed), -2 (offsets), 7 (segments, with no
// index at all). The operands reach non-inlined kernels as arguments, so
// that the compile-time check (embbag-verify-constants) cannot see them.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @packed(%t: tensor<5x2xf32>, %i: tensor<2x2xi64>, %p: i64) -> tensor<2x2xf32> {
  // PACKED: embbag.packed at {{.*}}check-padding-idx-out-of-range.mlir:[[@LINE+1]]:8: padding_idx out of range [0, num_emb) and not -1
  %r = embbag.packed sum %t[%i] padding_idx(%p) : (tensor<5x2xf32>, tensor<2x2xi64>, i64) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @offsets(%t: tensor<5x2xf32>, %i: tensor<3xi32>, %o: tensor<2xi32>, %p: i32) -> tensor<2x2xf32> {
  // OFFSETS: embbag.offsets at {{.*}}check-padding-idx-out-of-range.mlir:[[@LINE+1]]:8: padding_idx out of range [0, num_emb) and not -1
  %r = embbag.offsets mean %t[%i] offsets(%o) default(1) padding_idx(%p) : (tensor<5x2xf32>, tensor<3xi32>, tensor<2xi32>, i32) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @segments(%t: tensor<5x2xf32>, %i: tensor<0xi64>, %p: i64) -> tensor<2x2xf32> {
  // SEGMENTS: embbag.segments at {{.*}}check-padding-idx-out-of-range.mlir:[[@LINE+1]]:8: padding_idx out of range [0, num_emb) and not -1
  %r = embbag.segments max %t[%i] segment_ids(%i) num_segments(2) padding_idx(%p) : (tensor<5x2xf32>, tensor<0xi64>, tensor<0xi64>, i64) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @print(%r: tensor<2x2xf32>) {
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// PACKED-NOT: data =
// OFFSETS-NOT: data =
// SEGMENTS-NOT: data =
func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>
  %p = arith.constant 5 : i64
  %r = call @packed(%t, %i, %p) : (tensor<5x2xf32>, tensor<2x2xi64>, i64) -> tensor<2x2xf32>
  call @print(%r) : (tensor<2x2xf32>) -> ()
  return
}

func.func @main_offsets() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2]> : tensor<3xi32>
  %o = arith.constant dense<[0, 2]> : tensor<2xi32>
  %p = arith.constant -2 : i32
  %r = call @offsets(%t, %i, %o, %p) : (tensor<5x2xf32>, tensor<3xi32>, tensor<2xi32>, i32) -> tensor<2x2xf32>
  call @print(%r) : (tensor<2x2xf32>) -> ()
  return
}

func.func @main_segments() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<> : tensor<0xi64>
  %p = arith.constant 7 : i64
  %r = call @segments(%t, %i, %p) : (tensor<5x2xf32>, tensor<0xi64>, i64) -> tensor<2x2xf32>
  call @print(%r) : (tensor<2x2xf32>) -> ()
  return
}
