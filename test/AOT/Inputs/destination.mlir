// A kernel whose result goes into the caller's buffer: the buffer must have
// the result's shape, which the caller can get wrong (batch + 1 offsets for
// a batch-row `out`).
func.func @into(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %out: memref<?x?xf32>) {
  %r = embbag.offsets sum %t[%i] offsets(%o) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
// The same, packed, through a tensor.cast to a static shape.
func.func @into_packed(%t: tensor<?x2xf32>, %i: tensor<?x?xi32>, %out: memref<3x2xf32>) {
  %r = embbag.packed sum %t[%i] : (tensor<?x2xf32>, tensor<?x?xi32>) -> tensor<?x2xf32>
  %c = tensor.cast %r : tensor<?x2xf32> to tensor<3x2xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<3x2xf32>, memref<3x2xf32>) -> ()
  return
}
