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

namespace mlir {
class DialectRegistry;
class OpBuilder;

namespace embbag {

/// Attaches the sharding models to the three embbag ops.
void registerShardingInterfaceExternalModels(DialectRegistry &registry);

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

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_DIALECT_EMBBAG_IR_SHARDINGINTERFACEIMPL_H
