//===- InitAll.h - Register everything embbag provides ----------*- C++ -*-===//
//
// One call per kind of entity, for drivers and for pipelines that link
// embbag into their own tools.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_INITALL_H
#define EMBBAG_INITALL_H

namespace mlir {
class DialectRegistry;

namespace embbag {

/// Adds the embbag dialect to `registry`, with the shard dialect's
/// ShardingInterface on its ops.
void registerAllEmbBagDialects(DialectRegistry &registry);

/// Registers every embbag pass (transforms, conversions and the steps of
/// embbag-shard-to-llvm) with the global pass registry, so that they can be
/// named on a command line.
void registerAllEmbBagPasses();

/// Registers the embbag pass pipelines (`embbag-to-llvm`,
/// `embbag-shard-to-llvm`).
void registerAllEmbBagPipelines();

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_INITALL_H
