//===- ShardingInterfaceImpl.cpp - Sharding of the embbag ops -------------===//
//
// shard::ShardingInterface for embbag.packed, embbag.offsets and
// embbag.segments (docs/Sharding.md). The loops of an op are
//
//   [bag, column_1 .. column_k, row]     for a table [num_emb, d_1 .. d_k]
//
// bags and columns parallel, the gathered rows a sum reduction. Exactly one
// of them may be split over the grid:
//   row       (table split on dim 0): partial bags from the local rows, then
//             shard.all_reduce; `mean` divides by the global count after it;
//   column i  (table and result split on dim i): the op on the local columns;
//   bag       (result split on dim 0, table replicated): the op on the local
//             bags.
// The index-like operands stay replicated, except the indices and weights of
// embbag.packed for bag splits (split on dim 0 like the result).
// include_last_offset, padding_idx and row-wise quantized tables are
// refused by every split.
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/ShardingInterfaceImpl.h"

#include "BagOpUtils.h"
#include "TableWiseSharding.h"

#include "embbag/Dialect/EmbBag/IR/RuntimeContract.h"

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::bagops;
using shard::GridAxis;
using shard::Sharding;

/// The form of the bag op `op` (BagOpInterface).
static bool isPacked(Operation *op) {
  return cast<BagOpInterface>(op).getBagForm() == BagForm::Packed;
}
static bool isOffsets(Operation *op) {
  return cast<BagOpInterface>(op).getBagForm() == BagForm::Offsets;
}

namespace {

/// Which loop of the op is split over the grid.
enum class Split { None, Row, Column, Bag };

} // namespace

static int64_t getTableRank(Operation *op) {
  return cast<RankedTensorType>(getBagOperands(op).table.getType()).getRank();
}

//===----------------------------------------------------------------------===//
// Shardings of operands and results
//===----------------------------------------------------------------------===//

/// The dimensions of a tensor that `sharding` splits.
static SmallVector<int64_t> splitDims(const Sharding &sharding) {
  SmallVector<int64_t> dims;
  if (!sharding)
    return dims;
  for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes()))
    if (!axes.empty())
      dims.push_back(dim);
  return dims;
}

static ArrayRef<GridAxis> axesOf(const Sharding &sharding, int64_t dim) {
  if (!sharding || dim >= (int64_t)sharding.getSplitAxes().size())
    return {};
  return sharding.getSplitAxes()[dim].asArrayRef();
}

static Sharding makeSharding(MLIRContext *ctx, FlatSymbolRefAttr grid,
                             int64_t rank, int64_t dim, ArrayRef<GridAxis> axes,
                             ArrayRef<int64_t> offsets) {
  SmallVector<shard::GridAxesAttr> split(std::max<int64_t>(rank, 1),
                                         shard::GridAxesAttr::get(ctx, {}));
  if (!axes.empty())
    split[dim] = shard::GridAxesAttr::get(ctx, axes);
  while (split.size() > 1 && split.back().empty())
    split.pop_back();
  return Sharding::get(grid, split, {},
                       axes.empty() ? ArrayRef<int64_t>{} : offsets);
}

/// The annotation a value already carries, as a definition or for its
/// users; uneven splits keep their `sharded_dims_offsets` through it.
static Sharding existingSharding(Value value) {
  if (auto shardOp = value.getDefiningOp<shard::ShardOp>())
    return Sharding(shardOp.getSharding());
  for (Operation *user : value.getUsers())
    if (auto shardOp = dyn_cast<shard::ShardOp>(user))
      return Sharding(shardOp.getSharding());
  return Sharding();
}

static ArrayRef<int64_t> offsetsIfSplitOn(const Sharding &sharding,
                                          int64_t dim) {
  if (splitDims(sharding) != SmallVector<int64_t>{dim})
    return {};
  return sharding.getStaticShardedDimsOffsets();
}

namespace {

/// The split an op's sharding option describes: the loop and its grid axes.
struct LoopSplit {
  Split kind = Split::None;
  int64_t column = 0; // table/result dimension for Split::Column
  SmallVector<GridAxis> axes;
};

} // namespace

static FailureOr<LoopSplit> getLoopSplit(Operation *op,
                                         const shard::ShardingOption &option) {
  int64_t rank = getTableRank(op);
  LoopSplit split;
  for (auto [loop, axes] : llvm::enumerate(option.shardingArray)) {
    if (axes.empty())
      continue;
    if (split.kind != Split::None)
      return failure();
    split.axes = axes;
    if (loop == 0)
      split.kind = Split::Bag;
    else if ((int64_t)loop == rank)
      split.kind = Split::Row;
    else
      split = LoopSplit{Split::Column, (int64_t)loop, axes};
  }
  return split;
}

/// Records that loop `loop` is split over `axes`, failing on a conflict.
static LogicalResult splitLoop(shard::ShardingOption &option, int64_t loop,
                               ArrayRef<GridAxis> axes) {
  if (axes.empty())
    return success();
  for (auto [other, otherAxes] : llvm::enumerate(option.shardingArray))
    if (!otherAxes.empty() &&
        ((int64_t)other != loop || !llvm::equal(otherAxes, axes)))
      return failure();
  option.shardingArray[loop].assign(axes.begin(), axes.end());
  return success();
}

static FailureOr<shard::ShardingOption>
getOption(Operation *op, ArrayRef<Sharding> operandShardings,
          ArrayRef<Sharding> resultShardings) {
  int64_t rank = getTableRank(op);
  shard::ShardingOption option;
  option.shardingArray.resize(rank + 1);
  Sharding table = operandShardings[0], result = resultShardings[0];
  // The table decides rows and columns, the result bags and columns, the
  // indices of embbag.packed bags.
  for (int64_t dim = 0; dim < rank; ++dim)
    if (failed(splitLoop(option, dim == 0 ? rank : dim, axesOf(table, dim))))
      return failure();
  for (int64_t dim = 0; dim < rank; ++dim)
    if (failed(splitLoop(option, dim, axesOf(result, dim))))
      return failure();
  if (isPacked(op) &&
      failed(splitLoop(option, 0, axesOf(operandShardings[1], 0))))
    return failure();

  for (const Sharding &sharding :
       llvm::concat<const Sharding>(operandShardings, resultShardings))
    if (sharding)
      option.grid = sharding.getGridAttr();
  if (!option.grid)
    return shard::ShardingOption::makeEmpty();
  return option;
}

/// The shardings of the operands then the result for `split`.
static std::vector<Sharding>
getAnnotations(Operation *op, const LoopSplit &split, FlatSymbolRefAttr grid) {
  MLIRContext *ctx = op->getContext();
  BagOperands o = getBagOperands(op);
  Value result = op->getResult(0);
  int64_t rank = getTableRank(op);
  Sharding oldTable = existingSharding(o.table);
  Sharding oldResult = existingSharding(result);

  // Table: rows or a column split, replicated for bag splits.
  int64_t tableDim = split.kind == Split::Row ? 0 : split.column;
  ArrayRef<GridAxis> tableAxes =
      split.kind == Split::Row || split.kind == Split::Column
          ? ArrayRef<GridAxis>(split.axes)
          : ArrayRef<GridAxis>();
  Sharding table = makeSharding(ctx, grid, rank, tableDim, tableAxes,
                                offsetsIfSplitOn(oldTable, tableDim));

  // Result: the same column split, or the bag split.
  int64_t resultDim = split.kind == Split::Bag ? 0 : split.column;
  ArrayRef<GridAxis> resultAxes =
      split.kind == Split::Bag || split.kind == Split::Column
          ? ArrayRef<GridAxis>(split.axes)
          : ArrayRef<GridAxis>();
  ArrayRef<int64_t> resultOffsets = offsetsIfSplitOn(oldResult, resultDim);
  if (resultOffsets.empty() && split.kind == Split::Column)
    resultOffsets = offsetsIfSplitOn(oldTable, tableDim);
  if (resultOffsets.empty() && split.kind == Split::Bag && isPacked(op))
    resultOffsets = offsetsIfSplitOn(existingSharding(o.indices), 0);

  std::vector<Sharding> res;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type) {
      res.push_back(Sharding());
    } else if (operand.get() == o.table && operand.getOperandNumber() == 0) {
      res.push_back(table);
    } else if (isPacked(op) && split.kind == Split::Bag &&
               !getTableOwner(op)) {
      // (A table-wise op's owner computes every bag: all of its indices.)
      // Indices and weights of embbag.packed follow the bags.
      res.push_back(makeSharding(ctx, grid, type.getRank(), 0, split.axes,
                                 resultOffsets));
    } else {
      res.push_back(makeSharding(ctx, grid, type.getRank(), 0, {}, {}));
    }
  }
  res.push_back(
      makeSharding(ctx, grid, rank, resultDim, resultAxes, resultOffsets));
  return res;
}

//===----------------------------------------------------------------------===//
// Partitioning helpers
//===----------------------------------------------------------------------===//

FailureOr<ShardBounds> mlir::embbag::getShardBounds(OpBuilder &b, Location loc,
                                                    shard::GridOp grid,
                                                    const Sharding &sharding,
                                                    int64_t dim,
                                                    Value evenSize) {
  ArrayRef<GridAxis> axes = axesOf(sharding, dim);
  if (axes.size() != 1)
    return emitError(loc, "embbag sharding: a dimension must be split over "
                          "exactly one grid axis");
  Value rank =
      shard::ProcessMultiIndexOp::create(b, loc, grid.getSymName(), axes)
          .getResult()[0];
  ArrayRef<int64_t> offsets = sharding.getStaticShardedDimsOffsets();
  if (offsets.empty()) {
    Value offset = arith::MulIOp::create(b, loc, rank, evenSize);
    return ShardBounds{offset, evenSize};
  }
  if (splitDims(sharding).size() != 1 ||
      !sharding.getDynamicShardedDimsOffsets().empty())
    return emitError(loc, "embbag sharding: sharded_dims_offsets must be "
                          "static and on one dimension");
  // Uneven shards: this process's bounds are looked up in the offsets.
  auto type =
      RankedTensorType::get({(int64_t)offsets.size()}, b.getIndexType());
  Value table = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(type, offsets));
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value next = arith::AddIOp::create(b, loc, rank, one);
  Value lo = tensor::ExtractOp::create(b, loc, table, rank);
  Value hi = tensor::ExtractOp::create(b, loc, table, next);
  return ShardBounds{lo, arith::SubIOp::create(b, loc, hi, lo)};
}

//===----------------------------------------------------------------------===//
// Row split
//===----------------------------------------------------------------------===//

/// The number of rows of the whole table split on dim 0 by `sharding`.
static Value getGlobalRows(OpBuilder &b, Location loc, shard::GridOp grid,
                           const Sharding &sharding, Value localRows) {
  ArrayRef<int64_t> offsets = sharding.getStaticShardedDimsOffsets();
  if (!offsets.empty())
    return arith::ConstantIndexOp::create(b, loc, offsets.back());
  Value processes =
      shard::GridShapeOp::create(b, loc, grid, axesOf(sharding, 0))
          .getResult()[0];
  return arith::MulIOp::create(b, loc, processes, localRows);
}

/// Rebases the indices owned by this process (in [lo, hi)) and points the
/// others of the table (in [0, rows)) at local row 0 with weight 0: the bag
/// structure, hence which bags are empty, stays that of the whole op. An
/// index outside the whole table stays outside the local one once rebased
/// (below 0, or at least hi - lo), so the local op's runtime check stops
/// the program as the one-process op's would.
static std::pair<Value, Value>
maskForeignRows(OpBuilder &b, Location loc, const BagOperands &o,
                Type elementType, Value lo, Value hi, Value rows) {
  SmallVector<Value> inputs{o.indices};
  if (o.weights)
    inputs.push_back(o.weights);
  Type indexType = getElementTypeOrSelf(o.indices.getType());
  SmallVector<Value> res = mapElementwise(
      b, loc, inputs, {indexType, elementType},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> SmallVector<Value> {
        Value owned = inRange(nb, nloc, args[0], lo, hi);
        Value zeroIndex = constantOf(nb, nloc, indexType, 0);
        Value inTable = inRange(nb, nloc, args[0], zeroIndex, rows);
        Value weight =
            o.weights ? args[1] : constantOf(nb, nloc, elementType, 1);
        Value rebased = arith::SubIOp::create(nb, nloc, args[0], lo);
        Value foreign = arith::SelectOp::create(nb, nloc, inTable, zeroIndex,
                                                rebased);
        return {arith::SelectOp::create(nb, nloc, owned, rebased, foreign),
                arith::SelectOp::create(nb, nloc, owned, weight,
                                        constantOf(nb, nloc, elementType, 0))};
      });
  return {res[0], res[1]};
}

/// Divides row b of `sum` by max(count[b], 1), the count being the true bag
/// size (computed with the op itself on a table of ones), as the one-process
/// `mean` does: in f32 for f16/bf16, in i64 for integers (truncating).
static Value divideByBagSize(OpBuilder &b, Location loc, Operation *op,
                             const BagOperands &local, Value sum) {
  auto sumType = cast<RankedTensorType>(sum.getType());
  Type elementType = sumType.getElementType();
  Type indexType = getElementTypeOrSelf(local.indices.getType());
  Type i64 = b.getI64Type();
  auto onesType = RankedTensorType::get({1, 1}, i64);
  BagOperands ones = local;
  ones.table = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(onesType, b.getI64IntegerAttr(1)));
  ones.indices = mapElementwise(
      b, loc, local.indices, indexType,
      [&](OpBuilder &nb, Location nloc, ValueRange) -> SmallVector<Value> {
        return {constantOf(nb, nloc, indexType, 0)};
      })[0];
  ones.defaultIndex = ones.weights = Value();
  ones.staticDefault = nullptr;
  Value counts = createBagOp(b, loc, op, Reduction::sum, ones);

  int64_t rank = sumType.getRank();
  MLIRContext *ctx = b.getContext();
  AffineMap countMap = AffineMap::get(
      rank, 0, {getAffineDimExpr(0, ctx), getAffineConstantExpr(0, ctx)}, ctx);
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx),
                              countMap,
                              AffineMap::getMultiDimIdentityMap(rank, ctx)};
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, sum), elementType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, sumType, ValueRange{sum, counts}, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value n = arith::MaxSIOp::create(nb, nloc, args[1],
                                         constantOf(nb, nloc, i64, 1));
        Value quotient;
        if (auto floatType = dyn_cast<FloatType>(elementType)) {
          Type wide = floatType.getWidth() < 32 ? nb.getF32Type() : floatType;
          Value s = wide == floatType
                        ? args[0]
                        : arith::ExtFOp::create(nb, nloc, wide, args[0]);
          Value q = arith::DivFOp::create(
              nb, nloc, s, arith::SIToFPOp::create(nb, nloc, wide, n));
          quotient = wide == floatType
                         ? q
                         : arith::TruncFOp::create(nb, nloc, floatType, q);
        } else {
          bool narrow = elementType.getIntOrFloatBitWidth() < 64;
          Value s =
              narrow ? arith::ExtSIOp::create(nb, nloc, i64, args[0]) : args[0];
          Value q = arith::DivSIOp::create(nb, nloc, s, n);
          quotient =
              narrow ? arith::TruncIOp::create(nb, nloc, elementType, q) : q;
        }
        linalg::YieldOp::create(nb, nloc, quotient);
      });
  return generic.getResult(0);
}

static FailureOr<Value> partitionRows(OpBuilder &b, Operation *op,
                                      const BagOperands &local,
                                      const Sharding &tableSharding,
                                      shard::GridOp grid) {
  Location loc = op->getLoc();
  // Partial bags are combined by a sum; a max would need an all-reduce max
  // that also tells empty partial bags (zeros) from rows of zeros, and sqrtn
  // a division after the all-reduce that is not written.
  Reduction reduction = getReduction(op);
  if (reduction != Reduction::sum && reduction != Reduction::mean)
    return op->emitOpError("row-wise sharding supports the 'sum' and 'mean' "
                           "reductions only");
  Type elementType = getElementTypeOrSelf(local.table.getType());
  if (!isa<FloatType>(elementType) && !elementType.isSignlessInteger())
    return op->emitOpError("row-wise sharding supports float and signless "
                           "integer tables only");
  Value rows = tensor::DimOp::create(b, loc, local.table, 0);
  FailureOr<ShardBounds> bounds =
      getShardBounds(b, loc, grid, tableSharding, 0, rows);
  if (failed(bounds))
    return failure();
  Type indexType = getElementTypeOrSelf(local.indices.getType());
  Value lo = castIndex(b, loc, bounds->offset, indexType);
  Value hi = castIndex(
      b, loc, arith::AddIOp::create(b, loc, bounds->offset, bounds->size),
      indexType);

  Value globalRows = castIndex(
      b, loc, getGlobalRows(b, loc, grid, tableSharding, rows), indexType);

  BagOperands part = local;
  std::tie(part.indices, part.weights) =
      maskForeignRows(b, loc, local, elementType, lo, hi, globalRows);
  if (local.defaultIndex) {
    // Only the owner of the default row contributes it; -1 (none) on the
    // others. -1 stays -1; a default outside the whole table stays outside
    // the local one once rebased, for the local runtime check.
    Value d = local.defaultIndex;
    Value minusOne = constantOf(b, loc, indexType, -1);
    Value rebased = arith::SubIOp::create(b, loc, d, lo);
    Value valid = arith::OrIOp::create(
        b, loc,
        inRange(b, loc, d, constantOf(b, loc, indexType, 0), globalRows),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, minusOne));
    Value foreign = arith::SelectOp::create(b, loc, valid, minusOne, rebased);
    part.defaultIndex = arith::SelectOp::create(
        b, loc, inRange(b, loc, d, lo, hi), rebased, foreign);
  }
  // A mean is a sum until every process's part is in.
  Value partial = createBagOp(b, loc, op, Reduction::sum, part);
  Value sum = shard::AllReduceOp::create(b, loc, partial, grid.getSymName(),
                                         axesOf(tableSharding, 0),
                                         shard::ReductionKind::Sum);
  if (getReduction(op) != Reduction::mean)
    return sum;
  return divideByBagSize(b, loc, op, local, sum);
}

//===----------------------------------------------------------------------===//
// Bag split
//===----------------------------------------------------------------------===//

/// embbag.offsets on bags [lo, lo + size): the local offsets stay absolute,
/// so the indices are cut at the first index of the next process's bags.
static Value partitionOffsetsBags(OpBuilder &b, Location loc, Operation *op,
                                  const BagOperands &local,
                                  const ShardBounds &bounds) {
  Value numIndices = tensor::DimOp::create(b, loc, local.indices, 0);
  Value hi = arith::AddIOp::create(b, loc, bounds.offset, bounds.size);
  // The indices up to where the next part's bags start, projected into
  // what the contract allows an offset; the lowering's checks on the local
  // op catch offsets that break it.
  BagBounds bags = BagBounds::fromOffsets(b, loc, local.bags, numIndices,
                                          /*includeLastOffset=*/false);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value cut = contract::clampToOffsetRule(b, loc, bags.boundary(b, loc, hi),
                                          zero, numIndices);
  BagOperands part = local;
  part.bags = sliceDim0(b, loc, local.bags, bounds.offset, bounds.size);
  part.indices = sliceDim0(b, loc, local.indices, zero, cut);
  if (local.weights)
    part.weights = sliceDim0(b, loc, local.weights, zero, cut);
  return createBagOp(b, loc, op, getReduction(op), part);
}

/// embbag.segments on segments [lo, lo + size): the others' ids go to one
/// extra segment, which is dropped. An id outside [0, num_segments) becomes
/// -1, so that the local op's runtime check stops the program as the
/// one-process op's would.
static Value partitionSegmentBags(OpBuilder &b, Location loc, Operation *op,
                                  const BagOperands &local,
                                  const ShardBounds &bounds) {
  Value all = cast<BagOpInterface>(op).cloneOnBags(b, loc, local, bounds.offset,
                                                   bounds.size);
  return sliceDim0(b, loc, all, b.getIndexAttr(0), bounds.size);
}

static FailureOr<Value> partitionBags(OpBuilder &b, Operation *op,
                                      const BagOperands &local,
                                      const Sharding &resultSharding,
                                      shard::GridOp grid) {
  Location loc = op->getLoc();
  if (isPacked(op))
    return createBagOp(b, loc, op, getReduction(op), local);
  Value batch = isOffsets(op)
                    ? Value(tensor::DimOp::create(b, loc, local.bags, 0))
                    : castIndex(b, loc, local.numSegments, b.getIndexType());
  int64_t count = shard::collectiveProcessGroupSize(axesOf(resultSharding, 0),
                                                    grid.getShape());
  Value evenSize = arith::DivUIOp::create(
      b, loc, batch, arith::ConstantIndexOp::create(b, loc, count));
  FailureOr<ShardBounds> bounds =
      getShardBounds(b, loc, grid, resultSharding, 0, evenSize);
  if (failed(bounds))
    return failure();
  if (isOffsets(op))
    return partitionOffsetsBags(b, loc, op, local, *bounds);
  return partitionSegmentBags(b, loc, op, local, *bounds);
}

//===----------------------------------------------------------------------===//
// Reshards shard-partition cannot do
//===----------------------------------------------------------------------===//

/// The grid axes of tensor dimension `dim` under `sharding` (none past the
/// listed dimensions).
static ArrayRef<GridAxis> splitAxesOf(const Sharding &sharding, size_t dim) {
  if (dim >= sharding.getSplitAxes().size())
    return {};
  return sharding.getSplitAxes()[dim].asArrayRef();
}

bool mlir::embbag::canShardPartitionReshard(const Sharding &source,
                                            const Sharding &target) {
  if (source == target ||
      (shard::isFullReplication(source) && shard::isFullReplication(target)))
    return true;
  auto uneven = [](const Sharding &s) {
    return !s.getStaticShardedDimsOffsets().empty() ||
           !s.getDynamicShardedDimsOffsets().empty();
  };
  auto haloed = [](const Sharding &s) {
    return !s.getStaticHaloSizes().empty() || !s.getDynamicHaloSizes().empty();
  };
  if (uneven(source) || uneven(target))
    return false;
  // A change of halos only.
  if (source.equalSplitAxes(target))
    return true;
  if (haloed(source) || haloed(target))
    return false;
  // One step: one dimension gains (split) or loses (unsplit) its last grid
  // axis, or one loses it to another (move).
  SmallVector<size_t> changed;
  size_t rank =
      std::max(source.getSplitAxes().size(), target.getSplitAxes().size());
  for (size_t dim = 0; dim < rank; ++dim)
    if (!llvm::equal(splitAxesOf(source, dim), splitAxesOf(target, dim)))
      changed.push_back(dim);
  auto dropsLast = [](ArrayRef<GridAxis> longer, ArrayRef<GridAxis> shorter) {
    return longer.size() == shorter.size() + 1 && longer.drop_back() == shorter;
  };
  if (changed.size() == 1) {
    ArrayRef<GridAxis> from = splitAxesOf(source, changed[0]);
    ArrayRef<GridAxis> to = splitAxesOf(target, changed[0]);
    return dropsLast(to, from) || dropsLast(from, to);
  }
  if (changed.size() != 2)
    return false;
  for (auto [lose, gain] :
       {std::pair(changed[0], changed[1]), std::pair(changed[1], changed[0])}) {
    ArrayRef<GridAxis> loseFrom = splitAxesOf(source, lose);
    ArrayRef<GridAxis> gainTo = splitAxesOf(target, gain);
    if (dropsLast(loseFrom, splitAxesOf(target, lose)) &&
        dropsLast(gainTo, splitAxesOf(source, gain)) &&
        loseFrom.back() == gainTo.back())
      return true;
  }
  return false;
}

/// This process's shard under `sharding` (one split dimension, static
/// offsets or even, no halos) of `whole`, a replicated value: a slice, no
/// communication.
static FailureOr<Value> sliceReplicated(OpBuilder &b, Location loc,
                                        shard::GridOp grid,
                                        const Sharding &sharding, Value whole) {
  auto type = cast<RankedTensorType>(whole.getType());
  SmallVector<int64_t> dims = splitDims(sharding);
  if (dims.size() != 1 || !sharding.getStaticHaloSizes().empty() ||
      !sharding.getDynamicHaloSizes().empty())
    return emitError(loc, "embbag sharding: a replicated value can be "
                          "resharded to a split of one dimension without "
                          "halos only");
  int64_t dim = dims[0];
  int64_t count =
      shard::collectiveProcessGroupSize(axesOf(sharding, dim), grid.getShape());
  Value dimSize = tensor::DimOp::create(b, loc, whole, dim);
  Value even = arith::DivUIOp::create(
      b, loc, dimSize, arith::ConstantIndexOp::create(b, loc, count));
  FailureOr<ShardBounds> bounds =
      getShardBounds(b, loc, grid, sharding, dim, even);
  if (failed(bounds))
    return failure();
  SmallVector<OpFoldResult> offs(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, whole);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  offs[dim] = bounds->offset;
  sizes[dim] = getAsOpFoldResult(bounds->size);
  Value slice =
      tensor::ExtractSliceOp::create(b, loc, whole, offs, sizes, strides);
  Type expected = shard::shardType(type, grid, sharding);
  if (slice.getType() != expected)
    slice = tensor::CastOp::create(b, loc, expected, slice);
  return slice;
}

/// sharded_dims_offsets must cover their dimension exactly, one shard per
/// process: 0, then one entry per process, the last the dimension's size.
/// Others would slice out of bounds (issue 20); they are refused at the op.
static LogicalResult checkShardedDimsOffsets(Operation *op,
                                             ArrayRef<Sharding> operands,
                                             ArrayRef<Sharding> results,
                                             SymbolTableCollection &symbols) {
  for (auto [value, sharding] :
       llvm::zip(llvm::concat<Value>(op->getOperands(), op->getResults()),
                 llvm::concat<const Sharding>(operands, results))) {
    ArrayRef<int64_t> offsets =
        sharding ? sharding.getStaticShardedDimsOffsets() : ArrayRef<int64_t>();
    if (offsets.empty())
      continue;
    SmallVector<int64_t> dims = splitDims(sharding);
    auto type = cast<RankedTensorType>(value.getType());
    if (dims.size() != 1)
      return op->emitOpError("sharding: sharded_dims_offsets must be on one "
                             "split dimension");
    shard::GridOp grid = shard::getGrid(op, sharding.getGridAttr(), symbols);
    int64_t count = shard::collectiveProcessGroupSize(axesOf(sharding, dims[0]),
                                                      grid.getShape());
    if ((int64_t)offsets.size() != count + 1 || offsets.front() != 0 ||
        (!type.isDynamicDim(dims[0]) &&
         offsets.back() != type.getDimSize(dims[0])))
      return op->emitOpError("sharding: sharded_dims_offsets [")
             << offsets << "] do not split dimension " << dims[0] << " (size "
             << type.getDimSize(dims[0]) << ") in " << count << " shards";
  }
  return success();
}

/// Issue 20: a value annotated replicated then resharded to a split with
/// sharded_dims_offsets (`shard.shard (shard.shard %t to [[]]) to [[0]]
/// sharded_dims_offsets = [0, 3, 5]`) is a valid module, but MLIR 22.1's
/// shard-partition has no pattern for a reshard with offsets: its `reshard`
/// returns a null value (its assertions are off in release builds), and
/// the null operand crashed the partitioning below. From a replicated
/// source the reshard needs no communication, so the operands that
/// shard-partition could not reshard from a replicated value are sliced
/// here from that value; any other reshard it cannot do is reported at the
/// op. Kept apart from the splits so that it carries over unchanged when
/// this model moves to the BagOpInterface; it can go once shard-partition
/// reshards uneven splits itself.
static LogicalResult reshardOperandsFromReplicated(
    Operation *op, MutableArrayRef<Value> partitionedOperands,
    ArrayRef<Sharding> operandShardings, IRMapping &partitionMap,
    SymbolTableCollection &symbolTable, OpBuilder &b) {
  for (auto [i, sharding] : llvm::enumerate(operandShardings)) {
    if (!sharding)
      continue;
    // Skip the annotations of this sharding to the reshard, if any.
    Value source = op->getOperand(i);
    shard::ShardOp sourceShard;
    while (auto shardOp = source.getDefiningOp<shard::ShardOp>()) {
      if (Sharding(shardOp.getSharding()) != sharding) {
        sourceShard = shardOp;
        break;
      }
      source = shardOp.getSrc();
    }
    if (!sourceShard) {
      if (!partitionedOperands[i])
        return op->emitOpError("sharding: operand ")
               << i << " has no partitioned value";
      continue;
    }
    Sharding sourceSharding(sourceShard.getSharding());
    if (canShardPartitionReshard(sourceSharding, sharding) &&
        partitionedOperands[i])
      continue;
    Value whole = partitionMap.lookupOrNull(sourceShard.getResult());
    if (!shard::isFullReplication(sourceSharding) || !whole) {
      InFlightDiagnostic diag =
          op->emitOpError("sharding: cannot reshard operand ")
          << i
          << " (shard-partition has no pattern for it; the op reshards "
             "its operands from replicated values only)";
      diag.attachNote(sourceShard.getLoc()) << "resharded from here";
      return diag;
    }
    shard::GridOp grid =
        shard::getGrid(op, sharding.getGridAttr(), symbolTable);
    FailureOr<Value> slice =
        sliceReplicated(b, op->getLoc(), grid, sharding, whole);
    if (failed(slice))
      return failure();
    partitionedOperands[i] = *slice;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The interface
//===----------------------------------------------------------------------===//

/// Every operand but the table must be replicated, except the indices and
/// weights of embbag.packed split like its bags.
static LogicalResult
checkOperandShardings(Operation *op, ArrayRef<Sharding> operands, Split split) {
  for (auto [i, sharding] : llvm::enumerate(operands)) {
    if (i == 0 || !sharding || splitDims(sharding).empty())
      continue;
    if (isPacked(op) && split == Split::Bag &&
        splitDims(sharding) == SmallVector<int64_t>{0})
      continue;
    return op->emitOpError("sharding: operand ")
           << i << " must be replicated (only the table, the result and "
           << "embbag.packed's indices and weights may be split)";
  }
  return success();
}

static FailureOr<Split> classify(Operation *op, const Sharding &table,
                                 const Sharding &result) {
  SmallVector<int64_t> tableDims = splitDims(table);
  SmallVector<int64_t> resultDims = splitDims(result);
  if (tableDims.size() > 1 || resultDims.size() > 1)
    return op->emitOpError("sharding: at most one dimension may be split");
  if (!tableDims.empty() && tableDims[0] == 0 && resultDims.empty())
    return Split::Row;
  if (tableDims.empty() && resultDims.empty())
    return Split::None;
  if (tableDims.empty() && resultDims[0] == 0)
    return Split::Bag;
  if (tableDims == resultDims && tableDims[0] > 0)
    return Split::Column;
  return op->emitOpError("sharding: unsupported combination of table and "
                         "result shardings (rows: result replicated; "
                         "columns: both split on the same dimension; bags: "
                         "table replicated)");
}

/// Table-wise sharding (TableWiseSharding.h): the op runs whole on the
/// table's owner, so every form of it is supported (include_last_offset,
/// padding_idx, quantized tables, every reduction).
static LogicalResult partitionOwnedTable(
    Operation *op, ArrayRef<Value> partitionedOperands,
    ArrayRef<Sharding> operandShardings, ArrayRef<Sharding> resultShardings,
    IRMapping &partitionMap, SymbolTableCollection &symbolTable, OpBuilder &b,
    int64_t owner) {
  Sharding result = resultShardings[0];
  if (!result)
    return op->emitOpError("table-wise sharding: the result must be split on "
                           "its bags (dimension 0) over one grid axis, e.g. "
                           "shard.sharding @grid split_axes = [[0]]");
  if (failed(checkShardedDimsOffsets(op, operandShardings, resultShardings,
                                     symbolTable)))
    return failure();
  IRMapping operands;
  operands.map(op->getOperands(), partitionedOperands);
  BagOperands local = getBagOperands(op).map(
      [&](Value v) { return operands.lookupOrDefault(v); });
  local.materializeStatics(b, op->getLoc());
  shard::GridOp grid = shard::getGrid(op, result.getGridAttr(), symbolTable);
  FailureOr<Value> res = partitionTableWise(b, op, local, operandShardings,
                                            result, grid, owner);
  if (failed(res))
    return failure();
  partitionMap.map(op->getResult(0), *res);
  return success();
}

namespace {

template <typename OpTy>
struct BagShardingModel
    : public shard::ShardingInterface::ExternalModel<BagShardingModel<OpTy>,
                                                     OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    SmallVector<utils::IteratorType> types(getTableRank(op),
                                           utils::IteratorType::parallel);
    types.push_back(utils::IteratorType::reduction);
    return types;
  }

  SmallVector<shard::ReductionKind>
  getReductionLoopIteratorKinds(Operation *) const {
    return {shard::ReductionKind::Sum};
  }

  FailureOr<shard::ShardingOption>
  getShardingOption(Operation *op, ArrayRef<Sharding> operandShardings,
                    ArrayRef<Sharding> resultShardings) const {
    return getOption(op, operandShardings, resultShardings);
  }

  FailureOr<std::vector<Sharding>>
  getShardingAnnotations(Operation *op,
                         const shard::ShardingOption &option) const {
    FailureOr<LoopSplit> split = getLoopSplit(op, option);
    if (failed(split))
      return failure();
    return getAnnotations(op, *split, option.grid);
  }

  LogicalResult
  addShardingAnnotations(Operation *op, OpBuilder &b,
                         const shard::ShardingOption &option) const {
    FailureOr<std::vector<Sharding>> shardings =
        getShardingAnnotations(op, option);
    if (failed(shardings))
      return failure();
    for (OpOperand &operand : op->getOpOperands())
      if ((*shardings)[operand.getOperandNumber()])
        shard::maybeInsertSourceShardingAnnotation(
            (*shardings)[operand.getOperandNumber()], operand, b);
    shard::maybeInsertTargetShardingAnnotation(shardings->back(),
                                               op->getResult(0), b);
    return success();
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &b) const {
    if (std::optional<int64_t> owner = getTableOwner(op))
      return partitionOwnedTable(op, partitionedOperands, operandShardings,
                                 resultShardings, partitionMap, symbolTable,
                                 b, *owner);
    // Every split rewrites the offsets as bag starts; the form with a
    // closing offset is not taught to it.
    if (cast<BagOpInterface>(op).getIncludeLastOffset())
      return op->emitOpError("sharding does not support include_last_offset");
    // A row split would have to count the skipped indices across shards
    // for `mean` (and tell an empty bag from a bag of padding); not taught.
    if (getBagOperands(op).paddingIdx)
      return op->emitOpError("sharding does not support padding_idx");
    // The splits slice tables by columns and rebuild results of the table's
    // element type; quantized rows are not taught to them.
    if (getBagOperands(op).rowwise)
      return op->emitOpError(
          "sharding does not support row-wise quantized tables");
    Sharding table = operandShardings[0], result = resultShardings[0];
    FailureOr<Split> split = classify(op, table, result);
    if (failed(split) ||
        failed(checkOperandShardings(op, operandShardings, *split)))
      return failure();
    if (failed(checkShardedDimsOffsets(op, operandShardings, resultShardings,
                                       symbolTable)))
      return failure();
    SmallVector<Value> resharded(partitionedOperands);
    if (failed(reshardOperandsFromReplicated(op, resharded, operandShardings,
                                             partitionMap, symbolTable, b)))
      return failure();
    IRMapping operands;
    operands.map(op->getOperands(), resharded);
    BagOperands local = getBagOperands(op).map(
        [&](Value v) { return operands.lookupOrDefault(v); });
    local.materializeStatics(b, op->getLoc());
    FlatSymbolRefAttr gridName =
        table ? table.getGridAttr() : result.getGridAttr();
    shard::GridOp grid = shard::getGrid(op, gridName, symbolTable);

    FailureOr<Value> res;
    if (*split == Split::Row)
      res = partitionRows(b, op, local, table, grid);
    else if (*split == Split::Bag)
      res = partitionBags(b, op, local, result, grid);
    else
      res = createBagOp(b, op->getLoc(), op, getReduction(op), local);
    if (failed(res))
      return failure();

    // The partition pass types the function from these values: make them
    // the shard type of the result (static where every shard agrees).
    Type expected = shard::shardType(op->getResult(0).getType(), grid,
                                     result ? result : Sharding(gridName));
    Value value = *res;
    if (value.getType() != expected)
      value = tensor::CastOp::create(b, op->getLoc(), expected, value);
    partitionMap.map(op->getResult(0), value);
    return success();
  }
};

} // namespace

void mlir::embbag::registerShardingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, EmbBagDialect *) {
    ctx->loadDialect<arith::ArithDialect, linalg::LinalgDialect,
                     scf::SCFDialect, shard::ShardDialect,
                     tensor::TensorDialect>();
    PackedOp::attachInterface<BagShardingModel<PackedOp>>(*ctx);
    OffsetsOp::attachInterface<BagShardingModel<OffsetsOp>>(*ctx);
    SegmentsOp::attachInterface<BagShardingModel<SegmentsOp>>(*ctx);
  });
}
