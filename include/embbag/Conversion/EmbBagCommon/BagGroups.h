//===- BagGroups.h - Independent bag ops of a block -------------*- C++ -*-===//
//
// Table batching (docs/Batching.md): the bag ops of a block that one kernel
// can replace together. The loops lowering (convert-embbag-to-loops
// {batch-tables}) and the GPU lowering (convert-embbag-to-gpu{batch-tables})
// share this rule, so that they batch the same ops.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_CONVERSION_EMBBAGCOMMON_BAGGROUPS_H
#define EMBBAG_CONVERSION_EMBBAGCOMMON_BAGGROUPS_H

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include <functional>

namespace mlir::embbag::lowering {

/// What a lowering takes of a block's bag ops when it batches them.
struct BagGroupRules {
  /// Whether the lowering takes `op` (unset: every bag op); the others are
  /// left where they are, in no group.
  std::function<bool(BagOpInterface)> takes;
  /// The op after `op` in its block that the lowering replaces together
  /// with it, or null (unset: none): the GPU's materialization of the
  /// result into a caller's buffer, which the kernel writes directly. It
  /// does not read the group's results; but its write moves to the group's
  /// kernel, so an op before that with memory effects, or naming one of its
  /// operands, ends the group, and so does a second write into the same
  /// buffer.
  std::function<Operation *(BagOpInterface)> absorbedUser;
};

/// The groups of two or more bag ops of `block` that one kernel at the last
/// op of the group can replace: no op of the block before the last one
/// reads a result of the group (directly or in its regions), so every use
/// of the results comes after the kernel, and every operand of the group's
/// ops is defined before it.
void findIndependentBagOps(Block &block,
                           SmallVectorImpl<SmallVector<BagOpInterface>> &groups,
                           const BagGroupRules &rules = {});

} // namespace mlir::embbag::lowering

#endif // EMBBAG_CONVERSION_EMBBAGCOMMON_BAGGROUPS_H
