// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops" | not --crash %mlir_runner 2>&1 | FileCheck %s

// The GPU's embbag.segments reads sorted segment ids (each segment's range
// found by binary search, docs/GPU.md). Ids in range but not sorted are
// found by the kernel's checks and stop the program with a message at the
// op, here through the kernels' host loops. Sorted ids run.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<5xi32>, %s: tensor<5xi32>, %n: i32) -> tensor<?x2xf32> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 2, 3, 4, 1]> : tensor<5xi32>
  %sorted = arith.constant dense<[0, 0, 2, 2, 3]> : tensor<5xi32>
  %unsorted = arith.constant dense<[0, 2, 0, 2, 3]> : tensor<5xi32>
  %n = arith.constant 4 : i32
  // CHECK: data =
  // CHECK-NEXT: {{\[\[}}6,   8],
  // CHECK-NEXT:  [0,   0],
  // CHECK-NEXT:  [16,   18],
  // CHECK-NEXT:  [3,   4]]
  %r = call @kernel(%t, %i, %sorted, %n) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x2xf32>
  %p = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  // The program stops in @kernel, at the op: nothing more is printed.
  // CHECK: embbag.segments at {{.*}}gpu-loops-unsorted-segments.mlir:11:8: segment ids not sorted: embbag.segments on the GPU needs sorted segment ids
  // CHECK-NOT: data =
  %r2 = call @kernel(%t, %i, %unsorted, %n) : (tensor<5x2xf32>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x2xf32>
  %p2 = tensor.cast %r2 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}
