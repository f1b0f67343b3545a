// A DLRM-like embedding layer with its table sharded row-wise over 2 MPI
// ranks (docs/Sharding.md): rows 0-4 live on rank 0, rows 5-7 on rank 1
// (an uneven split), each rank pools the rows it owns and an all-reduce sums
// the partial bags. Every rank prints the pooled vectors the one-process
// program prints.
//
// Compile and run (utils/run-examples.sh does this for examples/shard):
//   embbag-opt examples/shard/dlrm_rowwise.mlir --embbag-shard-to-llvm \
//     -o sharded.mlir
//   mpirun.mpich -np 2 mlir-runner sharded.mlir -e main \
//     -entry-point-result=void \
//     -shared-libs=...,/usr/lib/x86_64-linux-gnu/libmpich.so
// (a file, not a pipe: mpirun gives standard input to rank 0 only)
// One process, for comparison:
//   embbag-opt examples/shard/dlrm_rowwise.mlir --embbag-drop-sharding \
//     --embbag-to-llvm | mlir-runner -e main ...

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// One bag of user ids per sample, weighted (e.g. by recency), the default
// row for samples without history.
func.func @pool_users(%table: tensor<8x4xf32>, %ids: tensor<7xi32>,
                      %offsets: tensor<4xi32>, %weights: tensor<7xf32>)
    -> tensor<4x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 5, 8] : !shard.sharding
  %sharded = shard.shard %table to %rows : tensor<8x4xf32>
  %default = arith.constant 0 : i32
  %pooled = embbag.offsets sum %sharded[%ids] offsets(%offsets) default(%default)
      weights(%weights)
      : (tensor<8x4xf32>, tensor<7xi32>, tensor<4xi32>, i32, tensor<7xf32>)
      -> tensor<4x4xf32>
  return %pooled : tensor<4x4xf32>
}

func.func @main() {
  %table = arith.constant dense<[
      [0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0],
      [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0],
      [0.0, 1.0, 1.0, 0.0], [0.5, 0.5, 0.5, 0.5]]> : tensor<8x4xf32>
  // Sample 0: users 1, 6 (one row per rank); sample 1: none (default row);
  // sample 2: users 7, 5, 2; sample 3: user 4.
  %ids = arith.constant dense<[1, 6, 7, 5, 2, 4, 4]> : tensor<7xi32>
  %offsets = arith.constant dense<[0, 2, 2, 5]> : tensor<4xi32>
  %weights = arith.constant dense<[1.0, 0.5, 2.0, 1.0, 1.0, 1.0, 1.0]> : tensor<7xf32>
  %pooled = call @pool_users(%table, %ids, %offsets, %weights)
      : (tensor<8x4xf32>, tensor<7xi32>, tensor<4xi32>, tensor<7xf32>) -> tensor<4x4xf32>
  %print = tensor.cast %pooled : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%print) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
