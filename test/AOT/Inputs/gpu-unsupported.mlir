// A kernel the GPU lowering does not take yet (a table of integers):
// test/AOT/nvptx-errors.test.

func.func @bag_i32(%t: tensor<?x?xi32>, %i: tensor<?x?xi32>, %out: memref<?x?xi32>) {
  %r = embbag.packed sum %t[%i] : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xi32>, memref<?x?xi32>) -> ()
  return
}
