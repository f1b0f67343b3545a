//===- Passes.td - EmbBag transformation passes ------------*- tablegen -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_TD
#define EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def EmbBagVerifyConstants : Pass<"embbag-verify-constants"> {
  let summary = "Report constant operands that break an embbag op's contract";
  let description = [{
    The verifiers check shapes and types only. This pass goes further for
    operands defined by constants (`arith.constant dense<...>`) and reports
    an error, at the op's location, for every value that would break the
    op's runtime contract:

    - an index outside `[0, num_emb)` (for `embbag.offsets`, only the indices
      from `offsets[0]` on, the ones a bag reads; with non-constant offsets
      the indices are not checked);
    - offsets that are negative, decrease, or exceed the number of indices;
    - a segment id outside `[0, num_segments)`.

    Default indices are checked by the verifier already. A check needs the
    bound it compares against to be static: `num_emb` is dimension 0 of the
    table type, `num_segments` a constant or dimension 0 of the result type.
    The pass changes nothing; it fails when it reports an error.
    `--embbag-to-llvm` runs it first.

    Example:

    ```mlir
    %i = arith.constant dense<[[0, 7]]> : tensor<1x2xi32>
    // error: 'embbag.packed' op index 7 at indices[0, 1] is out of range
    // [0, 5) of the table
    %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<1x2xi32>)
           -> tensor<1x2xf32>
    ```
  }];
  let dependentDialects = [];
}

#endif // EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_TD
