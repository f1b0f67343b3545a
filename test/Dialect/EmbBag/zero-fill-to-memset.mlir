// RUN: embbag-opt %s --split-input-file --embbag-zero-fill-to-memset | FileCheck %s
// RUN: embbag-opt %s --split-input-file --embbag-to-llvm | FileCheck %s --check-prefix=LLVM

// A fill of +0.0 into a contiguous buffer: one memset of all its bytes
// (dims times the element's 4 bytes).
// CHECK-LABEL: func.func @zero_f32
// CHECK-SAME: %[[M:.*]]: memref<?x64xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK: %[[ADDR:.*]] = arith.index_castui %[[BASE]] : index to i64
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK: %[[D0:.*]] = memref.dim %[[M]], %c0
// CHECK: %[[B0:.*]] = arith.muli %c4, %[[D0]]
// CHECK: %[[D1:.*]] = memref.dim %[[M]], %c1
// CHECK: %[[B1:.*]] = arith.muli %[[B0]], %[[D1]]
// CHECK: %[[LEN:.*]] = arith.index_castui %[[B1]] : index to i64
// CHECK: "llvm.intr.memset"(%[[PTR]], %[[ZERO]], %[[LEN]]) <{isVolatile = false}>
// LLVM-LABEL: llvm.func @zero_f32
// LLVM: "llvm.intr.memset"
func.func @zero_f32(%m: memref<?x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%m : memref<?x64xf32>)
  return
}

// -----

// Integer zeros too (i8: one byte per element).
// CHECK-LABEL: func.func @zero_i8
// CHECK: "llvm.intr.memset"
func.func @zero_i8(%m: memref<7xi8>) {
  %zero = arith.constant 0 : i8
  linalg.fill ins(%zero : i8) outs(%m : memref<7xi8>)
  return
}

// -----

// Fills a memset cannot do stay: -0.0 (sign bit set), a non-zero value, a
// value not known at compile time, a strided buffer (not contiguous), i1
// elements (not whole bytes), a tensor.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: llvm.intr.memset
// CHECK-COUNT-6: linalg.fill
// CHECK-NOT: llvm.intr.memset
// Through the pipeline the tensor's fill becomes a fill of a new buffer of
// identity layout: its memset is the only one.
// LLVM-LABEL: llvm.func @kept
// LLVM: "llvm.intr.memset"
// LLVM-NOT: "llvm.intr.memset"
// LLVM: llvm.return
func.func @kept(%m: memref<8xf32>, %v: f32, %s: memref<8xf32, strided<[2]>>, %b: memref<8xi1>, %t: tensor<8xf32>) -> tensor<8xf32> {
  %neg = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %false = arith.constant false
  linalg.fill ins(%neg : f32) outs(%m : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%m : memref<8xf32>)
  linalg.fill ins(%v : f32) outs(%m : memref<8xf32>)
  linalg.fill ins(%zero : f32) outs(%s : memref<8xf32, strided<[2]>>)
  linalg.fill ins(%false : i1) outs(%b : memref<8xi1>)
  %r = linalg.fill ins(%zero : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Through --embbag-to-llvm, a dense gradient materialized into the
// caller's buffer zeroes it with one memset (and allocates nothing of its
// size).
// LLVM-LABEL: llvm.func @dense_grad
// LLVM-NOT: llvm.call @malloc({{.*}}) {{.*}}256000
// LLVM: "llvm.intr.memset"
// LLVM-NOT: "llvm.intr.memcpy"
func.func @dense_grad(%dy: tensor<3x64xf32>, %t: tensor<1000x64xf32>, %i: tensor<6xi64>, %off: tensor<3xi64>, %out: memref<1000x64xf32>) {
  %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
         : (tensor<3x64xf32>, tensor<1000x64xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<1000x64xf32>
  bufferization.materialize_in_destination %g in restrict writable %out
      : (tensor<1000x64xf32>, memref<1000x64xf32>) -> ()
  return
}
