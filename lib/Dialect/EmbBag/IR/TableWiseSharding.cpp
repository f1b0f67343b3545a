//===- TableWiseSharding.cpp - Table-wise sharding of embbag ops ----------===//
//
// TorchRec's TABLE_WISE sharding (docs/Sharding.md, "Table-wise"). The shard
// dialect has no sharding that puts a whole tensor on one process, so the
// placement is the function argument attribute `embbag.table_owner = N`;
// the result's bag split is an ordinary shard annotation. Per process:
//
//   whole = owner ? the op on every operand, whole (every bag) : no rows
//   if (owner) {
//     shard.send whole[bags of r] to r, for every other process r
//     yield whole[bags of N]
//   } else {
//     yield shard.recv from N (this process's bags)
//   }
//
// with `owner` this process being N along the bag split's grid axis, so
// that only the owner reads the table. embbag-lower-shard-collectives moves
// the exchange (the second if) down to its first user and lowers the sends
// and receives to MPI.
//
//===----------------------------------------------------------------------===//

#include "TableWiseSharding.h"

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/ShardingInterfaceImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::bagops;
using shard::GridAxis;
using shard::Sharding;

std::optional<int64_t> mlir::embbag::getTableOwner(Operation *op) {
  Value table = getBagOperands(op).table;
  while (auto shardOp = table.getDefiningOp<shard::ShardOp>())
    table = shardOp.getSrc();
  auto arg = dyn_cast<BlockArgument>(table);
  if (!arg)
    return std::nullopt;
  auto function = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!function || arg.getOwner() != &function.getFunctionBody().front())
    return std::nullopt;
  auto owner = function.getArgAttrOfType<IntegerAttr>(
      arg.getArgNumber(), EmbBagDialect::TableOwnerAttrHelper::getNameStr());
  if (!owner)
    return std::nullopt;
  return owner.getInt();
}

static bool isSplit(const Sharding &sharding) {
  return sharding && llvm::any_of(sharding.getSplitAxes(),
                                  [](auto axes) { return !axes.empty(); });
}

/// Checks what table-wise sharding supports; the grid axis that splits the
/// bags, and how many processes it has.
static FailureOr<std::pair<GridAxis, int64_t>>
checkTableWise(Operation *op, ArrayRef<Sharding> operandShardings,
               const Sharding &result, shard::GridOp grid, int64_t owner) {
  for (auto [i, sharding] : llvm::enumerate(operandShardings))
    if (isSplit(sharding))
      return op->emitOpError("table-wise sharding: operand ")
             << i
             << " must be replicated (the table's owner computes every bag; "
                "embbag.table_owner places the table)";
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  ArrayRef<shard::GridAxesAttr> split =
      result ? result.getSplitAxes() : ArrayRef<shard::GridAxesAttr>();
  bool bagsOnly =
      !split.empty() && split[0].size() == 1 &&
      llvm::all_of(split.drop_front(), [](auto axes) { return axes.empty(); });
  if (!bagsOnly)
    return op->emitOpError("table-wise sharding: the result must be split on "
                           "its bags (dimension 0) over one grid axis, e.g. "
                           "shard.sharding @grid split_axes = [[0]]");
  if (!type.hasStaticShape())
    return op->emitOpError("table-wise sharding: the result must have a "
                           "static shape");
  GridAxis axis = split[0].asArrayRef()[0];
  int64_t count = shard::collectiveProcessGroupSize(ArrayRef<GridAxis>{axis},
                                                    grid.getShape());
  if (ShapedType::isDynamic(count))
    return op->emitOpError("table-wise sharding: grid axis ")
           << axis << " must have a static size";
  if (owner >= count)
    return op->emitOpError("table-wise sharding: embbag.table_owner = ")
           << owner << " is not a process of grid axis " << axis << " of @"
           << grid.getSymName() << " (" << count << " processes)";
  if (result.getStaticShardedDimsOffsets().empty() &&
      type.getDimSize(0) % count != 0)
    return op->emitOpError("table-wise sharding: ")
           << type.getDimSize(0) << " bags do not split evenly over " << count
           << " processes; give the split with sharded_dims_offsets";
  return std::make_pair(axis, count);
}

/// Where process `process`'s bags start and how many it has, both known
/// when the op is partitioned: the static batch `batch` split evenly over
/// `count` processes, or by `offsets`.
static std::pair<int64_t, int64_t> bagsOfProcess(ArrayRef<int64_t> offsets,
                                                 int64_t batch, int64_t count,
                                                 int64_t process) {
  if (!offsets.empty())
    return {offsets[process], offsets[process + 1] - offsets[process]};
  return {process * (batch / count), batch / count};
}

/// Every bag on the owner (`isOwner`), no rows elsewhere: nothing but the
/// owner's branch reads the operands. Apart from the exchange so that
/// embbag-lower-shard-collectives can move the exchanges after the
/// computations of every table: each rank computes its tables while the
/// others compute theirs.
static Value computeOnOwner(OpBuilder &b, Location loc, Operation *op,
                            const BagOperands &local, Value isOwner) {
  auto wholeType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<int64_t> shape(wholeType.getShape());
  shape[0] = ShapedType::kDynamic;
  auto anyBatch = RankedTensorType::get(shape, wholeType.getElementType());
  auto compute = scf::IfOp::create(b, loc, anyBatch, isOwner,
                                   /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(compute.thenBlock());
  Value all = createBagOp(b, loc, op, getReduction(op), local);
  scf::YieldOp::create(
      b, loc, ValueRange{tensor::CastOp::create(b, loc, anyBatch, all)});
  b.setInsertionPointToStart(compute.elseBlock());
  SmallVector<OpFoldResult> noRows =
      getAsIndexOpFoldResult(b.getContext(), wholeType.getShape());
  noRows[0] = b.getIndexAttr(0);
  Value none =
      tensor::EmptyOp::create(b, loc, noRows, wholeType.getElementType());
  scf::YieldOp::create(
      b, loc, ValueRange{tensor::CastOp::create(b, loc, anyBatch, none)});
  return compute.getResult(0);
}

/// The owner sends each other process its part of `whole` and keeps its
/// own; the others receive theirs. This process's bags, of the result's
/// shard type.
static FailureOr<Value> exchangeBags(OpBuilder &b, Location loc, Operation *op,
                                     Value whole, Value isOwner,
                                     const Sharding &result, shard::GridOp grid,
                                     GridAxis axis, int64_t count,
                                     int64_t owner) {
  auto wholeType = cast<RankedTensorType>(op->getResult(0).getType());
  auto localType =
      cast<RankedTensorType>(shard::shardType(wholeType, grid, result));
  ArrayRef<int64_t> offsets = result.getStaticShardedDimsOffsets();
  int64_t batch = wholeType.getDimSize(0);
  StringRef gridName = grid.getSymName();
  SmallVector<GridAxis> axes{axis};
  auto exchange = scf::IfOp::create(b, loc, localType, isOwner,
                                    /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(exchange.thenBlock());
  auto partOf = [&](int64_t p) {
    auto [start, size] = bagsOfProcess(offsets, batch, count, p);
    return sliceDim0(b, loc, whole, b.getIndexAttr(start),
                     b.getIndexAttr(size));
  };
  for (int64_t p = 0; p < count; ++p) {
    if (p == owner)
      continue;
    Value part = partOf(p);
    shard::SendOp::create(b, loc, part.getType(), gridName, axes, part,
                          ArrayRef<int64_t>{p}, ValueRange());
  }
  Value own = partOf(owner);
  if (own.getType() != localType)
    own = tensor::CastOp::create(b, loc, localType, own);
  scf::YieldOp::create(b, loc, own);

  b.setInsertionPointToStart(exchange.elseBlock());
  Value even = arith::ConstantIndexOp::create(b, loc, batch / count);
  FailureOr<ShardBounds> bounds = getShardBounds(b, loc, grid, result, 0, even);
  if (failed(bounds))
    return failure();
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(b.getContext(), wholeType.getShape());
  sizes[0] = getAsOpFoldResult(bounds->size);
  Value buffer =
      tensor::EmptyOp::create(b, loc, sizes, wholeType.getElementType());
  Value received =
      shard::RecvOp::create(b, loc, buffer.getType(), gridName, axes, buffer,
                            b.getDenseI64ArrayAttr({owner}), ValueRange());
  if (received.getType() != localType)
    received = tensor::CastOp::create(b, loc, localType, received);
  scf::YieldOp::create(b, loc, received);
  return exchange.getResult(0);
}

FailureOr<Value> mlir::embbag::partitionTableWise(
    OpBuilder &b, Operation *op, const BagOperands &local,
    ArrayRef<Sharding> operandShardings, const Sharding &result,
    shard::GridOp grid, int64_t owner) {
  FailureOr<std::pair<GridAxis, int64_t>> axisAndCount =
      checkTableWise(op, operandShardings, result, grid, owner);
  if (failed(axisAndCount))
    return failure();
  auto [axis, count] = *axisAndCount;
  Location loc = op->getLoc();
  Value process = shard::ProcessMultiIndexOp::create(
                      b, loc, grid.getSymName(), SmallVector<GridAxis>{axis})
                      .getResult()[0];
  Value isOwner =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, process,
                            arith::ConstantIndexOp::create(b, loc, owner));
  Value whole = computeOnOwner(b, loc, op, local, isOwner);
  return exchangeBags(b, loc, op, whole, isOwner, result, grid, axis, count,
                      owner);
}
