// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

// embbag.offsets at the ends of the index list (docs/EmbBag/EmbBagOps.md), with the
// runtime checks on (the default):
//  - offsets[0] > 0: the indices before it belong to no bag, are not read
//    and not checked (here they are out of range: 7 and -3);
//  - offsets[b] == num_indices: allowed, a trailing empty bag. This is where
//    embbag departs from OpenVINO's reference implementation, which throws
//    "Offset value exceeds indices size" for offsets[b] >= num_indices
//    (openvinotoolkit/openvino,
//    src/core/reference/include/openvino/reference/embedding_bag_offsets.hpp)
//    although the spec only says offsets cannot exceed the number of indices;
//  - num_indices == 0 with batch > 0: every bag is empty.
// Each case runs once on constants in @main and once through a kernel taking
// the operands as (dynamic) arguments, so that the runtime checks see them.
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [1000, 2000].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @sum(%t: tensor<4x2xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x2xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @sum_default(%t: tensor<4x2xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %d: i32) -> tensor<?x2xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @mean_default(%t: tensor<4x2xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %d: i32) -> tensor<?x2xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @sum_default_weights(%t: tensor<4x2xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %d: i32, %w: tensor<?xf32>) -> tensor<?x2xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) default(%d) weights(%w) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0]]> : tensor<4x2xf32>
  %d1 = arith.constant 1 : i32
  %d2 = arith.constant 2 : i32
  %d3 = arith.constant 3 : i32

  //===--------------------------------------------------------------------===//
  // offsets[0] > 0: indices [7, -3, 0, 1, 2], offsets [2, 4]: bag 0 = {0, 1},
  // bag 1 = {2}; indices[0] = 7 and indices[1] = -3 are never read.
  //===--------------------------------------------------------------------===//
  %ia = arith.constant dense<[7, -3, 0, 1, 2]> : tensor<5xi32>
  %oa = arith.constant dense<[2, 4]> : tensor<2xi32>
  %iad = tensor.cast %ia : tensor<5xi32> to tensor<?xi32>
  %oad = tensor.cast %oa : tensor<2xi32> to tensor<?xi32>

  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [100, 200]
  %a0 = embbag.offsets sum %t[%ia] offsets(%oa) : (tensor<4x2xf32>, tensor<5xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  %pa0 = tensor.cast %a0 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pa0) : (tensor<*xf32>) -> ()

  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [100, 200]
  %a1 = call @sum(%t, %iad, %oad) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x2xf32>
  %pa1 = tensor.cast %a1 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pa1) : (tensor<*xf32>) -> ()

  // mean: bag 0 = (r0 + r1) / 2.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [5.5, 11]
  // CHECK-NEXT: [100, 200]
  %a2 = call @mean_default(%t, %iad, %oad, %d3) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  %pa2 = tensor.cast %a2 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pa2) : (tensor<*xf32>) -> ()

  // weights [100, 100, 1, 2, 3]: the first two belong to no bag.
  // bag 0 = r0 + 2 r1 = [21, 42]; bag 1 = 3 r2 = [300, 600].
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [21, 42]
  // CHECK-NEXT: [300, 600]
  %wa = arith.constant dense<[100.0, 100.0, 1.0, 2.0, 3.0]> : tensor<5xf32>
  %wad = tensor.cast %wa : tensor<5xf32> to tensor<?xf32>
  %a3 = call @sum_default_weights(%t, %iad, %oad, %d3, %wad) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>) -> tensor<?x2xf32>
  %pa3 = tensor.cast %a3 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pa3) : (tensor<*xf32>) -> ()

  //===--------------------------------------------------------------------===//
  // offsets[b] == num_indices: indices [0, 1, 2, 3], offsets [0, 2, 4]:
  // bag 0 = {0, 1}, bag 1 = {2, 3}, bag 2 = {} (trailing).
  //===--------------------------------------------------------------------===//
  %ib = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %ob = arith.constant dense<[0, 2, 4]> : tensor<3xi32>
  %ibd = tensor.cast %ib : tensor<4xi32> to tensor<?xi32>
  %obd = tensor.cast %ob : tensor<3xi32> to tensor<?xi32>

  // default 3.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [1100, 2200]
  // CHECK-NEXT: [1000, 2000]
  %b0 = embbag.offsets sum %t[%ib] offsets(%ob) default(%d3) : (tensor<4x2xf32>, tensor<4xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %pb0 = tensor.cast %b0 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pb0) : (tensor<*xf32>) -> ()

  // no default.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [1100, 2200]
  // CHECK-NEXT: [0, 0]
  %b1 = call @sum(%t, %ibd, %obd) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x2xf32>
  %pb1 = tensor.cast %b1 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pb1) : (tensor<*xf32>) -> ()

  // offsets [0, 4, 4, 4], mean, default 1: bag 0 = (r0 + r1 + r2 + r3) / 4
  // = [277.75, 555.5]; bags 1 and 2 are trailing empty bags.
  // CHECK: sizes = [4, 2] strides = [2, 1] data =
  // CHECK-NEXT: [277.75, 555.5]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [10, 20]
  %oc = arith.constant dense<[0, 4, 4, 4]> : tensor<4xi32>
  %ocd = tensor.cast %oc : tensor<4xi32> to tensor<?xi32>
  %b2 = call @mean_default(%t, %ibd, %ocd, %d1) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  %pb2 = tensor.cast %b2 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pb2) : (tensor<*xf32>) -> ()

  //===--------------------------------------------------------------------===//
  // num_indices == 0, offsets [0, 0, 0]: three empty bags.
  //===--------------------------------------------------------------------===//
  %ie = arith.constant dense<> : tensor<0xi32>
  %oe = arith.constant dense<[0, 0, 0]> : tensor<3xi32>
  %ied = tensor.cast %ie : tensor<0xi32> to tensor<?xi32>
  %oed = tensor.cast %oe : tensor<3xi32> to tensor<?xi32>

  // default 1.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [10, 20]
  // CHECK-NEXT: [10, 20]
  %e0 = embbag.offsets sum %t[%ie] offsets(%oe) default(%d1) : (tensor<4x2xf32>, tensor<0xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %pe0 = tensor.cast %e0 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pe0) : (tensor<*xf32>) -> ()

  // mean, default 2 (undivided).
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [100, 200]
  %e1 = call @mean_default(%t, %ied, %oed, %d2) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x2xf32>
  %pe1 = tensor.cast %e1 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pe1) : (tensor<*xf32>) -> ()

  // no default: zeros.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 0]
  %e2 = call @sum(%t, %ied, %oed) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x2xf32>
  %pe2 = tensor.cast %e2 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pe2) : (tensor<*xf32>) -> ()

  // weights tensor<0xf32>, default 3: the default row, unweighted.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1000, 2000]
  // CHECK-NEXT: [1000, 2000]
  // CHECK-NEXT: [1000, 2000]
  %we = arith.constant dense<> : tensor<0xf32>
  %wed = tensor.cast %we : tensor<0xf32> to tensor<?xf32>
  %e3 = call @sum_default_weights(%t, %ied, %oed, %d3, %wed) : (tensor<4x2xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>) -> tensor<?x2xf32>
  %pe3 = tensor.cast %e3 : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pe3) : (tensor<*xf32>) -> ()
  return
}
