// RUN: embbag-opt %s --embbag-to-llvm | not --crash %mlir_runner 2>&1 | FileCheck %s

// Runtime check (docs/EmbBag/EmbBagOps.md) in the vector part of the segment id check
// (ids are read eight at a time, as i64 here): of 12 sorted ids, ids[3] =
// num_segments = 3 is out of range [0, num_segments).

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<12xi64>, %s: tensor<12xi64>, %n: i64) -> tensor<?x2xf32> {
  // CHECK: embbag.segments at {{.*}}check-segments-id-vectorized.mlir:[[@LINE+1]]:8: segment id out of range [0, num_segments)
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<12xi64>, tensor<12xi64>, i64) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1]> : tensor<12xi64>
  %s = arith.constant dense<[0, 0, 1, 3, 1, 1, 2, 2, 2, 2, 2, 2]> : tensor<12xi64>
  %n = arith.constant 3 : i64
  %r = call @kernel(%t, %i, %s, %n) : (tensor<5x2xf32>, tensor<12xi64>, tensor<12xi64>, i64) -> tensor<?x2xf32>
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
