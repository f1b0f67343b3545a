// Tiles every embbag op with one scf.forall: 2 bags by 3 columns (the last
// tiles are partial).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match
        ops{["embbag.packed", "embbag.offsets", "embbag.segments"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %ops
        tile_sizes [2, 3]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
