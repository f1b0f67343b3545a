//===- ShardToLLVM.cpp - The embbag-shard-to-llvm pipeline ----------------===//
//
// `embbag-shard-to-llvm` (docs/Sharding.md): a module whose kernels carry
// shard.grid / shard.shard annotations, and whose `@main` builds the whole
// inputs, calls the kernels and prints, becomes an SPMD program over MPI:
//
//   shard the annotated functions     for each function holding shard.shard:
//                                       sharding-propagation, then a copy
//                                       `<name>__shard_local` partitioned by
//                                       shard-partition, and `<name>` itself
//                                       rewritten into a wrapper with the
//                                       original signature: it slices this
//                                       process's shards of the arguments,
//                                       runs the copy's body on them (in
//                                       place: a call would copy them) and
//                                       rebuilds whole results (all-reduce
//                                       into zeros)
//   lower the collectives MLIR 22.1   all_slice (upstream patterns),
//   leaves alone                        all_gather (all-reduce into zeros)
//   convert-shard-to-mpi
//   MPI_Init / MPI_Finalize in @main, shard.grid ops erased
//   embbag-to-llvm, with the MPI dialect converted between its two halves
//
// Unannotated functions and declarations are left as they are: upstream's
// propagation rejects ops without sharding support (func.call, tensor.cast)
// and declarations, so it only ever sees annotated functions.
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/ShardingInterfaceImpl.h"
#include "embbag/Pipelines/Pipelines.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MPIToLLVM/MPIToLLVM.h"
#include "mlir/Conversion/ShardToMPI/ShardToMPI.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using shard::Sharding;

//===----------------------------------------------------------------------===//
// Sharding the annotated functions
//===----------------------------------------------------------------------===//

/// Zeros of `type` (float or signless integer elements).
static Value zerosLike(OpBuilder &b, Location loc, RankedTensorType type) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

namespace {

/// The wrapper's view of one sharded value: where this process's shard sits
/// in the whole tensor.
struct ShardPlacement {
  SmallVector<OpFoldResult> offsets, sizes;
  SmallVector<shard::GridAxis> axes;
};

} // namespace

static FailureOr<ShardPlacement> placeShard(OpBuilder &b, Location loc,
                                            shard::GridOp grid,
                                            const Sharding &sharding,
                                            Value whole) {
  auto type = cast<RankedTensorType>(whole.getType());
  ShardPlacement place;
  place.offsets.assign(type.getRank(), b.getIndexAttr(0));
  place.sizes = tensor::getMixedSizes(b, loc, whole);
  for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes())) {
    if (axes.empty())
      continue;
    int64_t count =
        shard::collectiveProcessGroupSize(axes.asArrayRef(), grid.getShape());
    Value dimSize = tensor::DimOp::create(b, loc, whole, dim);
    Value even = arith::DivUIOp::create(
        b, loc, dimSize, arith::ConstantIndexOp::create(b, loc, count));
    FailureOr<embbag::ShardBounds> bounds =
        embbag::getShardBounds(b, loc, grid, sharding, dim, even);
    if (failed(bounds))
      return failure();
    place.offsets[dim] = bounds->offset;
    place.sizes[dim] = getAsOpFoldResult(bounds->size);
    llvm::append_range(place.axes, axes.asArrayRef());
  }
  return place;
}

/// This process's shard of the whole argument `whole`, of type `localType`.
static FailureOr<Value> sliceArgument(OpBuilder &b, Location loc,
                                      shard::GridOp grid,
                                      const Sharding &sharding, Value whole,
                                      Type localType) {
  if (!sharding || shard::isFullReplication(sharding))
    return whole;
  FailureOr<ShardPlacement> place = placeShard(b, loc, grid, sharding, whole);
  if (failed(place))
    return failure();
  SmallVector<OpFoldResult> strides(place->sizes.size(), b.getIndexAttr(1));
  Value slice = tensor::ExtractSliceOp::create(b, loc, whole, place->offsets,
                                               place->sizes, strides);
  if (slice.getType() != localType)
    slice = tensor::CastOp::create(b, loc, localType, slice);
  return slice;
}

/// The whole result from this process's shard `local`: every process writes
/// its shard into zeros and an all-reduce sums them (MPI_Allgatherv would
/// need the shard sizes of all processes; this needs none).
static FailureOr<Value> gatherResult(OpBuilder &b, Location loc,
                                     shard::GridOp grid,
                                     const Sharding &sharding, Value local,
                                     RankedTensorType wholeType) {
  if (!sharding || shard::isFullReplication(sharding))
    return local;
  if (!wholeType.hasStaticShape())
    return emitError(loc, "embbag-shard-to-llvm: a split result must have a "
                          "static shape (the all-reduce needs it)");
  Value zeros = zerosLike(b, loc, wholeType);
  FailureOr<ShardPlacement> place = placeShard(b, loc, grid, sharding, zeros);
  if (failed(place))
    return failure();
  // Sizes from the local value itself: they are what the shard holds.
  place->sizes = tensor::getMixedSizes(b, loc, local);
  SmallVector<OpFoldResult> strides(place->sizes.size(), b.getIndexAttr(1));
  Value placed = tensor::InsertSliceOp::create(
      b, loc, local, zeros, place->offsets, place->sizes, strides);
  return shard::AllReduceOp::create(b, loc, placed, grid.getSymName(),
                                    place->axes, shard::ReductionKind::Sum)
      .getResult();
}

/// The sharding of each argument and result of a propagated function: the
/// annotation on its (single) use or its definition; null if none.
static std::pair<SmallVector<Sharding, 4>, SmallVector<Sharding, 4>>
boundaryShardings(func::FuncOp func) {
  SmallVector<Sharding, 4> args, results;
  for (BlockArgument arg : func.getArguments()) {
    Sharding sharding;
    for (Operation *user : arg.getUsers())
      if (auto shardOp = dyn_cast<shard::ShardOp>(user))
        sharding = Sharding(shardOp.getSharding());
    args.push_back(sharding);
  }
  func.walk([&](func::ReturnOp ret) {
    for (Value v : ret.getOperands()) {
      auto shardOp = v.getDefiningOp<shard::ShardOp>();
      results.push_back(shardOp ? Sharding(shardOp.getSharding()) : Sharding());
    }
  });
  return {args, results};
}

/// The body of `local` (one block) copied at `b` with its arguments bound to
/// `operands`: its results. A call would bufferize to a copy of each sliced
/// argument (a function's arguments have an identity layout), i.e. of this
/// rank's whole shard of the table on every call; a copy of the body reads
/// the slices in place.
static SmallVector<Value> inlineLocalBody(OpBuilder &b, func::FuncOp local,
                                          ValueRange operands) {
  Block &body = local.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), operands);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

/// Fills the body of `wrapper` (the original signature): slice, run the
/// partitioned `local` on the slices, gather.
static LogicalResult buildWrapper(func::FuncOp wrapper, func::FuncOp local,
                                  ArrayRef<Sharding> argShardings,
                                  ArrayRef<Sharding> resultShardings) {
  Location loc = wrapper.getLoc();
  OpBuilder b(wrapper.getContext());
  Block *entry = wrapper.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto lookupGrid = [&](const Sharding &sharding) -> shard::GridOp {
    if (!sharding)
      return nullptr;
    return SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
        wrapper, sharding.getGridAttr());
  };
  SmallVector<Value> operands;
  for (auto [arg, sharding, localType] : llvm::zip(
           entry->getArguments(), argShardings, local.getArgumentTypes())) {
    FailureOr<Value> v =
        sliceArgument(b, loc, lookupGrid(sharding), sharding, arg, localType);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  SmallVector<Value> localResults;
  if (local.getBody().hasOneBlock())
    localResults = inlineLocalBody(b, local, operands);
  else
    llvm::append_range(
        localResults,
        func::CallOp::create(b, loc, local, operands).getResults());
  SmallVector<Value> results;
  for (auto [res, sharding, type] :
       llvm::zip(localResults, resultShardings, wrapper.getResultTypes())) {
    FailureOr<Value> v = gatherResult(b, loc, lookupGrid(sharding), sharding,
                                      res, cast<RankedTensorType>(type));
    if (failed(v))
      return failure();
    results.push_back(*v);
  }
  func::ReturnOp::create(b, loc, results);
  return success();
}

/// Whether every use of `value` (annotated `sharding`), through further
/// annotations of the same sharding, is an operand of an embbag op.
static bool onlyEmbBagUsers(Value value, const Sharding &sharding) {
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    if (auto shardOp = dyn_cast<shard::ShardOp>(user))
      return Sharding(shardOp.getSharding()) == sharding &&
             onlyEmbBagUsers(shardOp.getResult(), sharding);
    return isa<embbag::EmbBagDialect>(user->getDialect()) &&
           isa<shard::ShardingInterface>(user);
  });
}

/// Issue 20: MLIR 22.1's shard-partition has no pattern for many reshards
/// (any to or from a split with sharded_dims_offsets among them): it leaves
/// a null value (or, applying a step that falls short, a wrong one) and
/// crashes further on. The embbag ops slice their own operands resharded
/// from replicated values (ShardingInterfaceImpl.cpp); every other reshard
/// shard-partition cannot do is reported here, at its shard.shard op,
/// before partitioning.
static LogicalResult checkReshards(func::FuncOp func) {
  WalkResult walk = func.walk([](shard::ShardOp target) {
    auto source = target.getSrc().getDefiningOp<shard::ShardOp>();
    if (!source)
      return WalkResult::advance();
    Sharding from(source.getSharding()), to(target.getSharding());
    if (embbag::canShardPartitionReshard(from, to) ||
        (shard::isFullReplication(from) &&
         onlyEmbBagUsers(target.getResult(), to)))
      return WalkResult::advance();
    target.emitError("embbag-shard-to-llvm: cannot reshard this value from "
                     "its previous annotation (shard-partition reshards "
                     "one grid axis at a time, without "
                     "sharded_dims_offsets or halos; the operands of embbag "
                     "ops can also be resharded from replicated values)")
            .attachNote(source.getLoc())
        << "previous annotation";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

namespace {

struct ShardFunctionsPass
    : public PassWrapper<ShardFunctionsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ShardFunctionsPass)

  StringRef getArgument() const override { return "embbag-shard-functions"; }
  StringRef getDescription() const override {
    return "Propagate and partition the functions holding shard.shard ops, "
           "behind wrappers keeping their signatures";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<arith::ArithDialect, bufferization::BufferizationDialect,
                embbag::EmbBagDialect, linalg::LinalgDialect, scf::SCFDialect,
                shard::ShardDialect, tensor::TensorDialect>();
  }

  LogicalResult shardFunction(func::FuncOp func) {
    OpPassManager propagate(func::FuncOp::getOperationName());
    propagate.addPass(shard::createShardingPropagation());
    if (failed(runPipeline(propagate, func)) || failed(checkReshards(func)))
      return failure();
    auto [argShardings, resultShardings] = boundaryShardings(func);
    if (resultShardings.size() != func.getNumResults())
      return func.emitError("embbag-shard-to-llvm: expected one return");

    // The partitioned copy keeps the function's visibility: a caller that
    // holds only this rank's shards calls it directly. The original name
    // keeps the original signature for the callers of whole inputs.
    OpBuilder b(func);
    auto local = cast<func::FuncOp>(b.clone(*func));
    local.setSymName((func.getSymName() + "__shard_local").str());
    OpPassManager partition(func::FuncOp::getOperationName());
    partition.addPass(shard::createPartition());
    if (failed(runPipeline(partition, local)))
      return failure();
    func.getBody().getBlocks().clear();
    return buildWrapper(func, local, argShardings, resultShardings);
  }

  void runOnOperation() override {
    SmallVector<func::FuncOp> annotated;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() &&
          func.walk([](shard::ShardOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        annotated.push_back(func);
    for (func::FuncOp func : annotated)
      if (failed(shardFunction(func)))
        return signalPassFailure();
  }
};

//===----------------------------------------------------------------------===//
// Collectives MLIR 22.1 does not lower to MPI
//===----------------------------------------------------------------------===//

/// shard.all_gather as an all-reduce into zeros (even splits only: the
/// partitioner emits it for no other).
struct AllGatherToAllReduce : public OpRewritePattern<shard::AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(shard::AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!inType || !outType || !outType.hasStaticShape() ||
        !inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "static tensors only");
    Location loc = op.getLoc();
    int64_t axis = op.getGatherAxis().getSExtValue();
    Value rank = shard::ProcessMultiIndexOp::create(rewriter, loc, op.getGrid(),
                                                    op.getGridAxes())
                     .getResult()[0];
    if (op.getGridAxes().size() != 1)
      return rewriter.notifyMatchFailure(op, "one grid axis only");
    SmallVector<OpFoldResult> offsets(inType.getRank(),
                                      rewriter.getIndexAttr(0));
    offsets[axis] = getAsOpFoldResult(
        arith::MulIOp::create(rewriter, loc, rank,
                              arith::ConstantIndexOp::create(
                                  rewriter, loc, inType.getDimSize(axis))));
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(rewriter.getContext(), inType.getShape());
    SmallVector<OpFoldResult> strides(inType.getRank(),
                                      rewriter.getIndexAttr(1));
    Value placed = tensor::InsertSliceOp::create(
        rewriter, loc, op.getInput(), zerosLike(rewriter, loc, outType),
        offsets, sizes, strides);
    rewriter.replaceOpWithNewOp<shard::AllReduceOp>(
        op, placed, op.getGrid(), op.getGridAxes(), shard::ReductionKind::Sum);
    return success();
  }
};

struct LowerShardCollectivesPass
    : public PassWrapper<LowerShardCollectivesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerShardCollectivesPass)

  StringRef getArgument() const override {
    return "embbag-lower-shard-collectives";
  }
  StringRef getDescription() const override {
    return "Lower shard.all_slice and shard.all_gather to ops that "
           "convert-shard-to-mpi handles";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    shard::registerAllSliceOpLoweringDialects(registry);
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    tensor::TensorDialect>();
  }

  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    RewritePatternSet patterns(&getContext());
    shard::populateAllSliceOpLoweringPatterns(patterns, symbolTables);
    patterns.add<AllGatherToAllReduce>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation().walk([](Operation *op) {
      if (isa<shard::AllGatherOp, shard::AllSliceOp>(op)) {
        op->emitError("embbag-shard-to-llvm: cannot lower this collective "
                      "to MPI (dynamic shape or several grid axes)");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

//===----------------------------------------------------------------------===//
// MPI set-up and conversion
//===----------------------------------------------------------------------===//

/// The DLTI entry naming MPICH as the MPI implementation.
static Attribute mpichMap(MLIRContext *ctx) {
  Builder b(ctx);
  return MapAttr::get(
      ctx, {DataLayoutEntryAttr::get(b.getStringAttr("MPI:Implementation"),
                                     b.getStringAttr("MPICH"))});
}

struct InsertMPIInitFinalizePass
    : public PassWrapper<InsertMPIInitFinalizePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InsertMPIInitFinalizePass)

  StringRef getArgument() const override {
    return "embbag-insert-mpi-init-finalize";
  }
  StringRef getDescription() const override {
    return "MPI_Init at the start of @main, MPI_Finalize before its returns; "
           "erase the shard.grid ops";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<DLTIDialect, mpi::MPIDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The MPI lowering asks DLTI which implementation to call and picks
    // MPICH after an error message when nothing says so.
    if (!module->hasAttr(DLTIDialect::kMapAttrName))
      module->setAttr(DLTIDialect::kMapAttrName, mpichMap(&getContext()));
    // Nothing refers to the grids after convert-shard-to-mpi, and a grid
    // left in the module stops mlir-translate and mlir-runner.
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      grid.erase();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    OpBuilder b(main.getBody());
    mpi::InitOp::create(b, main.getLoc(), Type());
    main.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      mpi::FinalizeOp::create(b, ret.getLoc(), Type());
    });
  }
};

/// The one-process reference of a sharded module: every annotation dropped.
struct DropShardingPass
    : public PassWrapper<DropShardingPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DropShardingPass)

  StringRef getArgument() const override { return "embbag-drop-sharding"; }
  StringRef getDescription() const override {
    return "Erase shard.shard, shard.sharding and shard.grid ops: the "
           "module as one process runs it";
  }

  void runOnOperation() override {
    getOperation().walk([](shard::ShardOp op) {
      op.replaceAllUsesWith(op.getSrc());
      op.erase();
    });
    getOperation().walk([](Operation *op) {
      if (isa<shard::ShardingOp, shard::GridOp>(op) && op->use_empty())
        op->erase();
    });
  }
};

struct ConvertMPIToLLVMPass
    : public PassWrapper<ConvertMPIToLLVMPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertMPIToLLVMPass)

  StringRef getArgument() const override {
    return "embbag-convert-mpi-to-llvm";
  }
  StringRef getDescription() const override {
    return "Convert the MPI dialect to calls of the MPI library (MPICH)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    mpi::populateMPIToLLVMConversionPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<mpi::MPIDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // mlir-runner does not load DLTI: drop the entry the pipeline added.
    if (getOperation()->getAttr(DLTIDialect::kMapAttrName) ==
        mpichMap(&getContext()))
      getOperation()->removeAttr(DLTIDialect::kMapAttrName);
  }
};

} // namespace

void mlir::embbag::buildEmbBagShardToLLVMPipeline(
    OpPassManager &pm, const EmbBagToLLVMOptions &options) {
  pm.addPass(std::make_unique<ShardFunctionsPass>());
  pm.addPass(std::make_unique<LowerShardCollectivesPass>());
  pm.addPass(createConvertShardToMPIPass());
  pm.addPass(std::make_unique<InsertMPIInitFinalizePass>());
  // Before bufferization: the buffer deallocation rejects MPI ops (no
  // memory effects declared); the calls they become take plain pointers.
  pm.addPass(std::make_unique<ConvertMPIToLLVMPass>());
  buildEmbBagToLLVMPipeline(pm, options);
}

void mlir::embbag::registerEmbBagShardToLLVMPipeline() {
  // The steps of the pipeline, by name, for tests of each.
  PassRegistration<ShardFunctionsPass>();
  PassRegistration<LowerShardCollectivesPass>();
  PassRegistration<InsertMPIInitFinalizePass>();
  PassRegistration<ConvertMPIToLLVMPass>();
  PassRegistration<DropShardingPass>();
  PassPipelineRegistration<EmbBagToLLVMOptions>(
      "embbag-shard-to-llvm",
      "Shard the functions annotated with shard.grid/shard.shard over MPI "
      "(propagation, partition, convert-shard-to-mpi, MPI_Init/Finalize in "
      "@main), then lower like embbag-to-llvm; run with mpirun.mpich and "
      "libmpich",
      buildEmbBagShardToLLVMPipeline);
}
