//===- EmbBagToGPU.cpp - Lower embbag ops to GPU kernels ------------------===//
//
// The host side of an op's kernel: its tensors as buffers, the result's
// buffer, the launch configuration, and the runtime contract split between
// the host (rules on scalars and shapes, checked before the launch as on
// the CPU) and the device (rules on offsets and indices, checked where the
// threads read them, each setting its bit of a flag word that the host
// turns into the CPU's marked check after the kernel). The threads' code
// is BagKernel.cpp.
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagToGPU/EmbBagToGPU.h"

#include "BagKernel.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_CONVERTEMBBAGTOGPU
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::gpu_lowering;
using contract::Clause;

// The host's checks compare scalars and shapes only.
static constexpr unsigned kHostCheckVectorBits = 128;
/// The flag word's bit for segment ids that are not sorted: above the
/// contract's rules, whose bits are 1 << rule.
static constexpr int32_t kUnsortedBit = int32_t(1) << 30;

static bufferization::MaterializeInDestinationOp
findDestination(BagOpInterface op);

/// The bits per code of a rowwise table; 0 for a table of values.
static unsigned rowwiseBits(BagOpInterface op) {
  TypeAttr attr = op.getRowwiseAttr();
  return attr ? attr.getValue().getIntOrFloatBitWidth() : 0;
}

/// Why this lowering does not take `op`, or nothing when it does. A kernel
/// launched from the host writes device memory, which the host code
/// allocates none of yet: its result must go into a caller's buffer.
static std::optional<StringRef> getUnsupportedReason(BagOpInterface op,
                                                     bool hostLoops) {
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (!element.isF32() && !element.isF16() && !element.isBF16())
    return StringRef("only f32, f16 and bf16 tables are supported on the GPU");
  if (!hostLoops && !findDestination(op))
    return StringRef(
        "its result must go into a destination buffer (a "
        "bufferization.materialize_in_destination into a memref that "
        "dominates the op, as in embbag-aot's kernels); results in new "
        "device buffers are not supported yet");
  return std::nullopt;
}

/// The contract's evaluator for a kernel: the host checks what it holds
/// (scalars, shapes) before the launch; the rules on the offsets and
/// indices, which live on the device, are flagged by the threads.
using KernelChecks = FlagWordChecks;

/// `tensor` as a read-only buffer whose layout any buffer casts to, with
/// unit stride along the last dimension (what vector loads need).
static Value readBuffer(ImplicitLocOpBuilder &b, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  strides.back() = 1;
  auto layout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides);
  auto bufferType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  Value buffer =
      bufferization::ToBufferOp::create(b, bufferType, tensor, b.getUnitAttr());
  // Through the assumption, not the to_buffer op: canonicalization would
  // turn a memref.load of a to_buffer into a tensor.extract, which
  // bufferizes back into a load without its alignment (and NVPTX splits an
  // i64 load whose alignment it does not know).
  return memref::AssumeAlignmentOp::create(b, buffer,
                                           type.getElementTypeBitWidth() / 8);
}

/// The memref that `op`'s result is only materialized in, when it
/// dominates `op` and collapses to [num_bags, row]: the kernel writes
/// there directly.
static bufferization::MaterializeInDestinationOp
findDestination(BagOpInterface op) {
  Value result = op->getResult(0);
  if (!result.hasOneUse())
    return {};
  auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(
      *result.getUsers().begin());
  if (!m || !isa<MemRefType>(m.getDest().getType()))
    return {};
  auto destType = cast<MemRefType>(m.getDest().getType());
  if (!destType.getLayout().isIdentity() ||
      destType.getRank() != cast<ShapedType>(result.getType()).getRank())
    return {};
  DominanceInfo dominance(op->getParentOfType<FunctionOpInterface>());
  if (!dominance.properlyDominates(m.getDest(), op))
    return {};
  return m;
}

/// The destination as [num_bags, row].
static Value collapseDestination(ImplicitLocOpBuilder &b, Value dest) {
  auto type = cast<MemRefType>(dest.getType());
  if (type.getRank() == 2)
    return dest;
  if (type.getRank() == 1) {
    SmallVector<int64_t> shape{type.getDimSize(0), 1};
    return memref::ExpandShapeOp::create(
        b, MemRefType::get(shape, type.getElementType()), dest,
        ArrayRef<ReassociationIndices>{{0, 1}},
        ArrayRef<OpFoldResult>{memref::getMixedSize(b, b.getLoc(), dest, 0),
                               b.getIndexAttr(1)});
  }
  ReassociationIndices rows;
  for (int64_t d = 1; d < type.getRank(); ++d)
    rows.push_back(d);
  return memref::CollapseShapeOp::create(
      b, dest, ArrayRef<ReassociationIndices>{{0}, rows});
}

/// Whether `buffer`'s rows start on `alignment`-byte boundaries (i1): its
/// first element and its row stride.
static Value rowsAligned(ImplicitLocOpBuilder &b, Value buffer,
                         int64_t alignment) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  auto meta = memref::ExtractStridedMetadataOp::create(b, buffer);
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, buffer);
  Value first = arith::AddIOp::create(
      b, pointer, arith::MulIOp::create(b, meta.getOffset(), cst(b, bytes)));
  Value rowBytes =
      arith::MulIOp::create(b, meta.getStrides()[0], cst(b, bytes));
  auto aligned = [&](Value v) {
    return arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, v, cst(b, alignment)), cst(b, 0));
  };
  return arith::AndIOp::create(b, aligned(first), aligned(rowBytes));
}

/// Whether the lanes load 16-byte vectors: the row is a whole number of
/// them and both buffers' rows are aligned. Null when it cannot be.
static Value chooseVectors(ImplicitLocOpBuilder &b, const BagKernel &k) {
  if (k.vectorLength == 1)
    return Value();
  std::optional<int64_t> row = getConstantIntValue(k.rowLength);
  if (row && *row % k.vectorLength != 0)
    return Value();
  // A vector of codes is one code word.
  int64_t tableAlignment =
      k.rowwiseBits ? codeWordBits(k.rowwiseBits) / 8 : kVectorBytes;
  Value wholeVectors = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, k.rowLength, cst(b, k.vectorLength)),
      cst(b, 0));
  return arith::AndIOp::create(
      b, wholeVectors,
      arith::AndIOp::create(b, rowsAligned(b, k.table, tableAlignment),
                            rowsAligned(b, k.out, kVectorBytes)));
}

/// The lanes per bag: the power of two from 1 to 32 that covers the
/// row's loads (`loadsPerRow`), or 32.
static Value lanesFor(ImplicitLocOpBuilder &b, Value loadsPerRow) {
  Value lanes = cst(b, kMaxLanesPerBag);
  for (int64_t p = kMaxLanesPerBag / 2; p >= 1; p /= 2)
    lanes = arith::SelectOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ule, loadsPerRow,
                              cst(b, p)),
        cst(b, p), lanes);
  return lanes;
}

/// Sets the launch configuration of `k`: lanes per bag and bags per block.
static void chooseLanes(ImplicitLocOpBuilder &b, BagKernel &k) {
  Value elementsPerLoad =
      k.useVectors ? arith::SelectOp::create(b, k.useVectors,
                                             cst(b, k.vectorLength), cst(b, 1))
                         .getResult()
                   : cst(b, 1);
  Value loadsPerRow =
      arith::CeilDivUIOp::create(b, k.rowLength, elementsPerLoad);
  k.lanesPerBag = lanesFor(b, loadsPerRow);
  k.bagsPerBlock = arith::DivUIOp::create(b, cst(b, kBlockSize), k.lanesPerBag);
}

/// A gpu.launch of the threads' code over `numBlocks` blocks, stream-ordered
/// and asynchronous: its stream is a `gpu.wait async`, which the runtime
/// makes the thread's current stream (docs/GPU.md). The host waits for the
/// kernel only if `hostWaits`, when it reads the flag word next; else the
/// caller orders its work after the kernel on that stream, as with
/// PyTorch's operators, and no launch pays a synchronization.
static void buildAsyncLaunch(ImplicitLocOpBuilder &b, const BagKernel &k,
                             Value numBlocks, bool hostWaits) {
  Value one = cst(b, 1), threads = cst(b, kBlockSize);
  Type tokenType = b.getType<gpu::AsyncTokenType>();
  Value stream =
      gpu::WaitOp::create(b, tokenType, ValueRange{}).getAsyncToken();
  auto launch = gpu::LaunchOp::create(b, numBlocks, one, one, threads, one, one,
                                      /*dynamicSharedMemorySize=*/nullptr,
                                      tokenType, ValueRange{stream});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&launch.getBody().front());
    buildBagThread(b, k, launch.getBlockIds().x, launch.getThreadIds().x);
    gpu::TerminatorOp::create(b);
  }
  if (hostWaits)
    gpu::WaitOp::create(b, Type(), ValueRange{launch.getAsyncToken()});
}

/// Runs the threads' code over `numBlocks` blocks: a gpu.launch, or two
/// nested scf.parallel loops on the host.
static void buildLaunch(ImplicitLocOpBuilder &b, const BagKernel &k,
                        Value numBlocks, bool hostLoops) {
  Value zero = cst(b, 0);
  if (hostLoops) {
    Value one = cst(b, 1), threads = cst(b, kBlockSize);
    scf::ParallelOp::create(
        b, ValueRange{zero}, ValueRange{numBlocks}, ValueRange{one},
        [&](OpBuilder &nested, Location loc, ValueRange blocks) {
          scf::ParallelOp::create(
              nested, loc, ValueRange{zero}, ValueRange{threads},
              ValueRange{one},
              [&](OpBuilder &inner, Location l, ValueRange thread) {
                ImplicitLocOpBuilder tb(l, inner);
                buildBagThread(tb, k, blocks[0], thread[0]);
              });
        });
    return;
  }
  // A grid of no blocks is an error for the driver: no bags, no launch.
  Value any =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, numBlocks, zero);
  scf::IfOp::create(b, any, [&](OpBuilder &nested, Location loc) {
    ImplicitLocOpBuilder tb(loc, nested);
    buildAsyncLaunch(tb, k, numBlocks, /*hostWaits=*/bool(k.flag));
    scf::YieldOp::create(tb);
  });
}

/// The runtime function that returns the calling thread's flag word:
/// pinned host memory the device writes through (docs/GPU.md).
static constexpr StringLiteral kStatusWordFunction = "embbagCudaStatusWord";

/// Declares kStatusWordFunction in `module` unless it is: called through
/// its C interface (a descriptor written by the callee).
static void declareStatusWordFunction(ModuleOp module) {
  if (module.lookupSymbol(kStatusWordFunction))
    return;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto type = MemRefType::get({1}, b.getI32Type());
  auto f = func::FuncOp::create(b, module.getLoc(), kStatusWordFunction,
                                b.getFunctionType({}, {type}));
  f.setPrivate();
  f->setAttr("llvm.emit_c_interface", b.getUnitAttr());
}

/// The flag word the kernel's checks set, zeroed: the runtime's word on
/// the GPU, or a stack slot for host loops.
static Value allocateFlag(ImplicitLocOpBuilder &b, bool hostLoops) {
  auto type = MemRefType::get({1}, b.getI32Type());
  Value flag = hostLoops ? memref::AllocaOp::create(b, type).getResult()
                         : func::CallOp::create(b, kStatusWordFunction,
                                                TypeRange{type}, ValueRange{})
                               .getResult(0);
  memref::StoreOp::create(b,
                          arith::ConstantOp::create(b, b.getI32IntegerAttr(0)),
                          flag, ValueRange{cst(b, 0)});
  return flag;
}

namespace {

struct BagOpToGPU : public OpInterfaceRewritePattern<BagOpInterface> {
  BagOpToGPU(MLIRContext *ctx, const ConvertEmbBagToGPUOptions &options)
      : OpInterfaceRewritePattern<BagOpInterface>(ctx), options(options) {}

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<StringRef> reason =
            getUnsupportedReason(op, options.hostLoops))
      return rewriter.notifyMatchFailure(op, *reason);
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelChecks checks(b, op, kHostCheckVectorBits);
    if (options.checks) {
      (void)checks.evaluate(contract::getContract(op));
      emitDestinationChecks(b, op, kHostCheckVectorBits);
    }
    BagKernel k = buildOperands(b, op, checks);
    bufferization::MaterializeInDestinationOp dest = findDestination(op);
    Value init;
    if (dest) {
      k.out = collapseDestination(b, dest.getDest());
    } else {
      RankedTensorType resultType = op.getBagResultType();
      int64_t row = k.scaleColumn
                        ? ShapedType::kDynamic
                        : cast<MemRefType>(k.table.getType()).getDimSize(1);
      if (auto constant = getConstantIntValue(k.rowLength))
        row = *constant;
      auto type =
          RankedTensorType::get({resultType.getDimSize(0), row}, k.resultType);
      SmallVector<Value> sizes;
      for (auto [d, size] :
           llvm::enumerate(SmallVector<Value>{k.bounds.numBags, k.rowLength}))
        if (type.isDynamicDim(d))
          sizes.push_back(size);
      init = tensor::EmptyOp::create(b, type, sizes);
      k.out = bufferization::ToBufferOp::create(
          b, MemRefType::get(type.getShape(), type.getElementType()), init,
          UnitAttr());
    }
    k.useVectors = chooseVectors(b, k);
    chooseLanes(b, k);
    Value numBlocks =
        arith::CeilDivUIOp::create(b, k.bounds.numBags, k.bagsPerBlock);
    if (checks.hasKernelClauses())
      k.flag = allocateFlag(b, options.hostLoops);
    if (k.segmentIdsBit)
      flagIdsWithoutSegments(b, k);
    buildLaunch(b, k, numBlocks, options.hostLoops);
    if (k.flag)
      reportFlags(b, op, checks, k);
    if (dest) {
      rewriter.eraseOp(dest);
      rewriter.eraseOp(op);
      return success();
    }
    Value result = bufferization::ToTensorOp::create(
        b, init.getType(), k.out, b.getUnitAttr(), b.getUnitAttr());
    rewriter.replaceOp(op, unflattenResult(b, result, op.getBagResultType(),
                                           op.getTable(), k.bounds.numBags));
    return success();
  }

private:
  /// The kernel's buffers, sizes and clauses; `checks` gives the bits of
  /// the device's rules.
  BagKernel buildOperands(ImplicitLocOpBuilder &b, BagOpInterface op,
                          const KernelChecks &checks) const {
    bool packed = op.getBagForm() == BagForm::Packed;
    auto flatten = [&](Value v) { return packed ? flattenBags(b, v) : v; };
    Value table = flattenTable(b, op.getTable());
    BagKernel k;
    k.reduction = op.getReduction();
    k.table = readBuffer(b, table);
    k.indices = readBuffer(b, flatten(op.getIndices()));
    if (op.getWeights())
      k.weights = readBuffer(b, flatten(op.getWeights()));
    if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
      k.defaultIndex = toIndex(b, *d);
    if (Value padding = op.getPaddingIdx())
      k.paddingIdx = toIndex(b, padding);
    k.numEmb = dim(b, table, 0);
    k.resultType = getElementTypeOrSelf(op->getResult(0).getType());
    k.rowLength = dim(b, table, 1);
    k.rowwiseBits = rowwiseBits(op);
    if (k.rowwiseBits) {
      // A row's bytes: the codes, then an f32 scale and bias (8-bit codes)
      // or f16 ones. Only 8-bit codes may leave the row length to the
      // table (the verifier).
      int64_t tailBytes = k.rowwiseBits == 8 ? 8 : 4;
      k.scaleColumn =
          b.createOrFold<arith::SubIOp>(k.rowLength, cst(b, tailBytes));
      auto resultType = cast<ShapedType>(op->getResult(0).getType());
      k.rowLength = resultType.isDynamicDim(1)
                        ? k.scaleColumn
                        : cst(b, resultType.getDimSize(1));
    }
    if (op.getBagForm() == BagForm::Segments) {
      k.segmentIds = readBuffer(b, op.getBags());
      k.bounds = sortedSegmentBounds(b, k.segmentIds, numSegments(b, op));
      k.segmentIdsBit = checks.getBit(contract::Rule::SegmentIdsInRange);
      if (k.segmentIdsBit)
        k.unsortedBit = kUnsortedBit;
    } else {
      k.bounds = getBounds(b, op);
    }
    Type element = getElementTypeOrSelf(table.getType());
    k.vectorLength = k.rowwiseBits
                         ? codeWordBits(k.rowwiseBits) / k.rowwiseBits
                         : kVectorBytes * 8 / element.getIntOrFloatBitWidth();
    k.rowsInFlight = options.rowsInFlight;
    k.onDevice = !options.hostLoops;
    k.offsetsBit = checks.getBit(contract::Rule::OffsetsInIndices);
    k.indicesBit = checks.getBit(contract::Rule::IndicesInTable);
    return k;
  }

  /// The bags of a packed or offsets op.
  static BagBounds getBounds(ImplicitLocOpBuilder &b, BagOpInterface op) {
    Value rows = dim(b, op.getIndices(), 0);
    if (op.getBagForm() == BagForm::Packed)
      return BagBounds::fromPacked(b, b.getLoc(), rows,
                                   dim(b, op.getIndices(), 1));
    return BagBounds::fromOffsets(b, b.getLoc(), readBuffer(b, op.getBags()),
                                  rows, op.getIncludeLastOffset());
  }

  /// num_segments as an index, none when negative (a broken contract that
  /// the host's checks stop on).
  static Value numSegments(ImplicitLocOpBuilder &b, BagOpInterface op) {
    return arith::MaxSIOp::create(b, toIndex(b, op.getMixedNumSegments()),
                                  cst(b, 0));
  }

  /// Before the launch: with no segments, every id breaks the range rule,
  /// and no thread runs to flag it.
  static void flagIdsWithoutSegments(ImplicitLocOpBuilder &b,
                                     const BagKernel &k) {
    auto eq = [&](Value x, Value y) {
      return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, y);
    };
    Value broken = arith::AndIOp::create(
        b, eq(k.bounds.numBags, cst(b, 0)),
        arith::XOrIOp::create(
            b, eq(k.bounds.numIndices, cst(b, 0)),
            arith::ConstantOp::create(b, b.getBoolAttr(true))));
    Value i32 = arith::ExtUIOp::create(b, b.getI32Type(), broken);
    memref::StoreOp::create(
        b,
        arith::MulIOp::create(
            b, i32,
            arith::ConstantOp::create(b, b.getI32IntegerAttr(k.segmentIdsBit))),
        k.flag, ValueRange{cst(b, 0)});
  }

  /// Reads the flag word after the kernel and reports the device's rules,
  /// then ids that are in range but not sorted: a limit of the GPU's
  /// segments, not a broken contract.
  static void reportFlags(ImplicitLocOpBuilder &b, BagOpInterface op,
                          KernelChecks &checks, const BagKernel &k) {
    Value flags = memref::LoadOp::create(b, k.flag, ValueRange{cst(b, 0)});
    checks.reportFlags(flags);
    if (!k.unsortedBit)
      return;
    Value bit =
        arith::ConstantOp::create(b, b.getI32IntegerAttr(k.unsortedBit));
    Value sorted = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, arith::AndIOp::create(b, flags, bit),
        arith::ConstantOp::create(b, b.getI32IntegerAttr(0)));
    emitAssert(b, op, sorted,
               "segment ids not sorted: embbag.segments on the GPU needs "
               "sorted segment ids");
  }

  ConvertEmbBagToGPUOptions options;
};

struct ConvertEmbBagToGPUPass
    : public embbag::impl::ConvertEmbBagToGPUBase<ConvertEmbBagToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    if (rowsInFlight < 1 || rowsInFlight > 16) {
      emitError(getOperation()->getLoc())
          << "rows-in-flight must lie in [1, 16], not " << rowsInFlight;
      return signalPassFailure();
    }
    if (!leaveUnsupported && failed(refuseUnsupported()))
      return signalPassFailure();
    if (checks && !hostLoops && failed(declareRuntime()))
      return signalPassFailure();
    ConvertEmbBagToGPUOptions options{checks, hostLoops, rowsInFlight,
                                      leaveUnsupported};
    RewritePatternSet patterns(&getContext());
    patterns.add<BagOpToGPU>(&getContext(), options);
    lowering::rewriteEach(
        getOperation(), [](Operation *op) { return isa<BagOpInterface>(op); },
        std::move(patterns));
  }

  /// Declares the runtime's status word function, which the checked
  /// kernels call: in the module the pass runs on, since a pass on a
  /// function must not add to its parent.
  LogicalResult declareRuntime() {
    bool any = false;
    getOperation()->walk([&](BagOpInterface) { any = true; });
    if (!any)
      return success();
    auto module = dyn_cast<ModuleOp>(getOperation());
    if (!module)
      return emitError(getOperation()->getLoc())
             << "convert-embbag-to-gpu with checks must run on a module: it "
                "declares the runtime function "
             << kStatusWordFunction << " there";
    declareStatusWordFunction(module);
    return success();
  }

  /// Reports every op this lowering does not take, before anything is
  /// rewritten.
  LogicalResult refuseUnsupported() {
    if (failed(refuseTrainingOps(
            getOperation(),
            "is not supported on the GPU yet: the training ops lower through "
            "convert-embbag-to-loops, on the CPU")))
      return failure();
    bool refused = false;
    getOperation()->walk([&](BagOpInterface op) {
      if (std::optional<StringRef> reason =
              getUnsupportedReason(op, hostLoops)) {
        op->emitOpError("cannot be lowered to the GPU: ") << *reason;
        refused = true;
      }
    });
    return failure(refused);
  }
};

} // namespace
