//===- EmbBagToLinalg.cpp - Lower embbag.packed to linalg -----------------===//
//
// embbag.packed is a rectangular reduction: result[b, c] = sum_j w[b, j] *
// table[indices[b, j], c] (or max_j table[indices[b, j], c]), a
// linalg.generic over (b, j, c). The gather is a
// tensor.extract in the body; the index is re-read with tensor.extract at
// (linalg.index 0, linalg.index 1) rather than taken from the block argument,
// because the vectoriser turns a row read whose index comes from a block
// argument into a gather, while a re-read index gives contiguous row loads.
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagToLinalg/EmbBagToLinalg.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_CONVERTEMBBAGTOLINALG
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;

// The linalg path has no target option: its index check compares 256-bit
// vectors (LLVM splits or widens them for the target it compiles for).
static constexpr unsigned kCheckVectorBits = 256;

namespace {

struct PackedToLinalg : public OpRewritePattern<PackedOp> {
  PackedToLinalg(MLIRContext *ctx, bool checks)
      : OpRewritePattern<PackedOp>(ctx), checks(checks) {}

  LogicalResult matchAndRewrite(PackedOp op,
                                PatternRewriter &rewriter) const override {
    // Skipping padding makes each bag's count a reduction of its own, which
    // this lowering does not build: the pass reports the op or leaves it
    // to the loops path.
    if (op.getPaddingIdx())
      return rewriter.notifyMatchFailure(op, "padding_idx is not supported");
    // Dequantizing rows is not a linalg.generic over the table's bytes.
    if (op.getRowwiseBits())
      return rewriter.notifyMatchFailure(op,
                                         "rowwise tables are not supported");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value table = flattenTable(b, op.getTable());
    Value indices = op.getIndices();
    Value weights = op.getWeights();
    Type storageType = getElementTypeOrSelf(table.getType());
    // f16 and bf16 accumulate in f32 and round once.
    // Integers compute in the signless type of their width.
    bool widensFloat = storageType.isF16() || storageType.isBF16();
    Type accType = getAccumulatorType(storageType);
    bool isFloat = isa<FloatType>(accType);
    bool isUnsigned = isUnsignedElement(op.getTableType());

    Value numBags = dim(b, indices, 0);
    Value perBag = dim(b, indices, 1);
    Value row = dim(b, table, 1);
    if (checks) {
      emitContractChecks(b, op, kCheckVectorBits);
      emitDestinationChecks(b, op, kCheckVectorBits);
    }

    auto sizes = getAsOpFoldResult(ValueRange{numBags, row});
    // The reduction's identity: zero for sums, the lowest value for max.
    Value zero = arith::ConstantOp::create(
        b, op.isMax() ? maxIdentity(b, accType, isUnsigned)
                      : b.getZeroAttr(accType));
    Value init =
        linalg::FillOp::create(
            b, zero, tensor::EmptyOp::create(b, sizes, accType).getResult())
            .getResult(0);

    MLIRContext *ctx = b.getContext();
    AffineExpr bag, j, col;
    bindDims(ctx, bag, j, col);
    auto bagMap = AffineMap::get(3, 0, {bag, j}, ctx);
    auto outMap = AffineMap::get(3, 0, {bag, col}, ctx);
    SmallVector<Value> inputs{indices};
    SmallVector<AffineMap> maps{bagMap};
    if (weights) {
      inputs.push_back(weights);
      maps.push_back(bagMap);
    }
    maps.push_back(outMap);
    SmallVector<utils::IteratorType> iterators{utils::IteratorType::parallel,
                                               utils::IteratorType::reduction,
                                               utils::IteratorType::parallel};

    auto sum = linalg::GenericOp::create(
        b, init.getType(), inputs, ValueRange{init}, maps, iterators,
        [&](OpBuilder &nested, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nested);
          Value bagIv = linalg::IndexOp::create(ib, 0);
          Value jIv = linalg::IndexOp::create(ib, 1);
          Value colIv = linalg::IndexOp::create(ib, 2);
          Value rowIndex = extractIndex(ib, indices, ValueRange{bagIv, jIv});
          Value v =
              castToSignless(ib, tensor::ExtractOp::create(
                                     ib, table, ValueRange{rowIndex, colIv}));
          if (widensFloat)
            v = arith::ExtFOp::create(ib, accType, v);
          Value acc = args.back();
          if (weights) {
            Value w = castToSignless(ib, args[1]);
            if (widensFloat)
              w = arith::ExtFOp::create(ib, accType, w);
            v = isFloat ? arith::MulFOp::create(ib, v, w).getResult()
                        : arith::MulIOp::create(ib, v, w).getResult();
          }
          Value next;
          if (op.isMax())
            next = maximum(ib, acc, v, isUnsigned);
          else if (isFloat)
            next = arith::AddFOp::create(ib, acc, v);
          else
            next = arith::AddIOp::create(ib, acc, v);
          linalg::YieldOp::create(ib, next);
        });
    Value result = sum.getResult(0);

    Finish finish;
    finish.storageType = storageType;
    finish.accType = accType;
    finish.isUnsigned = isUnsigned;
    if (op.isMean())
      finish.meanCount = perBag;
    if (op.isMax())
      finish.maxCount = perBag;
    if (op.isSqrtn())
      finish.sqrtnNorms =
          buildSqrtnNorms(b, weights, accType, sizes[0], perBag, widensFloat);
    if (finish.meanCount || finish.maxCount || finish.sqrtnNorms ||
        accType != storageType)
      result = finalize(b, result, sizes, perBag, finish);
    rewriter.replaceOp(op, unflattenResult(b, result, op.getResultType(),
                                           op.getTable(), numBags));
    return success();
  }

  /// What happens to the accumulators after the reduction.
  struct Finish {
    Type storageType, accType;
    bool isUnsigned = false;
    Value meanCount;  // mean: divide by max(count, 1)
    Value maxCount;   // max: an empty bag's identity becomes zeros
    Value sqrtnNorms; // sqrtn: [batch] norms whose square roots divide
  };

  /// The sqrtn norm of every bag, [batch] of `accType`: the bag size, or with
  /// weights the sum of their squares.
  static Value buildSqrtnNorms(ImplicitLocOpBuilder &b, Value weights,
                               Type accType, OpFoldResult batch, Value perBag,
                               bool widensFloat) {
    Value empty =
        tensor::EmptyOp::create(b, ArrayRef<OpFoldResult>{batch}, accType);
    if (!weights) {
      Value count = arith::UIToFPOp::create(
          b, accType, arith::IndexCastUIOp::create(b, b.getI64Type(), perBag));
      return linalg::FillOp::create(b, count, empty).getResult(0);
    }
    Value zero = arith::ConstantOp::create(b, b.getZeroAttr(accType));
    Value init = linalg::FillOp::create(b, zero, empty).getResult(0);
    MLIRContext *ctx = b.getContext();
    auto generic = linalg::GenericOp::create(
        b, init.getType(), ValueRange{weights}, ValueRange{init},
        ArrayRef<AffineMap>{
            AffineMap::getMultiDimIdentityMap(2, ctx),
            AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx)},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::reduction},
        [&](OpBuilder &nested, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nested);
          Value w = castToSignless(ib, args[0]);
          if (widensFloat)
            w = arith::ExtFOp::create(ib, accType, w);
          linalg::YieldOp::create(
              ib, ValueRange{math::FmaOp::create(ib, w, w, args[1])});
        });
    return generic.getResult(0);
  }

  /// Applies `f` to the [batch, row] accumulators `acc` (bags of `perBag`
  /// indices) and rounds to the storage type.
  static Value finalize(ImplicitLocOpBuilder &b, Value acc,
                        ArrayRef<OpFoldResult> sizes, Value perBag,
                        const Finish &f) {
    Value init = tensor::EmptyOp::create(b, sizes, f.storageType);
    MLIRContext *ctx = b.getContext();
    auto id = AffineMap::getMultiDimIdentityMap(2, ctx);
    Value divisor = f.meanCount ? countDivisor(b, f.meanCount) : Value();
    Value emptyMax = f.maxCount
                         ? arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                                 f.maxCount, cst(b, 0))
                               .getResult()
                         : Value();
    Value zero = arith::ConstantOp::create(b, b.getZeroAttr(f.accType));
    SmallVector<Value> inputs{acc};
    SmallVector<AffineMap> maps{id};
    if (f.sqrtnNorms) {
      inputs.push_back(f.sqrtnNorms);
      maps.push_back(AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx));
    }
    maps.push_back(id);
    auto generic = linalg::GenericOp::create(
        b, init.getType(), inputs, ValueRange{init}, maps,
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::parallel},
        [&](OpBuilder &nested, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nested);
          Value v = args[0];
          if (divisor)
            v = divideByCount(ib, v, divisor, f.isUnsigned);
          if (emptyMax)
            v = arith::SelectOp::create(ib, emptyMax, zero, v);
          if (f.sqrtnNorms)
            v = divideBy(ib, v, sqrtnDivisor(ib, args[1], perBag));
          v = isa<FloatType>(f.storageType) && f.accType != f.storageType
                  ? arith::TruncFOp::create(ib, f.storageType, v).getResult()
                  : castTo(ib, v, f.storageType);
          linalg::YieldOp::create(ib, v);
        });
    return generic.getResult(0);
  }

  bool checks;
};

/// What of `op` keeps it from the linalg lowering, or "".
std::string unsupportedClause(BagOpInterface op) {
  if (op.getBagForm() != BagForm::Packed)
    return "bags of varying size, which are not a linalg reduction";
  StringRef clause = op.getPaddingIdx()     ? "padding_idx"
                     : op.getRowwiseAttr() ? "a row-wise quantized table"
                                           : "";
  if (clause.empty())
    return "";
  return (clause + ", which the linalg lowering does not support").str();
}

struct ConvertEmbBagToLinalgPass
    : public embbag::impl::ConvertEmbBagToLinalgBase<
          ConvertEmbBagToLinalgPass> {
  using Base::Base;

#define GEN_PASS_OPTIONS_GETTER_CONVERTEMBBAGTOLINALG
#include "embbag/Conversion/PassOptions.h.inc"

  void runOnOperation() override {
    // With leave-unsupported, the loops pass after this one refuses them.
    if (!leaveUnsupported &&
        failed(refuseTrainingOps(
            getOperation(), "is not lowered by convert-embbag-to-linalg: the "
                            "training ops lower through "
                            "convert-embbag-to-loops")))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateEmbBagToLinalgPatterns(patterns, getConvertEmbBagToLinalgOptions());
    // Only embbag.packed is rewritten; the user's code around it comes out
    // as it went in (the greedy driver would fold and reorder it).
    lowering::rewriteEach(
        getOperation(),
        [](Operation *op) {
          auto bagOp = dyn_cast<BagOpInterface>(op);
          return bagOp && bagOp.getBagForm() == BagForm::Packed;
        },
        std::move(patterns));
    if (leaveUnsupported)
      return;
    WalkResult result = getOperation()->walk([](BagOpInterface op) {
      std::string what = unsupportedClause(op);
      if (what.empty())
        return WalkResult::advance();
      op->emitOpError() << "has " << what
                        << "; lower it with --convert-embbag-to-loops";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::embbag::populateEmbBagToLinalgPatterns(
    RewritePatternSet &patterns, const ConvertEmbBagToLinalgOptions &options) {
  patterns.add<PackedToLinalg>(patterns.getContext(), options.checks);
}
