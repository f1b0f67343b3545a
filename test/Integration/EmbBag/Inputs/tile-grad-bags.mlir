// Tiles every gradient op over its bags, two bags per scf.for iteration,
// as a partial reduction (the tiles' gradients added into zeros). The
// transform op returns a handle per accumulator's initial value: two for a
// weighted op (table and weights gradients), one otherwise, so the ops are
// matched apart (the test marks them `test.weighted` and `test.plain`).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %weighted = transform.structured.match
        ops{["embbag.packed_grad", "embbag.offsets_grad",
             "embbag.segments_grad"]}
        attributes {test.weighted} in %root
        : (!transform.any_op) -> !transform.any_op
    %init:2, %tiled, %merge, %loop =
        transform.structured.tile_reduction_using_for %weighted
        by tile_sizes = [2, 0]
        : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op,
            !transform.any_op, !transform.any_op)
    %plain = transform.structured.match
        ops{["embbag.packed_grad", "embbag.offsets_grad",
             "embbag.segments_grad"]}
        attributes {test.plain} in %root
        : (!transform.any_op) -> !transform.any_op
    %init1, %tiled1, %merge1, %loop1 =
        transform.structured.tile_reduction_using_for %plain
        by tile_sizes = [2, 0]
        : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op,
            !transform.any_op)
    transform.yield
  }
}
