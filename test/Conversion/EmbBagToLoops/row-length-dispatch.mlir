// RUN: embbag-opt %s --pass-pipeline="builtin.module(func.func(convert-embbag-to-loops{target=avx2 checks=0 max-vectors=2 prefetch-distance=0}),canonicalize,cse)" | FileCheck %s
// RUN: embbag-opt %s --pass-pipeline="builtin.module(func.func(convert-embbag-to-loops{target=avx512 checks=0 max-vectors=2 prefetch-distance=0}),canonicalize,cse)" | FileCheck %s --check-prefix=AVX512
// RUN: embbag-opt %s --pass-pipeline="builtin.module(func.func(convert-embbag-to-loops{target=avx2 checks=0}),canonicalize,cse)" | FileCheck %s --check-prefix=BUDGET
// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 checks=0 max-vectors=2 prefetch-distance=0" --canonicalize --cse | FileCheck %s --check-prefix=SHARED

// A row length known only at run time: an scf.index_switch in the bag loop
// picks a version per row class, each with its accumulators in registers.
// (On a function alone, as here but for the SHARED run: on a module the
// versions are functions shared by the ops of one kind, see the end of
// this file and shared-row-versions.mlir.)
// With AVX2 (masked loads take a uop and a register) the key is
// 2 * (row / 8) + (row % 8 != 0): case 2v is a row of v whole vectors,
// case 2v - 1 one of v vectors whose last is masked (the mask computed from
// the row length). Rows longer than the versions (here max-vectors=2) take
// chunks of 2 whole vectors in a loop, then a switch over the vectors left.
// CHECK-LABEL: func.func @dynamic_row(
// CHECK-DAG:     %[[ROW:.*]] = tensor.dim %arg0, %c1 : tensor<?x?xf32>
// CHECK-DAG:     %[[WHOLE:.*]] = arith.divui %[[ROW]], %c8 : index
// CHECK-DAG:     %[[REM:.*]] = arith.remui %[[ROW]], %c8 : index
// CHECK:         %[[PART:.*]] = arith.cmpi ne, %[[REM]], %c0 : index
// CHECK:         %[[PARTI:.*]] = arith.index_castui %[[PART]] : i1 to index
// CHECK:         %[[TWICE:.*]] = arith.muli %[[WHOLE]], %c2 : index
// CHECK:         %[[KEY:.*]] = arith.addi %[[TWICE]], %[[PARTI]] : index
// CHECK:         scf.for %[[BAG:.*]] = %c0 to
// CHECK:           scf.index_switch %[[KEY]] -> tensor<?x?xf32>
// CHECK-NEXT:      case 1 {
// CHECK-NEXT:        %[[M1:.*]] = vector.create_mask %[[ROW]] : vector<8xi1>
// CHECK-NEXT:        scf.for {{.*}} -> (vector<8xf32>) {
// CHECK:               vector.transfer_read %arg0[%{{.*}}, %c0], %{{.*}}, %[[M1]]
// CHECK:             vector.transfer_write %{{.*}}, %{{.*}}[%[[BAG]], %c0], %[[M1]]
// CHECK:           case 2 {
// CHECK-NEXT:        scf.for {{.*}} -> (vector<8xf32>) {
// CHECK-NOT:           create_mask
// CHECK:               vector.transfer_read %arg0[%{{.*}}, %c0], %{{.*}} {in_bounds = [true]}
// CHECK:           case 3 {
// CHECK-NEXT:        %[[LAST:.*]] = arith.subi %[[ROW]], %c8 : index
// CHECK-NEXT:        %[[M3:.*]] = vector.create_mask %[[LAST]] : vector<8xi1>
// CHECK-NEXT:        scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>) {
// CHECK:               vector.transfer_read %arg0[%{{.*}}, %c8], %{{.*}}, %[[M3]]
// CHECK:               vector.transfer_read %arg0[%{{.*}}, %c0], %{{.*}} {in_bounds = [true]}
// CHECK:           case 4 {
// CHECK-NEXT:        scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>) {
// CHECK:           default {
// CHECK:             %[[CHUNKS:.*]] = arith.divui %[[ROW]], %c16 : index
// CHECK:             %[[MAIN:.*]] = arith.muli %[[CHUNKS]], %c16 : index
// CHECK:             scf.for %[[COL:.*]] = %c0 to %[[MAIN]] step %c16
// CHECK:               scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>) {
// CHECK:                 vector.transfer_read %arg0[%{{.*}}, %[[COL]]], %{{.*}} {in_bounds = [true]}
// CHECK:             %[[REST:.*]] = arith.subi %[[ROW]], %[[MAIN]] : index
// CHECK:             %[[RESTV:.*]] = arith.ceildivui %[[REST]], %c8 : index
// CHECK:             scf.index_switch %[[RESTV]] -> tensor<?x?xf32>
// CHECK-NEXT:        case 1 {
// CHECK-NEXT:          vector.create_mask %[[REST]] : vector<8xi1>
// CHECK:             default {
// CHECK-NOT:         case
// CHECK:         return

// With AVX-512 masks live in mask registers and a masked load costs what a
// whole one does: the key is the number of vectors of 16, every version
// masks its last vector.
// AVX512-LABEL: func.func @dynamic_row(
// AVX512:         %[[ROW:.*]] = tensor.dim %arg0, %c1 : tensor<?x?xf32>
// AVX512:         %[[KEY:.*]] = arith.ceildivui %[[ROW]], %c16 : index
// AVX512:         scf.index_switch %[[KEY]] -> tensor<?x?xf32>
// AVX512-NEXT:    case 1 {
// AVX512-NEXT:      vector.create_mask %[[ROW]] : vector<16xi1>
// AVX512:         case 2 {
// AVX512-NEXT:      %[[LAST:.*]] = arith.subi %[[ROW]], %c16 : index
// AVX512-NEXT:      vector.create_mask %[[LAST]] : vector<16xi1>
// AVX512:         default {
// AVX512-NOT:     case 3

// Without max-vectors the versions go as far as the registers allow: 16
// whole vectors of 8 (key 32) and 14 with a masked one (key 27, leaving
// the mask and the masked load their registers); longer rows chunk by 14.
// (The table's size is unknown: each pass branches on whether to prefetch.)
// BUDGET-LABEL: func.func @dynamic_row(
// BUDGET:         case 27 {
// BUDGET-NOT:     case 29
// BUDGET:         case 32 {
// BUDGET:             scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// BUDGET-NOT:     case
// BUDGET:         default {
// BUDGET:           %[[CHUNKS:.*]] = arith.divui %{{.*}}, %c112 : index
func.func @dynamic_row(%t: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Multi-dimensional rows flatten first: a [?, ?, ?] table dispatches on
// the product of its row dimensions.
// CHECK-LABEL: func.func @dynamic_rank3(
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1, 2]]
// CHECK:         %[[ROW:.*]] = tensor.dim %[[FLAT]], %c1
// CHECK:         arith.divui %[[ROW]], %c8 : index
// CHECK:         scf.index_switch
func.func @dynamic_rank3(%t: tensor<?x?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x?xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<?x?x?xf32>, tensor<?x?xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// On a module, the same versions are functions that the kind's dispatcher
// calls once per block of the row, with the block's columns [col, end). A
// version reads a view of the table from column `col` on, so that its loads
// are at constant columns, masks its last vector to the block's width, and
// writes the result at `col` on.
// SHARED-LABEL: func.func @dynamic_row(
// SHARED:         call @__embbag_rows_sum_f32__dispatch(
// SHARED-LABEL: func.func private @__embbag_rows_sum_f32__row_version_3(
// SHARED-SAME:    %[[TABLE:[a-z0-9]+]]: tensor<?x?xf32> {{.*}}, %[[COL:[a-z0-9]+]]: index, %[[END:[a-z0-9]+]]: index, %{{[a-z0-9]+}}: tensor<?x?xf32>)
// SHARED:         %[[VIEW:.*]] = tensor.extract_slice %[[TABLE]][0, %[[COL]]]
// SHARED:         %[[WIDTH:.*]] = arith.subi %[[END]], %[[COL]] : index
// SHARED:         %[[REST:.*]] = arith.subi %[[WIDTH]], %c8 : index
// SHARED:         %[[MASK:.*]] = vector.create_mask %[[REST]] : vector<8xi1>
// SHARED:           vector.transfer_read %[[VIEW]][%{{.*}}, %c8], %{{.*}}, %[[MASK]]
// SHARED:           vector.transfer_read %[[VIEW]][%{{.*}}, %c0]
// SHARED:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[COL]]]
// SHARED:         %[[SECOND:.*]] = arith.addi %[[COL]], %c8 : index
// SHARED:         vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[SECOND]]], %[[MASK]]
// The block is the whole row when a version fits it (at most 2 vectors of
// 8 here), else 16 columns (2 whole vectors), the last block narrower; its
// key is the row's key above.
// SHARED-LABEL: func.func private @__embbag_rows_sum_f32__dispatch(
// SHARED:         %[[ROW:.*]] = memref.dim %{{[0-9]+}}, %c1
// SHARED:         %[[WIDTH:.*]] = arith.select %{{.*}}, %{{.*}}, %c16 : index
// SHARED:         scf.for %[[BCOL:.*]] = %c0 to %[[ROW]] step %[[WIDTH]] iter_args
// SHARED:           %[[NEXT:.*]] = arith.addi %[[BCOL]], %[[WIDTH]] : index
// SHARED:           %[[BEND:.*]] = arith.minui %[[ROW]], %[[NEXT]] : index
// SHARED:           %[[BLOCK:.*]] = arith.subi %[[BEND]], %[[BCOL]] : index
// SHARED:           arith.divui %[[BLOCK]], %c8 : index
// SHARED:           scf.index_switch
// SHARED-NEXT:      case 1 {
// SHARED-NEXT:        func.call @__embbag_rows_sum_f32__row_version_1({{.*}}, %[[BCOL]], %[[BEND]], %{{.*}})
// SHARED:           case 2 {
// SHARED-NEXT:        func.call @__embbag_rows_sum_f32__row_version_2(
// SHARED:           case 3 {
// SHARED-NEXT:        func.call @__embbag_rows_sum_f32__row_version_3(
// SHARED:           case 4 {
// SHARED-NEXT:        func.call @__embbag_rows_sum_f32__row_version_4(
// SHARED:           default {
