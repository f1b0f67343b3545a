//===- BagOpUtils.h - Rebuilding embbag ops on parts of data --*- C++ -*-===//
//-*-===//
//
// Helpers shared by the interface models that rebuild an embbag op on a
// part of its bags, rows or columns (sharding, tiling): small IR builders
// around BagOpInterface, which knows the ops. Internal to
// lib/Dialect/EmbBag/IR.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_DIALECT_EMBBAG_IR_BAGOPUTILS_H
#define EMBBAG_LIB_DIALECT_EMBBAG_IR_BAGOPUTILS_H

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::embbag::bagops {

/// BagOpInterface's operands by role, under the name the models use.
using BagOperands = ::mlir::embbag::BagOperands;

inline BagOperands getBagOperands(Operation *op) {
  return cast<BagOpInterface>(op).getBagOperands();
}
inline Reduction getReduction(Operation *op) {
  return cast<BagOpInterface>(op).getReduction();
}
/// An op of the form of `like` on `o`, with `reduction`.
inline Value createBagOp(OpBuilder &b, Location loc, Operation *like,
                         Reduction reduction, const BagOperands &o) {
  return cast<BagOpInterface>(like).createWithOperands(b, loc, reduction, o);
}

Value castIndex(OpBuilder &b, Location loc, Value v, Type type);
Value constantOf(OpBuilder &b, Location loc, Type type, double value);
/// lo <= v < hi, signed.
Value inRange(OpBuilder &b, Location loc, Value v, Value lo, Value hi);

/// `tensor[offset : offset + size, ...]`, every other dimension whole.
Value sliceDim0(OpBuilder &b, Location loc, Value tensor, OpFoldResult offset,
                OpFoldResult size);

/// An elementwise map over `inputs` (all of the shape of `inputs[0]`) giving
/// one tensor per type in `elementTypes`.
SmallVector<Value> mapElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, TypeRange elementTypes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body);

} // namespace mlir::embbag::bagops

#endif // EMBBAG_LIB_DIALECT_EMBBAG_IR_BAGOPUTILS_H
