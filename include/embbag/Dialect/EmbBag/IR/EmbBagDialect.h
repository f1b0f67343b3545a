//===- EmbBagDialect.h - EmbBag dialect -------------------------*- C++ -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGDIALECT_H
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"
// The helpers of the discardable attributes inline Operation calls.
#include "mlir/IR/Operation.h"

#include "embbag/Dialect/EmbBag/IR/EmbBagOpsDialect.h.inc"

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGDIALECT_H
