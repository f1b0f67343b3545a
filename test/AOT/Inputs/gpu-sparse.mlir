// A sparse gradient for embbag-aot --target=nvptx (test/AOT/nvptx-sparse.test):
// its rows and gradient rows are new device memory that the caller owns.
func.func @sparse_grad(%dy: tensor<?x4xf32>, %t: tensor<?x4xf32>,
                       %i: tensor<?xi32>, %off: tensor<?xi32>)
    -> (tensor<?xi32>, tensor<?x4xf32>) {
  %rows, %drows = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi32>, tensor<?xi32>)
      -> (tensor<?xi32>, tensor<?x4xf32>)
  return %rows, %drows : tensor<?xi32>, tensor<?x4xf32>
}
