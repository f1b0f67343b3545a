// Tiles every embbag op over its bags, one bag per scf.for iteration.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match
        ops{["embbag.packed", "embbag.offsets", "embbag.segments"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %bags = transform.structured.tile_using_for %ops tile_sizes [1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
