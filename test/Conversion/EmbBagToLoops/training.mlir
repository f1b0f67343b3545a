// RUN: embbag-opt %s --convert-embbag-to-loops="checks=0 vector-bits=256" --canonicalize --cse -split-input-file | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops="checks=0 vector-bits=256 parallel=1" --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=PAR
// RUN: embbag-opt %s --convert-embbag-to-loops="vector-bits=256" -split-input-file | FileCheck %s --check-prefix=CHECKS
// RUN: embbag-opt %s --convert-embbag-to-loops="checks=0" -split-input-file | FileCheck %s --check-prefix=NOCHECKS

// The training kernels (docs/Kernel.md, "Training kernels"): each position's
// bag, a stable counting sort of the positions by row (histogram, prefix
// sum listing the unique rows, scatter in index order), then one loop over
// the unique rows accumulating each row's gradient in f32 vectors along
// the row, stored once.

// CHECK-LABEL: func.func @dense_sum
// The bag of each position, from the offsets.
// CHECK: %[[BAGS:.*]] = scf.for
// CHECK: tensor.insert %{{.*}} into %{{.*}} : tensor<?xindex>
// The histogram of the rows: unread positions go to the spill slot.
// CHECK: %[[HIST:.*]] = scf.for
// CHECK: arith.select
// CHECK: tensor.insert
// The prefix sum, listing the unique rows in ascending order.
// CHECK: %[[PREFIX:.*]]:4 = scf.for
// CHECK: scf.if
// CHECK: tensor.insert %{{.*}} : tensor<{{.*}}xi64>
// The scatter of the positions to their row's run.
// CHECK: %[[SCATTER:.*]]:2 = scf.for
// The dense gradient starts at zero; each unique row is one slice.
// CHECK: %[[ZERO:.*]] = tensor.splat %{{.*}} : tensor<?x?xf32>
// CHECK: scf.for %[[U:.*]] = %{{.*}} to %[[PREFIX]]#2 {{.*}} iter_args(%[[G:.*]] = %[[ZERO]])
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[G]]
// The row's positions in index order, dy accumulated in vectors.
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>)
// CHECK: vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<3x2xf32>, vector<8xf32>
// CHECK: arith.addf %[[ACC]]
// CHECK: vector.transfer_write %{{.*}}, %[[ROW]]
// CHECK: tensor.insert_slice
// CHECK-NOT: scf.forall

// PAR-LABEL: func.func @dense_sum
// The unique rows in parallel: each iteration owns its row's slice.
// PAR: scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<?x?xf32>)
// PAR: scf.forall.in_parallel
// PAR-NEXT: tensor.parallel_insert_slice

// The checks are the forward op's contract, named after the training op.
// CHECKS-LABEL: func.func @dense_sum
// CHECKS: cf.assert %{{.*}}, "embbag.offsets_grad at {{.*}}training.mlir:[[@LINE+6]]:8: offsets must be non-negative, non-decreasing and at most the number of indices"
// CHECKS: cf.assert %{{.*}}, "embbag.offsets_grad at {{.*}}: index out of range [0, num_emb)"
// No forward op is left behind.
// CHECKS-NOT: = embbag.
// CHECKS-LABEL: func.func @sparse_max
func.func @dense_sum(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>) -> tensor<5x2xf32> {
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
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
// CHECK: %[[UNIQUE:.*]]:4 = scf.for
// CHECK: %[[ROWS:.*]] = tensor.empty(%[[UNIQUE]]#2) : tensor<?x2xf16>
// CHECK: scf.for %{{.*}} = %c0 to %[[UNIQUE]]#2 {{.*}} iter_args(%{{.*}} = %[[ROWS]])
// CHECK: vector.transfer_read %[[ARGMAX]]#0
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: %[[IDS:.*]] = tensor.extract_slice %[[UNIQUE]]#1[0] [%[[UNIQUE]]#2] [1] : tensor<?xi32> to tensor<?xi32>
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
// CHECK: %[[NEGV:.*]] = vector.broadcast %[[NEG]]
// CHECK: %[[G:.*]] = scf.for
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

// Unchecked (checks=0): no check in any of the kernels above.
// NOCHECKS-NOT: cf.assert
// NOCHECKS: func.func @adagrad
// NOCHECKS-NOT: cf.assert
