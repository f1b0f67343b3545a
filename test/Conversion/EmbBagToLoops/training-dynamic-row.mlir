// RUN: embbag-opt %s --convert-embbag-to-loops="checks=0 vector-bits=256" --canonicalize --cse | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops="checks=0 vector-bits=256" --canonicalize --cse | FileCheck %s --check-prefix=PREFETCH

// A row of dynamic length (docs/Kernel.md, "Training kernels"): blocks of
// 8 vectors in a loop, then the rest's whole vectors in one version per
// count (1 to 7), none of them masked, then the partial last vector, if
// any, alone and masked. A row of 16 floats takes the version of two
// whole vectors: no masked store per position (a `vmaskmovps` store,
// microcoded, cost such rows 1.5x the static kernel's time).

// A table of dynamic size may outgrow the caches, so the scatter
// prefetches each position's row ahead, in the walk of a row's first
// block. A dynamic row's blocks start at computed columns: each walk asks
// whether its block starts at column 0 (regression: the walks compared
// the column with the constant 0 and never prefetched).

// PREFETCH-LABEL: func.func @grad_dynamic_row
// PREFETCH: %[[BLOCKS:.*]] = arith.divui %{{.*}}, %c64
// PREFETCH: scf.for %{{.*}} = %c0 to %[[BLOCKS]]
// PREFETCH: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// PREFETCH-NEXT: scf.for
// PREFETCH-NEXT: scf.if %[[FIRST]] {
// PREFETCH: memref.prefetch {{.*}}, write, locality<3>, data
// PREFETCH: %[[WHOLE:.*]] = arith.divui %{{.*}}, %c8
// PREFETCH: arith.cmpi eq, %[[WHOLE]], %c1
// PREFETCH: %[[REST_FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// PREFETCH-NEXT: scf.for
// PREFETCH-NEXT: scf.if %[[REST_FIRST]] {
// PREFETCH: memref.prefetch {{.*}}, write, locality<3>, data

// CHECK-LABEL: func.func @grad_dynamic_row
// CHECK: %[[BLOCKS:.*]] = arith.divui %{{.*}}, %c64
// CHECK: scf.for %{{.*}} = %c0 to %[[BLOCKS]]
// CHECK-COUNT-8: vector.transfer_write {{.*}}] {in_bounds = [true]} : vector<8xf32>
// CHECK: %[[WHOLE:.*]] = arith.divui %{{.*}}, %c8
// CHECK: arith.cmpi eq, %[[WHOLE]], %c1
// CHECK-NOT: vector.transfer_write {{.*}}], %{{.*}} {in_bounds
// CHECK: vector.transfer_write {{.*}}] {in_bounds = [true]} : vector<8xf32>
// CHECK-NOT: vector.transfer_write {{.*}}], %{{.*}} {in_bounds
// CHECK: arith.cmpi eq, %[[WHOLE]], %c2
// CHECK-NOT: vector.transfer_write {{.*}}], %{{.*}} {in_bounds
// CHECK-COUNT-2: vector.transfer_write {{.*}}] {in_bounds = [true]} : vector<8xf32>
// CHECK-NOT: vector.transfer_write {{.*}}], %{{.*}} {in_bounds
// CHECK: arith.cmpi eq, %[[WHOLE]], %c7
// CHECK-NOT: vector.transfer_write {{.*}}], %{{.*}} {in_bounds
// CHECK-COUNT-7: vector.transfer_write {{.*}}] {in_bounds = [true]} : vector<8xf32>
// CHECK-NOT: vector.transfer_write {{.*}}], %{{.*}} {in_bounds
// CHECK: %[[TAIL:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: arith.cmpi ult, %[[TAIL]], %[[ROW:.*]] : index
// CHECK: vector.create_mask
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[TAIL]]], %{{.*}} {in_bounds = [true]} : vector<8xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @grad_dynamic_row(%dy: tensor<?x?xf32>, %t: tensor<?x?xf32>, %i: tensor<?xi32>, %off: tensor<?xi32>) -> tensor<?x?xf32> {
  %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Row-wise Adagrad on a row of dynamic length: a row of 1, 2, 4 or 8
// whole vectors takes one walk over its positions, g kept in registers
// from the state to the step (one version per count); any other row
// walks its positions twice (the general path, blocks of 8 vectors).

// CHECK-LABEL: func.func @adagrad_dynamic_row
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[ROW:.*]], %c8 : index
// CHECK: arith.select %[[IS1]], %c1, %c0
// CHECK: scf.for {{.*}} -> (tensor<?xf32>, tensor<1xf32>)
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK-NOT: scf.for
// CHECK: math.sqrt
// CHECK-NOT: scf.for
// CHECK: %[[IS2:.*]] = arith.cmpi eq, %[[ROW]], %c16 : index
// CHECK: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>)
// CHECK: arith.cmpi eq, %[[ROW]], %c32 : index
// CHECK: arith.cmpi eq, %[[ROW]], %c64 : index
// CHECK-NOT: arith.cmpi eq, %[[ROW]], %c
// CHECK: arith.divui %[[ROW]], %c64 : index
// CHECK: return
func.func @adagrad_dynamic_row(%lr: f32, %eps: f32, %state: tensor<?xf32>, %dy: tensor<?x?xf32>, %t: tensor<?x?xf32>, %i: tensor<?xi32>, %off: tensor<?xi32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %0, %1 = embbag.offsets_update sum rowwise_adagrad(%lr, %eps) state(%state) %dy, %t[%i] offsets(%off)
         : (f32, f32, tensor<?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?x?xf32>, tensor<?xf32>)
  return %0, %1 : tensor<?x?xf32>, tensor<?xf32>
}
