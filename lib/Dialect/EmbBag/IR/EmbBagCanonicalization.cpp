//===- EmbBagCanonicalization.cpp - Canonicalization of embbag ops -------===//
//
// The canonical form of an embbag op has static types wherever its operands
// allow, its constant scalars as static attributes, no operand that does not
// change the result, and the simplest op of the family that computes it.
// Every rule here is described in docs/Semantics.md.
//
// A rewrite never turns valid IR into IR the verifier rejects: constants are
// folded into the static forms only when the static form is valid, and
// folding casts is tried on a detached copy that must verify first. A rewrite
// never drops a runtime check either: an operand the checked lowering would
// check (a dynamic `default`) is only dropped when it cannot fail.
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::embbag;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The most static type compatible with both `a` and `b` (which the
/// verifier has found compatible).
RankedTensorType joinShapes(RankedTensorType a, RankedTensorType b) {
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip_equal(a.getShape(), b.getShape()))
    shape.push_back(ShapedType::isDynamic(x) ? y : x);
  return a.clone(shape);
}

/// The result type the op's operands and attributes give, joined with the
/// declared one.
RankedTensorType getRefinedResultType(Operation *op) {
  auto declared = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Type> inferred;
  if (failed(cast<InferTypeOpInterface>(op).inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), inferred)))
    return declared;
  return joinShapes(declared, cast<RankedTensorType>(inferred.front()));
}

/// Whether the detached operation `op` verifies; its diagnostics are
/// dropped (it is a candidate rewrite, not the user's IR).
bool verifiesQuietly(Operation *op) {
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  return succeeded(mlir::verify(op));
}

/// The value of a scalar operand defined by an integer constant.
std::optional<int64_t> getConstantScalar(Value v) {
  return v ? getConstantIntValue(v) : std::nullopt;
}

/// Whether `weights` is a constant tensor of ones.
bool isAllOnes(Value weights) {
  if (!weights)
    return false;
  return matchPattern(weights, m_OneFloat()) || matchPattern(weights, m_One());
}

/// Whether a default index `d` given statically can be dropped without
/// losing a runtime check: it is known to lie in the table.
bool isStaticDefaultInTable(IntegerAttr d, RankedTensorType tableType) {
  int64_t numEmb = tableType.getDimSize(0);
  return d && d.getInt() >= 0 && !ShapedType::isDynamic(numEmb) &&
         d.getInt() < numEmb;
}

/// Whether the runtime check of `op`'s padding_idx cannot fail: absent, or
/// a constant in [-1, num_emb) of a table whose num_emb is static.
bool isPaddingCheckDroppable(BagOpInterface op) {
  if (!op.getPaddingIdx())
    return true;
  std::optional<int64_t> p = getConstantScalar(op.getPaddingIdx());
  int64_t numEmb = op.getTable().getType().getDimSize(0);
  return p && *p >= -1 && !ShapedType::isDynamic(numEmb) && *p < numEmb;
}

/// Whether the runtime check of `op`'s default cannot fail: absent, or
/// static and in the table.
bool isDefaultCheckDroppable(BagOpInterface op) {
  std::optional<OpFoldResult> d = op.getMixedDefaultIndex();
  if (!d)
    return true;
  auto attr = dyn_cast_if_present<IntegerAttr>(dyn_cast<Attribute>(*d));
  return isStaticDefaultInTable(attr, op.getTable().getType());
}

/// Replaces `op` by the op of its form on `operands`, which compute the
/// same values: the result keeps its type and the op its discardable
/// attributes (a sharding annotation, ...).
void replaceWithOperands(PatternRewriter &rewriter, BagOpInterface op,
                         const BagOperands &operands) {
  rewriter.setInsertionPoint(op);
  Value created = op.cloneWithOperands(rewriter, op.getLoc(), operands);
  Operation *newOp = created.getDefiningOp();
  created.setType(op.getBagResultType());
  newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.replaceOp(op, created);
}

//===----------------------------------------------------------------------===//
// Patterns shared by the three ops (BagOpInterface)
//===----------------------------------------------------------------------===//

/// Folds a `tensor.cast` that only hides static sizes into the op:
///   %c = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>
///   embbag.packed sum %c[%i] ...
/// reads %t directly (the upstream `foldTensorCast` idea). The result keeps
/// its type here; RefineResultType below makes it static.
struct FoldTensorCastProducer
    : public OpInterfaceRewritePattern<BagOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands(op->getOperands());
    bool folded = false;
    for (Value &operand : operands) {
      auto castOp = operand.getDefiningOp<tensor::CastOp>();
      if (castOp && tensor::canFoldIntoConsumerOp(castOp)) {
        operand = castOp.getSource();
        folded = true;
      }
    }
    if (!folded)
      return failure();
    // Static sizes may disagree with each other (weights of 4 for 5 indices
    // in a branch that never runs): such a fold is not done.
    OpBuilder detached(op->getContext());
    Operation *candidate = detached.clone(*op.getOperation());
    candidate->setOperands(operands);
    if (!verifiesQuietly(candidate)) {
      candidate->destroy();
      return rewriter.notifyMatchFailure(op, "static sizes disagree");
    }
    rewriter.setInsertionPoint(op);
    rewriter.insert(candidate);
    rewriter.replaceOp(op, candidate->getResults());
    return success();
  }
};

/// Gives the result the static sizes its operands imply, with a
/// `tensor.cast` back to the old type for the existing users.
struct RefineResultType : public OpInterfaceRewritePattern<BagOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    Value result = op->getResult(0);
    Type oldType = result.getType();
    RankedTensorType refined = getRefinedResultType(op);
    if (refined == oldType)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { result.setType(refined); });
    rewriter.setInsertionPointAfter(op);
    auto castBack =
        tensor::CastOp::create(rewriter, op.getLoc(), oldType, result);
    rewriter.replaceAllUsesExcept(result, castBack.getResult(), castBack);
    return success();
  }
};

/// Drops weights that are all one from a sum: w * x == x. With padding_idx
/// too: the skipped indices' weights are not read either way.
struct DropAllOnesWeights : public OpInterfaceRewritePattern<BagOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (op.getReduction() != Reduction::sum || !isAllOnes(op.getWeights()))
      return failure();
    BagOperands operands = op.getBagOperands();
    operands.weights = Value();
    replaceWithOperands(rewriter, op, operands);
    return success();
  }
};

/// An op of zero bags computes an empty tensor. Only done when no runtime
/// check of the op could fail: with no bags no index is read, but a given
/// default or padding_idx is checked whether or not it is used, and segment
/// ids must lie in [0, 0), so segments need no indices at all.
struct FoldZeroBags : public OpInterfaceRewritePattern<BagOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getBagResultType();
    if (resultType.getDimSize(0) != 0 || !canDropChecks(op) ||
        !isPaddingCheckDroppable(op))
      return failure();
    // The sizes the op reifies (a quantized row's length is not the
    // table's).
    ReifiedRankedShapedTypeDims shapes;
    if (failed(cast<ReifyRankedShapedTypeOpInterface>(op.getOperation())
                   .reifyResultShapes(rewriter, shapes)))
      return failure();
    SmallVector<Value> dynamicSizes;
    for (int64_t dim = 1, e = resultType.getRank(); dim < e; ++dim)
      if (resultType.isDynamicDim(dim))
        dynamicSizes.push_back(getValueOrCreateConstantIndexOp(
            rewriter, op.getLoc(), shapes[0][dim]));
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, resultType, dynamicSizes);
    return success();
  }

  static bool canDropChecks(BagOpInterface op) {
    switch (op.getBagForm()) {
    case BagForm::Packed:
      return true;
    case BagForm::Offsets:
      // With include_last_offset zero bags still have one offset to check.
      return !op.getIncludeLastOffset() && isDefaultCheckDroppable(op);
    case BagForm::Segments:
      return cast<RankedTensorType>(op.getIndices().getType()).getDimSize(0) ==
                 0 &&
             isDefaultCheckDroppable(op);
    }
    llvm_unreachable("unknown bag form");
  }
};

/// `padding_idx(-1)` skips nothing: drop it (the -1 passes the runtime
/// check). Any other constant stays an operand: one below -1 or past the
/// table breaks the contract (--embbag-verify-constants reports it, the
/// checked lowering stops on it), one in the table is what the op skips.
struct DropNoPaddingIdx : public OpInterfaceRewritePattern<BagOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> value = getConstantScalar(op.getPaddingIdx());
    if (!value || *value != -1)
      return failure();
    BagOperands operands = op.getBagOperands();
    operands.paddingIdx = Value();
    replaceWithOperands(rewriter, op, operands);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Static forms of `default` and `num_segments`
//===----------------------------------------------------------------------===//

/// `default(-1)` means no default: drop it. A constant default >= 0 becomes
/// the static form `default(2)`. A constant below -1 breaks the contract and
/// is left alone: --embbag-verify-constants reports it, the checked lowering
/// stops on it.
struct FoldConstantDefault : public OpInterfaceRewritePattern<BagOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    BagOperands operands = op.getBagOperands();
    if (IntegerAttr attr = operands.staticDefault) {
      if (attr.getInt() != -1)
        return failure();
      operands.staticDefault = IntegerAttr();
    } else {
      std::optional<int64_t> value = getConstantScalar(operands.defaultIndex);
      if (!value || *value < -1)
        return failure();
      operands.defaultIndex = Value();
      if (*value != -1)
        operands.staticDefault = rewriter.getI64IntegerAttr(*value);
    }
    replaceWithOperands(rewriter, op, operands);
    return success();
  }
};

/// A constant `num_segments` becomes the static form `num_segments(3)`,
/// which makes the result's batch static (RefineResultType). Not done for a
/// negative constant or one that disagrees with a static result batch: both
/// break the contract, are reported by --embbag-verify-constants and stop
/// the checked program.
struct FoldConstantNumSegments : public OpRewritePattern<SegmentsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SegmentsOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> value = getConstantScalar(op.getNumSegments());
    if (!value || *value < 0)
      return failure();
    int64_t batch = op.getResultType().getDimSize(0);
    if (!ShapedType::isDynamic(batch) && batch != *value)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getNumSegmentsMutable().clear();
      op.setStaticNumSegmentsAttr(rewriter.getI64IntegerAttr(*value));
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// embbag.offsets with bags of one size is embbag.packed
//===----------------------------------------------------------------------===//

/// The bag size k of constant offsets [s, s + k, ..., s + (B - 1) k] over
/// `numIndices` = s + B k indices, with k >= 1; the start s in `start`.
std::optional<int64_t> getUniformBagSize(Value offsets, int64_t numIndices,
                                         int64_t &start) {
  DenseIntElementsAttr attr;
  if (ShapedType::isDynamic(numIndices) ||
      !matchPattern(offsets, m_Constant(&attr)) || attr.getNumElements() == 0)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &value : attr.getValues<APInt>())
    values.push_back(value.getSExtValue());
  start = values.front();
  int64_t numBags = values.size();
  if (start < 0 || (numIndices - start) % numBags != 0)
    return std::nullopt;
  int64_t bagSize = (numIndices - start) / numBags;
  if (bagSize < 1)
    return std::nullopt;
  for (int64_t b = 0; b < numBags; ++b)
    if (values[b] != start + b * bagSize)
      return std::nullopt;
  return bagSize;
}

/// Rewrites an `embbag.offsets` whose constant offsets cut the indices into
/// bags of one size k >= 1 into `embbag.packed` over the indices viewed as
/// [batch, k]. No bag is empty, so the default is never used; it is dropped
/// only when its runtime check cannot fail (absent, or static and in the
/// table). padding_idx carries over to the packed op (which skips the same
/// indices and checks it the same way), but then a bag of only padding is
/// empty and would take the default row, which embbag.packed has not: with
/// both, the rewrite is not done.
struct OffsetsToPacked : public OpRewritePattern<OffsetsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(OffsetsOp op,
                                PatternRewriter &rewriter) const override {
    // The uniform-size match assumes the last bag runs to the end of the
    // indices; with include_last_offset the offsets close it.
    if (op.getIncludeLastOffset())
      return failure();
    if (op.getMixedDefaultIndex() &&
        (op.getPaddingIdx() ||
         !isStaticDefaultInTable(op.getStaticDefaultIndexAttr(),
                                 op.getTableType())))
      return failure();
    int64_t start = 0;
    std::optional<int64_t> bagSize = getUniformBagSize(
        op.getOffsets(), op.getIndicesType().getDimSize(0), start);
    if (!bagSize)
      return failure();
    int64_t numBags =
        cast<RankedTensorType>(op.getOffsets().getType()).getDimSize(0);
    auto toBags = [&](Value list) -> Value {
      if (!list)
        return list;
      Location loc = op.getLoc();
      if (start != 0)
        list = tensor::ExtractSliceOp::create(
            rewriter, loc, list,
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(start)},
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(numBags * *bagSize)},
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      auto listType = cast<RankedTensorType>(list.getType());
      SmallVector<int64_t> shape{numBags, *bagSize};
      return tensor::ExpandShapeOp::create(
          rewriter, loc, listType.clone(shape), list,
          ArrayRef<ReassociationIndices>{{0, 1}},
          getAsIndexOpFoldResult(rewriter.getContext(), shape));
    };
    Value indices = toBags(op.getIndices());
    Value weights = toBags(op.getWeights());
    rewriter.replaceOpWithNewOp<PackedOp>(
        op, op.getResultType(), op.getReductionAttr(), op.getTable(), indices,
        op.getPaddingIdx(), weights, op.getRowwiseAttr());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void EmbBagDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  results.add<FoldTensorCastProducer, RefineResultType, DropAllOnesWeights,
              FoldZeroBags, FoldConstantDefault, DropNoPaddingIdx>(
      getContext());
}

void OffsetsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<OffsetsToPacked>(context);
}

void SegmentsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<FoldConstantNumSegments>(context);
}
