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
template <typename OpTy> bool isPaddingCheckDroppable(OpTy op) {
  if (!op.getPaddingIdx())
    return true;
  std::optional<int64_t> p = getConstantScalar(op.getPaddingIdx());
  int64_t numEmb = op.getTableType().getDimSize(0);
  return p && *p >= -1 && !ShapedType::isDynamic(numEmb) && *p < numEmb;
}

//===----------------------------------------------------------------------===//
// Patterns shared by the three ops
//===----------------------------------------------------------------------===//

/// Folds a `tensor.cast` that only hides static sizes into the op:
///   %c = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>
///   embbag.packed sum %c[%i] ...
/// reads %t directly (the upstream `foldTensorCast` idea). The result keeps
/// its type here; RefineResultType below makes it static.
template <typename OpTy>
struct FoldTensorCastProducer : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
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
template <typename OpTy>
struct RefineResultType : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type oldType = op.getResult().getType();
    RankedTensorType refined = getRefinedResultType(op);
    if (refined == oldType)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getResult().setType(refined); });
    rewriter.setInsertionPointAfter(op);
    auto castBack =
        tensor::CastOp::create(rewriter, op.getLoc(), oldType, op.getResult());
    rewriter.replaceAllUsesExcept(op.getResult(), castBack.getResult(),
                                  castBack);
    return success();
  }
};

/// Drops weights that are all one from a sum: w * x == x. With padding_idx
/// too: the skipped indices' weights are not read either way.
template <typename OpTy>
struct DropAllOnesWeights : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (op.getReduction() != Reduction::sum || !isAllOnes(op.getWeights()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getWeightsMutable().clear(); });
    return success();
  }
};

/// An op of zero bags computes an empty tensor. Only done when no runtime
/// check of the op could fail: with no bags no index is read, but a given
/// default or padding_idx is checked whether or not it is used, and segment
/// ids must lie in [0, 0), so segments need no indices at all.
template <typename OpTy>
struct FoldZeroBags : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResultType();
    if (resultType.getDimSize(0) != 0 || !canDropChecks(op) ||
        !isPaddingCheckDroppable(op))
      return failure();
    // The sizes the op reifies (a quantized row's length is not the
    // table's).
    ReifiedRankedShapedTypeDims shapes;
    if (failed(op.reifyResultShapes(rewriter, shapes)))
      return failure();
    SmallVector<Value> dynamicSizes;
    for (int64_t dim = 1, e = resultType.getRank(); dim < e; ++dim)
      if (resultType.isDynamicDim(dim))
        dynamicSizes.push_back(getValueOrCreateConstantIndexOp(
            rewriter, op.getLoc(), shapes[0][dim]));
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, resultType, dynamicSizes);
    return success();
  }

  static bool canDropChecks(PackedOp) { return true; }
  static bool canDropChecks(OffsetsOp op) {
    // With include_last_offset zero bags still have one offset to check.
    if (op.getIncludeLastOffset())
      return false;
    return !op.getMixedDefaultIndex() ||
           isStaticDefaultInTable(op.getStaticDefaultIndexAttr(),
                                  op.getTableType());
  }
  static bool canDropChecks(SegmentsOp op) {
    return op.getIndicesType().getDimSize(0) == 0 &&
           (!op.getMixedDefaultIndex() ||
            isStaticDefaultInTable(op.getStaticDefaultIndexAttr(),
                                   op.getTableType()));
  }
};

//===----------------------------------------------------------------------===//
// Static forms of `default` and `num_segments`
//===----------------------------------------------------------------------===//

/// `default(-1)` means no default: drop it. A constant default >= 0 becomes
/// the static form `default(2)`. A constant below -1 breaks the contract and
/// is left alone: --embbag-verify-constants reports it, the checked lowering
/// stops on it.
template <typename OpTy>
struct FoldConstantDefault : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (IntegerAttr attr = op.getStaticDefaultIndexAttr()) {
      if (attr.getInt() != -1)
        return failure();
      rewriter.modifyOpInPlace(op, [&] { op.removeStaticDefaultIndexAttr(); });
      return success();
    }
    std::optional<int64_t> value = getConstantScalar(op.getDefaultIndex());
    if (!value || *value < -1)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getDefaultIndexMutable().clear();
      if (*value != -1)
        op.setStaticDefaultIndexAttr(rewriter.getI64IntegerAttr(*value));
    });
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

/// `padding_idx(-1)` skips nothing: drop it (the -1 passes the runtime
/// check). Any other constant stays an operand: one below -1 or past the
/// table breaks the contract (--embbag-verify-constants reports it, the
/// checked lowering stops on it), one in the table is what the op skips.
template <typename OpTy>
struct DropNoPaddingIdx : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> value = getConstantScalar(op.getPaddingIdx());
    if (!value || *value != -1)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getPaddingIdxMutable().clear(); });
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

void PackedOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<FoldTensorCastProducer<PackedOp>, RefineResultType<PackedOp>,
              DropAllOnesWeights<PackedOp>, FoldZeroBags<PackedOp>,
              DropNoPaddingIdx<PackedOp>>(context);
}

void OffsetsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<FoldTensorCastProducer<OffsetsOp>, RefineResultType<OffsetsOp>,
              DropAllOnesWeights<OffsetsOp>, FoldZeroBags<OffsetsOp>,
              FoldConstantDefault<OffsetsOp>, DropNoPaddingIdx<OffsetsOp>,
              OffsetsToPacked>(context);
}

void SegmentsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<FoldTensorCastProducer<SegmentsOp>, RefineResultType<SegmentsOp>,
              DropAllOnesWeights<SegmentsOp>, FoldZeroBags<SegmentsOp>,
              FoldConstantDefault<SegmentsOp>, DropNoPaddingIdx<SegmentsOp>,
              FoldConstantNumSegments>(context);
}
