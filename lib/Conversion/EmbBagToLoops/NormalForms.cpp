//===- NormalForms.cpp - Packed and offsets ops as lists of bags ----------===//
//
// The packed and offsets forms as lists of bags: the bounds of bag b are
// BagOpInterface's (a packed op's indices flattened). Their runtime checks
// are emitted here, before the kernel, never inside it.
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

/// The positions [first, last) of the indices that the bags of an offsets
/// op read: from offsets[0] to the end, or with include_last_offset to the
/// last offset; none without bags.
static std::pair<Value, Value> getReadRange(ImplicitLocOpBuilder &b,
                                            BagOpInterface op,
                                            const BagBounds &bounds) {
  Value hasBags = arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                                        bounds.numBags, cst(b, 0));
  Value numIndices = bounds.numIndices;
  auto range = scf::IfOp::create(
      b, hasBags,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        Value first = bounds.start(tb, loc, cst(tb, 0));
        Value last = numIndices;
        if (op.getIncludeLastOffset()) {
          Value lastBag = arith::SubIOp::create(tb, bounds.numBags, cst(tb, 1));
          last = bounds.end(tb, loc, lastBag);
        }
        scf::YieldOp::create(nested, loc, ValueRange{first, last});
      },
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(nested, loc, ValueRange{numIndices, numIndices});
      });
  return {range.getResult(0), range.getResult(1)};
}

/// The runtime checks of an offsets op: the offsets, then the indices the
/// bags read, the default and padding_idx.
static void checkOffsetsOp(ImplicitLocOpBuilder &b, BagOpInterface op,
                           const RuntimeChecks &checks, const BagProblem &p,
                           const BagBounds &bounds) {
  Value offsets = op.getBags();
  if (op.getIncludeLastOffset())
    emitAssert(b, op,
               arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                                     dim(b, offsets, 0), cst(b, 0)),
               "offsets must have at least one entry with "
               "include_last_offset");
  checkOffsets(b, op, offsets, bounds.numIndices,
               "offsets must be non-negative, non-decreasing and at most the "
               "number of indices",
               checks.vectorBits);
  auto [first, last] = getReadRange(b, op, bounds);
  checkIndices(b, op, p.table, p.indices, first, last, checks.vectorBits);
  checkDefault(b, op, p.table, p.defaultIndex);
  checkPaddingIdx(b, op, p.table, p.paddingIdx);
}

LogicalResult mlir::embbag::loops::normalizeBags(ImplicitLocOpBuilder &b,
                                                 BagOpInterface op,
                                                 const RuntimeChecks &checks,
                                                 BagProblem &p) {
  FailureOr<BagBounds> bounds = op.getBagBounds(b, b.getLoc());
  if (failed(bounds))
    return op->emitOpError("has no contiguous bags to lower");
  bool packed = op.getBagForm() == BagForm::Packed;
  auto flatten = [&](Value v) { return packed ? flattenBags(b, v) : v; };
  p.indices = flatten(op.getIndices());
  p.weights = op.getWeights() ? flatten(op.getWeights()) : Value();
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
    p.defaultIndex = toIndex(b, *d);
  if (Value padding = op.getPaddingIdx())
    p.paddingIdx = toIndex(b, padding);
  p.numBags = bounds->numBags;
  p.ranges = bounds->getRangeFn();
  if (!checks.enabled)
    return success();
  if (!packed) {
    checkOffsetsOp(b, op, checks, p, *bounds);
    return success();
  }
  checkIndices(b, op, p.table, p.indices, cst(b, 0), dim(b, p.indices, 0),
               checks.vectorBits);
  checkPaddingIdx(b, op, p.table, p.paddingIdx);
  return success();
}
