//===- BagGroups.cpp - Independent bag ops of a block ---------------------===//

#include "embbag/Conversion/EmbBagCommon/BagGroups.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;

namespace {
/// The group being collected, op after op of the block.
struct OpenGroup {
  SmallVector<BagOpInterface> ops;
  /// The ops of the block that read a result of the group.
  llvm::SmallPtrSet<Operation *, 16> readers;
  /// The absorbed users of the group's ops, and the values they name (the
  /// buffers whose writes move to the group's kernel).
  llvm::SmallPtrSet<Operation *, 8> absorbed;
  llvm::SmallPtrSet<Value, 8> delayed;

  bool namesDelayed(Operation &op) const {
    return llvm::any_of(op.getOperands(),
                        [&](Value v) { return delayed.contains(v); });
  }

  /// Whether `op` must come after the group's kernel.
  bool mustFollow(Operation &op) const {
    if (readers.contains(&op))
      return true;
    // A delayed write must not pass an op that may see its buffer.
    return !delayed.empty() && (!isMemoryEffectFree(&op) || namesDelayed(op));
  }

  void add(BagOpInterface op, Operation *absorbedUser) {
    ops.push_back(op);
    if (absorbedUser) {
      absorbed.insert(absorbedUser);
      for (Value v : absorbedUser->getOperands())
        if (v.getDefiningOp() != op)
          delayed.insert(v);
    }
    Block *block = op->getBlock();
    for (Operation *user : op->getUsers())
      if (user != absorbedUser)
        if (Operation *reader = block->findAncestorOpInBlock(*user))
          readers.insert(reader);
  }
};
} // namespace

void mlir::embbag::lowering::findIndependentBagOps(
    Block &block, SmallVectorImpl<SmallVector<BagOpInterface>> &groups,
    const BagGroupRules &rules) {
  OpenGroup group;
  auto close = [&] {
    if (group.ops.size() >= 2)
      groups.push_back(group.ops);
    group = OpenGroup();
  };
  for (Operation &op : block) {
    if (group.absorbed.contains(&op))
      continue;
    if (group.mustFollow(op))
      close();
    auto bagOp = dyn_cast<BagOpInterface>(&op);
    if (!bagOp || (rules.takes && !rules.takes(bagOp)))
      continue;
    Operation *absorbedUser =
        rules.absorbedUser ? rules.absorbedUser(bagOp) : nullptr;
    // An absorbed user elsewhere is an ordinary reader.
    if (absorbedUser && absorbedUser->getBlock() != &block)
      absorbedUser = nullptr;
    // Two kernels of one launch must not write the same buffer.
    if (absorbedUser && group.namesDelayed(*absorbedUser))
      close();
    group.add(bagOp, absorbedUser);
  }
  close();
}
