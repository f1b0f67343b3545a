// Three tables for embbag-aot --target=nvptx with batch-tables: three
// independent ops (packed rows of 4, offsets rows of 4, packed max rows of
// 8), one launch. With every rule checked on the device their bits of the
// shared flag word are 1 (@tables' first op: indices), 2 and 4 (the
// offsets op: offsets, indices) and 8 (the last op: indices).
func.func @tables(%t0: tensor<?x4xf32>, %i0: tensor<?x?xi32>, %out0: memref<?x4xf32>,
                  %t1: tensor<?x4xf32>, %i1: tensor<?xi64>, %o1: tensor<?xi64>, %out1: memref<?x4xf32>,
                  %t2: tensor<?x8xf32>, %i2: tensor<?x?xi32>, %out2: memref<?x8xf32>) {
  %r0 = embbag.packed sum %t0[%i0] : (tensor<?x4xf32>, tensor<?x?xi32>) -> tensor<?x4xf32>
  bufferization.materialize_in_destination %r0 in restrict writable %out0 : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
  %r1 = embbag.offsets sum %t1[%i1] offsets(%o1) : (tensor<?x4xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x4xf32>
  bufferization.materialize_in_destination %r1 in restrict writable %out1 : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
  %r2 = embbag.packed max %t2[%i2] : (tensor<?x8xf32>, tensor<?x?xi32>) -> tensor<?x8xf32>
  bufferization.materialize_in_destination %r2 in restrict writable %out2 : (tensor<?x8xf32>, memref<?x8xf32>) -> ()
  return
}
