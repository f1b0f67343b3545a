// Training kernels for embbag-aot --target=nvptx (test/AOT/nvptx-training.test):
// results in the caller's device buffers.

// An f32 gradient of sum: the row owners only, no scratch memory.
func.func @grad(%dy: tensor<?x4xf32>, %t: tensor<?x4xf32>, %i: tensor<?xi64>,
                %off: tensor<?xi64>, %out: memref<?x4xf32>) {
  %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
      : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x4xf32>
  bufferization.materialize_in_destination %g in restrict writable %out
      : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
  return
}

// Row-wise Adagrad of max: the winners, then the row owners, in scratch
// memory; the table and the state updated in place when the caller passes
// their own buffers as destinations.
func.func @adagrad(%lr: f32, %eps: f32, %s: tensor<?xf32>, %dy: tensor<?x4xf32>,
                   %t: tensor<?x4xf32>, %i: tensor<?xi64>, %off: tensor<?xi64>,
                   %tout: memref<?x4xf32>, %sout: memref<?xf32>) {
  %t2, %s2 = embbag.offsets_update max rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%off)
      : (f32, f32, tensor<?xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi64>, tensor<?xi64>)
      -> (tensor<?x4xf32>, tensor<?xf32>)
  bufferization.materialize_in_destination %t2 in restrict writable %tout
      : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
  bufferization.materialize_in_destination %s2 in restrict writable %sout
      : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}
