//===- TrainingPatterns.cpp - The training ops' patterns ------------------===//
//
// Each training op is lowered through its forward op: a forward op of the
// same form, reduction and clauses is built in front of it (its result is
// `dy`'s type), read for its bags and its runtime contract
// (TrainingNormalForm.cpp), and erased once the kernel is built.
//
//===----------------------------------------------------------------------===//

#include "Training.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

namespace {

/// What every training pattern needs of the pass.
struct TrainingConfig {
  bool checks;
  unsigned vectorBits;
  bool parallel;
  TargetModel target;
  int prefetchDistance; // the option: -1 from the table's size, 0 none
};

/// The bytes of an element of `table` (at least 1).
int64_t elementBytesOf(RankedTensorType table) {
  return std::max<int64_t>(1, table.getElementTypeBitWidth() / 8);
}

/// Whether `table`'s size is static and at most `bytes`.
bool fitsIn(RankedTensorType table, int64_t bytes) {
  return table.hasStaticShape() &&
         table.getNumElements() * elementBytesOf(table) <= bytes;
}

/// How many unique rows ahead to prefetch the rows of `table`: none when
/// the L2 cache holds it (its size static), else the forward kernel's
/// distance for its rows (PrefetchPolicy::distanceForRow). Not the forward
/// kernel's last-level threshold: a training step runs other work between
/// two calls (the forward pass, the optimizer of other parameters) that
/// leaves the table's rows out of the caches. In the training benchmark's
/// process (torch's calls beside ours) c3's 2.5 MB table took the dense
/// gradient 0.85 ms with the prefetch against 1.0 without; called back to
/// back from C, both took 0.65.
int64_t prefetchRowsFor(RankedTensorType table, const TargetModel &target) {
  const PrefetchPolicy &policy = target.prefetch;
  int64_t elementBytes = elementBytesOf(table);
  int64_t rowElements = 1;
  for (int64_t d = 1; d < table.getRank(); ++d)
    rowElements = ShapedType::isDynamic(table.getDimSize(d))
                      ? ShapedType::kDynamic
                      : rowElements * table.getDimSize(d);
  if (fitsIn(table, target.l2CacheBytes))
    return 0;
  if (ShapedType::isDynamic(rowElements) || rowElements == 0)
    return policy.minDistance;
  return policy.distanceForRow(rowElements * elementBytes);
}

/// How many rows ahead a dense gradient prefetches the rows it adds to,
/// from the table's policy `rows`: the gradient was zeroed at the start of
/// the call, so a gradient the last-level cache holds is still there, and
/// a short distance suffices, as for the forward kernel's tables there
/// (PrefetchPolicy::lastLevelDistance). In the training benchmark's process
/// c3's 2.5 MB gradient took 0.92 ms at 64 rows ahead against 0.73-0.81
/// for the dynamic-row kernel at 16.
int64_t denseGradPrefetchRows(RankedTensorType table, const TargetModel &target,
                              int64_t rows) {
  if (rows == 0 || !fitsIn(table, target.lastLevelCacheBytes))
    return rows;
  return std::min(rows, target.prefetch.lastLevelDistance);
}

/// The normal form of `op`, built with its forward op, which is erased.
template <typename OpT>
TrainProblem normalize(ImplicitLocOpBuilder &b, PatternRewriter &rewriter,
                       OpT op, ScratchArena &scratch,
                       const TrainingConfig &config) {
  BagOpInterface forward = buildForwardOp(b, op);
  TrainProblem p =
      normalizeTraining(b, op, forward, op.getDy(), scratch, config.checks,
                        config.vectorBits, config.parallel);
  p.prefetchRows = config.prefetchDistance >= 0
                       ? config.prefetchDistance
                       : prefetchRowsFor(op.getTableType(), config.target);
  p.lastLevelCacheBytes = config.target.lastLevelCacheBytes;
  rewriter.eraseOp(forward);
  return p;
}

template <typename OpT>
struct GradLowering : public OpRewritePattern<OpT> {
  GradLowering(MLIRContext *ctx, TrainingConfig config)
      : OpRewritePattern<OpT>(ctx), config(config) {}

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ScratchArena scratch(b);
    TrainProblem p = normalize(b, rewriter, op, scratch, config);
    if (!op.getSparse() && config.prefetchDistance < 0)
      p.prefetchRows = denseGradPrefetchRows(op.getTableType(), config.target,
                                             p.prefetchRows);
    SmallVector<Value> grads;
    RowGroups g;
    if (!op.getSparse()) {
      grads.push_back(buildDenseGrad(b, p));
    } else {
      g = groupByRow(b, p, /*uniqueRowsEscape=*/op.getSparse());
      grads = buildTableGrad(b, p, g, op.getSparse());
    }
    SmallVector<Value> results;
    Value table = op.getTable();
    if (op.getSparse()) {
      results.push_back(grads[0]);
      auto rowsType = cast<RankedTensorType>(op.getTableGrad().getType());
      results.push_back(
          unflattenResult(b, grads[1], rowsType, table, g.numUnique));
    } else {
      results.push_back(unflattenResult(b, grads[0], op.getTableType(), table,
                                        p.numEmb));
    }
    if (Value weights = op.getWeights())
      results.push_back(
          unflattenWeights(b, buildWeightsGrad(b, p), weights));
    scratch.finish(rewriter);
    rewriter.replaceOp(op, results);
    return success();
  }

  TrainingConfig config;
};

template <typename OpT>
struct UpdateLowering : public OpRewritePattern<OpT> {
  UpdateLowering(MLIRContext *ctx, TrainingConfig config)
      : OpRewritePattern<OpT>(ctx), config(config) {}

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ScratchArena scratch(b);
    TrainProblem p = normalize(b, rewriter, op, scratch, config);
    RowGroups g = groupByRow(b, p, /*uniqueRowsEscape=*/false);
    SmallVector<Value> updated = buildUpdate(
        b, p, g, op.getLearningRate(), op.getEpsilon(), op.getState());
    SmallVector<Value> results{unflattenResult(
        b, updated[0], op.getTableType(), op.getTable(), p.numEmb)};
    if (op.getState())
      results.push_back(updated[1]);
    scratch.finish(rewriter);
    rewriter.replaceOp(op, results);
    return success();
  }

  TrainingConfig config;
};

} // namespace

void mlir::embbag::loops::populateTrainingOpPatterns(
    RewritePatternSet &patterns, const ConvertEmbBagToLoopsOptions &options,
    const TargetModel &target) {
  TrainingConfig config{options.checks,
                        options.vectorBits ? options.vectorBits
                                           : target.vectorBits,
                        options.parallel, target, options.prefetchDistance};
  MLIRContext *ctx = patterns.getContext();
  patterns.add<GradLowering<PackedGradOp>, GradLowering<OffsetsGradOp>,
               GradLowering<SegmentsGradOp>, UpdateLowering<PackedUpdateOp>,
               UpdateLowering<OffsetsUpdateOp>,
               UpdateLowering<SegmentsUpdateOp>>(ctx, config);
}
