// REQUIRES: mpich
// RUN: embbag-opt %s --embbag-shard-to-llvm > %t.mlir
// RUN: not %mpirun_2 %t.mlir
// RUN: cat %t.err0 %t.err1 | FileCheck %s

// Row-wise sharding keeps the runtime contract: an index outside the whole
// table (7, for 5 rows split 3 + 2) is not skipped as a row of another rank
// but stops the program, as it does in one process. Regression: each rank
// pointed every index it did not own at a masked row, so the index was
// silently ignored.

// CHECK: embbag.offsets at {{.*}}row-wise-checks.mlir:{{[0-9]+}}:{{[0-9]+}}: index out of range [0, num_emb)

shard.grid @grid(shape = 2) {sym_visibility = "private"}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @lookup(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<2xi32>) -> tensor<2x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %ts = shard.shard %t to %s : tensor<5x2xf32>
  %r = embbag.offsets sum %ts[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 4, 7, 1]> : tensor<4xi32>
  %o = arith.constant dense<[0, 2]> : tensor<2xi32>
  %r = call @lookup(%t, %i, %o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  %p = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
