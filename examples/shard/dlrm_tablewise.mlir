// A DLRM-like embedding layer of three tables sharded table-wise over 2 MPI
// ranks (docs/Sharding.md, "Table-wise"), as TorchRec's TABLE_WISE
// sharding: table t lives on rank t mod 2 (embbag.table_owner on its
// argument), its owner pools every sample's bag, then each rank receives
// the pooled vectors of its samples for every table (samples 0-2 on rank 0,
// 3-4 on rank 1: an uneven batch). Only a table's owner reads it. Every
// rank prints the pooled vectors the one-process program prints.
//
// Compile and run (utils/run-examples.sh does this for examples/shard):
//   embbag-opt examples/shard/dlrm_tablewise.mlir --embbag-shard-to-llvm \
//     -o sharded.mlir
//   mpirun.mpich -np 2 mlir-runner sharded.mlir -e main \
//     -entry-point-result=void \
//     -shared-libs=...,/usr/lib/x86_64-linux-gnu/libmpich.so
// (a file, not a pipe: mpirun gives standard input to rank 0 only)
// One process, for comparison:
//   embbag-opt examples/shard/dlrm_tablewise.mlir --embbag-drop-sharding \
//     --embbag-to-llvm | mlir-runner -e main ...

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// Users (rank 0), items (rank 1) and categories (rank 0, t = 2): one bag
// per sample in each; the users' bags weighted, the categories' a mean.
func.func @pool(%users: tensor<6x4xf32> {embbag.table_owner = 0 : i64},
                %items: tensor<5x4xf32> {embbag.table_owner = 1 : i64},
                %categories: tensor<4x4xf32> {embbag.table_owner = 0 : i64},
                %user_ids: tensor<7xi32>, %user_offsets: tensor<5xi32>,
                %user_weights: tensor<7xf32>, %item_ids: tensor<5x2xi32>,
                %category_ids: tensor<6xi32>, %category_offsets: tensor<5xi32>)
    -> (tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>) {
  // This rank's samples: [0, 3) on rank 0, [3, 5) on rank 1.
  %samples = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %u = embbag.offsets sum %users[%user_ids] offsets(%user_offsets)
      weights(%user_weights)
      : (tensor<6x4xf32>, tensor<7xi32>, tensor<5xi32>, tensor<7xf32>) -> tensor<5x4xf32>
  %us = shard.shard %u to %samples : tensor<5x4xf32>
  %i = embbag.packed sum %items[%item_ids]
      : (tensor<5x4xf32>, tensor<5x2xi32>) -> tensor<5x4xf32>
  %is = shard.shard %i to %samples : tensor<5x4xf32>
  %c = embbag.offsets mean %categories[%category_ids] offsets(%category_offsets)
      : (tensor<4x4xf32>, tensor<6xi32>, tensor<5xi32>) -> tensor<5x4xf32>
  %cs = shard.shard %c to %samples : tensor<5x4xf32>
  return %us, %is, %cs : tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>
}

func.func @main() {
  %users = arith.constant dense<[
      [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0],
      [0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.5]]> : tensor<6x4xf32>
  %items = arith.constant dense<[
      [1.0, 2.0, 0.0, 0.0], [0.0, 1.0, 2.0, 0.0], [0.0, 0.0, 1.0, 2.0],
      [2.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<5x4xf32>
  %categories = arith.constant dense<[
      [4.0, 0.0, 0.0, 0.0], [0.0, 4.0, 0.0, 0.0], [0.0, 0.0, 4.0, 0.0],
      [0.0, 0.0, 0.0, 4.0]]> : tensor<4x4xf32>
  // Samples 0-4: users {0, 5}, {}, {1, 2, 3}, {4}, {5}.
  %user_ids = arith.constant dense<[0, 5, 1, 2, 3, 4, 5]> : tensor<7xi32>
  %user_offsets = arith.constant dense<[0, 2, 2, 5, 6]> : tensor<5xi32>
  %user_weights = arith.constant dense<[1.0, 2.0, 1.0, 1.0, 1.0, 0.5, 1.0]> : tensor<7xf32>
  // Two items per sample.
  %item_ids = arith.constant dense<[[0, 1], [2, 3], [4, 4], [1, 3], [0, 2]]> : tensor<5x2xi32>
  // Categories {0, 1}, {2}, {3}, {0, 2}, {}.
  %category_ids = arith.constant dense<[0, 1, 2, 3, 0, 2]> : tensor<6xi32>
  %category_offsets = arith.constant dense<[0, 2, 3, 4, 6]> : tensor<5xi32>
  %pooled:3 = call @pool(%users, %items, %categories, %user_ids, %user_offsets,
                         %user_weights, %item_ids, %category_ids, %category_offsets)
      : (tensor<6x4xf32>, tensor<5x4xf32>, tensor<4x4xf32>, tensor<7xi32>,
         tensor<5xi32>, tensor<7xf32>, tensor<5x2xi32>, tensor<6xi32>, tensor<5xi32>)
      -> (tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>)
  %p0 = tensor.cast %pooled#0 : tensor<5x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %p1 = tensor.cast %pooled#1 : tensor<5x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %p2 = tensor.cast %pooled#2 : tensor<5x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
