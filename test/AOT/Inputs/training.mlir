// Training kernels of several results, exported by embbag-aot through
// MLIR's C interface: one struct of the results, passed first
// (Inputs/training.c calls them).

// The sparse gradient: the touched rows, sorted and unique, and their rows.
func.func @sparse_grad(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>,
                       %i: tensor<5xi64>, %off: tensor<3xi64>)
    -> (tensor<?xi64>, tensor<?x2xf32>) {
  %rows, %drows = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<5xi64>, tensor<3xi64>)
      -> (tensor<?xi64>, tensor<?x2xf32>)
  return %rows, %drows : tensor<?xi64>, tensor<?x2xf32>
}

// The table gradient and the weights gradient.
func.func @weighted_grad(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>,
                         %i: tensor<5xi64>, %off: tensor<3xi64>,
                         %w: tensor<5xf32>)
    -> (tensor<5x2xf32>, tensor<5xf32>) {
  %dt, %dw = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) weights(%w)
      : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<5xi64>, tensor<3xi64>, tensor<5xf32>)
      -> (tensor<5x2xf32>, tensor<5xf32>)
  return %dt, %dw : tensor<5x2xf32>, tensor<5xf32>
}

// Row-wise Adagrad: the updated table and state, and a scalar result.
func.func @adagrad(%lr: f32, %eps: f32, %s: tensor<5xf32>, %dy: tensor<3x2xf32>,
                   %t: tensor<5x2xf32>, %i: tensor<5xi64>, %off: tensor<3xi64>)
    -> (tensor<5x2xf32>, f32, tensor<5xf32>) {
  %t2, %s2 = embbag.offsets_update sum rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%off)
      : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<5xi64>, tensor<3xi64>)
      -> (tensor<5x2xf32>, tensor<5xf32>)
  return %t2, %lr, %s2 : tensor<5x2xf32>, f32, tensor<5xf32>
}
