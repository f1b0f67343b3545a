// RUN: embbag-opt %s --embbag-shard-functions | FileCheck %s
// RUN: embbag-opt %s --embbag-shard-to-llvm="checks=0" | FileCheck %s --check-prefix=LLVM

// Regression test: the wrapper that keeps the original signature called the
// partitioned copy, and bufferization copied the argument slice (this rank's
// whole shard of the table) into the call's identity-layout argument on every
// call: 71 ms a call instead of 1 for a 256 MiB table. The wrapper now runs
// the partitioned body on the slice in place; the partitioned copy stays
// public, for callers that hold only their shard.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @lookup__shard_local(
// CHECK-SAME: %{{.*}}: tensor<4x4xf32>
// CHECK: shard.all_reduce
// CHECK-LABEL: func.func @lookup(
// CHECK-SAME: %[[T:.*]]: tensor<8x4xf32>
// CHECK-NOT: call
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[T]]
// CHECK: %[[LOCAL:.*]] = tensor.cast %[[SLICE]] : tensor<?x4xf32> to tensor<4x4xf32>
// CHECK-NOT: call
// CHECK: embbag.offsets sum %[[LOCAL]][
// CHECK-NOT: call
// CHECK: shard.all_reduce
// CHECK: return

// LLVM-NOT: memcpy
// LLVM-LABEL: llvm.func @lookup__shard_local(
// LLVM-NOT: memcpy
// LLVM-LABEL: llvm.func @lookup(
// LLVM-NOT: llvm.call @lookup__shard_local
// LLVM-NOT: memcpy
func.func @lookup(%t: tensor<8x4xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>) -> tensor<3x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<8x4xf32>
  %r = embbag.offsets sum %ts[%i] offsets(%o) : (tensor<8x4xf32>, tensor<6xi32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
