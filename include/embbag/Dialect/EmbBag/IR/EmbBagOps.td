//===- EmbBagOps.td - EmbBag operations --------------------*- tablegen -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGOPS_TD
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGOPS_TD

include "embbag/Dialect/EmbBag/IR/EmbBagDialect.td"
include "embbag/Dialect/EmbBag/IR/EmbBagEnums.td"
include "embbag/Dialect/EmbBag/IR/EmbBagInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def EmbBag_IntegerElement
    : Type<And<[CPred<"::llvm::isa<::mlir::IntegerType>($_self)">,
                CPred<"::llvm::cast<::mlir::IntegerType>($_self).getWidth() "
                      "!= 1">]>,
           "integer other than i1", "::mlir::IntegerType">;

// T: the element type of tables, weights and results.
def EmbBag_Element
    : AnyTypeOf<[EmbBag_IntegerElement, F16, BF16, F32, F64],
                "integer (not i1), f16, bf16, f32 or f64">;

def EmbBag_TableTensor
    : Type<And<[RankedTensorOf<[EmbBag_Element]>.predicate,
                CPred<"::llvm::cast<::mlir::RankedTensorType>($_self)"
                      ".getRank() >= 1">]>,
           "ranked tensor of rank >= 1 of integer (not i1), f16, bf16, f32 "
           "or f64 values", "::mlir::RankedTensorType">;

def EmbBag_ElementTensor : RankedTensorOf<[EmbBag_Element]>;

// The code width of a row-wise quantized table (`rowwise(i8)`, `rowwise(i4)`,
// `rowwise(i2)`): a type attribute holding i8, i4 or i2.
def EmbBag_RowwiseAttr
    : TypeAttrOf<AnyTypeOf<[I8, I<4>, I<2>], "i8, i4 or i2">> {
  let summary = "the code width of a row-wise quantized table";
}

// T_IND: the type of every index-like operand of an op (one type per op).
def EmbBag_IndexScalar : AnyTypeOf<[I32, I64], "i32 or i64">;
def EmbBag_IndexTensor : RankedTensorOf<[I32, I64]>;

//===----------------------------------------------------------------------===//
// The clauses of each form
//===----------------------------------------------------------------------===//
//
// The operands and clauses after the reduction, and their syntax, of each
// form: the forward ops and the training ops of a form write them alike.

defvar EmbBag_PackedClauses = (ins EmbBag_TableTensor:$table,
                                   EmbBag_IndexTensor:$indices,
                                   Optional<EmbBag_IndexScalar>:$padding_idx,
                                   Optional<EmbBag_ElementTensor>:$weights,
                                   OptionalAttr<EmbBag_RowwiseAttr>:$rowwise);

defvar EmbBag_PackedFormat = [{
    $table `[` $indices `]`
    (`padding_idx` `(` $padding_idx^ `)`)?
    (`weights` `(` $weights^ `)`)?
    `` custom<Rowwise>($rowwise)
}];

defvar EmbBag_OffsetsClauses = (ins EmbBag_TableTensor:$table,
                                    EmbBag_IndexTensor:$indices,
                                    EmbBag_IndexTensor:$offsets,
                                    UnitAttr:$include_last_offset,
                                    Optional<EmbBag_IndexScalar>:$default_index,
                                    OptionalAttr<I64Attr>:$static_default_index,
                                    Optional<EmbBag_IndexScalar>:$padding_idx,
                                    Optional<EmbBag_ElementTensor>:$weights,
                                    OptionalAttr<EmbBag_RowwiseAttr>:$rowwise);

defvar EmbBag_OffsetsFormat = [{
    $table `[` $indices `]` `offsets` `(` $offsets `)`
    (`include_last_offset` $include_last_offset^)?
    `` custom<OptionalDefault>($default_index, $static_default_index)
    (`padding_idx` `(` $padding_idx^ `)`)?
    (`weights` `(` $weights^ `)`)?
    `` custom<Rowwise>($rowwise)
}];

defvar EmbBag_SegmentsClauses = (ins
    EmbBag_TableTensor:$table,
    EmbBag_IndexTensor:$indices,
    EmbBag_IndexTensor:$segment_ids,
    Optional<EmbBag_IndexScalar>:$num_segments,
    OptionalAttr<I64Attr>:$static_num_segments,
    Optional<EmbBag_IndexScalar>:$default_index,
    OptionalAttr<I64Attr>:$static_default_index,
    Optional<EmbBag_IndexScalar>:$padding_idx,
    Optional<EmbBag_ElementTensor>:$weights,
    OptionalAttr<EmbBag_RowwiseAttr>:$rowwise);

defvar EmbBag_SegmentsFormat = [{
    $table `[` $indices `]` `segment_ids` `(` $segment_ids `)`
    `num_segments` `(` custom<DynamicOrStaticIndex>($num_segments, $static_num_segments) `)`
    `` custom<OptionalDefault>($default_index, $static_default_index)
    (`padding_idx` `(` $padding_idx^ `)`)?
    (`weights` `(` $weights^ `)`)?
    `` custom<Rowwise>($rowwise)
}];

//===----------------------------------------------------------------------===//
// Common base
//===----------------------------------------------------------------------===//

class EmbBag_BagOp<string mnemonic, list<Trait> traits = []>
    : EmbBag_Op<mnemonic, !listconcat(traits, [
        // Not Pure: the checked lowering stops the program on an invalid
        // index, so the ops must not be hoisted or speculated (LICM) where
        // the program would not run them; they have no memory effect, so
        // CSE and DCE still apply.
        NoMemoryEffect,
        DeclareOpInterfaceMethods<ConditionallySpeculatable>,
        EmbBag_BagOpInterface,
        InferTypeOpAdaptorWithIsCompatible,
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                  ["reifyResultShapes"]>])> {
  let results = (outs EmbBag_ElementTensor:$result);
  let hasVerifier = 1;
  // The canonicalization patterns every bag op shares are the dialect's
  // (they match BagOpInterface); an op lists only its own.
  // Bytecode of the properties, read as the dialect version of the file
  // has them (lib/Dialect/EmbBag/IR/EmbBagBytecode.cpp).
  let useCustomPropertiesEncoding = 1;

  code commonExtraClassDeclaration = [{
    /// The table rows are `getTable().getType().getShape().drop_front()`.
    ::mlir::RankedTensorType getTableType() {
      return getTable().getType();
    }
    ::mlir::RankedTensorType getIndicesType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getIndices().getType());
    }
    ::mlir::RankedTensorType getResultType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getResult().getType());
    }
    /// The type T_IND shared by every index-like operand.
    ::mlir::IntegerType getIndexElementType() {
      return ::llvm::cast<::mlir::IntegerType>(
          getIndicesType().getElementType());
    }
    bool isMean() { return getReduction() == ::mlir::embbag::Reduction::mean; }
    bool isMax() { return getReduction() == ::mlir::embbag::Reduction::max; }
    bool isSqrtn() {
      return getReduction() == ::mlir::embbag::Reduction::sqrtn;
    }
    /// The bits per code of a row-wise quantized table (8, 4 or 2); 0 for a
    /// table of values.
    unsigned getRowwiseBits() {
      if (::mlir::TypeAttr attr = getRowwiseAttr())
        return attr.getValue().getIntOrFloatBitWidth();
      return 0;
    }
    /// The type of the values the bags reduce: the table's element type, or
    /// for a quantized table the result's (f32 or f16).
    ::mlir::Type getValueElementType() {
      return getRowwiseBits() ? getResultType().getElementType()
                              : getTableType().getElementType();
    }
    /// BagOpInterface: a new op of this form (BagOpInterface.cpp).
    ::mlir::Value createWithOperands(::mlir::OpBuilder &b,
                                     ::mlir::Location loc,
                                     ::mlir::embbag::Reduction reduction,
                                     const ::mlir::embbag::BagOperands &o);
  }];

  // BagOpInterface's answers for the ops without a `default` clause, without
  // `num_segments`, and without `include_last_offset`.
  code noDefaultIndex = [{
    std::optional<::mlir::OpFoldResult> getMixedDefaultIndex() {
      return std::nullopt;
    }
  }];
  code noNumSegments = [{
    ::mlir::OpFoldResult getMixedNumSegments() { return {}; }
  }];
  code noIncludeLastOffset = [{
    bool getIncludeLastOffset() { return false; }
  }];

  // For the ops with a `default` clause: the default index is absent, a
  // static attribute (`default(2)`) or an SSA operand (`default(%d)`).
  code defaultIndexAccessors = [{
    /// The default index as given (attribute or value), or std::nullopt.
    std::optional<::mlir::OpFoldResult> getMixedDefaultIndex() {
      if (auto attr = getStaticDefaultIndexAttr())
        return ::mlir::OpFoldResult(attr);
      if (::mlir::Value value = getDefaultIndex())
        return ::mlir::OpFoldResult(value);
      return std::nullopt;
    }
  }];
}

//===----------------------------------------------------------------------===//
// PackedOp
//===----------------------------------------------------------------------===//

def EmbBag_PackedOp : EmbBag_BagOp<"packed", [AttrSizedOperandSegments]> {
  let summary = "embedding bags of a fixed size (EmbeddingBagPacked-15)";
  let description = [{
    Reduces, for each row `b` of the 2-D `indices` tensor of shape
    `[batch, indices_per_bag]`, the table rows `table[indices[b, j]]` over `j`:

    ```
    result[b, ...] = sum_j weights[b, j] * table[indices[b, j], ...]   // sum
    result[b, ...] = (sum_j table[indices[b, j], ...]) / indices_per_bag // mean
    result[b, ...] = max_j table[indices[b, j], ...]                     // max
    result[b, ...] = (sum_j w[b, j] * table[indices[b, j], ...])
                     / sqrt(sum_j w[b, j]^2)                             // sqrtn
    ```

    `max` (PyTorch's `mode="max"`) is the element-wise maximum, compared in
    the signedness of the element type for integers (signless as signed);
    floats propagate NaN. `sqrtn` (TensorFlow's `combiner="sqrtn"`) needs a
    float element type; without weights it divides the sum by the square
    root of the bag size.

    `weights` (OpenVINO's `per_sample_weights`) has the shape of `indices` and
    the element type of the table; without it every weight is 1. It is
    rejected with `mean` and `max`. The result has shape `[batch, d1, d2, ...]` for a
    table of shape `[num_emb, d1, d2, ...]`.

    Semantics fixed beyond the specification:
    - `indices_per_bag == 0`: every bag is empty and its row is zeros (also
      for `mean` and `max`).
    - `mean` of an integer type divides the wrapped sum by the bag size and
      truncates toward zero; unsigned types divide unsigned.
    - `f16` and `bf16` accumulate in `f32` and round once.
    - Every index must lie in `[0, num_emb)`; the lowering checks it by
      default.

    With `padding_idx(%p)` (PyTorch's `padding_idx`; `%p` of the indices'
    element type), the indices equal to `%p` are skipped: their rows are not
    read (not summed, not part of `max`), they do not count for `mean` and
    `sqrtn`, their weights are ignored (also in the `sqrtn` norm), and a bag
    of only `%p` is empty (a row of zeros, not divided). `%p == -1` skips nothing, as if the clause
    were absent. Runtime contract, checked by default in the lowering:
    `%p` lies in `[-1, num_emb)`.

    Example:

    ```mlir
    %0 = embbag.packed sum %table[%indices]
           : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    %1 = embbag.packed sum %table[%indices] weights(%w)
           : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %2 = embbag.packed mean %table[%indices]
           : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    %3 = embbag.packed max %table[%indices]
           : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    %4 = embbag.packed mean %table[%indices] padding_idx(%p)
           : (tensor<5x2xf32>, tensor<3x2xi32>, i32) -> tensor<3x2xf32>
    ```

    With `rowwise(i8)`, `rowwise(i4)` or `rowwise(i2)` the table is row-wise
    quantized in PyTorch's and FBGEMM's layout (`embedding_bag_byte_prepack`,
    `embedding_bag_4bit_prepack`): a 2-D tensor of `ui8` (or `i8`) bytes, one
    row per embedding. `rowwise(i8)`: a row of `D` result columns is `D + 8`
    bytes, `D` codes then an f32 scale and an f32 bias (little endian).
    `rowwise(i4)` / `rowwise(i2)`: `ceil(D * bits / 8) + 4` bytes, the codes
    packed lowest bits first, then an f16 scale and an f16 bias; `D` is the
    result's dimension 1, which must then be static. Row value `c` is
    `code[c] * scale + bias`, the codes unsigned whatever the byte type. The
    result is `f32` or `f16` and the bag is reduced in f32 (rounded once for
    f16); weights have the result's element type. Every reduction, the
    default row and padding act on the dequantized rows:

    ```mlir
    %5 = embbag.packed sum %qtable[%indices] rowwise(i4)
           : (tensor<1000x36xui8>, tensor<3x2xi32>) -> tensor<3x64xf32>
    ```
  }];

  let arguments = !con((ins EmbBag_ReductionAttr:$reduction),
                       EmbBag_PackedClauses);

  let assemblyFormat = !strconcat("custom<Reduction>($reduction)",
      EmbBag_PackedFormat, "attr-dict `:` functional-type(operands, results)");

  let extraClassDeclaration = commonExtraClassDeclaration # noDefaultIndex #
      noNumSegments # noIncludeLastOffset # [{
    ::mlir::embbag::BagForm getBagForm() {
      return ::mlir::embbag::BagForm::Packed;
    }
    ::mlir::Value getBags() { return {}; }
  }];
}

//===----------------------------------------------------------------------===//
// OffsetsOp
//===----------------------------------------------------------------------===//

def EmbBag_OffsetsOp : EmbBag_BagOp<"offsets", [AttrSizedOperandSegments]> {
  let summary = "embedding bags delimited by offsets (EmbeddingBagOffsets-15)";
  let description = [{
    Bag `b` holds the indices `indices[offsets[b] : offsets[b + 1]]`, the last
    bag running to the end of `indices`. Each bag is reduced as in
    `embbag.packed`: a (weighted) sum, a mean dividing by the bag size, an
    element-wise maximum, or a (weighted) sum divided by the square root of
    the bag size (of the sum of the squared weights).
    The result has one row per offset: shape `[batch, d1, d2, ...]` where
    `batch` is the length of `offsets`.

    With `include_last_offset` (PyTorch's), `offsets` has `batch + 1`
    entries: bag `b` is `indices[offsets[b] : offsets[b + 1]]` for every
    bag, the indices from `offsets[batch]` on are never read, and the result
    has one row fewer than `offsets` (which must not be empty).

    An empty bag takes the row `table[default_index]` (unweighted, and not
    divided for `mean`) when `default` is given and not `-1`; zeros
    otherwise (also for `max`, as in PyTorch; `sqrtn` does not divide it
    either).

    Semantics fixed beyond the specification:
    - indices before `offsets[0]` belong to no bag and are never read;
    - `offsets[b] == num_indices` is allowed (a trailing empty bag);
    - with no indices at all every bag is empty.
    - Runtime contract, checked by default in the lowering: offsets are
      non-decreasing and at most `num_indices` (and not empty with
      `include_last_offset`); every index read and the default (when given
      and not `-1`) lie in `[0, num_emb)`; `padding_idx` (when given) lies
      in `[-1, num_emb)`.

    With `padding_idx(%p)` (PyTorch's), the indices equal to `%p` are
    skipped as in `embbag.packed`: a bag of only `%p` is an empty bag and
    takes the default row (or zeros). `%p == -1` skips nothing.

    Example (the second bag is empty and takes row 0):

    ```mlir
    %0 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%d)
           weights(%w)
           : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32,
              tensor<4xf32>) -> tensor<3x2xf32>
    %1 = embbag.offsets mean %table[%indices] offsets(%offsets)
           : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
    %2 = embbag.offsets max %table[%indices] offsets(%offsets)
           : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
    %3 = embbag.offsets sqrtn %table[%indices] offsets(%off4)
           include_last_offset weights(%w)
           : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>,
              tensor<4xf32>) -> tensor<3x2xf32>
    %4 = embbag.offsets sum %table[%indices] offsets(%offsets) default(%d)
           padding_idx(%p) weights(%w)
           : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, i32,
              tensor<4xf32>) -> tensor<3x2xf32>
    ```

    With `rowwise(i8 | i4 | i2)` the table is row-wise quantized, as in
    `embbag.packed` (PyTorch's `embedding_bag_byte_rowwise_offsets` and
    `embedding_bag_4bit_rowwise_offsets`):

    ```mlir
    %5 = embbag.offsets max %qtable[%indices] offsets(%offsets) rowwise(i8)
           : (tensor<1000x72xui8>, tensor<?xi64>, tensor<?xi64>)
           -> tensor<?x64xf32>
    ```
  }];

  let arguments = !con((ins EmbBag_ReductionAttr:$reduction),
                       EmbBag_OffsetsClauses);

  let hasCanonicalizer = 1;
  let assemblyFormat = !strconcat("custom<Reduction>($reduction)",
      EmbBag_OffsetsFormat, "attr-dict `:` functional-type(operands, results)");

  let extraClassDeclaration = commonExtraClassDeclaration #
      defaultIndexAccessors # noNumSegments # [{
    ::mlir::embbag::BagForm getBagForm() {
      return ::mlir::embbag::BagForm::Offsets;
    }
    ::mlir::Value getBags() { return getOffsets(); }
  }];
}

//===----------------------------------------------------------------------===//
// SegmentsOp
//===----------------------------------------------------------------------===//

def EmbBag_SegmentsOp : EmbBag_BagOp<"segments", [AttrSizedOperandSegments]> {
  let summary = "embedding bags given by segment ids (EmbeddingSegmentsSum-3)";
  let description = [{
    Index `i` belongs to segment `segment_ids[i]`; the result has
    `num_segments` rows, row `s` reducing the table rows of all indices of
    segment `s` (TensorFlow's `sparse.segment_sum`). `mean` is an extension
    (TensorFlow's `segment_mean`): a segment's sum divided by its size;
    `max` (TensorFlow's `segment_max`) the element-wise maximum of its rows;
    `sqrtn` (TensorFlow's `sparse.segment_sqrt_n`) its sum divided by the
    square root of its size.

    An empty segment takes the row `table[default_index]` (unweighted, not
    divided) when `default` is given and not `-1`; zeros otherwise (also for
    `max`).

    The result is independent of the order of `segment_ids`: sorted ids are
    the fast path, unsorted ids give the same result. Dimension 0 of the
    result is static when `num_segments` is a constant.

    With `padding_idx(%p)`, the indices equal to `%p` are skipped as in
    `embbag.packed` (PyTorch's `padding_idx`, carried over): a segment of
    only `%p` is empty and takes the default row (or zeros). `%p == -1`
    skips nothing.

    Runtime contract, checked by default in the lowering: `num_segments >= 0`,
    every segment id in `[0, num_segments)`, every index and the default
    (when given and not `-1`) in `[0, num_emb)`, `padding_idx` (when given)
    in `[-1, num_emb)`.

    Example (segment 1 is empty and takes row 0):

    ```mlir
    %0 = embbag.segments sum %table[%indices] segment_ids(%seg)
           num_segments(%n) default(%d) weights(%w)
           : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32,
              tensor<4xf32>) -> tensor<3x2xf32>
    %1 = embbag.segments max %table[%indices] segment_ids(%seg)
           num_segments(3) padding_idx(%p)
           : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32)
           -> tensor<3x2xf32>
    ```

    With `rowwise(i8 | i4 | i2)` the table is row-wise quantized, as in
    `embbag.packed`:

    ```mlir
    %2 = embbag.segments sum %qtable[%indices] segment_ids(%seg)
           num_segments(3) rowwise(i2)
           : (tensor<1000x20xui8>, tensor<4xi32>, tensor<4xi32>)
           -> tensor<3x64xf16>
    ```
  }];

  let arguments = !con((ins EmbBag_ReductionAttr:$reduction),
                       EmbBag_SegmentsClauses);

  let hasCanonicalizer = 1;
  let assemblyFormat = !strconcat("custom<Reduction>($reduction)",
      EmbBag_SegmentsFormat, "attr-dict `:` functional-type(operands, results)");

  let extraClassDeclaration = commonExtraClassDeclaration #
      defaultIndexAccessors # noIncludeLastOffset # [{
    ::mlir::embbag::BagForm getBagForm() {
      return ::mlir::embbag::BagForm::Segments;
    }
    ::mlir::Value getBags() { return getSegmentIds(); }
    /// `num_segments`: the static attribute or the SSA operand.
    ::mlir::OpFoldResult getMixedNumSegments() {
      if (auto attr = getStaticNumSegmentsAttr())
        return attr;
      return getNumSegments();
    }
  }];
}

// The training ops (issue 22): gradients and fused updates of the three.
include "embbag/Dialect/EmbBag/IR/EmbBagTrainingOps.td"

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGOPS_TD
