//===- EmbBagToLoops.cpp - Lower embbag ops to scf loops ------------------===//
//
// The patterns and the pass. Each op is brought to its normal form (a list of
// bags over a 2-D table, NormalForms.cpp and SegmentsNormalForm.cpp) and
// lowered by one kernel (Kernel.h says which file takes which decision);
// the training ops by the training kernels (Training.h).
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagToLoops/EmbBagToLoops.h"

#include "Kernel.h"
#include "Training.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Error.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_CONVERTEMBBAGTOLOOPS
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

namespace {

LogicalResult normalize(ImplicitLocOpBuilder &b, BagOpInterface op,
                        const RuntimeChecks &checks, BagProblem &p) {
  if (op.getBagForm() == BagForm::Segments)
    return normalizeSegments(b, op, checks, p);
  return normalizeBags(b, op, checks, p);
}

/// The table as the kernel's shape sees it: [num_emb, row] of the values
/// the bags reduce, for a quantized table [num_emb, D] of its result type.
RankedTensorType getValuesType(BagOpInterface op, Type valueType) {
  RankedTensorType tableType = op.getTable().getType();
  if (!op.getRowwiseBitWidth())
    return tableType;
  return RankedTensorType::get(
      {tableType.getDimSize(0), op.getBagResultType().getDimSize(1)},
      valueType);
}

/// A vector of narrow codes must start on a byte: vectors of fewer lanes
/// than a byte's codes (vector-bits=64 with 2-bit codes) would not.
LogicalResult checkQuantizedShape(BagOpInterface op, const KernelShape &shape) {
  unsigned bits = op.getRowwiseBitWidth();
  if (!bits || shape.lanes * bits % 8 == 0 ||
      (!ShapedType::isDynamic(shape.rowLength) &&
       shape.rowLength <= shape.lanes))
    return success();
  return op.emitOpError() << "rowwise(i" << bits << ") needs vectors of "
                          << 8 / bits << " lanes or more, but got "
                          << shape.lanes << "; raise vector-bits";
}

struct BagOpLowering : public OpInterfaceRewritePattern<BagOpInterface> {
  BagOpLowering(MLIRContext *ctx, const ConvertEmbBagToLoopsOptions &options,
                const TargetModel &target, SharedKernels *shared)
      : OpInterfaceRewritePattern<BagOpInterface>(ctx), options(options),
        target(target), shared(shared) {}

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    PreparedBagOp prepared;
    if (failed(prepareBagOp(b, op, options, target, prepared)))
      return failure();
    Value result = buildKernel(b, prepared.p, prepared.shape, shared);
    rewriter.replaceOp(op, finishBagOp(b, prepared, result));
    return success();
  }

  ConvertEmbBagToLoopsOptions options;
  TargetModel target;
  SharedKernels *shared; // null: every kernel inline
};

struct ConvertEmbBagToLoopsPass
    : public embbag::impl::ConvertEmbBagToLoopsBase<ConvertEmbBagToLoopsPass> {
  using Base::Base;

#define GEN_PASS_OPTIONS_GETTER_CONVERTEMBBAGTOLOOPS
#include "embbag/Conversion/PassOptions.h.inc"

  void runOnOperation() override {
    // The options and the machine are settled before anything is rewritten.
    ConvertEmbBagToLoopsOptions options = getConvertEmbBagToLoopsOptions();
    if (llvm::Error error = verifyConvertEmbBagToLoopsOptions(options)) {
      emitError(getOperation()->getLoc()) << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    FailureOr<TargetModel> target =
        resolveTargetModel(getOperation(), options.target);
    if (failed(target))
      return signalPassFailure();
    // On a module, dynamic rows share their versions in functions of it.
    if (options.batchTables &&
        failed(loops::batchTables(getOperation(), options, *target)))
      return signalPassFailure();
    std::optional<SharedKernels> shared;
    if (getOperation()->hasTrait<OpTrait::SymbolTable>())
      shared.emplace(getOperation());
    RewritePatternSet patterns(&getContext());
    loops::populateBagOpPatterns(patterns, options, *target,
                                 shared ? &*shared : nullptr);
    loops::populateTrainingOpPatterns(patterns, options, *target);
    // Each embbag op is rewritten once into ops of other dialects, and
    // nothing else is touched: the user's code around the ops comes out as
    // it went in (the greedy driver would fold and reorder it).
    lowering::rewriteEach(
        getOperation(),
        [](Operation *op) {
          return isa<BagOpInterface>(op) || isTrainingOp(op);
        },
        std::move(patterns));
    WalkResult leftover = getOperation()->walk([](Operation *op) {
      if (isa<BagOpInterface>(op) || isTrainingOp(op)) {
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
    const TargetModel &target, SharedKernels *shared) {
  patterns.add<BagOpLowering>(patterns.getContext(), options, target, shared);
}

void mlir::embbag::populateEmbBagToLoopsPatterns(
    RewritePatternSet &patterns, const ConvertEmbBagToLoopsOptions &options,
    const TargetModel &target) {
  loops::populateBagOpPatterns(patterns, options, target, /*shared=*/nullptr);
}

FailureOr<KernelShape>
mlir::embbag::loops::chooseOpShape(BagOpInterface op,
                                   const ConvertEmbBagToLoopsOptions &options,
                                   const TargetModel &target) {
  Type valueType = op.getRowwiseBitWidth()
                       ? op.getBagResultType().getElementType()
                       : op.getTable().getType().getElementType();
  KernelShape shape =
      chooseShape(getValuesType(op, valueType),
                  static_cast<bool>(op.getWeights()), options, target);
  if (failed(checkQuantizedShape(op, shape)))
    return failure();
  return shape;
}

LogicalResult
mlir::embbag::loops::prepareBagOp(ImplicitLocOpBuilder &b, BagOpInterface op,
                                  const ConvertEmbBagToLoopsOptions &options,
                                  const TargetModel &target,
                                  PreparedBagOp &prepared) {
  FailureOr<KernelShape> shape = chooseOpShape(op, options, target);
  if (failed(shape))
    return failure();
  prepared.shape = *shape;
  BagProblem &p = prepared.p;
  p.op = op;
  p.table = flattenTable(b, op.getTable());
  p.reduction = op.getReduction();
  p.rowwiseBits = op.getRowwiseBitWidth();
  // A quantized table's values are the result's (f32 or f16).
  p.valueType = p.rowwiseBits ? op.getBagResultType().getElementType()
                              : op.getTable().getType().getElementType();
  // A quantized table's values are floats, whatever its bytes' type.
  p.isUnsigned = !p.rowwiseBits && isUnsignedElement(op.getTable().getType());
  // The checks compare vectors of the kernel's width.
  RuntimeChecks checks;
  checks.enabled = options.checks;
  checks.vectorBits =
      options.vectorBits ? options.vectorBits : target.vectorBits;
  // A parallel kernel's threads check the bags they read (NormalForms.cpp).
  if (options.checks && options.parallel) {
    prepared.inKernel =
        std::make_unique<FlagWordChecks>(b, op, checks.vectorBits);
    checks.inKernel = prepared.inKernel.get();
  }
  if (failed(normalize(b, op, checks, p)))
    return failure();
  if (checks.enabled)
    emitDestinationChecks(b, op, checks.vectorBits);
  return success();
}

Value mlir::embbag::loops::finishBagOp(ImplicitLocOpBuilder &b,
                                       const PreparedBagOp &prepared,
                                       Value result) {
  const BagProblem &p = prepared.p;
  if (p.checkFlag)
    prepared.inKernel->reportFlags(
        memref::LoadOp::create(b, p.checkFlag, ValueRange{cst(b, 0)}));
  auto op = cast<BagOpInterface>(p.op);
  return unflattenResult(b, result, op.getBagResultType(), op.getTable(),
                         p.numBags);
}
