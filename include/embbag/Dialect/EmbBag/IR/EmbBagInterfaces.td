//===- EmbBagInterfaces.td - What a bag op is --------------*- tablegen -*-===//
//
// BagOpInterface: the one answer to "what is a bag". Passes ask it for the
// operands by role, the reduction, the bounds of bag b and a copy of an op
// on some of its bags; none of them names the three ops.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGINTERFACES_TD
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGINTERFACES_TD

include "mlir/IR/OpBase.td"

def EmbBag_BagOpInterface : OpInterface<"BagOpInterface"> {
  let cppNamespace = "::mlir::embbag";
  let description = [{
    An op that reduces bags of table rows: `embbag.packed`, `embbag.offsets`
    and `embbag.segments`. Every operand and clause has a typed accessor
    (absent clauses answer null, `false` or `std::nullopt`), the reduction
    is the `Reduction` enum, and `getBagForm()` says how indices are grouped
    into bags:

    - `packed`: bag `b` is `indices[b, :]`;
    - `offsets`: bag `b` is `indices[offsets[b] : offsets[b + 1]]`, the last
      bag running to the end of the indices (to `offsets[batch]` with
      `include_last_offset`);
    - `segments`: segment `s` holds the indices `i` with
      `segment_ids[i] == s`, in any order.

    The interface's helpers build, for every form, the number of bags and
    the range `[start, end)` of bag `b` (`getBagBounds`), the operands by
    role (`getBagOperands`), a new op of the same form on other operands
    (`createWithOperands`) and the op restricted to a range of its bags
    (`cloneOnBags`), for tiling and sharding.
  }];

  let methods = [
    InterfaceMethod<"How the indices are grouped into bags.",
      "::mlir::embbag::BagForm", "getBagForm">,
    InterfaceMethod<"The reduction of every bag.",
      "::mlir::embbag::Reduction", "getReduction">,
    InterfaceMethod<"The table [num_emb, d1, ...] (quantized: [num_emb, "
                    "bytes]).",
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getTable">,
    InterfaceMethod<"The indices: [batch, per_bag] (packed) or "
                    "[num_indices].",
      "::mlir::Value", "getIndices">,
    InterfaceMethod<"The offsets or the segment ids; null for packed.",
      "::mlir::Value", "getBags">,
    InterfaceMethod<"Whether the last offset closes the last bag (offsets).",
      "bool", "getIncludeLastOffset">,
    InterfaceMethod<"`num_segments` (attribute or value); null but for "
                    "segments.",
      "::mlir::OpFoldResult", "getMixedNumSegments">,
    InterfaceMethod<"The default index (attribute or value), if given.",
      "std::optional<::mlir::OpFoldResult>", "getMixedDefaultIndex">,
    InterfaceMethod<"The padding index, or null.",
      "::mlir::Value", "getPaddingIdx">,
    InterfaceMethod<"The per-index weights, or null.",
      "::mlir::Value", "getWeights">,
    InterfaceMethod<"The code width of a row-wise quantized table, or null.",
      "::mlir::TypeAttr", "getRowwiseAttr">,
    InterfaceMethod<[{
        Creates an op of this op's form with `operands` and `reduction`, its
        result type inferred (a quantized table's result keeps this op's
        element type and row length).
      }],
      "::mlir::Value", "createWithOperands",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::mlir::embbag::Reduction":$reduction,
           "const ::mlir::embbag::BagOperands &":$operands)>,
  ];

  let extraSharedClassDeclaration = [{
    /// The result [batch, d1, ...].
    ::mlir::RankedTensorType getBagResultType() {
      return ::llvm::cast<::mlir::RankedTensorType>(
          $_op->getResult(0).getType());
    }
    /// The bits per code of a quantized table (8, 4 or 2), 0 for values.
    unsigned getRowwiseBitWidth() {
      if (::mlir::TypeAttr attr = $_op.getRowwiseAttr())
        return attr.getValue().getIntOrFloatBitWidth();
      return 0;
    }
  }];

  let extraClassDeclaration = [{
    /// The operands by role, static clauses as attributes.
    BagOperands getBagOperands();

    /// The number of bags and the range [start, end) of the positions of
    /// bag b in the flattened index list, for the packed and offsets forms.
    /// Segments are not contiguous: `getSegmentBounds` gives their bounds
    /// once the ids are sorted.
    ::mlir::FailureOr<BagBounds> getBagBounds(::mlir::OpBuilder &b,
                                              ::mlir::Location loc);

    /// This op on `operands` (its own, or with a part of the table's
    /// columns) restricted to its bags [first, first + count). A segments
    /// op gets one more segment, last, holding the ids outside the range
    /// (drop it); invalid ids stay invalid, so the part's checks stop as
    /// the whole op's would.
    ::mlir::Value cloneOnBags(::mlir::OpBuilder &b, ::mlir::Location loc,
                              BagOperands operands,
                              ::mlir::OpFoldResult first,
                              ::mlir::OpFoldResult count);

    /// This op on `operands`, with its own reduction.
    ::mlir::Value cloneWithOperands(::mlir::OpBuilder &b, ::mlir::Location loc,
                                    const BagOperands &operands) {
      return createWithOperands(b, loc, getReduction(), operands);
    }
  }];
}

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGINTERFACES_TD
