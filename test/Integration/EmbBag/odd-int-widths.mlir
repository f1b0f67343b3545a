// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s

// Integer tables of widths that are not a power of two >= 8 (i4, i6, i12,
// i24, ui6): sums wrap in T, means divide the wrapped sum by the true count.
// Regression: the loops path read such rows as LLVM vectors, which are
// bit-packed in memory while memref elements take whole bytes, and computed
// wrong sums. Expected values come from the semantics in
// docs/EmbBag/EmbBagOps.md (wrapping arithmetic, truncating division).

func.func private @printMemrefI64(tensor<*xi64>) attributes { llvm.emit_c_interface }
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @print_i4(%r: tensor<?x3xi4>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x3xi4>
  %init = tensor.empty(%d0) : tensor<?x3xi64>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x3xi4>) outs(%init : tensor<?x3xi64>) {
  ^bb0(%x: i4, %o: i64):
    %y = arith.extsi %x : i4 to i64
    linalg.yield %y : i64
  } -> tensor<?x3xi64>
  %u = tensor.cast %e : tensor<?x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @print_i6(%r: tensor<?x3xi6>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x3xi6>
  %init = tensor.empty(%d0) : tensor<?x3xi64>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x3xi6>) outs(%init : tensor<?x3xi64>) {
  ^bb0(%x: i6, %o: i64):
    %y = arith.extsi %x : i6 to i64
    linalg.yield %y : i64
  } -> tensor<?x3xi64>
  %u = tensor.cast %e : tensor<?x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @print_i12(%r: tensor<?x3xi12>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x3xi12>
  %init = tensor.empty(%d0) : tensor<?x3xi64>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x3xi12>) outs(%init : tensor<?x3xi64>) {
  ^bb0(%x: i12, %o: i64):
    %y = arith.extsi %x : i12 to i64
    linalg.yield %y : i64
  } -> tensor<?x3xi64>
  %u = tensor.cast %e : tensor<?x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @print_i24(%r: tensor<?x3xi24>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x3xi24>
  %init = tensor.empty(%d0) : tensor<?x3xi64>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x3xi24>) outs(%init : tensor<?x3xi64>) {
  ^bb0(%x: i24, %o: i64):
    %y = arith.extsi %x : i24 to i64
    linalg.yield %y : i64
  } -> tensor<?x3xi64>
  %u = tensor.cast %e : tensor<?x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @print_ui6(%r: tensor<?x3xui6>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x3xui6>
  %init = tensor.empty(%d0) : tensor<?x3xi64>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x3xui6>) outs(%init : tensor<?x3xi64>) {
  ^bb0(%x: ui6, %o: i64):
    %s = builtin.unrealized_conversion_cast %x : ui6 to i6
    %y = arith.extui %s : i6 to i64
    linalg.yield %y : i64
  } -> tensor<?x3xi64>
  %u = tensor.cast %e : tensor<?x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @main() {
  %pidx = arith.constant dense<[[0, 1], [2, 3], [3, 3]]> : tensor<3x2xi32>
  %oidx = arith.constant dense<[0, 1, 2, 3, 1]> : tensor<5xi32>
  %offs = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  %sidx = arith.constant dense<[0, 1, 2, 3, 0]> : tensor<5xi32>
  %seg = arith.constant dense<[0, 0, 1, 1, 1]> : tensor<5xi32>
  %two = arith.constant 2 : i32
  // i4
  %t_i4 = arith.constant dense<[[0, 3, -8], [6, -1, -7], [-3, -5, 3], [7, -1, 4]]> : tensor<4x3xi4>
  %p_i4 = embbag.packed sum %t_i4[%pidx] : (tensor<4x3xi4>, tensor<3x2xi32>) -> tensor<3x3xi4>
  %pc_i4 = tensor.cast %p_i4 : tensor<3x3xi4> to tensor<?x3xi4>
  call @print_i4(%pc_i4) : (tensor<?x3xi4>) -> ()
  %w_i4 = arith.constant dense<[-5, -1, -8, -2, 5]> : tensor<5xi4>
  %o_i4 = embbag.offsets sum %t_i4[%oidx] offsets(%offs) weights(%w_i4) : (tensor<4x3xi4>, tensor<5xi32>, tensor<3xi32>, tensor<5xi4>) -> tensor<3x3xi4>
  %oc_i4 = tensor.cast %o_i4 : tensor<3x3xi4> to tensor<?x3xi4>
  call @print_i4(%oc_i4) : (tensor<?x3xi4>) -> ()
  %s_i4 = embbag.segments mean %t_i4[%sidx] segment_ids(%seg) num_segments(%two) : (tensor<4x3xi4>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x3xi4>
  call @print_i4(%s_i4) : (tensor<?x3xi4>) -> ()
  // i6
  %t_i6 = arith.constant dense<[[3, -9, 17], [-12, -23, -15], [24, -16, -16], [-32, -32, -6]]> : tensor<4x3xi6>
  %p_i6 = embbag.packed sum %t_i6[%pidx] : (tensor<4x3xi6>, tensor<3x2xi32>) -> tensor<3x3xi6>
  %pc_i6 = tensor.cast %p_i6 : tensor<3x3xi6> to tensor<?x3xi6>
  call @print_i6(%pc_i6) : (tensor<?x3xi6>) -> ()
  %w_i6 = arith.constant dense<[-5, -11, -11, 5, 8]> : tensor<5xi6>
  %o_i6 = embbag.offsets sum %t_i6[%oidx] offsets(%offs) weights(%w_i6) : (tensor<4x3xi6>, tensor<5xi32>, tensor<3xi32>, tensor<5xi6>) -> tensor<3x3xi6>
  %oc_i6 = tensor.cast %o_i6 : tensor<3x3xi6> to tensor<?x3xi6>
  call @print_i6(%oc_i6) : (tensor<?x3xi6>) -> ()
  %s_i6 = embbag.segments mean %t_i6[%sidx] segment_ids(%seg) num_segments(%two) : (tensor<4x3xi6>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x3xi6>
  call @print_i6(%s_i6) : (tensor<?x3xi6>) -> ()
  // i12
  %t_i12 = arith.constant dense<[[-419, -371, -560], [-436, 1091, 399], [-1872, 910, 1350], [-689, -855, 113]]> : tensor<4x3xi12>
  %p_i12 = embbag.packed sum %t_i12[%pidx] : (tensor<4x3xi12>, tensor<3x2xi32>) -> tensor<3x3xi12>
  %pc_i12 = tensor.cast %p_i12 : tensor<3x3xi12> to tensor<?x3xi12>
  call @print_i12(%pc_i12) : (tensor<?x3xi12>) -> ()
  %w_i12 = arith.constant dense<[-1515, 670, 420, -2021, 720]> : tensor<5xi12>
  %o_i12 = embbag.offsets sum %t_i12[%oidx] offsets(%offs) weights(%w_i12) : (tensor<4x3xi12>, tensor<5xi32>, tensor<3xi32>, tensor<5xi12>) -> tensor<3x3xi12>
  %oc_i12 = tensor.cast %o_i12 : tensor<3x3xi12> to tensor<?x3xi12>
  call @print_i12(%oc_i12) : (tensor<?x3xi12>) -> ()
  %s_i12 = embbag.segments mean %t_i12[%sidx] segment_ids(%seg) num_segments(%two) : (tensor<4x3xi12>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x3xi12>
  call @print_i12(%s_i12) : (tensor<?x3xi12>) -> ()
  // i24
  %t_i24 = arith.constant dense<[[-6173263, 2011854, 3535004], [1881204, 7742523, 2207650], [-2188647, 7758401, 7467147], [-2478999, -6475975, 207427]]> : tensor<4x3xi24>
  %p_i24 = embbag.packed sum %t_i24[%pidx] : (tensor<4x3xi24>, tensor<3x2xi32>) -> tensor<3x3xi24>
  %pc_i24 = tensor.cast %p_i24 : tensor<3x3xi24> to tensor<?x3xi24>
  call @print_i24(%pc_i24) : (tensor<?x3xi24>) -> ()
  %w_i24 = arith.constant dense<[-7621368, 3611935, 5177250, -7782363, 5664902]> : tensor<5xi24>
  %o_i24 = embbag.offsets sum %t_i24[%oidx] offsets(%offs) weights(%w_i24) : (tensor<4x3xi24>, tensor<5xi32>, tensor<3xi32>, tensor<5xi24>) -> tensor<3x3xi24>
  %oc_i24 = tensor.cast %o_i24 : tensor<3x3xi24> to tensor<?x3xi24>
  call @print_i24(%oc_i24) : (tensor<?x3xi24>) -> ()
  %s_i24 = embbag.segments mean %t_i24[%sidx] segment_ids(%seg) num_segments(%two) : (tensor<4x3xi24>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x3xi24>
  call @print_i24(%s_i24) : (tensor<?x3xi24>) -> ()
  // ui6
  %t_ui6 = arith.constant dense<[[46, 48, 1], [57, 5, 23], [25, 15, 31], [59, 44, 45]]> : tensor<4x3xui6>
  %p_ui6 = embbag.packed sum %t_ui6[%pidx] : (tensor<4x3xui6>, tensor<3x2xi32>) -> tensor<3x3xui6>
  %pc_ui6 = tensor.cast %p_ui6 : tensor<3x3xui6> to tensor<?x3xui6>
  call @print_ui6(%pc_ui6) : (tensor<?x3xui6>) -> ()
  %w_ui6 = arith.constant dense<[32, 59, 13, 47, 37]> : tensor<5xui6>
  %o_ui6 = embbag.offsets sum %t_ui6[%oidx] offsets(%offs) weights(%w_ui6) : (tensor<4x3xui6>, tensor<5xi32>, tensor<3xi32>, tensor<5xui6>) -> tensor<3x3xui6>
  %oc_ui6 = tensor.cast %o_ui6 : tensor<3x3xui6> to tensor<?x3xui6>
  call @print_ui6(%oc_ui6) : (tensor<?x3xui6>) -> ()
  %s_ui6 = embbag.segments mean %t_ui6[%sidx] segment_ids(%seg) num_segments(%two) : (tensor<4x3xui6>, tensor<5xi32>, tensor<5xi32>, i32) -> tensor<?x3xui6>
  call @print_ui6(%s_ui6) : (tensor<?x3xui6>) -> ()
  return
}

// CHECK: Unranked Memref
// CHECK-NEXT: [6,  2,  1]
// CHECK-NEXT: [4,  -6,  7]
// CHECK-NEXT: [-2,  -2,  -8]
// CHECK: Unranked Memref
// CHECK-NEXT: [-6,  2,  -1]
// CHECK-NEXT: [0,  0,  0]
// CHECK-NEXT: [-8,  5,  -3]
// CHECK: Unranked Memref
// CHECK-NEXT: [3,  1,  0]
// CHECK-NEXT: [1,  -1,  0]
// CHECK: Unranked Memref
// CHECK-NEXT: [-9,  -32,  2]
// CHECK-NEXT: [-8,  16,  -22]
// CHECK-NEXT: [0,  0,  -12]
// CHECK: Unranked Memref
// CHECK-NEXT: [-11,  -22,  16]
// CHECK-NEXT: [0,  0,  0]
// CHECK-NEXT: [-8,  24,  26]
// CHECK: Unranked Memref
// CHECK-NEXT: [-4,  -16,  1]
// CHECK-NEXT: [-1,  2,  -1]
// CHECK: Unranked Memref
// CHECK-NEXT: [-855,  720,  -161]
// CHECK-NEXT: [1535,  55,  1463]
// CHECK-NEXT: [-1378,  -1710,  226]
// CHECK: Unranked Memref
// CHECK-NEXT: [-1399,  -1301,  1618]
// CHECK-NEXT: [0,  0,  0]
// CHECK-NEXT: [1493,  -197,  -781]
// CHECK: Unranked Memref
// CHECK-NEXT: [-427,  360,  -80]
// CHECK-NEXT: [372,  -105,  301]
// CHECK: Unranked Memref
// CHECK-NEXT: [-4292059,  -7022839,  5742654]
// CHECK-NEXT: [-4667646,  1282426,  7674574]
// CHECK-NEXT: [-4957998,  3825266,  414854]
// CHECK: Unranked Memref
// CHECK-NEXT: [7245972,  5328533,  4812670]
// CHECK-NEXT: [0,  0,  0]
// CHECK-NEXT: [4135863,  2147905,  -2861199]
// CHECK: Unranked Memref
// CHECK-NEXT: [-2146029,  -3511419,  2871327]
// CHECK-NEXT: [1978769,  1098093,  -1855879]
// CHECK: Unranked Memref
// CHECK-NEXT: [39,  53,  24]
// CHECK-NEXT: [20,  59,  12]
// CHECK-NEXT: [54,  24,  26]
// CHECK: Unranked Memref
// CHECK-NEXT: [35,  39,  45]
// CHECK-NEXT: [0,  0,  0]
// CHECK-NEXT: [23,  16,  41]
// CHECK: Unranked Memref
// CHECK-NEXT: [19,  26,  12]
// CHECK-NEXT: [0,  14,  4]
