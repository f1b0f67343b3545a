//===- RowChunk.cpp - One pass over a bag for a chunk of the row ----------===//
//
// The hot loop: the chunk's accumulators are vector iter_args of the loop
// over the bag's indices, each table row is read with contiguous vector
// transfers (the last one masked when the chunk ends inside a vector), and
// the accumulators are stored once, after the empty-bag default and the
// mean or sqrtn divisor. `max` runs the same loop with a maximum instead of
// the sum.
//
// With padding_idx the loop body is an scf.if on the index: an index equal
// to it passes the accumulators through unread, and when the count matters
// (mean, sqrtn, max, a default) the count of the indices taken is one more
// iter_arg. Without padding_idx the loop is built exactly as before.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

mlir::embbag::loops::KernelContext::KernelContext(const BagProblem &p,
                                                  const KernelShape &shape)
    : p(p), shape(shape) {
  storageType = p.valueType;
  // f16 and bf16 accumulate in f32 and round once when storing. Integers
  // compute in the signless type of their width.
  widensFloat = storageType.isF16() || storageType.isBF16();
  accType = getAccumulatorType(storageType);
  vecStorageType = VectorType::get({shape.lanes}, storageType);
  vecAccType = VectorType::get({shape.lanes}, accType);
  maskType =
      VectorType::get({shape.lanes}, IntegerType::get(p.table.getContext(), 1));
}

// Every field but `p` is copied: a field added to KernelContext must be
// added here too.
mlir::embbag::loops::KernelContext::KernelContext(const KernelContext &planned,
                                                  const BagProblem &p)
    : p(p), shape(planned.shape), storageType(planned.storageType),
      accType(planned.accType), vecStorageType(planned.vecStorageType),
      vecAccType(planned.vecAccType), maskType(planned.maskType),
      widensFloat(planned.widensFloat), row(planned.row),
      tableBuffer(planned.tableBuffer), lastPosition(planned.lastPosition),
      rowsOnLines(planned.rowsOnLines),
      prefetchDistance(planned.prefetchDistance),
      indicesBuffer(planned.indicesBuffer),
      prefetchLocality(planned.prefetchLocality),
      prefetchEnabled(planned.prefetchEnabled),
      prefetchIntoL1(planned.prefetchIntoL1), scaleColumn(planned.scaleColumn),
      outColumn(planned.outColumn), firstBag(planned.firstBag) {}

/// A table row being read: its index and, for a quantized table, its scale
/// and bias, read once for all the vectors of the row.
struct TableRow {
  Value index, scale, bias;
};

static TableRow openRow(ImplicitLocOpBuilder &b, const KernelContext &k,
                        Value rowIndex) {
  if (!k.p.rowwiseBits)
    return {rowIndex, {}, {}};
  auto [scale, bias] = readScaleAndBias(b, k, rowIndex);
  return {rowIndex, scale, bias};
}

/// Reads `table[row, col : col + lanes]` (masked when `mask` is set) as an
/// accumulator vector.
static Value readVector(ImplicitLocOpBuilder &b, const KernelContext &k,
                        Value rowIndex, Value col, Value mask) {
  Value zero = arith::ConstantOp::create(
      b, b.getZeroAttr(getSignlessType(k.storageType)));
  Value pad = castTo(b, zero, k.storageType);
  auto map = AffineMap::getMinorIdentityMap(2, 1, b.getContext());
  Value v = vector::TransferReadOp::create(
      b, k.vecStorageType, k.p.table, ValueRange{rowIndex, col},
      AffineMapAttr::get(map), pad, mask, b.getBoolArrayAttr({true}));
  v = castToSignless(b, v);
  if (k.widensFloat)
    v = arith::ExtFOp::create(b, k.vecAccType, v);
  return v;
}

/// Reads the vectors of the chunk (`cols`, `chunk.masks`) of `row` as
/// accumulator vectors, a quantized row dequantized.
static SmallVector<Value> readRow(ImplicitLocOpBuilder &b,
                                  const KernelContext &k, const TableRow &row,
                                  const ChunkSpec &chunk,
                                  ArrayRef<Value> cols) {
  if (k.p.rowwiseBits)
    return readQuantizedRow(b, k, row.index, row.scale, row.bias, cols,
                            chunk.masks);
  SmallVector<Value> vectors;
  for (auto [col, mask] : llvm::zip_equal(cols, chunk.masks))
    vectors.push_back(readVector(b, k, row.index, col, mask));
  return vectors;
}

/// The order in which a pass reads the vectors of a row: the last one
/// first, then the others in order. Read in order, a row of several lines
/// likely looks like an ascending stream to the hardware prefetcher, which
/// then fetches the lines after the row: another row's, of no use in a
/// random gather, taking the bandwidth and miss buffers that the rows
/// prefetched in software need. On Zen 4, c1's rows of 64 floats (a 256 MB
/// table) took 0.84 ms per call read last line first (and touched, see
/// touchRow) against 0.93 in order, 0.71 against 1.19 at 32 rows ahead
/// (benchmarks/README.md, "The row's last line first").
static SmallVector<size_t> lastVectorFirst(size_t count) {
  SmallVector<size_t> order;
  if (count == 0)
    return order;
  order.push_back(count - 1);
  for (size_t i = 0; i + 1 < count; ++i)
    order.push_back(i);
  return order;
}

/// The weight of position `j` as a scalar of the accumulator type.
static Value readScalarWeight(ImplicitLocOpBuilder &b, const KernelContext &k,
                              Value j) {
  Value w = castToSignless(b, tensor::ExtractOp::create(b, k.p.weights, j));
  if (k.widensFloat)
    w = arith::ExtFOp::create(b, k.accType, w);
  return w;
}

/// The weight of position `j` broadcast to an accumulator vector.
static Value readWeight(ImplicitLocOpBuilder &b, const KernelContext &k,
                        Value j) {
  return vector::BroadcastOp::create(b, k.vecAccType,
                                     readScalarWeight(b, k, j));
}

/// `acc + weight * row` (no weight: `acc + row`), or the maximum.
static Value accumulate(ImplicitLocOpBuilder &b, const KernelContext &k,
                        Value acc, Value row, Value weight) {
  if (k.p.isMax())
    return maximum(b, acc, row, k.p.isUnsigned);
  if (isa<FloatType>(getElementTypeOrSelf(acc.getType()))) {
    if (weight)
      return vector::FMAOp::create(b, row, weight, acc);
    return arith::AddFOp::create(b, acc, row);
  }
  if (weight)
    row = arith::MulIOp::create(b, row, weight);
  return arith::AddIOp::create(b, acc, row);
}

/// Whether the passes sum a quantized table's rows as `sum(w * scale *
/// code)` in the vectors and `sum(w * bias)` in one scalar (an iter_arg
/// after the accumulators), added to every column after the pass: one
/// vector operation fewer per vector of a row than dequantizing each row.
/// Not for max, which needs each dequantized row.
static bool splitsBias(const KernelContext &k) {
  return k.p.rowwiseBits && !k.p.isMax();
}

/// The quantized row's contribution with the bias apart: each accumulator
/// plus `w * scale * code`, and the bias sum plus `w * bias`.
static SmallVector<Value>
accumulateSplitBias(ImplicitLocOpBuilder &b, const KernelContext &k,
                    const TableRow &row, Value j, const ChunkSpec &chunk,
                    ArrayRef<Value> cols, ValueRange accs, Value biasSum) {
  Value scale = row.scale, bias = row.bias;
  if (k.p.weights) {
    Value w = readScalarWeight(b, k, j);
    scale = arith::MulFOp::create(b, w, scale);
    bias = arith::MulFOp::create(b, w, bias);
  }
  Value scales = vector::BroadcastOp::create(b, k.vecAccType, scale);
  SmallVector<Value> codes =
      readQuantizedCodes(b, k, row.index, cols, chunk.masks);
  SmallVector<Value> next;
  for (auto [code, acc] : llvm::zip_equal(codes, accs))
    next.push_back(vector::FMAOp::create(b, code, scales, acc));
  next.push_back(arith::AddFOp::create(b, biasSum, bias));
  return next;
}

/// Whether the passes count the indices they take (an iter_arg after the
/// accumulators): with padding_idx the bag's size is not its count, and
/// the mean, sqrtn, max's empty bag and the default need the count.
static bool countsTaken(const KernelContext &k) {
  return k.p.paddingIdx &&
         (k.p.isMean() || k.p.isSqrtn() || k.p.isMax() || k.p.defaultIndex);
}

/// The loop over the bag's indices, prefetching `prefetch` columns of the
/// row ahead; returns the sums (and with countsTaken the count).
static SmallVector<Value> buildPass(ImplicitLocOpBuilder &b,
                                    const KernelContext &k, const BagRef &bag,
                                    const ChunkSpec &chunk,
                                    ArrayRef<Value> cols, ValueRange inits,
                                    ArrayRef<Value> prefetch) {
  size_t numAccs = chunk.masks.size();
  auto indexLoop = scf::ForOp::create(
      b, bag.start, bag.end, cst(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value j, ValueRange iterArgs) {
        ImplicitLocOpBuilder lb(loc, nested);
        if (!prefetch.empty())
          prefetchAhead(lb, k, j, prefetch);
        Value rowIndex = extractIndex(lb, k.p.indices, j);
        auto accumulateRow = [&](ImplicitLocOpBuilder &ab) {
          TableRow row = openRow(ab, k, rowIndex);
          if (splitsBias(k))
            return accumulateSplitBias(ab, k, row, j, chunk, cols,
                                       iterArgs.take_front(numAccs),
                                       iterArgs[numAccs]);
          Value weight = k.p.weights ? readWeight(ab, k, j) : Value();
          // A table of values is read vector by vector next to its
          // accumulation; a quantized row's vectors are read together.
          SmallVector<Value> quantized;
          if (k.p.rowwiseBits)
            quantized = readRow(ab, k, row, chunk, cols);
          // The last vector first (lastVectorFirst), in a pass that
          // prefetches also touched first: LLVM folds the loads into the
          // additions and may schedule them in column order again.
          if (!k.p.rowwiseBits && !prefetch.empty() && numAccs > 1)
            touchRow(ab, k, rowIndex, cols.back());
          SmallVector<Value> next(numAccs);
          for (size_t u : lastVectorFirst(numAccs)) {
            Value value = k.p.rowwiseBits ? quantized[u]
                                          : readVector(ab, k, rowIndex, cols[u],
                                                       chunk.masks[u]);
            next[u] = accumulate(ab, k, iterArgs[u], value, weight);
          }
          return next;
        };
        if (!k.p.paddingIdx) {
          scf::YieldOp::create(lb, accumulateRow(lb));
          return;
        }
        // The padding index skips the row and its weight: a branch around
        // the accumulation, the accumulators staying loop-carried values.
        Value isPadding = arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                                rowIndex, k.p.paddingIdx);
        auto skip = scf::IfOp::create(
            lb, isPadding,
            [&](OpBuilder &tb, Location tloc) {
              scf::YieldOp::create(tb, tloc, iterArgs);
            },
            [&](OpBuilder &eb, Location eloc) {
              ImplicitLocOpBuilder ab(eloc, eb);
              SmallVector<Value> next = accumulateRow(ab);
              if (countsTaken(k))
                next.push_back(
                    arith::AddIOp::create(ab, iterArgs.back(), cst(ab, 1)));
              scf::YieldOp::create(ab, next);
            });
        scf::YieldOp::create(lb, skip.getResults());
      });
  // With a remainder, unrolling adds an epilogue loop that continues the
  // accumulation: the bag's sums are then its results.
  scf::ForOp lastLoop = indexLoop;
  if (k.shape.unroll > 1) {
    FailureOr<UnrolledLoopInfo> unrolled =
        loopUnrollByFactor(indexLoop, k.shape.unroll);
    if (succeeded(unrolled) && unrolled->epilogueLoopOp)
      lastLoop = *unrolled->epilogueLoopOp;
  }
  return SmallVector<Value>(lastLoop.getResults());
}

/// `build` twice, in the branches of `scf.if cond`: once for `then` and
/// once for `otherwise`.
static SmallVector<Value>
buildEither(ImplicitLocOpBuilder &b, Value cond, ValueRange inits,
            llvm::function_ref<SmallVector<Value>(bool)> build) {
  auto ifOp = scf::IfOp::create(b, TypeRange(inits), cond,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, build(true));
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, build(false));
  return SmallVector<Value>(ifOp.getResults());
}

/// The pass, twice when the chunk has columns for rows on cache lines: one
/// loop for tables whose rows start on lines, one for the others.
static SmallVector<Value>
buildPrefetchingPasses(ImplicitLocOpBuilder &b, const KernelContext &k,
                       const BagRef &bag, const ChunkSpec &chunk,
                       ArrayRef<Value> cols, ValueRange inits) {
  if (!chunk.onLinesColumns)
    return buildPass(b, k, bag, chunk, cols, inits, chunk.prefetchColumns);
  return buildEither(b, k.rowsOnLines, inits, [&](bool onLines) {
    return buildPass(b, k, bag, chunk, cols, inits,
                     onLines ? *chunk.onLinesColumns : chunk.prefetchColumns);
  });
}

/// The prefetching passes with the rows' locality, two versions of them
/// when only the run time knows whether the rows go into L1.
static SmallVector<Value>
buildLocalityPasses(ImplicitLocOpBuilder &b, const KernelContext &k,
                    const BagRef &bag, const ChunkSpec &chunk,
                    ArrayRef<Value> cols, ValueRange inits) {
  if (!k.prefetchIntoL1)
    return buildPrefetchingPasses(b, k, bag, chunk, cols, inits);
  return buildEither(b, k.prefetchIntoL1, inits, [&](bool intoL1) {
    KernelContext fixed = k;
    fixed.prefetchIntoL1 = {};
    if (intoL1)
      fixed.prefetchLocality = 3;
    return buildPrefetchingPasses(b, fixed, bag, chunk, cols, inits);
  });
}

/// The pass over a bag, with or without prefetches. When only the run time
/// knows whether the table needs them, a branch per pass (outside the loop
/// over the bag's indices) picks a loop with or one without.
static SmallVector<Value> buildPasses(ImplicitLocOpBuilder &b,
                                      const KernelContext &k, const BagRef &bag,
                                      const ChunkSpec &chunk,
                                      ArrayRef<Value> cols, ValueRange inits) {
  if (!k.tableBuffer || chunk.prefetchColumns.empty())
    return buildPass(b, k, bag, chunk, cols, inits, {});
  if (!k.prefetchEnabled)
    return buildLocalityPasses(b, k, bag, chunk, cols, inits);
  return buildEither(b, k.prefetchEnabled, inits, [&](bool enabled) {
    if (enabled)
      return buildLocalityPasses(b, k, bag, chunk, cols, inits);
    return buildPass(b, k, bag, chunk, cols, inits, {});
  });
}

/// An empty bag (of `count` indices taken) takes the default row,
/// unweighted, when one is given.
static SmallVector<Value>
applyDefault(ImplicitLocOpBuilder &b, const KernelContext &k, Value count,
             const ChunkSpec &chunk, ArrayRef<Value> cols,
             SmallVector<Value> accs) {
  Value isEmpty =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, count, cst(b, 0));
  Value hasDefault = arith::CmpIOp::create(b, arith::CmpIPredicate::sge,
                                           k.p.defaultIndex, cst(b, 0));
  auto ifOp = scf::IfOp::create(
      b, arith::AndIOp::create(b, isEmpty, hasDefault),
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        TableRow row = openRow(tb, k, k.p.defaultIndex);
        scf::YieldOp::create(tb, readRow(tb, k, row, chunk, cols));
      },
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(nested, loc, accs);
      });
  return SmallVector<Value>(ifOp.getResults());
}

/// The identity of the reduction as an accumulator vector: zero for sums,
/// the lowest value of T for max (-inf, INT_MIN, 0 for unsigned T).
static Value buildInit(ImplicitLocOpBuilder &b, const KernelContext &k) {
  TypedAttr init = k.p.isMax() ? maxIdentity(b, k.accType, k.p.isUnsigned)
                           : b.getZeroAttr(k.accType);
  return arith::ConstantOp::create(b, k.vecAccType,
                                   DenseElementsAttr::get(k.vecAccType, init));
}

/// An empty bag's max is still the identity (-inf): it becomes zeros, as in
/// PyTorch; the default row, if any, replaces them afterwards.
static SmallVector<Value> zeroEmptyMax(ImplicitLocOpBuilder &b,
                                       const KernelContext &k, Value count,
                                       SmallVector<Value> accs) {
  Value isEmpty =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, count, cst(b, 0));
  Value zero = arith::ConstantOp::create(
      b, k.vecAccType,
      DenseElementsAttr::get(k.vecAccType, b.getZeroAttr(k.accType)));
  for (Value &acc : accs)
    acc = arith::SelectOp::create(b, isEmpty, zero, acc);
  return accs;
}

/// The norm of a bag's weights for sqrtn, in the float accumulator type:
/// the sum of the squared weights, or without weights the count (of the
/// indices taken). A scalar loop per pass, outside the hot loop: it reads
/// one weight per index, the hot loop a vector chunk of a row. With
/// padding_idx the weights of padding indices are left out.
static Value buildSumOfSquares(ImplicitLocOpBuilder &b, const KernelContext &k,
                               const BagRef &bag, Value count) {
  if (!k.p.weights)
    return arith::UIToFPOp::create(
        b, k.accType, arith::IndexCastUIOp::create(b, b.getI64Type(), count));
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(k.accType));
  auto loop = scf::ForOp::create(
      b, bag.start, bag.end, cst(b, 1), ValueRange{zero},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange sums) {
        ImplicitLocOpBuilder lb(loc, nested);
        Value w = readScalarWeight(lb, k, j);
        Value next = math::FmaOp::create(lb, w, w, sums.front());
        if (k.p.paddingIdx)
          next = arith::SelectOp::create(
              lb,
              arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                    extractIndex(lb, k.p.indices, j),
                                    k.p.paddingIdx),
              sums.front(), next);
        scf::YieldOp::create(lb, ValueRange{next});
      });
  return loop.getResult(0);
}

Value mlir::embbag::loops::buildChunk(ImplicitLocOpBuilder &b,
                                      const KernelContext &k, const BagRef &bag,
                                      const ChunkSpec &chunk, Value out) {
  SmallVector<Value> cols;
  for (size_t u = 0; u < chunk.masks.size(); ++u)
    cols.push_back(u == 0 ? chunk.col
                          : b.createOrFold<arith::AddIOp>(
                                chunk.col, cst(b, u * k.shape.lanes)));
  SmallVector<Value> inits(chunk.masks.size(), buildInit(b, k));
  if (splitsBias(k))
    inits.push_back(arith::ConstantOp::create(b, b.getZeroAttr(k.accType)));
  if (countsTaken(k))
    inits.push_back(cst(b, 0));
  SmallVector<Value> accs = buildPasses(b, k, bag, chunk, cols, inits);
  // The bag's count: its size, or the indices the pass took.
  Value count = countsTaken(k) ? accs.pop_back_val() : bag.count;
  if (splitsBias(k)) {
    Value biases =
        vector::BroadcastOp::create(b, k.vecAccType, accs.pop_back_val());
    for (Value &acc : accs)
      acc = arith::AddFOp::create(b, acc, biases);
  }
  if (k.p.isMax())
    accs = zeroEmptyMax(b, k, count, accs);
  if (k.p.defaultIndex)
    accs = applyDefault(b, k, count, chunk, cols, accs);
  if (k.p.isMean()) {
    Value divisor = countDivisor(b, count);
    for (Value &acc : accs)
      acc = divideByCount(b, acc, divisor, k.p.isUnsigned);
  }
  if (k.p.isSqrtn()) {
    Value divisor = sqrtnDivisor(b, buildSumOfSquares(b, k, bag, count), count);
    for (Value &acc : accs)
      acc = divideBy(b, acc, divisor);
  }
  auto map = AffineMap::getMinorIdentityMap(2, 1, b.getContext());
  for (auto [acc, col, mask] : llvm::zip_equal(accs, cols, chunk.masks)) {
    Value v = k.widensFloat ? arith::TruncFOp::create(b, k.vecStorageType, acc)
                            : castTo(b, acc, k.vecStorageType);
    Value outCol =
        k.outColumn ? b.createOrFold<arith::AddIOp>(col, k.outColumn) : col;
    out = vector::TransferWriteOp::create(
              b, out.getType(), v, out, ValueRange{bag.outRow, outCol},
              AffineMapAttr::get(map), mask, b.getBoolArrayAttr({true}))
              .getResult();
  }
  return out;
}
