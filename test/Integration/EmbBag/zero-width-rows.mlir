// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-chunk=1" | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1 batch-tables=1 batch-chunk=1" | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops parallel=1" | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s

// A table of rows of no elements (tensor<4x0xf32>) is valid: its bags'
// results are rows of no elements too. The kernels' slices of such rows
// (a chunk's bags, a training op's row) were rejected by the tensor
// dialect's verifier with parallel=1, table batching and the fused
// updates ("offset 1 is out-of-bounds: 0 >= 0"); they are empty tensors
// now (extractSliceOrEmpty). Next to it, an op of a 2-column table over the
// same bags, batched with it; and a rank-3 table of dynamic dims (@dynamic).
// Row-wise Adagrad adds mean(g^2) of an empty row to the state of each row
// the batch touches: 0/0, NaN, as PyTorch's mean of nothing; row 2,
// untouched, keeps its state. The sparse gradient lists the rows touched,
// each with a gradient row of no elements.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(tensor<*xi64>) attributes { llvm.emit_c_interface }

func.func @forward(%t: tensor<4x0xf32>, %t2: tensor<4x2xf32>, %i: tensor<5xi64>, %o: tensor<3xi64>) -> (tensor<3x0xf32>, tensor<3x2xf32>) {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<4x0xf32>, tensor<5xi64>, tensor<3xi64>) -> tensor<3x0xf32>
  %r2 = embbag.offsets mean %t2[%i] offsets(%o) : (tensor<4x2xf32>, tensor<5xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  return %r, %r2 : tensor<3x0xf32>, tensor<3x2xf32>
}

func.func @packed(%t: tensor<4x2x0xf32>, %i: tensor<2x3xi32>) -> tensor<2x2x0xf32> {
  %r = embbag.packed max %t[%i] : (tensor<4x2x0xf32>, tensor<2x3xi32>) -> tensor<2x2x0xf32>
  return %r : tensor<2x2x0xf32>
}

// Dynamic dims beside the 0: the table flattens to [num_emb, 0] and the
// result unflattens from it without a reshape (a static 0 in a group with
// a dynamic dim does not verify as a memref reshape): empty tensors.
func.func @dynamic(%t: tensor<?x?x0xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?x0xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) : (tensor<?x?x0xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?x0xf32>
  return %r : tensor<?x?x0xf32>
}

func.func @sgd(%lr: f32, %dy: tensor<3x0xf32>, %t: tensor<4x0xf32>, %i: tensor<5xi64>, %o: tensor<3xi64>) -> tensor<4x0xf32> {
  %t2 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%o) : (f32, tensor<3x0xf32>, tensor<4x0xf32>, tensor<5xi64>, tensor<3xi64>) -> tensor<4x0xf32>
  return %t2 : tensor<4x0xf32>
}

func.func @adagrad(%lr: f32, %eps: f32, %s: tensor<4xf32>, %dy: tensor<3x0xf32>, %t: tensor<4x0xf32>, %i: tensor<5xi64>, %o: tensor<3xi64>) -> (tensor<4x0xf32>, tensor<4xf32>) {
  %t3, %s3 = embbag.offsets_update sum rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%o) : (f32, f32, tensor<4xf32>, tensor<3x0xf32>, tensor<4x0xf32>, tensor<5xi64>, tensor<3xi64>) -> (tensor<4x0xf32>, tensor<4xf32>)
  return %t3, %s3 : tensor<4x0xf32>, tensor<4xf32>
}

func.func @sparse(%dy: tensor<3x0xf32>, %t: tensor<4x0xf32>, %i: tensor<5xi64>, %o: tensor<3xi64>) -> (tensor<?xi64>, tensor<?x0xf32>) {
  %rows, %drows = embbag.offsets_grad sum %dy, %t[%i] offsets(%o) sparse : (tensor<3x0xf32>, tensor<4x0xf32>, tensor<5xi64>, tensor<3xi64>) -> (tensor<?xi64>, tensor<?x0xf32>)
  return %rows, %drows : tensor<?xi64>, tensor<?x0xf32>
}

func.func @main() {
  %t = tensor.empty() : tensor<4x0xf32>
  %t2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %i = arith.constant dense<[3, 1, 1, 0, 3]> : tensor<5xi64>
  %o = arith.constant dense<[0, 2, 2]> : tensor<3xi64>
  // CHECK: rank = 2 offset = 0 sizes = [3, 0]
  // CHECK: rank = 2 offset = 0 sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5,   6],
  // CHECK-NEXT: [0,   0],
  // CHECK-NEXT: [3.66667,   4.66667]]
  %r, %r2 = call @forward(%t, %t2, %i, %o) : (tensor<4x0xf32>, tensor<4x2xf32>, tensor<5xi64>, tensor<3xi64>) -> (tensor<3x0xf32>, tensor<3x2xf32>)
  %u = tensor.cast %r : tensor<3x0xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()

  // CHECK: rank = 3 offset = 0 sizes = [2, 2, 0]
  %t3d = tensor.empty() : tensor<4x2x0xf32>
  %i2 = arith.constant dense<[[0, 1, 2], [3, 3, 0]]> : tensor<2x3xi32>
  %p = call @packed(%t3d, %i2) : (tensor<4x2x0xf32>, tensor<2x3xi32>) -> tensor<2x2x0xf32>
  %up = tensor.cast %p : tensor<2x2x0xf32> to tensor<*xf32>
  call @printMemrefF32(%up) : (tensor<*xf32>) -> ()

  // CHECK: rank = 3 offset = 0 sizes = [3, 2, 0]
  %td = tensor.cast %t3d : tensor<4x2x0xf32> to tensor<?x?x0xf32>
  %id = tensor.cast %i : tensor<5xi64> to tensor<?xi64>
  %od = tensor.cast %o : tensor<3xi64> to tensor<?xi64>
  %d = call @dynamic(%td, %id, %od) : (tensor<?x?x0xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?x0xf32>
  %ud3 = tensor.cast %d : tensor<?x?x0xf32> to tensor<*xf32>
  call @printMemrefF32(%ud3) : (tensor<*xf32>) -> ()

  // CHECK: rank = 2 offset = 0 sizes = [4, 0]
  %lr = arith.constant 0.5 : f32
  %dy = tensor.empty() : tensor<3x0xf32>
  %ts = call @sgd(%lr, %dy, %t, %i, %o) : (f32, tensor<3x0xf32>, tensor<4x0xf32>, tensor<5xi64>, tensor<3xi64>) -> tensor<4x0xf32>
  %uts = tensor.cast %ts : tensor<4x0xf32> to tensor<*xf32>
  call @printMemrefF32(%uts) : (tensor<*xf32>) -> ()

  // CHECK: rank = 1 offset = 0 sizes = [4] strides = [1] data =
  // CHECK-NEXT: [nan,  nan,  3,  nan]
  %eps = arith.constant 1.0e-8 : f32
  %s = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %t3, %s3 = call @adagrad(%lr, %eps, %s, %dy, %t, %i, %o) : (f32, f32, tensor<4xf32>, tensor<3x0xf32>, tensor<4x0xf32>, tensor<5xi64>, tensor<3xi64>) -> (tensor<4x0xf32>, tensor<4xf32>)
  %us = tensor.cast %s3 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%us) : (tensor<*xf32>) -> ()

  // CHECK: rank = 1 offset = 0 sizes = [3] strides = [1] data =
  // CHECK-NEXT: [0,  1,  3]
  // CHECK: rank = 2 offset = 0 sizes = [3, 0]
  %rows, %drows = call @sparse(%dy, %t, %i, %o) : (tensor<3x0xf32>, tensor<4x0xf32>, tensor<5xi64>, tensor<3xi64>) -> (tensor<?xi64>, tensor<?x0xf32>)
  %ur = tensor.cast %rows : tensor<?xi64> to tensor<*xi64>
  call @printMemrefI64(%ur) : (tensor<*xi64>) -> ()
  %ud = tensor.cast %drows : tensor<?x0xf32> to tensor<*xf32>
  call @printMemrefF32(%ud) : (tensor<*xf32>) -> ()
  return
}
