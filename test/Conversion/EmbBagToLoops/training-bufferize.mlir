// RUN: embbag-opt %s --convert-embbag-to-loops --canonicalize --cse --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --canonicalize --cse --canonicalize | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops=parallel=1 --canonicalize --cse --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --canonicalize --cse --canonicalize | FileCheck %s

// The fused updates are in destination style: one-shot bufferization
// updates the table and the state in place, in the caller's buffers. No
// buffer of the table's size (or the state's) is allocated, nothing is
// copied, and the results are the arguments' buffers. The only buffers are
// the kernel's scratch: per position, per bag, and for a small table per
// row of the counting sort's histogram. All of it is one allocation of
// bytes per call (ScratchArena.h), carved into views; the histogram takes
// its share only when the counting sort runs.

// CHECK-LABEL: func.func @adagrad
// CHECK-SAME: %[[S:[^:]*]]: memref<1000xf32>, %{{[^:]*}}: memref<3x64xf32>, %[[T:[^:]*]]: memref<1000x64xf32>
// CHECK: %[[SMALL:.*]] = arith.cmpi uge, %{{.*}}, %c1000 : index
// CHECK: %[[HIST:.*]] = arith.select %[[SMALL]], %c8064, %c0 : index
// CHECK: %[[ARENA:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi8>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: memref.view %[[ARENA]]{{.*}} to memref<1003xindex>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: memref.subview %[[T]]
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: return %[[T]], %[[S]] : memref<1000x64xf32>, memref<1000xf32>
func.func @adagrad(%lr: f32, %eps: f32, %s: tensor<1000xf32>, %dy: tensor<3x64xf32>, %t: tensor<1000x64xf32>, %i: tensor<?xi64>, %off: tensor<3xi64>) -> (tensor<1000x64xf32>, tensor<1000xf32>) {
  %0, %1 = embbag.offsets_update mean rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%off)
         : (f32, f32, tensor<1000xf32>, tensor<3x64xf32>, tensor<1000x64xf32>, tensor<?xi64>, tensor<3xi64>) -> (tensor<1000x64xf32>, tensor<1000xf32>)
  return %0, %1 : tensor<1000x64xf32>, tensor<1000xf32>
}

// CHECK-LABEL: func.func @sgd_bf16
// CHECK-SAME: %{{[^:]*}}: memref<?x16xbf16>, %[[T:[^:]*]]: memref<?x16xbf16>
// CHECK-NOT: memref.alloc({{.*}}) {{.*}} : memref<?x16xbf16>
// CHECK-NOT: memref.copy
// CHECK: return %[[T]] : memref<?x16xbf16>
func.func @sgd_bf16(%lr: f32, %dy: tensor<?x16xbf16>, %t: tensor<?x16xbf16>, %i: tensor<?x4xi32>) -> tensor<?x16xbf16> {
  %0 = embbag.packed_update sum sgd(%lr) %dy, %t[%i]
         : (f32, tensor<?x16xbf16>, tensor<?x16xbf16>, tensor<?x4xi32>) -> tensor<?x16xbf16>
  return %0 : tensor<?x16xbf16>
}

// Rows of dynamic length too: each row is updated in its place in the
// table. (The rest of a row past its whole blocks of vectors was an scf.if
// yielding the updated slice or the slice itself, which one-shot
// bufferization could not match with the slice's extract: it copied every
// row out and back, calls to MLIR's memrefCopy that an AOT library could
// not resolve.)
// CHECK-LABEL: func.func @adagrad_dynamic_row
// CHECK-SAME: %[[S:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?x?xf32>, %[[T:[^:]*]]: memref<?x?xf32>
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc({{.*}}) {{.*}} : memref<1x?xf32>
// CHECK-NOT: memref.copy
// CHECK: return %[[T]], %[[S]] : memref<?x?xf32>, memref<?xf32>
func.func @adagrad_dynamic_row(%lr: f32, %eps: f32, %s: tensor<?xf32>, %dy: tensor<?x?xf32>, %t: tensor<?x?xf32>, %i: tensor<?xi32>, %off: tensor<?xi32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %0, %1 = embbag.offsets_update sum rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%off)
         : (f32, f32, tensor<?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?x?xf32>, tensor<?xf32>)
  return %0, %1 : tensor<?x?xf32>, tensor<?xf32>
}

// A sparse gradient of a table of dynamic size: both sorts (chosen at run
// time) list the unique rows in one buffer made before the choice, which
// the result is a view of. (Each sort had its own list, the scf.if's
// result took a dynamic layout, and returning it copied it through MLIR's
// memrefCopy, which an AOT library could not resolve.)
// CHECK-LABEL: func.func @sparse_dynamic_table
// CHECK: scf.if %{{.*}} -> (memref<?xindex>, memref<?xindex>, memref<?xi32>, index)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @sparse_dynamic_table(%dy: tensor<3x4xf32>, %t: tensor<?x4xf32>, %i: tensor<6xi32>, %off: tensor<3xi32>) -> (tensor<?xi32>, tensor<?x4xf32>) {
  %r, %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<3x4xf32>, tensor<?x4xf32>, tensor<6xi32>, tensor<3xi32>) -> (tensor<?xi32>, tensor<?x4xf32>)
  return %r, %g : tensor<?xi32>, tensor<?x4xf32>
}

// The dense gradient materialized into the caller's buffer is computed in
// that buffer: its zeros are a fill of it (a memset in --embbag-to-llvm),
// then the touched rows are written into it. No buffer of the table's
// size, no copy.
// CHECK-LABEL: func.func @dense_into_destination
// CHECK-SAME: %[[OUT:[^:]*]]: memref<1000x64xf32>)
// CHECK-NOT: memref.alloc() {{.*}} : memref<1000x64xf32>
// CHECK-NOT: memref.copy
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : memref<1000x64xf32>)
// CHECK-NOT: memref.copy
// CHECK: memref.subview %[[OUT]]
// CHECK-NOT: memref.copy
// CHECK: return
func.func @dense_into_destination(%dy: tensor<3x64xf32>, %t: tensor<1000x64xf32>, %i: tensor<?xi64>, %off: tensor<3xi64>, %out: memref<1000x64xf32>) {
  %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x64xf32>, tensor<1000x64xf32>, tensor<?xi64>, tensor<3xi64>) -> tensor<1000x64xf32>
  bufferization.materialize_in_destination %g in restrict writable %out
      : (tensor<1000x64xf32>, memref<1000x64xf32>) -> ()
  return
}
