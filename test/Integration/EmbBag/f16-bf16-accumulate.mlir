// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// f16 and bf16 accumulate in f32 and round once when storing
// (docs/EmbBag/EmbBagOps.md). The values are chosen so that accumulating in the storage
// type would give another result:
//   f16:  2048 + 1 + 1: in f32 2050 (an f16 value); in f16 2048 + 1 rounds
//         (ties to even) back to 2048, twice: 2048.
//         mean 2050 / 3 = 683.33.. -> f16 683.5 (in f16: 2048 / 3 -> 682.5).
//   bf16: 256 + 1 + 1: in f32 258 (a bf16 value); in bf16 256.
//         mean 258 / 3 = 86 (in bf16: 256 / 3 -> 85.5).
// Results are printed after an exact extf to f32.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print_f16(%r: tensor<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xf16>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x?xf16>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  %u = tensor.cast %e : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print_bf16(%r: tensor<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xbf16>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xbf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x?xbf16>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %y = arith.extf %x : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  %u = tensor.cast %e : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  //===--------------------------------------------------------------------===//
  // f16, rows r0 = [2048, -2048], r1 = [1, -1], r2 = [0.5, 3].
  //===--------------------------------------------------------------------===//
  %h = arith.constant dense<[[2048.0, -2048.0], [1.0, -1.0], [0.5, 3.0]]> : tensor<3x2xf16>

  // packed sum, bag {0, 1, 1}.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [2050, -2050]
  %ih = arith.constant dense<[[0, 1, 1]]> : tensor<1x3xi64>
  %r0 = embbag.packed sum %h[%ih] : (tensor<3x2xf16>, tensor<1x3xi64>) -> tensor<1x2xf16>
  %p0 = tensor.cast %r0 : tensor<1x2xf16> to tensor<?x?xf16>
  call @print_f16(%p0) : (tensor<?x?xf16>) -> ()

  // packed mean, bag {0, 1, 1}.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [683.5, -683.5]
  %r1 = embbag.packed mean %h[%ih] : (tensor<3x2xf16>, tensor<1x3xi64>) -> tensor<1x2xf16>
  %p1 = tensor.cast %r1 : tensor<1x2xf16> to tensor<?x?xf16>
  call @print_f16(%p1) : (tensor<?x?xf16>) -> ()

  // packed weighted sum, bag {0, 2, 2}, weights [1, 2, 2]:
  // [2048 + 1 + 1, -2048 + 6 + 6] = [2050, -2036]
  // (in f16: 2048 + 0.5 * 2 = 2049 rounds to 2048).
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [2050, -2036]
  %ihw = arith.constant dense<[[0, 2, 2]]> : tensor<1x3xi32>
  %wh = arith.constant dense<[[1.0, 2.0, 2.0]]> : tensor<1x3xf16>
  %r2 = embbag.packed sum %h[%ihw] weights(%wh) : (tensor<3x2xf16>, tensor<1x3xi32>, tensor<1x3xf16>) -> tensor<1x2xf16>
  %p2 = tensor.cast %r2 : tensor<1x2xf16> to tensor<?x?xf16>
  call @print_f16(%p2) : (tensor<?x?xf16>) -> ()

  // offsets mean, indices [0, 1, 1, 0], offsets [0, 3, 3], default 2:
  // bags {0, 1, 1}, {} (default row, undivided), {0}.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [683.5, -683.5]
  // CHECK-NEXT: [0.5, 3]
  // CHECK-NEXT: [2048, -2048]
  %io = arith.constant dense<[0, 1, 1, 0]> : tensor<4xi32>
  %oo = arith.constant dense<[0, 3, 3]> : tensor<3xi32>
  %d2 = arith.constant 2 : i32
  %r3 = embbag.offsets mean %h[%io] offsets(%oo) default(%d2) : (tensor<3x2xf16>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf16>
  %p3 = tensor.cast %r3 : tensor<3x2xf16> to tensor<?x?xf16>
  call @print_f16(%p3) : (tensor<?x?xf16>) -> ()

  // segments sum, indices [1, 0, 1] all in segment 0 of 2: 1 + 2048 + 1
  // (in f16: 2049 -> 2048, then 2049 -> 2048).
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [2050, -2050]
  // CHECK-NEXT: [0, 0]
  %is = arith.constant dense<[1, 0, 1]> : tensor<3xi64>
  %ss = arith.constant dense<[0, 0, 0]> : tensor<3xi64>
  %n2 = arith.constant 2 : i64
  %r4 = embbag.segments sum %h[%is] segment_ids(%ss) num_segments(%n2) : (tensor<3x2xf16>, tensor<3xi64>, tensor<3xi64>, i64) -> tensor<2x2xf16>
  %p4 = tensor.cast %r4 : tensor<2x2xf16> to tensor<?x?xf16>
  call @print_f16(%p4) : (tensor<?x?xf16>) -> ()

  //===--------------------------------------------------------------------===//
  // bf16, rows r0 = [256, -256], r1 = [1, -1], r2 = [0.5, 3].
  //===--------------------------------------------------------------------===//
  %b = arith.constant dense<[[256.0, -256.0], [1.0, -1.0], [0.5, 3.0]]> : tensor<3x2xbf16>

  // packed sum, bag {0, 1, 1}.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [258, -258]
  %ib = arith.constant dense<[[0, 1, 1]]> : tensor<1x3xi32>
  %r5 = embbag.packed sum %b[%ib] : (tensor<3x2xbf16>, tensor<1x3xi32>) -> tensor<1x2xbf16>
  %p5 = tensor.cast %r5 : tensor<1x2xbf16> to tensor<?x?xbf16>
  call @print_bf16(%p5) : (tensor<?x?xbf16>) -> ()

  // packed mean, bag {0, 1, 1}.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [86, -86]
  %r6 = embbag.packed mean %b[%ib] : (tensor<3x2xbf16>, tensor<1x3xi32>) -> tensor<1x2xbf16>
  %p6 = tensor.cast %r6 : tensor<1x2xbf16> to tensor<?x?xbf16>
  call @print_bf16(%p6) : (tensor<?x?xbf16>) -> ()

  // offsets weighted sum, one bag {0, 2, 2}, weights [1, 2, 2]:
  // [256 + 1 + 1, -256 + 6 + 6] = [258, -244].
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [258, -244]
  %iob = arith.constant dense<[0, 2, 2]> : tensor<3xi64>
  %oob = arith.constant dense<[0]> : tensor<1xi64>
  %wb = arith.constant dense<[1.0, 2.0, 2.0]> : tensor<3xbf16>
  %r7 = embbag.offsets sum %b[%iob] offsets(%oob) weights(%wb) : (tensor<3x2xbf16>, tensor<3xi64>, tensor<1xi64>, tensor<3xbf16>) -> tensor<1x2xbf16>
  %p7 = tensor.cast %r7 : tensor<1x2xbf16> to tensor<?x?xbf16>
  call @print_bf16(%p7) : (tensor<?x?xbf16>) -> ()

  // segments mean, indices [1, 0, 1] in segment 0 of 1.
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [86, -86]
  %isb = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  %ssb = arith.constant dense<[0, 0, 0]> : tensor<3xi32>
  %n1 = arith.constant 1 : i32
  %r8 = embbag.segments mean %b[%isb] segment_ids(%ssb) num_segments(%n1) : (tensor<3x2xbf16>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<1x2xbf16>
  %p8 = tensor.cast %r8 : tensor<1x2xbf16> to tensor<?x?xbf16>
  call @print_bf16(%p8) : (tensor<?x?xbf16>) -> ()
  return
}
