//===- TableWiseSharding.h - Table-wise sharding of embbag ops --*- C++ -*-===//
//
// Table-wise sharding (docs/Sharding.md): a table placed on one process by
// `embbag.table_owner`; its owner computes every bag and sends each other
// process its part of the bags. Internal to lib/Dialect/EmbBag/IR: used by
// the ShardingInterface models.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_DIALECT_EMBBAG_IR_TABLEWISESHARDING_H
#define EMBBAG_LIB_DIALECT_EMBBAG_IR_TABLEWISESHARDING_H

#include "BagOpUtils.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"

namespace mlir::embbag {

/// The per-process IR of `op`, whose table is owned by process `owner` of
/// the grid axis splitting the result's bags (`result`): the owner computes
/// the op on `local` (every operand whole) and sends each other process its
/// bags (shard.send); the others receive theirs (shard.recv). Emits a
/// diagnostic at `op` and fails for what table-wise sharding does not
/// support: operand shardings other than replicated, a result not split on
/// its bags only, a dynamic batch, an owner outside the grid axis.
FailureOr<Value> partitionTableWise(OpBuilder &b, Operation *op,
                                    const BagOperands &local,
                                    ArrayRef<shard::Sharding> operandShardings,
                                    const shard::Sharding &result,
                                    shard::GridOp grid, int64_t owner);

} // namespace mlir::embbag

#endif // EMBBAG_LIB_DIALECT_EMBBAG_IR_TABLEWISESHARDING_H
