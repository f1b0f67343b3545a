//===- TrainingNormalForm.cpp - Training ops as positions over a table ----===//
//
// A training op is read through its forward op (the same operands and
// clauses): BagOpInterface gives its bags and ContractChecks its runtime
// contract, so that the training ops check exactly what the forward ops
// check. The kernel then works per position of the index list: the bag
// that reads it (none for an unread or padding position), the bag's
// scale, and for max the position that won each element.
//
//===----------------------------------------------------------------------===//

#include "Training.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

/// The bag of position `j` reading index `idx`, or -1 for padding.
static Value unlessPadding(ImplicitLocOpBuilder &b, Value padding, Value idx,
                           Value bag) {
  if (!padding)
    return bag;
  Value isPad =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, idx, padding);
  return arith::SelectOp::create(b, isPad, cst(b, -1), bag);
}

/// bagOf[j] for contiguous bags (packed and offsets): each bag's range.
static Value bagsFromRanges(ImplicitLocOpBuilder &b, TrainProblem &p,
                            const BagBounds &bounds, Value padding) {
  Value init = p.scratch->splat(b, cst(b, -1), p.numPositions);
  auto loop = scf::ForOp::create(
      b, cst(b, 0), bounds.numBags, cst(b, 1), ValueRange{init},
      [&](OpBuilder &nested, Location loc, Value bag, ValueRange outer) {
        ImplicitLocOpBuilder ib(loc, nested);
        auto [start, end] = bounds.range(ib, loc, bag);
        auto inner = scf::ForOp::create(
            ib, start, end, cst(ib, 1), outer,
            [&](OpBuilder &n2, Location l2, Value j, ValueRange iter) {
              ImplicitLocOpBuilder jb(l2, n2);
              Value idx = extractIndex(jb, p.indices, j);
              Value v = unlessPadding(jb, padding, idx, bag);
              scf::YieldOp::create(
                  jb, tensor::InsertOp::create(jb, v, iter[0], j).getResult());
            });
        scf::YieldOp::create(ib, inner.getResults());
      });
  return loop.getResult(0);
}

/// bagOf[j] = segment_ids[j] (or -1 for padding).
static Value bagsFromSegmentIds(ImplicitLocOpBuilder &b, TrainProblem &p,
                                Value ids, Value padding) {
  Value init = p.scratch->splat(b, cst(b, -1), p.numPositions);
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numPositions, cst(b, 1), ValueRange{init},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value idx = extractIndex(ib, p.indices, j);
        Value v = unlessPadding(ib, padding, idx, extractIndex(ib, ids, j));
        scf::YieldOp::create(
            ib, tensor::InsertOp::create(ib, v, iter[0], j).getResult());
      });
  return loop.getResult(0);
}

ValueRange mlir::embbag::loops::ifThenElseKeep(
    ImplicitLocOpBuilder &b, Value cond, ValueRange otherwise,
    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &)> then) {
  auto ifOp = scf::IfOp::create(
      b, cond,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        scf::YieldOp::create(tb, then(tb));
      },
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(nested, loc, otherwise);
      });
  return ifOp.getResults();
}

SmallVector<Value> mlir::embbag::loops::skipPadding(
    ImplicitLocOpBuilder &b, const TrainProblem &p, Value j, ValueRange iter,
    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &)> then) {
  if (!p.paddingIdx)
    return then(b);
  Value notPadding = arith::CmpIOp::create(
      b, arith::CmpIPredicate::ne, extractIndex(b, p.indices, j), p.paddingIdx);
  return ifThenElseKeep(b, notPadding, iter, then);
}

ValueRange mlir::embbag::loops::buildReadPositionLoop(
    ImplicitLocOpBuilder &b, const TrainProblem &p, ValueRange inits,
    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value j, Value bag,
                                    ValueRange iter)>
        body,
    function_ref<void(ImplicitLocOpBuilder &, Value j)> everyPosition) {
  // One position: `body` unless it is padding.
  auto visit = [&](ImplicitLocOpBuilder &ib, Value j, Value bag,
                   ValueRange iter) -> SmallVector<Value> {
    if (everyPosition)
      everyPosition(ib, j);
    return skipPadding(ib, p, j, iter, [&](ImplicitLocOpBuilder &tb) {
      return body(tb, j, bag, iter);
    });
  };
  if (!p.bagRanges) {
    auto loop = scf::ForOp::create(
        b, cst(b, 0), p.numPositions, cst(b, 1), inits,
        [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
          ImplicitLocOpBuilder ib(loc, nested);
          Value bag = extractIndex(ib, p.segmentIds, j);
          scf::YieldOp::create(ib, visit(ib, j, bag, iter));
        });
    return loop.getResults();
  }
  const BagBounds &bounds = *p.bagRanges;
  auto loop = scf::ForOp::create(
      b, cst(b, 0), bounds.numBags, cst(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value bag, ValueRange outer) {
        ImplicitLocOpBuilder ib(loc, nested);
        auto [start, end] = bounds.range(ib, loc, bag);
        auto inner = scf::ForOp::create(
            ib, start, end, cst(ib, 1), outer,
            [&](OpBuilder &n2, Location l2, Value j, ValueRange iter) {
              ImplicitLocOpBuilder jb(l2, n2);
              scf::YieldOp::create(jb, visit(jb, j, bag, iter));
            });
        scf::YieldOp::create(ib, inner.getResults());
      });
  return loop.getResults();
}

/// scale[bag] for mean (1 / count) and sqrtn (1 / sqrt(count), weighted
/// 1 / sqrt(sum w^2)): the counts summed over the positions in index
/// order, then one reciprocal per bag. Empty bags keep 0: no position
/// reads their scale.
static Value buildScale(ImplicitLocOpBuilder &b, const TrainProblem &p) {
  Value zero = arith::ConstantOp::create(b, b.getFloatAttr(p.accType, 0.0));
  Value one = arith::ConstantOp::create(b, b.getFloatAttr(p.accType, 1.0));
  bool squares = p.isSqrtn() && p.weights;
  ValueRange sums = buildReadPositionLoop(
      b, p, ValueRange{p.scratch->splat(b, zero, p.numBags)},
      [&](ImplicitLocOpBuilder &tb, Value j, Value bag, ValueRange iter) {
        Value add = one;
        if (squares) {
          Value w = convertFloat(
              tb, tensor::ExtractOp::create(tb, p.weights, j), p.accType);
          add = arith::MulFOp::create(tb, w, w);
        }
        Value old = tensor::ExtractOp::create(tb, iter[0], bag);
        Value sum = arith::AddFOp::create(tb, old, add);
        return SmallVector<Value>{
            tensor::InsertOp::create(tb, sum, iter[0], bag).getResult()};
      });
  auto scales = scf::ForOp::create(
      b, cst(b, 0), p.numBags, cst(b, 1), sums,
      [&](OpBuilder &nested, Location loc, Value bag, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value sum = tensor::ExtractOp::create(ib, iter[0], bag);
        Value divisor =
            p.isSqrtn() ? math::SqrtOp::create(ib, sum).getResult() : sum;
        Value isEmpty =
            arith::CmpFOp::create(ib, arith::CmpFPredicate::OEQ, sum, zero);
        Value s = arith::SelectOp::create(
            ib, isEmpty, zero, arith::DivFOp::create(ib, one, divisor));
        scf::YieldOp::create(
            ib, tensor::InsertOp::create(ib, s, iter[0], bag).getResult());
      });
  return scales.getResult(0);
}

/// One position of max's recomputation: the vectors of row `idx` replace
/// the bag's maximum (and its position) where they are greater, or where
/// the bag has none yet, so that the first position wins ties.
static SmallVector<Value> maxPosition(ImplicitLocOpBuilder &b,
                                      const TrainProblem &p, Value j, Value bag,
                                      Value idx, ValueRange iter) {
  auto vecI64 = VectorType::get({p.lanes}, b.getI64Type());
  Value jVec = vector::BroadcastOp::create(
      b, vecI64, arith::IndexCastOp::create(b, b.getI64Type(), j));
  Value none = arith::ConstantOp::create(
      b, DenseElementsAttr::get(vecI64, b.getI64IntegerAttr(-1).getValue()));
  auto map = AffineMap::getMinorIdentityMap(2, 1, b.getContext());
  return forEachChunk(
      b, p, iter,
      [&](ImplicitLocOpBuilder &cb, Value col, Value mask, ValueRange t) {
        Value v = readAccVector(cb, p, p.table, idx, col, mask);
        Value cur = readAccVector(cb, p, t[1], bag, col, mask);
        Value pad = arith::ConstantOp::create(cb, cb.getI64IntegerAttr(-1));
        Value pos = vector::TransferReadOp::create(
            cb, vecI64, t[0], ValueRange{bag, col}, AffineMapAttr::get(map),
            pad, mask, cb.getBoolArrayAttr({true}));
        Value greater =
            arith::CmpFOp::create(cb, arith::CmpFPredicate::OGT, v, cur);
        Value first =
            arith::CmpIOp::create(cb, arith::CmpIPredicate::eq, pos, none);
        Value wins = arith::OrIOp::create(cb, greater, first);
        Value newPos = arith::SelectOp::create(cb, wins, jVec, pos);
        Value newMax = arith::SelectOp::create(cb, wins, v, cur);
        Value posOut =
            vector::TransferWriteOp::create(
                cb, newPos, t[0], ValueRange{bag, col}, AffineMapAttr::get(map),
                mask, cb.getBoolArrayAttr({true}))
                .getResult();
        Value maxOut =
            vector::TransferWriteOp::create(
                cb, newMax, t[1], ValueRange{bag, col}, AffineMapAttr::get(map),
                mask, cb.getBoolArrayAttr({true}))
                .getResult();
        return SmallVector<Value>{posOut, maxOut};
      });
}

/// argmax[bag, c]: max's recomputation from the table, in index order.
static Value buildArgmax(ImplicitLocOpBuilder &b, const TrainProblem &p) {
  Value minusOne = arith::ConstantOp::create(b, b.getI64IntegerAttr(-1));
  Value lowest = arith::ConstantOp::create(
      b, b.getFloatAttr(p.accType, -std::numeric_limits<double>::infinity()));
  Value positions = p.scratch->splat(b, minusOne, ValueRange{p.numBags, p.row});
  Value maxima = p.scratch->splat(b, lowest, ValueRange{p.numBags, p.row});
  return buildReadPositionLoop(b, p, ValueRange{positions, maxima},
                               [&](ImplicitLocOpBuilder &tb, Value j, Value bag,
                                   ValueRange iter) {
                                 Value idx = extractIndex(tb, p.indices, j);
                                 return maxPosition(tb, p, j, bag, idx, iter);
                               })
      .front();
}

TrainProblem mlir::embbag::loops::normalizeTraining(
    ImplicitLocOpBuilder &b, Operation *op, BagOpInterface forward, Value dy,
    ScratchArena &scratch, bool checks, unsigned vectorBits, bool parallel) {
  // The forward op's contract, reported with the training op's name and
  // location.
  if (checks) {
    ContractCheckEmitter emitter(b, op, vectorBits);
    (void)emitter.evaluate(contract::getContract(forward));
  }
  TrainProblem p;
  p.op = op;
  p.scratch = &scratch;
  p.reduction = forward.getReduction();
  p.parallel = parallel;
  p.table = flattenTable(b, forward.getTable());
  p.dy = flattenTable(b, dy);
  bool packed = forward.getBagForm() == BagForm::Packed;
  auto flatten = [&](Value v) { return packed ? flattenBags(b, v) : v; };
  p.indices = flatten(forward.getIndices());
  if (Value weights = forward.getWeights())
    p.weights = flatten(weights);
  p.storageType = forward.getTable().getType().getElementType();
  p.accType = getAccumulatorType(p.storageType);
  p.lanes =
      std::max<int64_t>(1, vectorBits / p.accType.getIntOrFloatBitWidth());
  p.numEmb = dim(b, p.table, 0);
  p.row = dim(b, p.table, 1);
  p.numBags = dim(b, p.dy, 0);
  p.numPositions = dim(b, p.indices, 0);
  Value padding =
      forward.getPaddingIdx() ? toIndex(b, forward.getPaddingIdx()) : Value();
  p.paddingIdx = padding;
  if (forward.getBagForm() == BagForm::Segments) {
    p.segmentIds = forward.getBags();
    p.bagOf = bagsFromSegmentIds(b, p, p.segmentIds, padding);
  } else {
    FailureOr<BagBounds> bounds = forward.getBagBounds(b, b.getLoc());
    assert(succeeded(bounds) && "packed and offsets bags are contiguous");
    p.bagRanges = *bounds;
    p.bagOf = bagsFromRanges(b, p, *bounds, padding);
  }
  if (p.reduction == Reduction::mean || p.isSqrtn())
    p.scale = buildScale(b, p);
  if (p.isMax())
    p.argmax = buildArgmax(b, p);
  return p;
}
