// Tiles every embbag op with scf.for loops: 2 bags by 3 columns (the tables
// have 4 columns and the ops 4 or 5 bags, so the last tiles are partial).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match
        ops{["embbag.packed", "embbag.offsets", "embbag.segments"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %bags, %columns = transform.structured.tile_using_for %ops
        tile_sizes [2, 3]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                  !transform.any_op)
    transform.yield
  }
}
