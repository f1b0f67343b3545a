//===- EmbBagDialect.td - EmbBag dialect definition --------*- tablegen -*-===//
//
// The embbag dialect: embedding-bag operations (sum or mean of many table
// rows per bag), as found in recommendation models.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGDIALECT_TD
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGDIALECT_TD

include "mlir/IR/OpBase.td"

def EmbBag_Dialect : Dialect {
  let name = "embbag";
  let cppNamespace = "::mlir::embbag";
  let summary = "Embedding-bag operations for recommendation-model compilers";
  let description = [{
    The `embbag` dialect gives ML compilers a first-class embedding-bag op
    family: for every *bag* (a group of indices), gather the rows of an
    embedding table at those indices and reduce them with a sum, a weighted
    sum or a mean, without materialising the gathered rows.

    The ops follow the OpenVINO opset operations EmbeddingBagPacked-15
    (`embbag.packed`), EmbeddingBagOffsets-15 (`embbag.offsets`) and
    EmbeddingSegmentsSum-3 (`embbag.segments`); EmbeddingBagPackedSum-3 and
    EmbeddingBagOffsetsSum-3 are the `sum` reductions of the first two.

    All ops are value-semantic operations on ranked tensors. The table has
    shape `[num_emb, d1, d2, ...]` and element type T (any integer type but
    `i1`, or `f16`, `bf16`, `f32`, `f64`); every index-like operand has the
    same type T_IND, `i32` or `i64`. The result has shape
    `[batch, d1, d2, ...]` and element type T. Any of `d1, d2, ...` may
    be 0: the rows then hold no elements, and so do the result's, while the
    indices are still checked against `num_emb`.

    Runtime values that break an op's contract (an index outside the table,
    decreasing offsets, ...) are undefined behaviour for the op itself; the
    lowering passes check them by default and stop the program with a message
    naming the op (see `--convert-embbag-to-loops` option `checks`).

    The dialect has three discardable attributes on ops, all unit attributes.
    `embbag.runtime_check`, valid on `cf.assert` only, marks the asserts of
    those runtime checks, which `--convert-embbag-assert-to-llvm` rewrites
    to report on stderr. A `cf.assert` without it is the user's and keeps its
    upstream lowering (`convert-cf-to-llvm`). `embbag.row_dispatch`, valid
    on `scf.for` only, marks a kernel's bag loop whose body dispatches over
    a row length known only at run time; `--embbag-unswitch-row-dispatch`
    hoists that dispatch out of the loop once it is on buffers.
    `embbag.work_chunks`, valid on `scf.forall` only, marks a kernel's
    parallel loop over chunks of work of uneven cost (rows from different
    caches, bags of different lengths);
    `--convert-embbag-work-chunks-to-openmp` lowers it, once on buffers, to
    an OpenMP worksharing loop with a schedule that balances them.

    Another, `embbag.table_owner = N : i64` (N a non-negative integer), is
    an argument attribute of a function whose argument is the table of
    embbag ops: the table lives on process N of the grid axis that splits
    those ops' bags (table-wise sharding, docs/Sharding.md), and only
    process N reads it.

    The lowering passes rewrite the embbag ops and nothing else; the code
    around them comes out as it went in.
  }];
  let useDefaultAttributePrinterParser = 1;

  // Canonicalization and shape reification create tensor and arith ops
  // (tensor.cast, tensor.empty, tensor.expand_shape, arith.index_cast).
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];

  // `embbag.runtime_check` (a unit attribute) marks the `cf.assert`s that the
  // lowerings emit for the runtime checks, so that
  // `--convert-embbag-assert-to-llvm` rewrites those and no user assert.
  // `embbag.row_dispatch` marks the bag loops that
  // `--embbag-unswitch-row-dispatch` may rewrite, and no user loop.
  // `embbag.work_chunks` marks the kernels' parallel loops that
  // `--convert-embbag-work-chunks-to-openmp` lowers, and no user loop.
  // `embbag.table_owner` (an integer, on a function's tensor argument)
  // places a table on one process of a grid axis: table-wise sharding
  // (docs/Sharding.md).
  let discardableAttrs = (ins "::mlir::UnitAttr":$runtime_check,
                              "::mlir::UnitAttr":$row_dispatch,
                              "::mlir::UnitAttr":$work_chunks,
                              "::mlir::IntegerAttr":$table_owner);
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  // The canonicalization patterns of every op with BagOpInterface.
  let hasCanonicalizer = 1;
}

class EmbBag_Op<string mnemonic, list<Trait> traits = []>
    : Op<EmbBag_Dialect, mnemonic, traits>;

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGDIALECT_TD
