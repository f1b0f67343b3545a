// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm | FileCheck %s --check-prefix=IR
// RUN: embbag-opt %s --convert-embbag-to-loops --eliminate-empty-tensors \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --canonicalize --drop-equivalent-buffer-results --canonicalize \
// RUN:   --drop-equivalent-buffer-results --canonicalize | FileCheck %s --check-prefix=BUF

// Kernels that write their result into a caller's buffer
// (bufferization.materialize_in_destination into a memref argument), the way
// a compiler embedding the ops calls them: the result is computed in the
// caller's buffer, with no copy from a temporary (the lowered kernels have
// no memrefCopy or llvm.intr.memcpy; see @kernel_segments for its one). The buffers are filled with -99 first,
// so every element printed was written by the kernel.
//
// The BUF run is the bufferization design (docs/Bufferization.md) with upstream
// passes only: --convert-embbag-to-loops writes the result in destination
// style (tensor.empty, loops with iter_args, transfer_write),
// --eliminate-empty-tensors makes the destination the caller's buffer, and
// --one-shot-bufferize writes into it: no buffer is allocated for the
// result and nothing is copied into the caller's (--canonicalize only
// removes the copy of the loops' result onto itself, the same buffer). A
// dynamic row's kernel is a call of versions shared by the module's ops
// (docs/DynamicShapes.md), which return the buffer they write: upstream's
// --drop-equivalent-buffer-results drops those results, after
// --canonicalize, twice (the dispatcher returns what its versions do).
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [1000, 2000].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

// BUF-LABEL: func.func @kernel_packed(
// BUF-SAME:    %[[OUT:[a-z0-9]+]]: memref<3x2xf32>) attributes
// BUF-NOT:     memref.alloc
// BUF-NOT:     memref.copy
// BUF:         vector.transfer_write %{{.*}}, %[[OUT]]
// BUF-NOT:     memref.alloc
// BUF-NOT:     memref.copy
// BUF:         return
// IR-LABEL: llvm.func @kernel_packed(
// IR-NOT:     memrefCopy
// IR-NOT:     llvm.intr.memcpy
// IR:         llvm.return
func.func @kernel_packed(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>, %out: memref<3x2xf32>) attributes {llvm.emit_c_interface} {
  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<3x2xf32>, memref<3x2xf32>) -> ()
  return
}

// Dynamic shapes: the caller passes its buffer to the shared kernel (the
// only allocation is the bags' bounds, of indices), which passes it to the
// version that writes it (checked after @main, where the functions are).
// BUF-LABEL: func.func @kernel_offsets(
// BUF-SAME:    %[[OUT:[a-z0-9]+]]: memref<?x?xf32>) attributes
// BUF-NOT:     memref.alloc{{.*}}f32>
// BUF-NOT:     memref.copy
// BUF:         call @__embbag_rows_mean_f32__dispatch({{.*}}, %[[OUT]])
// BUF-NOT:     memref.alloc{{.*}}f32>
// BUF-NOT:     memref.copy
// BUF:         return
// IR-LABEL: llvm.func @kernel_offsets(
// IR-NOT:     memrefCopy
// IR-NOT:     llvm.intr.memcpy
// IR:         llvm.return
func.func @kernel_offsets(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %d: i64, %out: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

// The segments kernel keeps one llvm.intr.memcpy: the bucket pass for
// unsorted segment ids works on a copy of the segment start positions
// (num_segments + 1 indices), not on the result. The result is written in
// place (the execution test checks the values; no memrefCopy).
// The bucket pass allocates its own index buffers (memref<3xindex>, ...).
// BUF-LABEL: func.func @kernel_segments(
// BUF-SAME:    %[[OUT:[a-z0-9]+]]: memref<2x2xf32>) attributes
// BUF-NOT:     memref.alloc(){{.*}} : memref<2x2xf32>
// BUF-NOT:     memref.copy {{.*}}, %[[OUT]]
// BUF:         vector.transfer_write %{{.*}}, %[[OUT]]
// BUF-NOT:     memref.alloc(){{.*}} : memref<2x2xf32>
// BUF-NOT:     memref.copy {{.*}}, %[[OUT]]
// BUF:         return
// IR-LABEL: llvm.func @kernel_segments(
// IR-NOT:     memrefCopy
// IR:         llvm.return
func.func @kernel_segments(%t: tensor<4x2xf32>, %i: tensor<3xi32>, %s: tensor<3xi32>, %w: tensor<3xf32>, %out: memref<2x2xf32>) attributes {llvm.emit_c_interface} {
  %n = arith.constant 2 : i32
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) weights(%w) : (tensor<4x2xf32>, tensor<3xi32>, tensor<3xi32>, i32, tensor<3xf32>) -> tensor<2x2xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<2x2xf32>, memref<2x2xf32>) -> ()
  return
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0]]> : tensor<4x2xf32>
  %junk = arith.constant -99.0 : f32

  // packed sum, bags {0, 3}, {1, 2}, {2, 2}.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [1001, 2002]
  // CHECK-NEXT: [110, 220]
  // CHECK-NEXT: [200, 400]
  %ip = arith.constant dense<[[0, 3], [1, 2], [2, 2]]> : tensor<3x2xi32>
  %b0 = memref.alloc() : memref<3x2xf32>
  linalg.fill ins(%junk : f32) outs(%b0 : memref<3x2xf32>)
  call @kernel_packed(%t, %ip, %b0) : (tensor<4x2xf32>, tensor<3x2xi32>, memref<3x2xf32>) -> ()
  %r0 = bufferization.to_tensor %b0 restrict : memref<3x2xf32> to tensor<3x2xf32>
  %p0 = tensor.cast %r0 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // offsets mean, dynamic shapes, indices [3, 1, 0], offsets [0, 2, 3],
  // default 2: bags {3, 1} -> [505, 1010], {0}, {} -> r2.
  // CHECK: sizes = [3, 2] strides = [2, 1] data =
  // CHECK-NEXT: [505, 1010]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [100, 200]
  %td = tensor.cast %t : tensor<4x2xf32> to tensor<?x?xf32>
  %io = arith.constant dense<[3, 1, 0]> : tensor<3xi64>
  %iod = tensor.cast %io : tensor<3xi64> to tensor<?xi64>
  %oo = arith.constant dense<[0, 2, 3]> : tensor<3xi64>
  %ood = tensor.cast %oo : tensor<3xi64> to tensor<?xi64>
  %d2 = arith.constant 2 : i64
  %b1 = memref.alloc() : memref<3x2xf32>
  linalg.fill ins(%junk : f32) outs(%b1 : memref<3x2xf32>)
  %b1d = memref.cast %b1 : memref<3x2xf32> to memref<?x?xf32>
  call @kernel_offsets(%td, %iod, %ood, %d2, %b1d) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64, memref<?x?xf32>) -> ()
  %r1 = bufferization.to_tensor %b1 restrict : memref<3x2xf32> to tensor<3x2xf32>
  %p1 = tensor.cast %r1 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // segments weighted sum, indices [2, 0, 3], segment_ids [1, 0, 1],
  // weights [2, 3, 0.5]: segment 0 = 3 r0, 1 = 2 r2 + 0.5 r3.
  // CHECK: sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [3, 6]
  // CHECK-NEXT: [700, 1400]
  %is = arith.constant dense<[2, 0, 3]> : tensor<3xi32>
  %ss = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  %ws = arith.constant dense<[2.0, 3.0, 0.5]> : tensor<3xf32>
  %b2 = memref.alloc() : memref<2x2xf32>
  linalg.fill ins(%junk : f32) outs(%b2 : memref<2x2xf32>)
  call @kernel_segments(%t, %is, %ss, %ws, %b2) : (tensor<4x2xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xf32>, memref<2x2xf32>) -> ()
  %r2 = bufferization.to_tensor %b2 restrict : memref<2x2xf32> to tensor<2x2xf32>
  %p2 = tensor.cast %r2 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}

// BUF-LABEL: func.func private @__embbag_rows_mean_f32__row_version_1(
// BUF-SAME:    %[[VOUT:[a-z0-9]+]]: memref<?x?xf32>) attributes
// BUF-NOT:     memref.alloc
// BUF-NOT:     memref.copy
// BUF:         vector.transfer_write %{{.*}}, %[[VOUT]]
// BUF-NOT:     memref.alloc
// BUF-NOT:     memref.copy
// BUF:         return
// BUF-LABEL: func.func private @__embbag_rows_mean_f32__dispatch(
// BUF-SAME:    %[[DOUT:[a-z0-9]+]]: memref<?x?xf32>) attributes
// BUF-NOT:     memref.copy
// BUF:         func.call @__embbag_rows_mean_f32__row_version_1({{.*}}, %[[DOUT]])
