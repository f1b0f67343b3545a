// RUN: embbag-opt %s --split-input-file --transform-interpreter --canonicalize | FileCheck %s

// TilingInterface of the ops through the upstream transform ops: what each
// tile computes (test/Integration/EmbBag/tiling.mlir runs tiled programs).

// Bags of embbag.packed: the tile's rows of indices and weights.
// CHECK-LABEL: func.func @packed_bags(
// CHECK-SAME: %[[T:[^:]*]]: tensor<7x8xf32>, %[[I:[^:]*]]: tensor<10x3xi32>, %[[W:[^:]*]]: tensor<10x3xf32>)
// CHECK:      scf.for %[[B:.*]] = %c0 to %c10 step %c4 iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK:        %[[N:.*]] = affine.min
// CHECK-DAG:    %[[IT:.*]] = tensor.extract_slice %[[I]][%[[B]], 0] [%[[N]], 3] [1, 1]
// CHECK-DAG:    %[[WT:.*]] = tensor.extract_slice %[[W]][%[[B]], 0] [%[[N]], 3] [1, 1]
// CHECK:        %[[R:.*]] = embbag.packed sum %[[T]][%[[IT]]] weights(%[[WT]]) : (tensor<7x8xf32>, tensor<?x3xi32>, tensor<?x3xf32>) -> tensor<?x8xf32>
// CHECK:        tensor.insert_slice %[[R]] into %[[ACC]][%[[B]], 0] [%[[N]], 8] [1, 1]
func.func @packed_bags(%t: tensor<7x8xf32>, %i: tensor<10x3xi32>, %w: tensor<10x3xf32>) -> tensor<10x8xf32> {
  %r = embbag.packed sum %t[%i] weights(%w) : (tensor<7x8xf32>, tensor<10x3xi32>, tensor<10x3xf32>) -> tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.packed"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Columns of a rank-3 table: the table's columns (every row: indices and
// the default are row numbers), the result tile the same; with forall.
// CHECK-LABEL: func.func @offsets_columns(
// CHECK-SAME: %[[T:[^:]*]]: tensor<?x6x8xf32>, %[[I:[^:]*]]: tensor<?xi64>, %[[O:[^:]*]]: tensor<?xi64>, %[[D:[^:]*]]: i64)
// CHECK:      scf.forall (%{{.*}}) in (4) shared_outs(%[[ACC:.*]] = %{{.*}})
// CHECK:        %[[C:.*]] = affine.apply
// CHECK-NOT:    scf.if
// CHECK:        %[[TT:.*]] = tensor.extract_slice %[[T]][0, 0, %[[C]]] [%{{.*}}, 6, 2] [1, 1, 1]
// CHECK:        %[[R:.*]] = embbag.offsets mean %[[TT]][%[[I]]] offsets(%[[O]]) default(%[[D]]) : (tensor<?x6x2xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x6x2xf32>
// CHECK:        tensor.parallel_insert_slice %[[R]] into %[[ACC]][0, 0, %[[C]]] [%{{.*}}, 6, 2] [1, 1, 1]
func.func @offsets_columns(%t: tensor<?x6x8xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %d: i64) -> tensor<?x6x8xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<?x6x8xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x6x8xf32>
  return %r : tensor<?x6x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.offsets"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [0, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Bags of embbag.offsets: the tile's offsets rebased to its first offset,
// the indices and weights from there to the next tile's first offset (or
// the end), both clamped into the indices.
// CHECK-LABEL: func.func @offsets_bags(
// CHECK-SAME: %[[T:[^:]*]]: tensor<?x8xf32>, %[[I:[^:]*]]: tensor<?xi64>, %[[O:[^:]*]]: tensor<?xi64>, %[[W:[^:]*]]: tensor<?xf32>)
// CHECK:      scf.for %[[B:.*]] = %c0 to %{{.*}} step %c4
// CHECK:        %[[N:.*]] = affine.min
// CHECK-DAG:    %[[BATCH2:.*]] = tensor.dim %[[O]]
// CHECK-DAG:    %[[NUMI:.*]] = tensor.dim %[[I]]
// CHECK:        %[[NEXT:.*]] = arith.addi %[[B]], %[[N]]
// CHECK:        %[[HAS:.*]] = arith.cmpi slt, %[[NEXT]], %[[BATCH2]]
// CHECK:        %[[END0:.*]] = scf.if %[[HAS]]
// CHECK:          tensor.extract %[[O]][%[[NEXT]]]
// CHECK:        } else {
// CHECK:          scf.yield %[[NUMI]]
// CHECK:        %[[END1:.*]] = arith.maxsi %[[END0]], %c0
// CHECK:        %[[END:.*]] = arith.minsi %[[END1]], %[[NUMI]]
// CHECK:        %[[START0:.*]] = scf.if
// CHECK:          tensor.extract %[[O]][%[[B]]]
// CHECK:        %[[START1:.*]] = arith.maxsi %[[START0]], %c0
// CHECK:        %[[START:.*]] = arith.minsi %[[START1]], %[[END]]
// CHECK:        %[[LEN:.*]] = arith.subi %[[END]], %[[START]]
// CHECK:        %[[BASE:.*]] = arith.index_cast %[[START]] : index to i64
// CHECK:        %[[OT:.*]] = tensor.extract_slice %[[O]][%[[B]]] [%[[N]]] [1]
// CHECK:        %[[REB:.*]] = linalg.generic {{.*}} ins(%[[OT]] : tensor<?xi64>)
// CHECK:          arith.subi %{{.*}}, %[[BASE]] : i64
// CHECK:        %[[IT:.*]] = tensor.extract_slice %[[I]][%[[START]]] [%[[LEN]]] [1]
// CHECK:        %[[WT:.*]] = tensor.extract_slice %[[W]][%[[START]]] [%[[LEN]]] [1]
// CHECK:        embbag.offsets sum %[[T]][%[[IT]]] offsets(%[[REB]]) default(1) weights(%[[WT]])
func.func @offsets_bags(%t: tensor<?x8xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %w: tensor<?xf32>) -> tensor<?x8xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) default(1) weights(%w) : (tensor<?x8xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.offsets"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Bags of embbag.segments: the tile's ids rebased, the others' ids to one
// extra segment (N) and ids outside [0, num_segments) to -1; N + 1 segments,
// the last dropped. A static num_segments becomes the loop bound.
// CHECK-LABEL: func.func @segments_bags(
// CHECK-SAME: %[[T:[^:]*]]: tensor<7x8xf32>, %[[I:[^:]*]]: tensor<?xi32>, %[[S:[^:]*]]: tensor<?xi32>)
// CHECK-DAG:  %[[MINUS1:.*]] = arith.constant -1 : i32
// CHECK-DAG:  %[[NUMSEG:.*]] = arith.constant 10 : i32
// CHECK:      scf.forall (%{{.*}}) in (3) shared_outs(%[[ACC:.*]] = %{{.*}})
// CHECK:        %[[B:.*]] = affine.apply
// CHECK:        %[[N:.*]] = affine.min
// CHECK:        %[[LO:.*]] = arith.index_cast %[[B]] : index to i32
// CHECK:        %[[CNT:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK:        %[[HI:.*]] = arith.addi %[[LO]], %[[CNT]]
// CHECK:        %[[IDS:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<?xi32>)
// CHECK:        ^bb0(%[[ID:.*]]: i32, %{{.*}}: i32):
// CHECK:          %[[REB:.*]] = arith.subi %[[ID]], %[[LO]]
// CHECK:          arith.cmpi slt, %[[ID]], %[[NUMSEG]]
// CHECK:          %[[FOREIGN:.*]] = arith.select %{{.*}}, %[[CNT]], %[[MINUS1]]
// CHECK:          arith.cmpi slt, %[[ID]], %[[HI]]
// CHECK:          %[[NEW:.*]] = arith.select %{{.*}}, %[[REB]], %[[FOREIGN]]
// CHECK:          linalg.yield %[[NEW]]
// CHECK:        %[[N1:.*]] = arith.addi %[[CNT]], %c1_i32
// CHECK:        %[[ALL:.*]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[IDS]]) num_segments(%[[N1]]) default(3)
// CHECK:        %[[R:.*]] = tensor.extract_slice %[[ALL]][0, 0] [%[[N]], 8] [1, 1]
// CHECK:        tensor.parallel_insert_slice %[[R]] into %[[ACC]][%[[B]], 0] [%[[N]], 8] [1, 1]
func.func @segments_bags(%t: tensor<7x8xf32>, %i: tensor<?xi32>, %s: tensor<?xi32>) -> tensor<10x8xf32> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(10) default(3) : (tensor<7x8xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.segments"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// include_last_offset: a tile of N bags keeps N + 1 offsets, the last one
// closing its last bag.
// CHECK-LABEL: func.func @offsets_last_offset_bags(
// CHECK:      scf.for %[[B:.*]] = %c0 to %{{.*}} step %c4
// CHECK:        %[[N:.*]] = affine.min
// CHECK:        %[[N1:.*]] = arith.addi %[[N]], %c1
// CHECK:        tensor.extract_slice %{{.*}}[%[[B]]] [%[[N1]]] [1]
// CHECK:        embbag.offsets max %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset : (tensor<?x8xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x8xf32>
func.func @offsets_last_offset_bags(%t: tensor<?x8xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x8xf32> {
  %r = embbag.offsets max %t[%i] offsets(%o) include_last_offset : (tensor<?x8xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.offsets"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// padding_idx is a row number, like the default: every tile keeps it, for
// bag tiles (packed, offsets, segments) and column tiles alike.
// CHECK-LABEL: func.func @padding_idx_tiles(
// CHECK-SAME: %[[T:[^:]*]]: tensor<7x8xf32>, %[[I:[^:]*]]: tensor<10x3xi32>, %[[I1:[^:]*]]: tensor<?xi32>, %[[O:[^:]*]]: tensor<?xi32>, %[[S:[^:]*]]: tensor<?xi32>, %[[P:[^:]*]]: i32)
// CHECK:      scf.for
// CHECK:        embbag.packed mean %[[T]][%{{.*}}] padding_idx(%[[P]]) : (tensor<7x8xf32>, tensor<?x3xi32>, i32) -> tensor<?x8xf32>
// CHECK:      scf.for
// CHECK:        embbag.offsets max %[[T]][%{{.*}}] offsets(%{{.*}}) default(2) padding_idx(%[[P]]) : (tensor<7x8xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x8xf32>
// CHECK:      scf.for
// CHECK:        embbag.segments sum %[[T]][%[[I1]]] segment_ids(%{{.*}}) num_segments(%{{.*}}) padding_idx(%[[P]]) : (tensor<7x8xf32>, tensor<?xi32>, tensor<?xi32>, i32, i32) -> tensor<?x8xf32>
// CHECK:      scf.for
// CHECK:        %[[TC:.*]] = tensor.extract_slice %[[T]][0, %{{.*}}] [7, 4] [1, 1]
// CHECK:        embbag.packed mean %[[TC]][%[[I]]] padding_idx(%[[P]]) : (tensor<7x4xf32>, tensor<10x3xi32>, i32) -> tensor<10x4xf32>
func.func @padding_idx_tiles(%t: tensor<7x8xf32>, %i: tensor<10x3xi32>, %i1: tensor<?xi32>, %o: tensor<?xi32>, %s: tensor<?xi32>, %p: i32) -> (tensor<10x8xf32>, tensor<?x8xf32>, tensor<9x8xf32>, tensor<10x8xf32>) {
  %0 = embbag.packed mean %t[%i] padding_idx(%p) {tile = "bags"} : (tensor<7x8xf32>, tensor<10x3xi32>, i32) -> tensor<10x8xf32>
  %1 = embbag.offsets max %t[%i1] offsets(%o) default(2) padding_idx(%p) : (tensor<7x8xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x8xf32>
  %2 = embbag.segments sum %t[%i1] segment_ids(%s) num_segments(9) padding_idx(%p) : (tensor<7x8xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<9x8xf32>
  %3 = embbag.packed mean %t[%i] padding_idx(%p) {tile = "columns"} : (tensor<7x8xf32>, tensor<10x3xi32>, i32) -> tensor<10x8xf32>
  return %0, %1, %2, %3 : tensor<10x8xf32>, tensor<?x8xf32>, tensor<9x8xf32>, tensor<10x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %packed = transform.structured.match ops{["embbag.packed"]} attributes {tile = "bags"} in %root : (!transform.any_op) -> !transform.any_op
    %t0, %l0 = transform.structured.tile_using_for %packed tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %offsets = transform.structured.match ops{["embbag.offsets"]} in %root : (!transform.any_op) -> !transform.any_op
    %t1, %l1 = transform.structured.tile_using_for %offsets tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %segments = transform.structured.match ops{["embbag.segments"]} in %root : (!transform.any_op) -> !transform.any_op
    %t2, %l2 = transform.structured.tile_using_for %segments tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %columns = transform.structured.match ops{["embbag.packed"]} attributes {tile = "columns"} in %root : (!transform.any_op) -> !transform.any_op
    %t3, %l3 = transform.structured.tile_using_for %columns tile_sizes [0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Bags of a row-wise quantized table: the tile keeps the table's bytes and
// the result's row of 64 f16.
// CHECK-LABEL: func.func @rowwise_bags(
// CHECK-SAME: %[[T:[^:]*]]: tensor<7x36xui8>, %[[I:[^:]*]]: tensor<10x3xi32>)
// CHECK:      scf.for %[[B:.*]] = %c0 to %c10 step %c4 iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK:        %[[IT:.*]] = tensor.extract_slice %[[I]][%[[B]], 0] [%{{.*}}, 3] [1, 1]
// CHECK:        %[[R:.*]] = embbag.packed max %[[T]][%[[IT]]] rowwise(i4) : (tensor<7x36xui8>, tensor<?x3xi32>) -> tensor<?x64xf16>
// CHECK:        tensor.insert_slice %[[R]] into %[[ACC]][%[[B]], 0] [%{{.*}}, 64] [1, 1]
func.func @rowwise_bags(%t: tensor<7x36xui8>, %i: tensor<10x3xi32>) -> tensor<10x64xf16> {
  %r = embbag.packed max %t[%i] rowwise(i4) : (tensor<7x36xui8>, tensor<10x3xi32>) -> tensor<10x64xf16>
  return %r : tensor<10x64xf16>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["embbag.packed"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
