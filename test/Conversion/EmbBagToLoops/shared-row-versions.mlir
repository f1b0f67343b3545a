// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx512 checks=0 max-vectors=2 prefetch-distance=0" | FileCheck %s
// RUN: embbag-opt %s --pass-pipeline="builtin.module(func.func(convert-embbag-to-loops{target=avx512 checks=0 max-vectors=2 prefetch-distance=0}))" | FileCheck %s --check-prefix=NESTED

// On a module, the row-length versions of the ops of dynamic row length
// are functions of the module, built once per kind of kernel (element,
// index and weight types, reduction, kernel shape), whatever the op's form:
// each op computes its bags' bounds and calls its kind's dispatcher, which
// calls a version per block of the row.

// Two ops of one kind, an offsets and a packed op, call one dispatcher.
// CHECK-LABEL: func.func @offsets_sum(
// CHECK:         scf.for
// CHECK:           tensor.insert
// CHECK:           tensor.insert
// CHECK:         call @[[SUM:__embbag_rows_sum_f32__dispatch]](
// CHECK-NOT:     scf.index_switch
// CHECK:         return
func.func @offsets_sum(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x?xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @packed_sum(
// CHECK:         call @[[SUM]](
// CHECK-NOT:     scf.index_switch
// CHECK:         return
func.func @packed_sum(%t: tensor<100x?xf32>, %i: tensor<8x4xi32>) -> tensor<8x?xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<100x?xf32>, tensor<8x4xi32>) -> tensor<8x?xf32>
  return %r : tensor<8x?xf32>
}

// Another reduction is another kind: a second dispatcher.
// CHECK-LABEL: func.func @offsets_mean(
// CHECK:         call @[[MEAN:__embbag_rows_mean_f32__dispatch]](
// CHECK:         return
func.func @offsets_mean(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x?xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A result that goes into a slice keeps its versions inline (a call's
// result buffer has an identity layout: bufferization would copy it).
// CHECK-LABEL: func.func @into_slice(
// CHECK-NOT:     call
// CHECK:         scf.index_switch
// CHECK:         tensor.insert_slice
func.func @into_slice(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %dest: tensor<?x?xf32>, %n: index, %m: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  %s = tensor.insert_slice %r into %dest[%c0, %c0] [%n, %m] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// One function per version (1 and 2 vectors of 16, the last masked) and a
// dispatcher, per kind; the dispatcher's loop over the row's blocks
// carries the result, and its switch picks the version of each block.
// CHECK:       func.func private @__embbag_rows_sum_f32__row_version_1(
// CHECK-SAME:    tensor<?x?xf32> {bufferization.buffer_layout = strided<[?, 1], offset: ?>}
// CHECK-SAME:    attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK:         vector.create_mask
// CHECK:       func.func private @__embbag_rows_sum_f32__row_version_2(
// CHECK:       func.func private @[[SUM]](
// CHECK-SAME:    memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK:         scf.for {{.*}} iter_args
// CHECK:           scf.index_switch
// CHECK:           case 1 {
// CHECK:             func.call @__embbag_rows_sum_f32__row_version_1(
// CHECK:           case 2 {
// CHECK:             func.call @__embbag_rows_sum_f32__row_version_2(
// CHECK:       func.func private @__embbag_rows_mean_f32__row_version_1(
// CHECK:       func.func private @__embbag_rows_mean_f32__row_version_2(
// CHECK:       func.func private @[[MEAN]](
// CHECK-NOT:   func.func

// On a function alone the pass may not add functions to the module: every
// op keeps its own versions.
// NESTED-NOT:  call
// NESTED-NOT:  func.func private
// NESTED:      scf.index_switch
// NESTED-NOT:  func.func private
