// Kernels for embbag-aot: public functions on tensors that write their
// result into a caller's buffer (the form --checks=status needs).
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
func.func @seg(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %s: tensor<?xi32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %out, %c0 : memref<?x?xf32>
  %ni = arith.index_cast %n : index to i32
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%ni) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
