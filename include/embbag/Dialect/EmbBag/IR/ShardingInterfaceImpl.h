//===- ShardingInterfaceImpl.h - Sharding of the embbag ops -----*- C++ -*-===//
//
// shard::ShardingInterface for embbag.packed, embbag.offsets and
// embbag.segments, attached as external models (docs/Sharding.md).
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_SHARDINGINTERFACEIMPL_H
#define EMBBAG_DIALECT_EMBBAG_IR_SHARDINGINTERFACEIMPL_H

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class DialectRegistry;
class OpBuilder;

namespace embbag {

/// Attaches the sharding models to the three embbag ops.
void registerShardingInterfaceExternalModels(DialectRegistry &registry);

/// Whether MLIR 22.1's shard-partition reshards a value annotated `source`
/// then `target` (chained shard.shard ops) right: equal shardings, a change
/// of halos only, or one step (a tensor dimension gains, loses or moves its
/// last grid axis) between shardings without sharded_dims_offsets or halos.
/// For any other pair its `reshard` finds no pattern and leaves a null value
/// (its assertions are off in release builds), or applies a step that does
/// not reach `target`. The embbag ops reshard their operands from replicated
/// values themselves (a slice); any other such reshard is refused.
bool canShardPartitionReshard(const shard::Sharding &source,
                              const shard::Sharding &target);

/// Where this process's shard of tensor dimension `dim` starts and how long
/// it is, both `index`, for a dimension split by `sharding` over one grid
/// axis. With `sharded_dims_offsets` the bounds come from them; otherwise
/// every shard has `evenSize` elements. Fails (with a diagnostic at `loc`)
/// for a dimension split over several grid axes or offsets on several
/// dimensions.
struct ShardBounds {
  Value offset;
  Value size;
};
FailureOr<ShardBounds> getShardBounds(OpBuilder &builder, Location loc,
                                      shard::GridOp grid,
                                      const shard::Sharding &sharding,
                                      int64_t dim, Value evenSize);

/// The process that owns the table of the embbag op `op` (table-wise
/// sharding): the `embbag.table_owner` of the function argument the table
/// is, through shard.shard annotations; none if it has none.
std::optional<int64_t> getTableOwner(Operation *op);

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_DIALECT_EMBBAG_IR_SHARDINGINTERFACEIMPL_H
