//===- EmbBagDialect.cpp - EmbBag dialect ---------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagBytecode.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

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
  addEmbBagBytecodeInterface(this);
}
