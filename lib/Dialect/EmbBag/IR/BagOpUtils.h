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
#include "mlir/Interfaces/ViewLikeInterface.h"

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

/// `table[:, columns]`: every row, the tile's columns (`offsets` and
/// `sizes` of the row dimensions).
Value sliceColumns(OpBuilder &b, Location loc, Value table,
                   ArrayRef<OpFoldResult> offsets,
                   ArrayRef<OpFoldResult> sizes);

/// Whether the tile [offset, offset + size) of the bags is all `batch`
/// bags, so that only columns are cut.
bool coversAllBags(OpFoldResult offset, OpFoldResult size, OpFoldResult batch);

/// Whether the tile's columns are all the columns of the table.
bool coversAllColumns(ArrayRef<OpFoldResult> offsets,
                      ArrayRef<OpFoldResult> sizes,
                      ArrayRef<OpFoldResult> columns);

/// `value` with the static sizes among `sizes`: the loops insert the tile at
/// `sizes`.
Value castToTileSizes(OpBuilder &b, Location loc, Value value,
                      ArrayRef<OpFoldResult> sizes);

/// The iteration domain [0, size) with unit steps, one range per size.
SmallVector<Range> iterationDomain(OpBuilder &b, ArrayRef<OpFoldResult> sizes);

} // namespace mlir::embbag::bagops

#endif // EMBBAG_LIB_DIALECT_EMBBAG_IR_BAGOPUTILS_H
