// A DLRM-like sparse feature layer: three embedding tables of different
// sizes, each pooled with a different op, the pooled vectors printed.
//   user table  (6 x 4): offsets sum, one bag per sample, a default row
//   item table  (5 x 4): packed mean, two items per sample
//   context     (4 x 4): segments, weighted, unsorted segment ids
//
// Compile and run:
//   embbag-opt examples/dlrm/embedding_layer.mlir --embbag-to-llvm \
//     | mlir-runner -e main -entry-point-result=void -shared-libs=...

func.func @embedding_layer(%user: tensor<6x4xf32>, %item: tensor<5x4xf32>,
                           %ctx: tensor<4x4xf32>,
                           %user_ids: tensor<?xi32>, %user_offsets: tensor<3xi32>,
                           %item_ids: tensor<3x2xi32>,
                           %ctx_ids: tensor<?xi32>, %ctx_samples: tensor<?xi32>,
                           %ctx_weights: tensor<?xf32>)
    -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %default = arith.constant 0 : i32
  %batch = arith.constant 3 : i32
  %u = embbag.offsets sum %user[%user_ids] offsets(%user_offsets) default(%default)
      : (tensor<6x4xf32>, tensor<?xi32>, tensor<3xi32>, i32) -> tensor<3x4xf32>
  %i = embbag.packed mean %item[%item_ids]
      : (tensor<5x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  %c = embbag.segments sum %ctx[%ctx_ids] segment_ids(%ctx_samples)
      num_segments(%batch) weights(%ctx_weights)
      : (tensor<4x4xf32>, tensor<?xi32>, tensor<?xi32>, i32, tensor<?xf32>)
      -> tensor<3x4xf32>
  return %u, %i, %c : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

func.func @main() {
  %user = arith.constant dense<[[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0],
      [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0],
      [0.5, 0.5, 0.5, 0.5]]> : tensor<6x4xf32>
  %item = arith.constant dense<[[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0],
      [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 2.0], [4.0, 4.0, 4.0, 4.0]]> : tensor<5x4xf32>
  %ctx = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0],
      [1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0]]> : tensor<4x4xf32>
  // Sample 0 has users 1, 2, 3; sample 1 none (default row 0); sample 2 user 4, 5.
  %user_ids_s = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %user_ids = tensor.cast %user_ids_s : tensor<5xi32> to tensor<?xi32>
  %user_offsets = arith.constant dense<[0, 3, 3]> : tensor<3xi32>
  %item_ids = arith.constant dense<[[0, 1], [2, 3], [4, 4]]> : tensor<3x2xi32>
  %ctx_ids_s = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %ctx_ids = tensor.cast %ctx_ids_s : tensor<4xi32> to tensor<?xi32>
  %ctx_samples_s = arith.constant dense<[2, 0, 2, 1]> : tensor<4xi32>
  %ctx_samples = tensor.cast %ctx_samples_s : tensor<4xi32> to tensor<?xi32>
  %ctx_weights_s = arith.constant dense<[1.0, 0.5, 2.0, 3.0]> : tensor<4xf32>
  %ctx_weights = tensor.cast %ctx_weights_s : tensor<4xf32> to tensor<?xf32>

  %u, %i, %c = call @embedding_layer(%user, %item, %ctx, %user_ids, %user_offsets,
      %item_ids, %ctx_ids, %ctx_samples, %ctx_weights)
      : (tensor<6x4xf32>, tensor<5x4xf32>, tensor<4x4xf32>, tensor<?xi32>,
         tensor<3xi32>, tensor<3x2xi32>, tensor<?xi32>, tensor<?xi32>,
         tensor<?xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>)
  %pu = tensor.cast %u : tensor<3x4xf32> to tensor<*xf32>
  %pi = tensor.cast %i : tensor<3x4xf32> to tensor<*xf32>
  %pc = tensor.cast %c : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%pi) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%pc) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
