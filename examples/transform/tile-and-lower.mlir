// A transform script that tiles, parallelises and lowers embbag ops with the
// upstream transform dialect (docs/Bufferization.md):
//
//   1. tile every embbag op over its bags, 2 bags per tile, as one
//      scf.forall: the tiles are independent (each is the same op on its
//      bags: for embbag.offsets the tile's offsets rebased and the indices
//      they delimit; for embbag.segments the tile's segments), so the
//      forall may run them in parallel;
//   2. clean up the index arithmetic the tiling left;
//   3. lower the tiles' (and every other) embbag ops to loops
//      (convert-embbag-to-loops, as the first step of --embbag-to-llvm
//      would).
//
// What is left is upstream IR on tensors; --embbag-to-llvm bufferizes and
// lowers it, with parallel=1 the forall becomes an OpenMP loop over tiles:
//
//   embbag-opt x.mlir \
//     --transform-preload-library=transform-library-paths=examples/transform/tile-and-lower.mlir \
//     --transform-interpreter --embbag-to-llvm="parallel=1"
//
// test/Examples/transform-tile-and-lower.mlir runs it.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match
        ops{["embbag.packed", "embbag.offsets", "embbag.segments"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // Tile sizes per loop: [bags, columns...]; the columns stay whole.
    %tiles, %forall = transform.structured.tile_using_forall %ops
        tile_sizes [2]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    %funcs = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.canonicalization
    } : !transform.any_op

    %lowered = transform.apply_registered_pass "convert-embbag-to-loops"
        to %funcs : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
