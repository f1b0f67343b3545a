//===- SegmentsNormalForm.cpp - Segment ids as a list of bags -------------===//
//
// Segment s is the indices i with segment_ids[i] == s. A histogram of the
// ids and its prefix sum give each segment's range [starts[s], starts[s +
// 1]) in the ids sorted stably: sorted ids are used in place, unsorted ids
// are bucketed first (a stable counting sort), so the result does not
// depend on their order.
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

/// The runtime contract: num_segments >= 0, ids in [0, num_segments),
/// indices, default and padding_idx in range.
static void checkSegments(ImplicitLocOpBuilder &b, SegmentsOp op,
                          const BagProblem &p, Value numSegments,
                          unsigned vectorBits) {
  Value numIndices = dim(b, op.getIndices(), 0);
  emitAssert(b, op,
             arith::CmpIOp::create(b, arith::CmpIPredicate::sge, numSegments,
                                   cst(b, 0)),
             "num_segments must be non-negative");
  // The result type may give the batch statically; num_segments must agree
  // with it.
  int64_t staticBatch = op.getResultType().getDimSize(0);
  if (!ShapedType::isDynamic(staticBatch))
    emitAssert(b, op,
               arith::CmpIOp::create(b, arith::CmpIPredicate::eq, numSegments,
                                     cst(b, staticBatch)),
               "num_segments must equal the result's static batch size");
  checkAllBelow(b, op, op.getSegmentIds(), cst(b, 0), numIndices, numSegments,
                "segment id out of range [0, num_segments)", vectorBits);
  checkIndices(b, op, p.table, op.getIndices(), cst(b, 0), numIndices,
               vectorBits);
  checkDefault(b, op, p.table, p.defaultIndex);
  checkPaddingIdx(b, op, p.table, p.paddingIdx);
}

/// counts[s + 1] = how many ids are s (counts[0] = 0), and whether the ids
/// are sorted.
static std::pair<Value, Value> histogram(ImplicitLocOpBuilder &b, Value ids,
                                         Value numSegments) {
  Value numStarts = arith::AddIOp::create(b, numSegments, cst(b, 1));
  Value zeros = tensor::SplatOp::create(
      b, RankedTensorType::get({ShapedType::kDynamic}, b.getIndexType()),
      cst(b, 0), ValueRange{numStarts});
  Value sortedInit = arith::ConstantIntOp::create(b, 1, 1);
  auto loop = scf::ForOp::create(
      b, cst(b, 0), dim(b, ids, 0), cst(b, 1),
      ValueRange{zeros, sortedInit, cst(b, 0)},
      [&](OpBuilder &nested, Location loc, Value i, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value id = extractIndex(ib, ids, i);
        Value slot = arith::AddIOp::create(ib, id, cst(ib, 1));
        Value n = tensor::ExtractOp::create(ib, iterArgs[0], slot);
        Value counts = tensor::InsertOp::create(
            ib, arith::AddIOp::create(ib, n, cst(ib, 1)), iterArgs[0], slot);
        Value sorted = arith::AndIOp::create(
            ib, iterArgs[1],
            arith::CmpIOp::create(ib, arith::CmpIPredicate::sle, iterArgs[2],
                                  id));
        scf::YieldOp::create(ib, ValueRange{counts, sorted, id});
      });
  return {loop.getResult(0), loop.getResult(1)};
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
mlir::embbag::loops::normalizeSegments(ImplicitLocOpBuilder &b, SegmentsOp op,
                                       const RuntimeChecks &checks,
                                       BagProblem &p) {
  Value indices = op.getIndices(), weights = op.getWeights();
  Value ids = op.getSegmentIds();
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
    p.defaultIndex = toIndex(b, *d);
  // Skipped in each segment's pass, like in a bag of the other ops: the
  // histogram and the bucketing move padding indices like any other.
  if (Value padding = op.getPaddingIdx())
    p.paddingIdx = toIndex(b, padding);
  Value numSegments = toIndex(b, op.getMixedNumSegments());
  if (checks.enabled)
    checkSegments(b, op, p, numSegments, checks.vectorBits);
  std::pair<Value, Value> counted = histogram(b, ids, numSegments);
  Value starts = prefixSum(b, counted.first);
  // Sorted ids (the common case, e.g. TorchRec's) are used in place.
  auto sortedIf = scf::IfOp::create(
      b, counted.second,
      [&](OpBuilder &nested, Location loc) {
        SmallVector<Value> same{indices};
        if (weights)
          same.push_back(weights);
        scf::YieldOp::create(nested, loc, same);
      },
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        scf::YieldOp::create(tb, bucket(tb, ids, indices, weights, starts));
      });
  p.indices = sortedIf.getResult(0);
  p.weights = weights ? sortedIf.getResult(1) : Value();
  p.numBags = numSegments;
  p.ranges = [starts](ImplicitLocOpBuilder &ib, Value bag) {
    Value start = tensor::ExtractOp::create(ib, starts, bag);
    Value next = arith::AddIOp::create(ib, bag, cst(ib, 1));
    Value end = tensor::ExtractOp::create(ib, starts, next);
    return std::make_pair(start, end);
  };
  return success();
}
