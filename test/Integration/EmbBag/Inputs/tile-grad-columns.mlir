// Tiles the unweighted gradient ops over their columns, three per scf.for
// iteration (a partial last tile of one column).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match
        ops{["embbag.packed_grad", "embbag.offsets_grad",
             "embbag.segments_grad"]}
        attributes {test.plain} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %ops
        tile_sizes [0, 3]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
