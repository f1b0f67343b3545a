// Kernels for embbag-aot --target=nvptx: the form the GPU path compiles
// (public functions on tensors, results into a caller's buffer; no
// embbag.segments on the GPU yet).
func.func @bag_sum(%t: tensor<?x?xf32>, %i: tensor<?x?xi32>, %out: memref<?x?xf32>) {
  %r = embbag.packed sum %t[%i] : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
func.func @bag_offsets(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %d: i64, %out: memref<?x?xf32>) {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
