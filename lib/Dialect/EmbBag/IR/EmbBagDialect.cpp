//===- EmbBagDialect.cpp - EmbBag dialect ---------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::embbag;

#include "embbag/Dialect/EmbBag/IR/EmbBagOpsDialect.cpp.inc"

#include "embbag/Dialect/EmbBag/IR/EmbBagEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "embbag/Dialect/EmbBag/IR/EmbBagAttrs.cpp.inc"

void EmbBagDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "embbag/Dialect/EmbBag/IR/EmbBagAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.cpp.inc"
      >();
}

LogicalResult EmbBagDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == RuntimeCheckAttrHelper::getNameStr()) {
    // Only cf.assert: --convert-embbag-assert-to-llvm rewrites exactly the
    // marked asserts, and a mark elsewhere would silently mean nothing.
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << attr.getName().getValue()
                             << "' must be a unit attribute";
    if (!isa<cf::AssertOp>(op))
      return op->emitError() << "'" << attr.getName().getValue()
                             << "' is only valid on 'cf.assert', not on '"
                             << op->getName() << "'";
    return success();
  }
  return op->emitError() << "unknown embbag attribute '"
                         << attr.getName().getValue() << "'";
}
