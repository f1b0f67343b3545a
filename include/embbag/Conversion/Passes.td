//===- Passes.td - EmbBag conversion passes ----------------*- tablegen -*-===//

#ifndef EMBBAG_CONVERSION_PASSES_TD
#define EMBBAG_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertEmbBagToLoops : Pass<"convert-embbag-to-loops"> {
  let summary = "Lower embbag ops to scf loops with vector accumulation";
  let description = [{
    Rewrites every `embbag.packed`, `embbag.offsets` and `embbag.segments` op
    into `scf.for` loops on tensors with `vector` ops, in the shape of the
    fastest hand-written CPU kernels:

    ```
    for each bag b:
      for each chunk of `max-vectors` vectors along the (flattened) row:
        acc[0..U) = 0                       // vector iter_args of the loop below
        for j in bag b:                     // one pass over the bag's indices
          acc[u] += w[j] * table[indices[j], chunk + u * VL : +VL]
        empty bag -> default row or zeros; mean -> acc / bag size
        result[b, chunk ...] = acc          // one store per bag and chunk
    ```

    The accumulators stay in registers across the bag; table rows are read
    with contiguous vector transfers; the last chunk of a row whose length
    is not a multiple of the vector length uses masked transfers (no scalar
    epilogue). `f16`/`bf16` accumulate in `f32`. Integer types wrap; integer
    means divide the wrapped sum by the true count.

    `embbag.segments` first counts the ids per segment (a histogram and its
    prefix sum give each segment's range); sorted ids are used in place,
    unsorted ids are bucketed (a stable counting sort) first, so that the
    result does not depend on their order.

    With `checks` (the default) the runtime contract of each op is checked
    before its loops run, in a separate pass over the index-like operands,
    never inside the loop over a row: a violation reaches a `cf.assert`
    whose message names the op, its location and the broken rule. Without
    `checks` no check is emitted and invalid inputs are undefined behaviour.

    Example: `embbag-opt --convert-embbag-to-loops="vector-bits=512"`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"256",
           "Width in bits of the vectors the row is accumulated in (256 for "
           "AVX2, 512 for AVX-512); the vector length is this divided by "
           "the accumulator element width">,
    Option<"maxVectors", "max-vectors", "unsigned", /*default=*/"8",
           "Number of accumulator vectors kept in registers per pass over a "
           "bag (register blocking along the row)">,
    Option<"checks", "checks", "bool", /*default=*/"true",
           "Check the runtime contract (indices, default, offsets, segment "
           "ids, num_segments) and stop with a message when it is broken">,
  ];
}

def ConvertEmbBagAssertToLLVM : Pass<"convert-embbag-assert-to-llvm",
                                     "::mlir::ModuleOp"> {
  let summary = "Lower cf.assert to a message on stderr and abort()";
  let description = [{
    Upstream's `cf.assert` lowering prints its message with `puts` to stdout,
    which is buffered: when the program then aborts, a message going to a
    pipe is lost. This pass rewrites every `cf.assert` into a branch to a
    block that writes the message and a newline to file descriptor 2 with
    `write` (unbuffered) and calls `abort`, so the message survives
    redirection. Run it before `convert-cf-to-llvm`; `--embbag-to-llvm`
    does.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

#endif // EMBBAG_CONVERSION_PASSES_TD
