//===- BagOpUtils.h - Rebuilding embbag ops on parts of data --*- C++ -*-===//
//-*-===//
//
// Helpers shared by the interface models that rebuild an embbag op on a
// part of its bags, rows or columns (sharding, tiling): the operands by
// role, the op rebuilt on new operands, and the embbag.segments rewrite that
// keeps a range of segments. Internal to lib/Dialect/EmbBag/IR.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_DIALECT_EMBBAG_IR_BAGOPUTILS_H
#define EMBBAG_LIB_DIALECT_EMBBAG_IR_BAGOPUTILS_H

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::embbag::bagops {

/// The operands of any of the three ops, by role; absent ones are null.
/// `num_segments` and `default` may be static attributes instead.
struct BagOperands {
  Value table, indices, bags, numSegments, defaultIndex, weights;
  IntegerAttr staticNumSegments, staticDefault;
  // embbag.offsets: the last offset closes the last bag.
  bool includeLastOffset = false;
  // The index skipped in every bag (a row number, like `default`: parts of
  // the op that keep whole rows keep it unchanged).
  Value paddingIdx;
  // The code width of a row-wise quantized table, or null.
  TypeAttr rowwise;
};

BagOperands getBagOperands(Operation *op);
BagOperands mapBagOperands(const BagOperands &o, IRMapping &map);

/// The static `num_segments` and `default` as constants of T_IND, so that
/// callers compute with them like with SSA operands.
void materializeStatics(OpBuilder &b, Location loc, BagOperands &o);

/// Creates an op of the kind of `like` on `o`, with the result type inferred.
Value createBagOp(OpBuilder &b, Location loc, Operation *like,
                  Reduction reduction, const BagOperands &o);

Reduction getReduction(Operation *op);

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

/// embbag.segments `op` (operands `o`, `num_segments` an SSA value) reduced
/// to its segments [offset, offset + size) (both `index`): `size + 1` rows,
/// those of the segments, then one of the ids outside them, to be dropped.
Value createSegmentsOnRange(OpBuilder &b, Location loc, Operation *op,
                            const BagOperands &o, Value offset, Value size);

} // namespace mlir::embbag::bagops

#endif // EMBBAG_LIB_DIALECT_EMBBAG_IR_BAGOPUTILS_H
