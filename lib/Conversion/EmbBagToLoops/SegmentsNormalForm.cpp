//===- SegmentsNormalForm.cpp - Segment ids as a list of bags -------------===//
//
// Segment s is the indices i with segment_ids[i] == s, and its range is
// [starts[s], starts[s + 1]) in the ids sorted stably. Sorted ids (the
// common case, e.g. TorchRec's) are used in place, and one scan finds the
// starts at the points where the id grows. Unsorted ids take a histogram,
// its prefix sum and a stable counting sort of the indices, so the result
// does not depend on their order.
//
// The scan, not the histogram, serves sorted ids because a histogram of
// sorted ids increments the same counter again and again: each increment
// waits for the store of the one before (about five cycles an index).
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

/// counts[s + 1] = how many ids are s (counts[0] = 0).
static Value histogram(ImplicitLocOpBuilder &b, Value ids, Value numSegments) {
  Value numStarts = arith::AddIOp::create(b, numSegments, cst(b, 1));
  Value zeros = tensor::SplatOp::create(
      b, RankedTensorType::get({ShapedType::kDynamic}, b.getIndexType()),
      cst(b, 0), ValueRange{numStarts});
  auto loop = scf::ForOp::create(
      b, cst(b, 0), dim(b, ids, 0), cst(b, 1), ValueRange{zeros},
      [&](OpBuilder &nested, Location loc, Value i, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value slot =
            arith::AddIOp::create(ib, extractIndex(ib, ids, i), cst(ib, 1));
        Value n = tensor::ExtractOp::create(ib, iterArgs[0], slot);
        scf::YieldOp::create(
            ib,
            tensor::InsertOp::create(
                ib, arith::AddIOp::create(ib, n, cst(ib, 1)), iterArgs[0], slot)
                .getResult());
      });
  return loop.getResult(0);
}

/// starts[s] = `position` for s in [from, to).
static Value fillStarts(ImplicitLocOpBuilder &b, Value starts, Value from,
                        Value to, Value position) {
  auto loop = scf::ForOp::create(
      b, from, to, cst(b, 1), ValueRange{starts},
      [&](OpBuilder &nested, Location loc, Value s, ValueRange iterArgs) {
        scf::YieldOp::create(
            nested, loc,
            tensor::InsertOp::create(nested, loc, position, iterArgs[0], s)
                .getResult());
      });
  return loop.getResult(0);
}

/// One pass over the ids: whether they are sorted, and if so each
/// segment's start (starts[s] = the first i with ids[i] >= s, and
/// starts[num_segments] = the number of ids). The largest id so far stands
/// for the previous one, so unsorted ids write each start at most once too.
static std::pair<Value, Value> scanSortedStarts(ImplicitLocOpBuilder &b,
                                                Value ids, Value numSegments) {
  Value numIds = dim(b, ids, 0);
  Value numStarts = arith::AddIOp::create(b, numSegments, cst(b, 1));
  Value empty = tensor::EmptyOp::create(
      b, getAsOpFoldResult(ValueRange{numStarts}), b.getIndexType());
  Value sortedInit = arith::ConstantIntOp::create(b, 1, 1);
  auto loop = scf::ForOp::create(
      b, cst(b, 0), numIds, cst(b, 1),
      ValueRange{empty, sortedInit, cst(b, -1)},
      [&](OpBuilder &nested, Location loc, Value i, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value id = extractIndex(ib, ids, i), largest = iterArgs[2];
        Value grows =
            arith::CmpIOp::create(ib, arith::CmpIPredicate::sgt, id, largest);
        auto ifGrows = scf::IfOp::create(
            ib, grows,
            [&](OpBuilder &thenB, Location thenLoc) {
              ImplicitLocOpBuilder tb(thenLoc, thenB);
              Value from = arith::AddIOp::create(tb, largest, cst(tb, 1));
              Value to = arith::AddIOp::create(tb, id, cst(tb, 1));
              scf::YieldOp::create(tb,
                                   fillStarts(tb, iterArgs[0], from, to, i));
            },
            [&](OpBuilder &elseB, Location elseLoc) {
              scf::YieldOp::create(elseB, elseLoc, iterArgs[0]);
            });
        Value sorted = arith::AndIOp::create(
            ib, iterArgs[1],
            arith::CmpIOp::create(ib, arith::CmpIPredicate::sge, id, largest));
        Value nextLargest = arith::MaxSIOp::create(ib, id, largest);
        scf::YieldOp::create(
            ib, ValueRange{ifGrows.getResult(0), sorted, nextLargest});
      });
  Value afterLast = arith::AddIOp::create(b, loop.getResult(2), cst(b, 1));
  Value starts = fillStarts(b, loop.getResult(0), afterLast, numStarts, numIds);
  return {loop.getResult(1), starts};
}

/// The prefix sum of the histogram: segment s is [starts[s], starts[s+1]).
static Value prefixSum(ImplicitLocOpBuilder &b, Value counts) {
  Value one = cst(b, 1);
  auto loop = scf::ForOp::create(
      b, one, dim(b, counts, 0), one, ValueRange{counts},
      [&](OpBuilder &nested, Location loc, Value s, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value prev = arith::SubIOp::create(ib, s, cst(ib, 1));
        Value sum = arith::AddIOp::create(
            ib, tensor::ExtractOp::create(ib, iterArgs[0], prev),
            tensor::ExtractOp::create(ib, iterArgs[0], s));
        scf::YieldOp::create(
            ib, tensor::InsertOp::create(ib, sum, iterArgs[0], s).getResult());
      });
  return loop.getResult(0);
}

/// The indices (and weights) bucketed by segment, stably: a counting sort
/// whose cursors start at `starts`.
static SmallVector<Value> bucket(ImplicitLocOpBuilder &b, Value ids,
                                 Value indices, Value weights, Value starts) {
  Value numIndices = dim(b, indices, 0);
  auto emptyLike = [&](Value v) -> Value {
    return tensor::EmptyOp::create(b, getAsOpFoldResult(ValueRange{numIndices}),
                                   getElementTypeOrSelf(v.getType()));
  };
  SmallVector<Value> inits{emptyLike(indices), starts};
  if (weights)
    inits.push_back(emptyLike(weights));
  auto loop = scf::ForOp::create(
      b, cst(b, 0), numIndices, cst(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value i, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value id = extractIndex(ib, ids, i);
        Value pos = tensor::ExtractOp::create(ib, iterArgs[1], id);
        auto moved = [&](Value from, Value into) -> Value {
          return tensor::InsertOp::create(
              ib, tensor::ExtractOp::create(ib, from, i), into, pos);
        };
        SmallVector<Value> next{
            moved(indices, iterArgs[0]),
            tensor::InsertOp::create(ib,
                                     arith::AddIOp::create(ib, pos, cst(ib, 1)),
                                     iterArgs[1], id)};
        if (weights)
          next.push_back(moved(weights, iterArgs[2]));
        scf::YieldOp::create(ib, next);
      });
  auto castTo = [&](Value v, Type t) -> Value {
    return v.getType() == t ? v : tensor::CastOp::create(b, t, v);
  };
  SmallVector<Value> results{castTo(loop.getResult(0), indices.getType())};
  if (weights)
    results.push_back(castTo(loop.getResult(2), weights.getType()));
  return results;
}

LogicalResult
mlir::embbag::loops::normalizeSegments(ImplicitLocOpBuilder &b,
                                       BagOpInterface op,
                                       const RuntimeChecks &checks,
                                       BagProblem &p) {
  Value indices = op.getIndices(), weights = op.getWeights();
  Value ids = op.getBags();
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
    p.defaultIndex = toIndex(b, *d);
  // Skipped in each segment's pass, like in a bag of the other ops: the
  // histogram and the bucketing move padding indices like any other.
  if (Value padding = op.getPaddingIdx())
    p.paddingIdx = toIndex(b, padding);
  Value numSegments = toIndex(b, op.getMixedNumSegments());
  if (checks.enabled)
    emitContractChecks(b, op, checks.vectorBits);
  // Not a structured binding: the lambda below captures the starts.
  std::pair<Value, Value> scanned = scanSortedStarts(b, ids, numSegments);
  Value sortedStarts = scanned.second;
  auto sortedIf = scf::IfOp::create(
      b, scanned.first,
      [&](OpBuilder &nested, Location loc) {
        SmallVector<Value> same{sortedStarts, indices};
        if (weights)
          same.push_back(weights);
        scf::YieldOp::create(nested, loc, same);
      },
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        Value starts = prefixSum(tb, histogram(tb, ids, numSegments));
        SmallVector<Value> bucketed{starts};
        llvm::append_range(bucketed, bucket(tb, ids, indices, weights, starts));
        scf::YieldOp::create(tb, bucketed);
      });
  Value starts = sortedIf.getResult(0);
  p.indices = sortedIf.getResult(1);
  p.weights = weights ? sortedIf.getResult(2) : Value();
  // A static batch is the kernel's: a constant num_segments that disagrees
  // with it breaks the contract (the check above stops the program), and a
  // kernel of its rows would not cast to the result type.
  int64_t staticBatch = op.getBagResultType().getDimSize(0);
  p.numBags =
      ShapedType::isDynamic(staticBatch) ? numSegments : cst(b, staticBatch);
  // Segment s is [starts[s], starts[s + 1]) of the sorted indices: the
  // bounds of offsets that include the last one.
  p.ranges = BagBounds::fromOffsets(b, b.getLoc(), starts, dim(b, p.indices, 0),
                                    /*includeLastOffset=*/true)
                 .getRangeFn();
  return success();
}
