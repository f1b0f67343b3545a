// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --inline --canonicalize --cse --sccp --loop-invariant-code-motion \
// RUN:   | embbag-opt --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --inline --canonicalize --cse \
// RUN:   | embbag-opt --embbag-to-llvm="path=linalg parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s

// A DLRM-like forward pass: a bottom MLP (linalg.matmul, bias, relu) on the
// dense features, three embedding bags (packed, offsets, segments), the
// dot interaction of the dense vector with each pooled vector, concats and
// a top linalg.matmul. Batch 2, vectors of 2. Expected values by hand:
//
//   X = [[1, 2, 0], [3, 0, 0]], W1 = [[1, 0], [0, 1], [1, 1]], b1 = [0.5, -1]
//   D = relu(X W1 + b1) = relu([[1.5, 1], [3.5, -1]]) = [[1.5, 1], [3.5, 0]]
//   E = [e0..e5] = [[1, 0], [0, 1], [1, 1], [2, 0], [0, 2], [0.5, 0.5]]
//   packed sum [[0, 1], [2, 3]]           A = [[1, 1], [3, 1]]
//   offsets mean [4, 5, 1], offsets [0, 2] B = [[0.25, 1.25], [0, 1]]
//   segments sum ids [0, 3, 2], segs [1, 0, 1], weights [2, 1, 0.5]
//                                         C = [[2, 0], [2.5, 0.5]]
//   interaction I[b] = [D.A, D.B, D.C]    = [[2.5, 1.625, 3], [10.5, 0, 8.75]]
//   top: [D | I] W2, W2 = [1, 2, 1, -1, 0.5]^T = [[5.875], [18.375]]

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @bottom_mlp(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>,
                      %b: tensor<2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x2xf32>)
                      outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  %d = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<2x2xf32>, tensor<2xf32>) outs(%empty : tensor<2x2xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x2xf32>
  return %d : tensor<2x2xf32>
}

func.func @embeddings(%e: tensor<6x2xf32>, %p: tensor<2x2xi32>,
                      %q: tensor<3xi32>, %qo: tensor<2xi32>,
                      %s: tensor<3xi32>, %sid: tensor<3xi32>, %sw: tensor<3xf32>)
    -> tensor<2x6xf32> {
  %n = arith.constant 2 : i32
  %a = embbag.packed sum %e[%p] : (tensor<6x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %bm = embbag.offsets mean %e[%q] offsets(%qo)
      : (tensor<6x2xf32>, tensor<3xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  %c = embbag.segments sum %e[%s] segment_ids(%sid) num_segments(%n) weights(%sw)
      : (tensor<6x2xf32>, tensor<3xi32>, tensor<3xi32>, i32, tensor<3xf32>) -> tensor<?x2xf32>
  %cs = tensor.cast %c : tensor<?x2xf32> to tensor<2x2xf32>
  %cat = tensor.concat dim(1) %a, %bm, %cs
      : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x6xf32>
  return %cat : tensor<2x6xf32>
}

// I[b, f] = sum_k D[b, k] * emb[b, f, k]
func.func @interaction(%d: tensor<2x2xf32>, %emb: tensor<2x6xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.expand_shape %emb [[0], [1, 2]] output_shape [2, 3, 2]
      : tensor<2x6xf32> into tensor<2x3x2xf32>
  %empty = tensor.empty() : tensor<2x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x3xf32>) -> tensor<2x3xf32>
  %i = linalg.generic {
      indexing_maps = [affine_map<(b, f, k) -> (b, k)>,
                       affine_map<(b, f, k) -> (b, f, k)>,
                       affine_map<(b, f, k) -> (b, f)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%d, %e3 : tensor<2x2xf32>, tensor<2x3x2xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %i : tensor<2x3xf32>
}

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %x = arith.constant dense<[[1.0, 2.0, 0.0], [3.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %w1 = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %b1 = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %e = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0],
                             [0.0, 2.0], [0.5, 0.5]]> : tensor<6x2xf32>
  %p = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %q = arith.constant dense<[4, 5, 1]> : tensor<3xi32>
  %qo = arith.constant dense<[0, 2]> : tensor<2xi32>
  %s = arith.constant dense<[0, 3, 2]> : tensor<3xi32>
  %sid = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  %sw = arith.constant dense<[2.0, 1.0, 0.5]> : tensor<3xf32>
  %w2 = arith.constant dense<[[1.0], [2.0], [1.0], [-1.0], [0.5]]> : tensor<5x1xf32>

  %d = call @bottom_mlp(%x, %w1, %b1)
      : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %emb = call @embeddings(%e, %p, %q, %qo, %s, %sid, %sw)
      : (tensor<6x2xf32>, tensor<2x2xi32>, tensor<3xi32>, tensor<2xi32>,
         tensor<3xi32>, tensor<3xi32>, tensor<3xf32>) -> tensor<2x6xf32>
  %z = tensor.concat dim(1) %d, %emb
      : (tensor<2x2xf32>, tensor<2x6xf32>) -> tensor<2x8xf32>
  %i = call @interaction(%d, %emb)
      : (tensor<2x2xf32>, tensor<2x6xf32>) -> tensor<2x3xf32>
  %top_in = tensor.concat dim(1) %d, %i
      : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  %empty = tensor.empty() : tensor<2x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x1xf32>) -> tensor<2x1xf32>
  %out = linalg.matmul ins(%top_in, %w2 : tensor<2x5xf32>, tensor<5x1xf32>)
                       outs(%init : tensor<2x1xf32>) -> tensor<2x1xf32>

  // Z = [D | A | B | C]
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1.5,   1,   1,   1,   0.25,   1.25,   2,   0],
  // CHECK-NEXT:  [3.5,   0,   3,   1,   0,   1,   2.5,   0.5]]
  %zp = tensor.cast %z : tensor<2x8xf32> to tensor<?x?xf32>
  call @print(%zp) : (tensor<?x?xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[2.5,   1.625,   3],
  // CHECK-NEXT:  [10.5,   0,   8.75]]
  %ip = tensor.cast %i : tensor<2x3xf32> to tensor<?x?xf32>
  call @print(%ip) : (tensor<?x?xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[5.875],
  // CHECK-NEXT:  [18.375]]
  %op = tensor.cast %out : tensor<2x1xf32> to tensor<?x?xf32>
  call @print(%op) : (tensor<?x?xf32>) -> ()
  return
}
