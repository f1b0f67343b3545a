// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | %mlir_runner | FileCheck %s

// The `sqrtn` reduction (TensorFlow's combiner="sqrtn",
// docs/EmbBag/EmbBagOps.md): sum / sqrt(count); weighted
// sum(w * x) / sqrt(sum(w * w)); an empty bag takes the default row
// undivided, else zeros.
//
// Table rows: r0 = [1, 2], r1 = [3, 4], r2 = [4, 0], r3 = [0, 9].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF64(tensor<*xf64>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [4.0, 0.0], [0.0, 9.0]]> : tensor<4x2xf32>

  // packed: {0, 1, 2, 3} sums to [8, 15], divided by sqrt(4); an empty
  // packed bag list is zeros.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [4, 7.5]
  %pi = arith.constant dense<[[0, 1, 2, 3]]> : tensor<1x4xi32>
  %r0 = embbag.packed sqrtn %t[%pi] : (tensor<4x2xf32>, tensor<1x4xi32>) -> tensor<1x2xf32>
  %c0 = tensor.cast %r0 : tensor<1x2xf32> to tensor<?x?xf32>
  call @print(%c0) : (tensor<?x?xf32>) -> ()

  // Weighted: 3 * r0 + 4 * r1 = [15, 22], divided by sqrt(9 + 16) = 5;
  // weights -3, 4 give [9, 10] and the same norm.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, 4.4]
  // CHECK-NEXT: [1.8, 2]
  %wi = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi32>
  %w = arith.constant dense<[[3.0, 4.0], [-3.0, 4.0]]> : tensor<2x2xf32>
  %r1 = embbag.packed sqrtn %t[%wi] weights(%w) : (tensor<4x2xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %c1 = tensor.cast %r1 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%c1) : (tensor<?x?xf32>) -> ()

  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  %pe = arith.constant dense<> : tensor<2x0xi32>
  %r2 = embbag.packed sqrtn %t[%pe] : (tensor<4x2xf32>, tensor<2x0xi32>) -> tensor<2x2xf32>
  %c2 = tensor.cast %r2 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%c2) : (tensor<?x?xf32>) -> ()

  // offsets [0, 0, 4] over [0, 1, 2, 3, 2]: bags {}, {0, 1, 2, 3}, {2}.
  // Without a default the empty bag is zeros; default 1 gives r1
  // undivided.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [4, 7.5]
  // CHECK-NEXT: [4, 0]
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, 4]
  // CHECK-NEXT: [4, 7.5]
  // CHECK-NEXT: [4, 0]
  %oi = arith.constant dense<[0, 1, 2, 3, 2]> : tensor<5xi64>
  %oo = arith.constant dense<[0, 0, 4]> : tensor<3xi64>
  %r3 = embbag.offsets sqrtn %t[%oi] offsets(%oo) : (tensor<4x2xf32>, tensor<5xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  %c3 = tensor.cast %r3 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c3) : (tensor<?x?xf32>) -> ()
  %r4 = embbag.offsets sqrtn %t[%oi] offsets(%oo) default(1) : (tensor<4x2xf32>, tensor<5xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  %c4 = tensor.cast %r4 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c4) : (tensor<?x?xf32>) -> ()

  // Weighted offsets on dynamic shapes: bag {0, 1} with weights 3, 4 and
  // bag {3} with weight -2 (norm 2).
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, 4.4]
  // CHECK-NEXT: [0, -9]
  %td = tensor.cast %t : tensor<4x2xf32> to tensor<?x?xf32>
  %di = arith.constant dense<[0, 1, 3]> : tensor<3xi32>
  %do = arith.constant dense<[0, 2]> : tensor<2xi32>
  %dw = arith.constant dense<[3.0, 4.0, -2.0]> : tensor<3xf32>
  %dic = tensor.cast %di : tensor<3xi32> to tensor<?xi32>
  %doc = tensor.cast %do : tensor<2xi32> to tensor<?xi32>
  %dwc = tensor.cast %dw : tensor<3xf32> to tensor<?xf32>
  %r5 = embbag.offsets sqrtn %td[%dic] offsets(%doc) weights(%dwc) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xf32>) -> tensor<?x?xf32>
  call @print(%r5) : (tensor<?x?xf32>) -> ()

  // segments, unsorted ids [1, 1, 0, 1, 1] of [0, 1, 2, 3, 3]: segment 0 =
  // {2}, segment 1 = {0, 1, 3, 3} (sum [4, 24], 4 rows), segment 2 empty.
  // In f64.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [4, 0]
  // CHECK-NEXT: [2, 12]
  // CHECK-NEXT: [0, 0]
  %t64 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [4.0, 0.0], [0.0, 9.0]]> : tensor<4x2xf64>
  %si = arith.constant dense<[0, 1, 2, 3, 3]> : tensor<5xi32>
  %ss = arith.constant dense<[1, 1, 0, 1, 1]> : tensor<5xi32>
  %r6 = embbag.segments sqrtn %t64[%si] segment_ids(%ss) num_segments(3) : (tensor<4x2xf64>, tensor<5xi32>, tensor<5xi32>) -> tensor<3x2xf64>
  %c6 = tensor.cast %r6 : tensor<3x2xf64> to tensor<*xf64>
  call @printMemrefF64(%c6) : (tensor<*xf64>) -> ()
  return
}
