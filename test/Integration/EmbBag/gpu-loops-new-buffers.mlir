// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops parallel=1 batch-tables=1" | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s

// Results without a destination get new buffers on the GPU-shaped path
// (path=gpu-loops). They were the buffers of tensor.empty ops, and CSE
// merges equal tensor.empty ops: two ops of one shape wrote one buffer, and
// the second, reading the first's result as its table, overwrote it while
// reading it. The buffers are memref.alloc ops now. Each op below reads the
// result of one of the same shape before it.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @forward(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %j: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %a = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %b = embbag.packed max %a[%j] : (tensor<3x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %b : tensor<3x2xf32>
}

func.func @training(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<6xi64>, %o: tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5x2xf32>) {
  %g1 = embbag.offsets_grad sum %dy, %t[%i] offsets(%o) : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  %g2 = embbag.offsets_grad max %dy, %g1[%i] offsets(%o) : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  %t1 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%o) : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  %t2 = embbag.offsets_update max sgd(%lr) %dy, %t1[%i] offsets(%o) : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  return %g2, %t2 : tensor<5x2xf32>, tensor<5x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  // %a = rows 0+2, 2+1, 1+4 = [[6, 8], [8, 10], [12, 14]]; %b = the max of
  // %a's rows 0 and 2, 2 and 1, 1 and 0.
  // CHECK: sizes = [3, 2]
  // CHECK-NEXT: {{\[\[}}12,   14],
  // CHECK-NEXT:  [12,   14],
  // CHECK-NEXT:  [8,   10]]
  %i2 = arith.constant dense<[[0, 2], [2, 1], [1, 4]]> : tensor<3x2xi32>
  %j2 = arith.constant dense<[[0, 2], [2, 1], [1, 0]]> : tensor<3x2xi32>
  %r = call @forward(%t, %i2, %j2) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()

  // Bags [0, 2], [1], [4, 4, 3]: %g2 is the max gradient over %g1's rows,
  // %t2 the max update of %t1; the values are the default path's (the
  // first RUN line), which the GPU-shaped path must give.
  // CHECK: sizes = [5, 2]
  // CHECK-NEXT: {{\[\[}}1,   -1],
  // CHECK-NEXT:  [0.5,   2],
  // CHECK-NEXT:  [0,   0],
  // CHECK-NEXT:  [0,   0],
  // CHECK-NEXT:  [3,   1]]
  // CHECK: sizes = [5, 2]
  // CHECK-NEXT: {{\[\[}}0.5,   2.5],
  // CHECK-NEXT:  [2.5,   2],
  // CHECK-NEXT:  [4,   7],
  // CHECK-NEXT:  [5.5,   7.5],
  // CHECK-NEXT:  [4.5,   8.5]]
  %dy = arith.constant dense<[[1.0, -1.0], [0.5, 2.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %i = arith.constant dense<[0, 2, 1, 4, 4, 3]> : tensor<6xi64>
  %o = arith.constant dense<[0, 2, 3]> : tensor<3xi64>
  %lr = arith.constant 0.5 : f32
  %g, %t2 = call @training(%lr, %dy, %t, %i, %o) : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<6xi64>, tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5x2xf32>)
  %ug = tensor.cast %g : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%ug) : (tensor<*xf32>) -> ()
  %ut = tensor.cast %t2 : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%ut) : (tensor<*xf32>) -> ()
  return
}
