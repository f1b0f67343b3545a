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
    - a segment id outside `[0, num_segments)`;
    - a default index (constant or static, `default(%d)` or `default(2)`)
      below -1 or outside the table;
    - a negative `num_segments`, or one that disagrees with a static result
      batch.

    The verifiers look at types and attributes only, so that IR stays valid
    whatever other passes learn about its values (a constant may sit in code
    that never runs); this pass is where constant values are judged. A check
    needs the bound it compares against to be static: `num_emb` is dimension
    0 of the table type, `num_segments` a constant or dimension 0 of the
    result type. The pass changes nothing; it fails when it reports an error.
    With `warnings-only` it reports warnings and never fails: that is how
    `--embbag-to-llvm` runs it first (its option `strict-constants` makes
    them errors), since a correct program may hold such an op in a branch it
    never takes, and the checked lowering stops the program if the op does
    run.

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
  let options = [
    Option<"warningsOnly", "warnings-only", "bool", /*default=*/"false",
           "Report warnings instead of errors, and do not fail">,
  ];
}

def EmbBagSetOmpBlocktime : Pass<"embbag-set-omp-blocktime", "ModuleOp"> {
  let summary = "Tell libomp how long the workers of each parallel region "
                "spin before they sleep";
  let description = [{
    Inserts a call to libomp's `kmp_set_blocktime(ms)` before every
    `omp.parallel` of the module, so that the region's workers spin for `ms`
    milliseconds after it ends (libomp's default is 200) and then sleep.

    `--embbag-to-llvm="parallel=1"` runs it with `ms=0` after the bag loops
    became OpenMP regions. An embedding-bag call is short (tenths of a
    millisecond to a few), and the process that makes it usually holds other
    threads: PyTorch's libgomp workers, a serving framework's own. Workers
    that spin after every call take those threads' cores; measured on 2
    cores next to libgomp, the 2-thread kernel was slower than the 1-thread
    one with the default blocktime and 1.6x faster with 0. A worker that
    sleeps costs one wake-up per call instead (docs/EmbBag/Semantics.md,
    "Threads").

    The call sets libomp's blocktime for the regions the calling thread
    forks from then on, the user's own included; `omp-blocktime=-1` in the
    pipeline leaves the runtime's setting (and `KMP_BLOCKTIME`) alone.

    Example (`ms=0`):

    ```mlir
    %c0 = arith.constant 0 : i32
    func.call @kmp_set_blocktime(%c0) : (i32) -> ()
    omp.parallel { ... }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"milliseconds", "ms", "int", /*default=*/"0",
           "How long the workers spin after a region, in milliseconds">,
  ];
}

#endif // EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_TD
