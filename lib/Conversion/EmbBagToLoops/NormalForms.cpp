//===- NormalForms.cpp - Packed and offsets ops as lists of bags ----------===//
//
// A packed op's bag b is indices[b, :] (flattened: positions [b * n, b * n +
// n)); an offsets op's is [offsets[b], offsets[b + 1]), the last running to
// the end of the indices. Their runtime checks are emitted here, before the
// kernel, never inside it.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

LogicalResult mlir::embbag::loops::normalizePacked(ImplicitLocOpBuilder &b,
                                                   PackedOp op, bool checks,
                                                   BagProblem &p) {
  auto flatten = [&](Value v) { return flattenBags(b, v); };
  p.indices = flatten(op.getIndices());
  p.weights = op.getWeights() ? flatten(op.getWeights()) : Value();
  p.numBags = dim(b, op.getIndices(), 0);
  Value perBag = dim(b, op.getIndices(), 1);
  p.ranges = [perBag](ImplicitLocOpBuilder &ib, Value bag) {
    Value start = arith::MulIOp::create(ib, bag, perBag);
    return std::make_pair(start,
                          arith::AddIOp::create(ib, start, perBag).getResult());
  };
  if (checks)
    checkIndices(b, p.op, p.table, p.indices, cst(b, 0), dim(b, p.indices, 0));
  return success();
}

LogicalResult mlir::embbag::loops::normalizeOffsets(ImplicitLocOpBuilder &b,
                                                    OffsetsOp op, bool checks,
                                                    BagProblem &p) {
  p.indices = op.getIndices();
  p.weights = op.getWeights();
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
    p.defaultIndex = toIndex(b, *d);
  Value offsets = op.getOffsets();
  Value numBags = p.numBags = dim(b, offsets, 0);
  Value numIndices = dim(b, p.indices, 0);
  p.ranges = [=](ImplicitLocOpBuilder &ib, Value bag) {
    Value start = extractIndex(ib, offsets, bag);
    // The last bag runs to the end of the indices.
    Value next = arith::AddIOp::create(ib, bag, cst(ib, 1));
    Value isLast =
        arith::CmpIOp::create(ib, arith::CmpIPredicate::eq, next, numBags);
    Value safeNext = arith::SelectOp::create(ib, isLast, bag, next);
    Value nextOffset = extractIndex(ib, offsets, safeNext);
    Value end = arith::SelectOp::create(ib, isLast, numIndices, nextOffset);
    return std::make_pair(start, end);
  };
  if (!checks)
    return success();
  checkOffsets(b, op, offsets, numIndices,
               "offsets must be non-negative, non-decreasing and at most the "
               "number of indices");
  // Only the indices from offsets[0] on are read, and none without bags.
  Value hasBags =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, numBags, cst(b, 0));
  auto firstOffset = scf::IfOp::create(
      b, hasBags,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        scf::YieldOp::create(tb, extractIndex(tb, offsets, cst(tb, 0)));
      },
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(nested, loc, numIndices);
      });
  checkIndices(b, p.op, p.table, p.indices, firstOffset.getResult(0),
               numIndices);
  checkDefault(b, p.op, p.table, p.defaultIndex);
  return success();
}
