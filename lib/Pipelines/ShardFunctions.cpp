//===- ShardFunctions.cpp - The embbag-shard-functions pass ---------------===//
//
// Each function holding shard.shard ops: sharding-propagation, then a copy
// `<name>__shard_local` partitioned by shard-partition, and `<name>` itself
// rewritten into a wrapper with the original signature: it slices this
// process's shards of the arguments, runs the copy's body on them (in place:
// a call would copy them) and rebuilds whole results (all-reduce into zeros).
//
//===----------------------------------------------------------------------===//

#include "ShardingUtils.h"

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"
#include "embbag/Dialect/EmbBag/IR/ShardingInterfaceImpl.h"
#include "embbag/Pipelines/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGSHARDFUNCTIONS
#include "embbag/Pipelines/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;
using shard::Sharding;

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

/// Whether every use of `value`, through shard.shard annotations, is the
/// table of an embbag op.
static bool onlyTableOfEmbBagOps(Value value) {
  return llvm::all_of(value.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto shardOp = dyn_cast<shard::ShardOp>(user))
      return onlyTableOfEmbBagOps(shardOp.getResult());
    auto bagOp = dyn_cast<embbag::BagOpInterface>(user);
    return bagOp && bagOp.getBagOperands().table == use.get() &&
           use.getOperandNumber() == 0;
  });
}

/// `embbag.table_owner` places a table (table-wise sharding): on any other
/// argument it would silently mean nothing.
static LogicalResult checkTableOwners(func::FuncOp func) {
  StringRef name = embbag::EmbBagDialect::TableOwnerAttrHelper::getNameStr();
  for (BlockArgument arg : func.getArguments())
    if (func.getArgAttr(arg.getArgNumber(), name) && !onlyTableOfEmbBagOps(arg))
      return func.emitError("embbag-shard-to-llvm: argument ")
             << arg.getArgNumber() << " has '" << name
             << "' but is not only the table of embbag ops";
  return success();
}

/// After propagation: every embbag op has its result annotated. MLIR 22.1's
/// shard-partition crashes on an embbag op left without annotations in a
/// sharded function (propagation learns nothing about an op whose operands
/// and result carry none); the missing sharding is the user's to give.
static LogicalResult checkBagOpsAnnotated(func::FuncOp func) {
  WalkResult walk = func.walk([](embbag::BagOpInterface op) {
    if (llvm::any_of(op->getUsers(), llvm::IsaPred<shard::ShardOp>))
      return WalkResult::advance();
    if (embbag::getTableOwner(op))
      op->emitOpError("table-wise sharding: the result must be split on its "
                      "bags (dimension 0) over one grid axis, e.g. "
                      "shard.sharding @grid split_axes = [[0]]");
    else
      op->emitOpError("has no sharding after sharding-propagation: annotate "
                      "its table or its result with shard.shard");
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

namespace {

struct ShardFunctionsPass
    : public embbag::impl::EmbBagShardFunctionsBase<ShardFunctionsPass> {
  LogicalResult shardFunction(func::FuncOp func) {
    OpPassManager propagate(func::FuncOp::getOperationName());
    propagate.addPass(shard::createShardingPropagation());
    if (failed(checkTableOwners(func)) ||
        failed(runPipeline(propagate, func)) ||
        failed(checkBagOpsAnnotated(func)) || failed(checkReshards(func)))
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

} // namespace
