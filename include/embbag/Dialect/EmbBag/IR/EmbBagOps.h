//===- EmbBagOps.h - EmbBag operations --------------------------*- C++ -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGOPS_H
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGOPS_H

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "embbag/Dialect/EmbBag/IR/EmbBagEnums.h.inc"

#include "embbag/Dialect/EmbBag/IR/EmbBagInterfaces.h"

#define GET_ATTRDEF_CLASSES
#include "embbag/Dialect/EmbBag/IR/EmbBagAttrs.h.inc"

#define GET_OP_CLASSES
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h.inc"

namespace mlir::embbag {
/// Whether `op` is one of the training ops (`embbag.*_grad`,
/// `embbag.*_update`), which no lowering handles yet (issue 22).
bool isTrainingOp(Operation *op);
} // namespace mlir::embbag

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGOPS_H
