//===- EmbBagToLoops.cpp - Lower embbag ops to scf loops ------------------===//
//
// The patterns and the pass. Each op is brought to its normal form (a list of
// bags over a 2-D table, NormalForms.cpp and SegmentsNormalForm.cpp) and
// lowered by one kernel (Kernel.h says which file takes which decision).
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagToLoops/EmbBagToLoops.h"

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_CONVERTEMBBAGTOLOOPS
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

namespace {

LogicalResult normalize(ImplicitLocOpBuilder &b, PackedOp op,
                        const RuntimeChecks &checks, BagProblem &p) {
  return normalizePacked(b, op, checks, p);
}
LogicalResult normalize(ImplicitLocOpBuilder &b, OffsetsOp op,
                        const RuntimeChecks &checks, BagProblem &p) {
  return normalizeOffsets(b, op, checks, p);
}
LogicalResult normalize(ImplicitLocOpBuilder &b, SegmentsOp op,
                        const RuntimeChecks &checks, BagProblem &p) {
  return normalizeSegments(b, op, checks, p);
}

/// The table as the kernel's shape sees it: [num_emb, row] of the values
/// the bags reduce, for a quantized table [num_emb, D] of its result type.
template <typename OpTy> RankedTensorType getValuesType(OpTy op) {
  if (!op.getRowwiseBits())
    return op.getTableType();
  return RankedTensorType::get(
      {op.getTableType().getDimSize(0), op.getResultType().getDimSize(1)},
      op.getValueElementType());
}

/// A vector of narrow codes must start on a byte: vectors of fewer lanes
/// than a byte's codes (vector-bits=64 with 2-bit codes) would not.
template <typename OpTy>
LogicalResult checkQuantizedShape(OpTy op, const KernelShape &shape) {
  unsigned bits = op.getRowwiseBits();
  if (!bits || shape.lanes * bits % 8 == 0 ||
      (!ShapedType::isDynamic(shape.rowLength) &&
       shape.rowLength <= shape.lanes))
    return success();
  return op.emitOpError() << "rowwise(i" << bits << ") needs vectors of "
                          << 8 / bits << " lanes or more, but got "
                          << shape.lanes << "; raise vector-bits";
}

template <typename OpTy> struct BagOpLowering : public OpRewritePattern<OpTy> {
  BagOpLowering(MLIRContext *ctx, const ConvertEmbBagToLoopsOptions &options,
                FailureOr<TargetInfo> target, SharedKernels *shared)
      : OpRewritePattern<OpTy>(ctx), options(options), target(target),
        shared(shared) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (failed(target))
      return op.emitOpError() << "unknown target '" << options.target
                              << "' (host, avx512, avx2 or generic)";
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    BagProblem p;
    p.op = op;
    p.table = flattenTable(b, op.getTable());
    p.mean = op.isMean();
    p.max = op.isMax();
    p.sqrtn = op.isSqrtn();
    p.rowwiseBits = op.getRowwiseBits();
    p.valueType = op.getValueElementType();
    // A quantized table's values are floats, whatever its bytes' type.
    p.isUnsigned = !p.rowwiseBits && isUnsignedElement(op.getTableType());
    // The checks compare vectors of the kernel's width.
    RuntimeChecks checks;
    checks.enabled = options.checks;
    checks.vectorBits = options.vectorBits ? options.vectorBits
                                           : target->vectorBits;
    if (failed(normalize(b, op, checks, p)))
      return failure();
    KernelShape shape = chooseShape(
        getValuesType(op), static_cast<bool>(p.weights), options, *target);
    if (failed(checkQuantizedShape(op, shape)))
      return failure();
    Value result = buildKernel(b, p, shape, shared);
    rewriter.replaceOp(op, unflattenResult(b, result, op.getResultType(),
                                           op.getTable(), p.numBags));
    return success();
  }

  ConvertEmbBagToLoopsOptions options;
  FailureOr<TargetInfo> target;
  SharedKernels *shared; // null: every kernel inline
};

struct ConvertEmbBagToLoopsPass
    : public embbag::impl::ConvertEmbBagToLoopsBase<ConvertEmbBagToLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (prefetchLocality < -1 || prefetchLocality > 3) {
      emitError(getOperation()->getLoc())
          << "prefetch-locality must be -1 (from the table's size), 0, 1, 2 "
             "or 3, not "
          << prefetchLocality;
      return signalPassFailure();
    }
    ConvertEmbBagToLoopsOptions options;
    options.target = target;
    options.vectorBits = vectorBits;
    options.maxVectors = maxVectors;
    options.prefetchDistance = prefetchDistance;
    options.prefetchLocality = prefetchLocality;
    options.unroll = unroll;
    options.checks = checks;
    options.parallel = parallel;
    // On a module, dynamic rows share their versions in functions of it.
    std::optional<SharedKernels> shared;
    if (getOperation()->hasTrait<OpTrait::SymbolTable>())
      shared.emplace(getOperation());
    RewritePatternSet patterns(&getContext());
    populateBagOpPatterns(patterns, options, shared ? &*shared : nullptr);
    // Each embbag op is rewritten once into ops of other dialects, and
    // nothing else is touched: the user's code around the ops comes out as
    // it went in (the greedy driver would fold and reorder it).
    lowering::rewriteEach(
        getOperation(),
        [](Operation *op) { return isa<PackedOp, OffsetsOp, SegmentsOp>(op); },
        std::move(patterns));
    WalkResult leftover = getOperation()->walk([](Operation *op) {
      if (isa<PackedOp, OffsetsOp, SegmentsOp>(op)) {
        op->emitOpError("could not be lowered to loops");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::embbag::loops::populateBagOpPatterns(
    RewritePatternSet &patterns, const ConvertEmbBagToLoopsOptions &options,
    SharedKernels *shared) {
  // The host is asked once per pattern set, not per op.
  patterns.add<BagOpLowering<PackedOp>, BagOpLowering<OffsetsOp>,
               BagOpLowering<SegmentsOp>>(
      patterns.getContext(), options, resolveTarget(options.target), shared);
}

void mlir::embbag::populateEmbBagToLoopsPatterns(
    RewritePatternSet &patterns, const ConvertEmbBagToLoopsOptions &options) {
  loops::populateBagOpPatterns(patterns, options, /*shared=*/nullptr);
}
