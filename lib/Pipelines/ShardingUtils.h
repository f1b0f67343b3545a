//===- ShardingUtils.h - Helpers of the sharding passes ---------*- C++ -*-===//
//
// Private to lib/Pipelines: what two of the sharding passes share.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_PIPELINES_SHARDINGUTILS_H
#define EMBBAG_LIB_PIPELINES_SHARDINGUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::embbag {

/// Zeros of `type` (float or signless integer elements).
Value zerosLike(OpBuilder &b, Location loc, RankedTensorType type);

/// The DLTI entry naming MPICH as the MPI implementation, which
/// embbag-insert-mpi-init-finalize adds and embbag-convert-mpi-to-llvm
/// removes.
Attribute getMPICHImplementationMap(MLIRContext *ctx);

} // namespace mlir::embbag

#endif // EMBBAG_LIB_PIPELINES_SHARDINGUTILS_H
