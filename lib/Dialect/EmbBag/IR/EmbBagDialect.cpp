//===- EmbBagDialect.cpp - EmbBag dialect ---------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagBytecode.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::embbag;

#include "embbag/Dialect/EmbBag/IR/EmbBagOpsDialect.cpp.inc"

#include "embbag/Dialect/EmbBag/IR/EmbBagEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "embbag/Dialect/EmbBag/IR/EmbBagAttrs.cpp.inc"

namespace {
/// The embbag ops are value-semantic and have no regions: inlining a call
/// into a function that holds them, or them into a caller, changes nothing
/// about what they compute.
struct EmbBagInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void EmbBagDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "embbag/Dialect/EmbBag/IR/EmbBagAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.cpp.inc"
      >();
  addInterfaces<EmbBagInlinerInterface>();
  addEmbBagBytecodeInterface(this);
}

/// Checks a unit marker `attr` that is valid on `opName` ops only: a mark
/// elsewhere would silently mean nothing to the pass that reads it.
static LogicalResult verifyUnitMarker(Operation *op, NamedAttribute attr,
                                      StringRef opName) {
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be a unit attribute";
  if (op->getName().getStringRef() != opName)
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' is only valid on '" << opName << "', not on '"
                           << op->getName() << "'";
  return success();
}

LogicalResult EmbBagDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  // --convert-embbag-assert-to-llvm rewrites exactly the marked asserts.
  if (attr.getName() == RuntimeCheckAttrHelper::getNameStr())
    return verifyUnitMarker(op, attr, cf::AssertOp::getOperationName());
  // --embbag-unswitch-row-dispatch rewrites the marked bag loops.
  if (attr.getName() == RowDispatchAttrHelper::getNameStr())
    return verifyUnitMarker(op, attr, "scf.for");
  // --convert-embbag-work-chunks-to-openmp lowers the marked parallel loops.
  if (attr.getName() == WorkChunksAttrHelper::getNameStr())
    return verifyUnitMarker(op, attr, "scf.forall");
  return op->emitError() << "unknown embbag attribute '"
                         << attr.getName().getValue() << "'";
}

LogicalResult EmbBagDialect::verifyRegionArgAttribute(Operation *op,
                                                      unsigned regionIndex,
                                                      unsigned argIndex,
                                                      NamedAttribute attr) {
  if (attr.getName() != TableOwnerAttrHelper::getNameStr())
    return op->emitError() << "unknown embbag argument attribute '"
                           << attr.getName().getValue() << "'";
  // A process index along a grid axis; the axis and its size are known only
  // where an op shards the table, and embbag-shard-functions checks that
  // the argument is a table. The attribute stays through bufferization and
  // the LLVM lowering (the argument then a memref or a pointer).
  auto owner = dyn_cast<IntegerAttr>(attr.getValue());
  if (!owner || !owner.getType().isSignlessInteger() ||
      owner.getValue().isNegative())
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be a non-negative integer";
  return success();
}
