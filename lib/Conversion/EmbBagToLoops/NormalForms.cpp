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

LogicalResult
mlir::embbag::loops::normalizePacked(ImplicitLocOpBuilder &b, PackedOp op,
                                     const RuntimeChecks &checks,
                                     BagProblem &p) {
  auto flatten = [&](Value v) { return flattenBags(b, v); };
  p.indices = flatten(op.getIndices());
  p.weights = op.getWeights() ? flatten(op.getWeights()) : Value();
  if (Value padding = op.getPaddingIdx())
    p.paddingIdx = toIndex(b, padding);
  p.numBags = dim(b, op.getIndices(), 0);
  Value perBag = dim(b, op.getIndices(), 1);
  p.ranges = [perBag](ImplicitLocOpBuilder &ib, Value bag) {
    Value start = arith::MulIOp::create(ib, bag, perBag);
    return std::make_pair(start,
                          arith::AddIOp::create(ib, start, perBag).getResult());
  };
  if (checks.enabled) {
    checkIndices(b, p.op, p.table, p.indices, cst(b, 0), dim(b, p.indices, 0),
                 checks.vectorBits);
    checkPaddingIdx(b, p.op, p.table, p.paddingIdx);
  }
  return success();
}

/// Bag b is [offsets[b], offsets[b + 1]), the last one running to the end
/// of the indices.
static void normalizeOpenRanges(ImplicitLocOpBuilder &b, Value offsets,
                                Value numIndices, BagProblem &p) {
  Value numBags = p.numBags = dim(b, offsets, 0);
  p.ranges = [=](ImplicitLocOpBuilder &ib, Value bag) {
    Value start = extractIndex(ib, offsets, bag);
    Value next = arith::AddIOp::create(ib, bag, cst(ib, 1));
    Value isLast =
        arith::CmpIOp::create(ib, arith::CmpIPredicate::eq, next, numBags);
    Value safeNext = arith::SelectOp::create(ib, isLast, bag, next);
    Value nextOffset = extractIndex(ib, offsets, safeNext);
    Value end = arith::SelectOp::create(ib, isLast, numIndices, nextOffset);
    return std::make_pair(start, end);
  };
}

/// include_last_offset: batch + 1 offsets, bag b is [offsets[b],
/// offsets[b + 1]) for every b. An empty offsets tensor (a contract
/// violation the checks stop on) gives no bags rather than -1.
static void normalizeLastOffsetRanges(ImplicitLocOpBuilder &b, Value offsets,
                                      BagProblem &p) {
  p.numBags = arith::MaxSIOp::create(
      b, arith::SubIOp::create(b, dim(b, offsets, 0), cst(b, 1)), cst(b, 0));
  p.ranges = [=](ImplicitLocOpBuilder &ib, Value bag) {
    Value next = arith::AddIOp::create(ib, bag, cst(ib, 1));
    return std::make_pair(extractIndex(ib, offsets, bag),
                          extractIndex(ib, offsets, next));
  };
}

/// The positions [first, last) of the indices that the bags read: from
/// offsets[0] to the end, or with include_last_offset to the last offset;
/// none without bags.
static std::pair<Value, Value> getReadRange(ImplicitLocOpBuilder &b,
                                            OffsetsOp op, Value offsets,
                                            Value numIndices, Value numBags) {
  Value hasBags =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, numBags, cst(b, 0));
  bool lastOffset = op.getIncludeLastOffset();
  auto range = scf::IfOp::create(
      b, hasBags,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        Value first = extractIndex(tb, offsets, cst(tb, 0));
        Value last =
            lastOffset ? extractIndex(tb, offsets, numBags) : numIndices;
        scf::YieldOp::create(tb, ValueRange{first, last});
      },
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(nested, loc, ValueRange{numIndices, numIndices});
      });
  return {range.getResult(0), range.getResult(1)};
}

LogicalResult
mlir::embbag::loops::normalizeOffsets(ImplicitLocOpBuilder &b, OffsetsOp op,
                                      const RuntimeChecks &checks,
                                      BagProblem &p) {
  p.indices = op.getIndices();
  p.weights = op.getWeights();
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
    p.defaultIndex = toIndex(b, *d);
  if (Value padding = op.getPaddingIdx())
    p.paddingIdx = toIndex(b, padding);
  Value offsets = op.getOffsets();
  Value numIndices = dim(b, p.indices, 0);
  if (op.getIncludeLastOffset())
    normalizeLastOffsetRanges(b, offsets, p);
  else
    normalizeOpenRanges(b, offsets, numIndices, p);
  if (!checks.enabled)
    return success();
  if (op.getIncludeLastOffset())
    emitAssert(b, op,
               arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                                     dim(b, offsets, 0), cst(b, 0)),
               "offsets must have at least one entry with "
               "include_last_offset");
  checkOffsets(b, op, offsets, numIndices,
               "offsets must be non-negative, non-decreasing and at most the "
               "number of indices",
               checks.vectorBits);
  auto [first, last] = getReadRange(b, op, offsets, numIndices, p.numBags);
  checkIndices(b, p.op, p.table, p.indices, first, last, checks.vectorBits);
  checkDefault(b, p.op, p.table, p.defaultIndex);
  checkPaddingIdx(b, p.op, p.table, p.paddingIdx);
  return success();
}
