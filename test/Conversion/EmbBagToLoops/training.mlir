// RUN: embbag-opt %s --convert-embbag-to-loops="checks=0 vector-bits=256" --canonicalize --cse -split-input-file | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops="checks=0 vector-bits=256 parallel=1" --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=PAR
// RUN: embbag-opt %s --convert-embbag-to-loops="vector-bits=256" -split-input-file | FileCheck %s --check-prefix=CHECKS
// RUN: embbag-opt %s --convert-embbag-to-loops="checks=0" -split-input-file | FileCheck %s --check-prefix=NOCHECKS

// The training kernels (docs/Kernel.md, "Training kernels"): each position's
// bag, a stable sort of the positions by row (for tables of at most 2 rows
// per position a counting sort: histogram, prefix sum listing the unique
// rows and where their runs start, scatter in index order; else a radix
// sort, @radix below), then one loop over the unique rows accumulating
// each row's gradient in f32 vectors along the row, stored once.

// CHECK-LABEL: func.func @dense_sum
// A sequential dense gradient of an f32 table needs no grouping: its zeros
// are a fill of an empty tensor, which empty-tensor elimination makes the
// caller's destination (training-bufferize.mlir), then each bag adds each
// of its positions' share to its row, bag by bag, in index order: each
// row's sum in the grouped kernel's order. Walking the bags, it needs no
// tensor of each position's bag, and reads each bag's dy row once, before
// the loop over its positions. Without scratch tensors there is no
// scratch allocation either (ScratchArena.h).
// CHECK-NOT: tensor<?xindex>
// CHECK-NOT: memref.alloc
// CHECK-NOT: scf.if
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<5x2xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<5x2xf32>)
// CHECK: scf.for %[[BAG:.*]] = %c0 to %c3 {{.*}} iter_args(%[[GB:.*]] = %[[ZERO]])
// CHECK: %[[START:.*]] = arith.index_cast
// CHECK: %[[END:.*]] = arith.select %{{.*}}, %c4, %{{.*}} : index
// CHECK: %[[DY:.*]] = vector.transfer_read %{{.*}}[%[[BAG]], %c0]{{.*}} : tensor<3x2xf32>, vector<8xf32>
// CHECK: scf.for %[[J:.*]] = %[[START]] to %[[END]] {{.*}} iter_args(%[[G:.*]] = %[[GB]])
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[G]]
// CHECK: %[[OLD:.*]] = vector.transfer_read %[[ROW]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[DY]]
// CHECK: vector.transfer_write %[[NEW]], %[[ROW]]
// CHECK: tensor.insert_slice
// CHECK-NOT: scf.forall
// CHECK-NOT: tensor<?xindex>

// PAR-LABEL: func.func @dense_sum
// With parallel=1 the positions are grouped by row (a gradient that the
// last-level cache holds is scattered instead: the module says that cache
// is 32 bytes, which the 40-byte table does not fit). 5 rows, 4 positions:
// the counting sort (the static sizes fold the choice of sort). The
// histogram of the rows: unread positions go to the spill slot.
// PAR-NOT: scf.if
// PAR: %[[HIST:.*]] = scf.for
// PAR: arith.select
// PAR: tensor.insert
// The prefix sum, listing the unique rows in ascending order and where
// their runs start; the end of the last run closes the starts.
// PAR: %[[PREFIX:.*]]:5 = scf.for
// PAR: scf.if
// PAR: tensor.insert %{{.*}} : tensor<{{.*}}xi64>
// PAR: %[[STARTS:.*]] = tensor.insert %[[PREFIX]]#4 into %[[PREFIX]]#2[%[[PREFIX]]#3]
// The scatter of the positions to their row's run.
// PAR: %[[SCATTER:.*]]:2 = scf.for
// PAR: linalg.fill
// The unique rows in parallel: each iteration owns its row's slice and
// sums the row's positions in index order, dy accumulated in vectors (a
// row of 2: one vector, masked).
// PAR: scf.forall (%[[U:.*]]) in (%{{.*}}) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<5x2xf32>)
// PAR: %[[LO:.*]] = tensor.extract %[[STARTS]][%[[U]]]
// PAR: %[[MASK:.*]] = vector.constant_mask [2] : vector<8xi1>
// PAR: scf.for %{{.*}} = %[[LO]] to %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>)
// PAR: vector.transfer_read %{{.*}}, %[[MASK]] {in_bounds = [true]} : tensor<3x2xf32>, vector<8xf32>
// PAR: arith.addf %[[ACC]]
// PAR: scf.forall.in_parallel
// PAR-NEXT: tensor.parallel_insert_slice

// The checks are the forward op's contract, named after the training op.
// CHECKS-LABEL: func.func @dense_sum
// CHECKS: cf.assert %{{.*}}, "embbag.offsets_grad at {{.*}}training.mlir:[[@LINE+8]]:10: offsets must be non-negative, non-decreasing and at most the number of indices"
// CHECKS: cf.assert %{{.*}}, "embbag.offsets_grad at {{.*}}: index out of range [0, num_emb)"
// No forward op is left behind.
// CHECKS-NOT: = embbag.
// CHECKS-LABEL: func.func @sparse_max
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 32 : i64>>} {
  func.func @dense_sum(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>) -> tensor<5x2xf32> {
    %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
    return %0 : tensor<5x2xf32>
  }
}

// -----

// max: the winning position of each element, recomputed from the table (f16
// widened to f32), the first on ties (greater, or none yet); the gradient
// goes where the position won; the sparse result is the unique rows and a
// new tensor of their gradient rows, rounded to f16 once.
// CHECK-LABEL: func.func @sparse_max
// CHECK: scf.for
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: arith.select %{{.*}}, %c-1
// CHECK: %[[ARGMAX:.*]]:2 = scf.for
// CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpi eq, %{{.*}}, %cst
// CHECK: arith.ori
// CHECK: %[[UNIQUE:.*]]:5 = scf.for
// CHECK: %[[ROWS:.*]] = tensor.empty(%[[UNIQUE]]#3) : tensor<?x2xf16>
// CHECK: scf.for %{{.*}} = %c0 to %[[UNIQUE]]#3 {{.*}} iter_args(%{{.*}} = %[[ROWS]])
// CHECK: vector.transfer_read %[[ARGMAX]]#0
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: %[[IDS:.*]] = tensor.extract_slice %[[UNIQUE]]#1[0] [%[[UNIQUE]]#3] [1] : tensor<{{.*}}xi32> to tensor<?xi32>
// CHECK: return %[[IDS]]
func.func @sparse_max(%dy: tensor<3x2xf16>, %t: tensor<5x2xf16>, %i: tensor<3x2xi32>, %p: i32) -> (tensor<?xi32>, tensor<?x2xf16>) {
  %r, %g = embbag.packed_grad max %dy, %t[%i] padding_idx(%p) sparse
      : (tensor<3x2xf16>, tensor<5x2xf16>, tensor<3x2xi32>, i32) -> (tensor<?xi32>, tensor<?x2xf16>)
  return %r, %g : tensor<?xi32>, tensor<?x2xf16>
}

// -----

// Weighted sqrtn: each position's coefficient is its weight times its
// segment's 1 / sqrt(sum w^2); the weights' gradient is a dot product of dy
// with the row (a vector reduction), then the denominator's term.
// CHECK-LABEL: func.func @weighted_sqrtn
// CHECK: math.sqrt
// CHECK: arith.divf
// CHECK: vector.fma
// CHECK: vector.reduction <add>
// CHECK: arith.subf
// CHECK: return
func.func @weighted_sqrtn(%dy: tensor<2x4xf32>, %t: tensor<6x4xf32>, %i: tensor<5xi32>, %seg: tensor<5xi32>, %w: tensor<5xf32>) -> (tensor<6x4xf32>, tensor<5xf32>) {
  %g, %dw = embbag.segments_grad sqrtn %dy, %t[%i] segment_ids(%seg) num_segments(2) weights(%w)
      : (tensor<2x4xf32>, tensor<6x4xf32>, tensor<5xi32>, tensor<5xi32>, tensor<5xf32>) -> (tensor<6x4xf32>, tensor<5xf32>)
  return %g, %dw : tensor<6x4xf32>, tensor<5xf32>
}

// -----

// sgd in destination style: the loop over the unique rows carries the table
// itself, reads each row from its slice and writes w - lr * g back there.
// CHECK-LABEL: func.func @sgd
// CHECK-SAME: %[[LR:[^:]*]]: f32, %{{[^:]*}}: tensor<3x2xf32>, %[[T:[^:]*]]: tensor<5x2xf32>
// CHECK: scf.for %{{.*}} iter_args(%[[TABLE:.*]] = %[[T]]) -> (tensor<5x2xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[TABLE]]
// CHECK: %[[NEG:.*]] = arith.negf %[[LR]]
// CHECK: %[[G:.*]] = scf.for
// CHECK: %[[NEGV:.*]] = vector.broadcast %[[NEG]]
// CHECK: %[[W:.*]] = vector.transfer_read %[[ROW]]
// CHECK: %[[NEW:.*]] = vector.fma %[[NEGV]], %[[G]], %[[W]]
// CHECK: vector.transfer_write %[[NEW]], %[[ROW]]
// CHECK: tensor.insert_slice %{{.*}} into %[[TABLE]]
func.func @sgd(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>) -> tensor<5x2xf32> {
  %0 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off)
         : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

// Row-wise Adagrad: a first pass sums g^2 over the row, the state's slice
// grows by its mean, a second pass applies lr / (sqrt(s) + eps).
// CHECK-LABEL: func.func @adagrad
// CHECK-SAME: %[[S:[^:]*]]: tensor<5xf32>
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[STATE:.*]] = %[[S]]) -> (tensor<5x2xf32>, tensor<5xf32>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[STATE]]
// CHECK: vector.reduction <add>
// CHECK: tensor.extract %[[SLICE]]
// CHECK: arith.divf
// CHECK: math.sqrt
// CHECK: arith.addf
// CHECK: vector.fma
// CHECK: tensor.insert_slice %{{.*}} into %[[STATE]]
func.func @adagrad(%lr: f32, %eps: f32, %s: tensor<5xf32>, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5xf32>) {
  %0, %1 = embbag.offsets_update mean rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%off)
         : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5xf32>)
  return %0, %1 : tensor<5x2xf32>, tensor<5xf32>
}

// -----

// A table of more than 2 rows per position: the read positions and their
// rows are compacted in index order, then sorted by a stable LSD radix
// sort of 11 bits per pass (100000 rows: 17 bits, 2 passes; here the
// canonicalizer unrolled the loop of pairs of passes). Nothing has the
// table's size: no histogram of its rows.
// CHECK-LABEL: func.func @radix
// CHECK-NOT: scf.if %{{.*}} -> (tensor<?xindex>, tensor<?xindex>, tensor<?xi32>, index)
// CHECK-NOT: c100003
// CHECK: %[[READ:.*]]:3 = scf.for {{.*}} -> (tensor<?xindex>, tensor<?xindex>, index)
// First pass: the digit of bits 0-10, its histogram, prefix and scatter.
// CHECK: scf.for %{{.*}} = %c0 to %[[READ]]#2
// CHECK: arith.andi %{{.*}}, %c2047 : index
// CHECK: scf.for %{{.*}} = %c1 to %c2048
// CHECK: scf.for %{{.*}} = %c0 to %[[READ]]#2
// Second pass: bits 11-21.
// CHECK: arith.shrui %{{.*}}, %c11 : index
// CHECK: arith.andi %{{.*}}, %c2047 : index
// The runs of equal rows of the sorted list: the unique rows and starts.
// CHECK: %[[RUNS:.*]]:4 = scf.for %{{.*}} = %c0 to %[[READ]]#2
// CHECK: arith.cmpi ne
// CHECK: scf.for %{{.*}} = %c0 to %[[RUNS]]#2
func.func @radix(%dy: tensor<3x4xf32>, %t: tensor<100000x4xf32>, %i: tensor<6xi32>, %off: tensor<3xi32>) -> (tensor<?xi32>, tensor<?x4xf32>) {
  %r, %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<3x4xf32>, tensor<100000x4xf32>, tensor<6xi32>, tensor<3xi32>) -> (tensor<?xi32>, tensor<?x4xf32>)
  return %r, %g : tensor<?xi32>, tensor<?x4xf32>
}

// -----

// A table of dynamic size: the sort is chosen at run time, counting sort
// when num_emb <= 2 * n, else radix sort in a loop of pairs of passes
// (ceil(bits / 22) of them), each iteration yielding the tensors it got.
// CHECK-LABEL: func.func @dynamic_table
// CHECK: %[[DIM:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x4xf32>
// CHECK: %[[SMALL:.*]] = arith.cmpi ule, %[[DIM]], %c12 : index
// CHECK: scf.if %[[SMALL]] -> (tensor<?xindex>, tensor<?xindex>, tensor<?xi32>, index)
// CHECK: scf.for %{{.*}} = %c0 to %[[DIM]]
// CHECK: } else {
// CHECK: math.ctlz
// CHECK: scf.for %{{.*}} iter_args(%[[K:[^ ]*]] = %{{.*}}, %[[V:[^ ]*]] = %{{.*}}, %[[K2:[^ ]*]] = %{{.*}}, %[[V2:[^ ]*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<?xindex>, tensor<?xindex>, tensor<?xindex>, tensor<?xindex>, tensor<?xindex>)
func.func @dynamic_table(%dy: tensor<3x4xf32>, %t: tensor<?x4xf32>, %i: tensor<6xi32>, %off: tensor<3xi32>) -> (tensor<?xi32>, tensor<?x4xf32>) {
  %r, %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<3x4xf32>, tensor<?x4xf32>, tensor<6xi32>, tensor<3xi32>) -> (tensor<?xi32>, tensor<?x4xf32>)
  return %r, %g : tensor<?xi32>, tensor<?x4xf32>
}

// -----

// A static row of 64 f32 (8 vectors): one walk over a row's positions sums
// the whole row in 8 accumulators, whole vectors (no mask). The table (256
// MB) outgrows the caches: the rows 64 unique rows ahead (16 KiB of rows)
// are prefetched for writing, each of their lines and their last element.
// CHECK-LABEL: func.func @row64
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1000000x64xf32>
// CHECK: scf.for %[[U:.*]] = %c0
// CHECK: arith.addi %[[U]], %c64 : index
// CHECK: memref.prefetch %[[BUF]][%[[R:.*]], %c0], write, locality<3>, data
// CHECK: memref.prefetch %[[BUF]][%[[R]], %c16], write
// CHECK: memref.prefetch %[[BUF]][%[[R]], %c32], write
// CHECK: memref.prefetch %[[BUF]][%[[R]], %c48], write
// CHECK: memref.prefetch %[[BUF]][%[[R]], %c63], write
// CHECK: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-NOT: vector.constant_mask
// CHECK-NOT: vector.create_mask
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %c56], %{{[^,]*}} {in_bounds = [true]} : tensor<3x64xf32>, vector<8xf32>
// CHECK-NOT: scf.for
// CHECK: vector.fma
// CHECK: tensor.insert_slice
func.func @row64(%lr: f32, %dy: tensor<3x64xf32>, %t: tensor<1000000x64xf32>, %i: tensor<?xi32>, %off: tensor<3xi32>) -> tensor<1000000x64xf32> {
  %0 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off)
         : (f32, tensor<3x64xf32>, tensor<1000000x64xf32>, tensor<?xi32>, tensor<3xi32>) -> tensor<1000000x64xf32>
  return %0 : tensor<1000000x64xf32>
}

// -----

// A 2.5 MB table: larger than the L2, within the last-level cache. The
// dense gradient, zeroed at the start of the call and so still cached,
// prefetches the rows it adds to 16 positions ahead (the forward kernel's
// distance for a table the last-level cache holds); sgd prefetches the
// table's rows 64 unique rows ahead (16 KiB of rows), as for any table the
// L2 does not hold, since a training step's other work evicts them.
// CHECK-LABEL: func.func @dense_cached
// CHECK: scf.for %[[J:.*]] = %{{[0-9]+}} to %{{[0-9]+}} step %c1 iter_args(%{{.*}}) -> (tensor<10000x64xf32>)
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[J]], %c16 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.minui %[[AHEAD]]
// CHECK-NEXT: tensor.extract %{{.*}}[%[[LAST]]]
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %c0], write
// CHECK-LABEL: func.func @sgd_cached
// CHECK: %[[AHEAD:.*]] = arith.addi %{{.*}}, %c64 : index
// CHECK-NEXT: arith.minui %[[AHEAD]]
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %c0], write
func.func @dense_cached(%dy: tensor<3x64xf32>, %t: tensor<10000x64xf32>, %i: tensor<?xi32>, %off: tensor<3xi32>) -> tensor<10000x64xf32> {
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x64xf32>, tensor<10000x64xf32>, tensor<?xi32>, tensor<3xi32>) -> tensor<10000x64xf32>
  return %0 : tensor<10000x64xf32>
}
func.func @sgd_cached(%lr: f32, %dy: tensor<3x64xf32>, %t: tensor<10000x64xf32>, %i: tensor<?xi32>, %off: tensor<3xi32>) -> tensor<10000x64xf32> {
  %0 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off)
         : (f32, tensor<3x64xf32>, tensor<10000x64xf32>, tensor<?xi32>, tensor<3xi32>) -> tensor<10000x64xf32>
  return %0 : tensor<10000x64xf32>
}

// -----

// A row of 100 f32 (13 vectors): passes of 8 and 5 vectors, the last
// vector masked to 4 lanes. Row-wise Adagrad on a row of several passes
// is built as two walks, the squares first (reduced vector by vector, in
// column order), then the step; the walks are the same pure loops, which
// CSE merges here: the step reuses the first walk's sums. The table is
// small: no prefetch.
// CHECK-LABEL: func.func @row100
// CHECK-NOT: memref.prefetch
// CHECK: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.reduction <add>
// CHECK: %[[TAIL:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %c96], %{{.*}}, %[[TAIL]] {in_bounds = [true]}
// CHECK: vector.reduction <add>
// CHECK: math.sqrt
// CHECK-NOT: scf.for
// CHECK: vector.fma
// The row is written through its 1-D slice (see extractRowSlice).
// CHECK: vector.transfer_write %{{.*}}[%c96], %[[TAIL]] {in_bounds = [true]} : vector<8xf32>, tensor<100xf32>
func.func @row100(%lr: f32, %eps: f32, %s: tensor<10xf32>, %dy: tensor<3x100xf32>, %t: tensor<10x100xf32>, %i: tensor<?xi32>, %off: tensor<3xi32>) -> (tensor<10x100xf32>, tensor<10xf32>) {
  %0, %1 = embbag.offsets_update sum rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%off)
         : (f32, f32, tensor<10xf32>, tensor<3x100xf32>, tensor<10x100xf32>, tensor<?xi32>, tensor<3xi32>) -> (tensor<10x100xf32>, tensor<10xf32>)
  return %0, %1 : tensor<10x100xf32>, tensor<10xf32>
}

// -----

// With parallel=1, a dense gradient whose zero fill dominates the call (at
// least 8 table rows per position) or that fits the target's last-level
// cache (4 MiB here), with rows of at most 256 bytes, is the sequential
// scatter-add, as without parallel=1; otherwise the grouped kernel, its
// rows in parallel. Both give the same bits. The choice is an scf.if on
// the sizes, here on the dynamic number of positions (the 6.4 MB table is
// not in the cache); both branches accumulate into the same zeros.
// PAR-LABEL: func.func @dense_parallel_choice
// PAR: %[[N:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?xi64>
// PAR: %[[N8:.*]] = arith.muli %[[N]], %c8 : index
// PAR: %[[FILL_DOMINATES:.*]] = arith.cmpi ule, %[[N8]], %c100000 : index
// PAR: %[[ZERO:.*]] = linalg.fill
// PAR: scf.if %[[FILL_DOMINATES]] -> (tensor<100000x16xf32>) {
// PAR-NOT: scf.forall
// PAR: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// PAR-NOT: scf.forall
// PAR: } else {
// PAR: scf.forall {{.*}} shared_outs(%{{.*}} = %[[ZERO]])
func.func @dense_parallel_choice(%dy: tensor<3x16xf32>, %t: tensor<100000x16xf32>, %i: tensor<?xi64>, %off: tensor<3xi64>) -> tensor<100000x16xf32> {
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x16xf32>, tensor<100000x16xf32>, tensor<?xi64>, tensor<3xi64>) -> tensor<100000x16xf32>
  return %0 : tensor<100000x16xf32>
}

// -----

// A 64 KB gradient is in the cache: the scatter-add, whatever the number
// of positions, and no grouped kernel (train_bench c3, 2.5 MB: 1.06 ms
// grouped on 2 threads against 0.80 scattered on one). A table of dynamic
// rows decides at run time.
// PAR-LABEL: func.func @dense_parallel_in_cache
// PAR-NOT: scf.forall
// PAR: scf.for
// PAR-NOT: scf.forall
// PAR: return
// PAR-LABEL: func.func @dense_parallel_dynamic_rows
// PAR: %[[ROWS:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x16xf32>
// PAR: %[[IN_CACHE:.*]] = arith.cmpi ule, %[[ROWS]], %c65536 : index
// PAR: arith.ori %{{.*}}, %[[IN_CACHE]] : i1
// PAR: scf.forall
func.func @dense_parallel_in_cache(%dy: tensor<3x16xf32>, %t: tensor<1000x16xf32>, %i: tensor<?xi64>, %off: tensor<3xi64>) -> tensor<1000x16xf32> {
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x16xf32>, tensor<1000x16xf32>, tensor<?xi64>, tensor<3xi64>) -> tensor<1000x16xf32>
  return %0 : tensor<1000x16xf32>
}
func.func @dense_parallel_dynamic_rows(%dy: tensor<3x16xf32>, %t: tensor<?x16xf32>, %i: tensor<?xi64>, %off: tensor<3xi64>) -> tensor<?x16xf32> {
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x16xf32>, tensor<?x16xf32>, tensor<?xi64>, tensor<3xi64>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// Rows of 80 f32 (320 bytes): always grouped, no choice.
// PAR-LABEL: func.func @dense_parallel_long_row
// PAR-NOT: scf.if %{{.*}} -> (tensor<1000x80xf32>)
// PAR: scf.forall
func.func @dense_parallel_long_row(%dy: tensor<3x80xf32>, %t: tensor<1000x80xf32>, %i: tensor<?xi64>, %off: tensor<3xi64>) -> tensor<1000x80xf32> {
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x80xf32>, tensor<1000x80xf32>, tensor<?xi64>, tensor<3xi64>) -> tensor<1000x80xf32>
  return %0 : tensor<1000x80xf32>
}

// Unchecked (checks=0): no check in any of the kernels above.
// NOCHECKS-NOT: cf.assert
// NOCHECKS: func.func @row100
// NOCHECKS-NOT: cf.assert
