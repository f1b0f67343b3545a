//===- TrainingGrouping.cpp - The positions grouped by table row ----------===//
//
// The training kernels walk the table rows the read positions touch, each
// row's positions in index order. Two stable sorts of the read positions
// by row give that grouping, chosen at run time by the table's size:
//
//   - a counting sort over the table's rows (a histogram of num_emb + 3
//     counters, its prefix sum, one scatter of the positions) when the
//     table has at most kCountingSortRowsPerPosition rows per position:
//     O(num_emb + n), and num_emb is then O(n);
//   - otherwise an LSD radix sort of the (row, position) pairs of the read
//     positions, kRadixBits bits of the row per pass: O(n) per pass and
//     ceil(log2(num_emb) / kRadixBits) passes, nothing of the table's size.
//
// Both are stable (a position never overtakes an earlier one of the same
// row), so both give the same grouping and the kernels the same bits.
//
//===----------------------------------------------------------------------===//

#include "Training.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

/// Tables of more rows than this per position are grouped by radix sort:
/// the counting sort's O(num_emb) histogram would cost more than the
/// radix sort's passes over the positions.
static constexpr int64_t kCountingSortRowsPerPosition = 2;
/// Row bits per radix pass: a histogram of 2048 counters (16 KiB) stays in
/// the L1 cache, and 2 passes (one iteration) cover tables of up to 4M
/// rows.
static constexpr int64_t kRadixBits = 11;

/// A new scratch tensor of `size` elements of `type`.
static Value empty1D(ImplicitLocOpBuilder &b, const TrainProblem &p, Value size,
                     Type type) {
  return p.scratch->empty(b, size, type);
}

/// The list of unique rows, `capacity` elements: `rowsDest` when they are
/// part of a result (one tensor for both sorts, made before the choice, so
/// that the scf.if yields one buffer), else scratch.
static Value uniqueRowList(ImplicitLocOpBuilder &b, const TrainProblem &p,
                           Value capacity, Value rowsDest) {
  if (rowsDest)
    return rowsDest;
  return empty1D(b, p, capacity, getElementTypeOrSelf(p.indices.getType()));
}

/// Whether a bag reads position `j` (i1).
static Value isRead(ImplicitLocOpBuilder &b, const TrainProblem &p, Value j) {
  Value bag = tensor::ExtractOp::create(b, p.bagOf, j);
  return arith::CmpIOp::create(b, arith::CmpIPredicate::sge, bag, cst(b, 0));
}

/// What the grouping lists for read position `j`: the position, or its
/// bag when the shares need no position (RowGroups::perm).
static Value listedValue(ImplicitLocOpBuilder &b, const TrainProblem &p,
                         Value j) {
  if (p.sharesNeedPositions())
    return j;
  return tensor::ExtractOp::create(b, p.bagOf, j);
}

//===----------------------------------------------------------------------===//
// Counting sort over the table's rows
//===----------------------------------------------------------------------===//

/// hist[r + 2] = how many read positions hold row r; the unread ones are
/// counted in the last slot, num_emb + 2, which no row reads: no branch.
static Value rowHistogram(ImplicitLocOpBuilder &b, const TrainProblem &p) {
  Value size = arith::AddIOp::create(b, p.numEmb, cst(b, 3));
  Value spill = arith::AddIOp::create(b, p.numEmb, cst(b, 2));
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numPositions, cst(b, 1),
      ValueRange{p.scratch->splat(b, cst(b, 0), size)},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value slot = arith::AddIOp::create(ib, extractIndex(ib, p.indices, j),
                                           cst(ib, 2));
        slot = arith::SelectOp::create(ib, isRead(ib, p, j), slot, spill);
        Value n = tensor::ExtractOp::create(ib, iter[0], slot);
        Value inc = arith::AddIOp::create(ib, n, cst(ib, 1));
        scf::YieldOp::create(
            ib, tensor::InsertOp::create(ib, inc, iter[0], slot).getResult());
      });
  return loop.getResult(0);
}

/// The prefix sum of the histogram over the rows (hist[r + 1] becomes
/// where row r's positions start: the scatter's cursors), and the rows
/// with positions in ascending order with where their runs start.
static Value countingPrefix(ImplicitLocOpBuilder &b, const TrainProblem &p,
                            Value hist, Value rowsDest, RowGroups &g) {
  Type indexType = getElementTypeOrSelf(p.indices.getType());
  Value capacity = arith::AddIOp::create(b, p.numPositions, cst(b, 1));
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numEmb, cst(b, 1),
      ValueRange{hist, uniqueRowList(b, p, capacity, rowsDest),
                 empty1D(b, p, arith::AddIOp::create(b, capacity, cst(b, 1)),
                         b.getIndexType()),
                 cst(b, 0), cst(b, 0)},
      [&](OpBuilder &nested, Location loc, Value r, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value slot = arith::AddIOp::create(ib, r, cst(ib, 2));
        Value count = tensor::ExtractOp::create(ib, iter[0], slot);
        Value start = iter[4];
        Value end = arith::AddIOp::create(ib, start, count);
        Value bounds = tensor::InsertOp::create(ib, end, iter[0], slot);
        Value used = arith::CmpIOp::create(ib, arith::CmpIPredicate::ne, count,
                                           cst(ib, 0));
        ValueRange lists = ifThenElseKeep(
            ib, used, ValueRange{iter[1], iter[2]},
            [&](ImplicitLocOpBuilder &tb) -> SmallVector<Value> {
              Value row = arith::IndexCastOp::create(tb, indexType, r);
              return {tensor::InsertOp::create(tb, row, iter[1], iter[3]),
                      tensor::InsertOp::create(tb, start, iter[2], iter[3])};
            });
        Value numUnique = arith::AddIOp::create(
            ib, iter[3],
            arith::IndexCastUIOp::create(ib, ib.getIndexType(), used));
        scf::YieldOp::create(
            ib, ValueRange{bounds, lists[0], lists[1], numUnique, end});
      });
  g.uniqueRows = loop.getResult(1);
  g.numUnique = loop.getResult(3);
  // The end of the last run closes the list of starts.
  g.starts = tensor::InsertOp::create(b, loop.getResult(4), loop.getResult(2),
                                      g.numUnique);
  return loop.getResult(0);
}

/// Scatters the read positions (or their bags: listedValue), in index
/// order, to their row's run, the cursor of row r being cursors[r + 1].
static Value scatterToRows(ImplicitLocOpBuilder &b, const TrainProblem &p,
                           Value cursors) {
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numPositions, cst(b, 1),
      ValueRange{cursors, empty1D(b, p, p.numPositions, b.getIndexType())},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        ValueRange next = ifThenElseKeep(
            ib, isRead(ib, p, j), iter,
            [&](ImplicitLocOpBuilder &tb) -> SmallVector<Value> {
              Value slot = arith::AddIOp::create(
                  tb, extractIndex(tb, p.indices, j), cst(tb, 1));
              Value pos = tensor::ExtractOp::create(tb, iter[0], slot);
              Value inc = arith::AddIOp::create(tb, pos, cst(tb, 1));
              return {tensor::InsertOp::create(tb, inc, iter[0], slot),
                      tensor::InsertOp::create(tb, listedValue(tb, p, j),
                                               iter[1], pos)};
            });
        scf::YieldOp::create(ib, next);
      });
  return loop.getResult(1);
}

static RowGroups countingSort(ImplicitLocOpBuilder &b, const TrainProblem &p,
                              Value rowsDest) {
  RowGroups g;
  Value cursors = countingPrefix(b, p, rowHistogram(b, p), rowsDest, g);
  g.perm = scatterToRows(b, p, cursors);
  return g;
}

//===----------------------------------------------------------------------===//
// Radix sort of the read positions
//===----------------------------------------------------------------------===//

/// The read positions (or their bags: listedValue) in index order
/// (values) with their rows (keys), and how many there are.
static std::tuple<Value, Value, Value>
compactReadPositions(ImplicitLocOpBuilder &b, const TrainProblem &p) {
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numPositions, cst(b, 1),
      ValueRange{empty1D(b, p, p.numPositions, b.getIndexType()),
                 empty1D(b, p, p.numPositions, b.getIndexType()), cst(b, 0)},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        ValueRange next = ifThenElseKeep(
            ib, isRead(ib, p, j), iter,
            [&](ImplicitLocOpBuilder &tb) -> SmallVector<Value> {
              Value row = extractIndex(tb, p.indices, j);
              return {tensor::InsertOp::create(tb, row, iter[0], iter[2]),
                      tensor::InsertOp::create(tb, listedValue(tb, p, j),
                                               iter[1], iter[2]),
                      arith::AddIOp::create(tb, iter[2], cst(tb, 1))};
            });
        scf::YieldOp::create(ib, next);
      });
  return {loop.getResult(0), loop.getResult(1), loop.getResult(2)};
}

/// The radix digit of `key` at bit `shift`.
static Value digitOf(ImplicitLocOpBuilder &b, Value key, Value shift) {
  Value shifted = arith::ShRUIOp::create(b, key, shift);
  return arith::AndIOp::create(b, shifted, cst(b, (1 << kRadixBits) - 1));
}

/// How many radix passes sort rows below `numEmb`: ceil(bits / kRadixBits)
/// for the bits of the largest row, numEmb - 1 (none for one row or none).
static Value radixPassCount(ImplicitLocOpBuilder &b, Value numEmb) {
  Value largest = arith::MaxSIOp::create(
      b, arith::SubIOp::create(b, numEmb, cst(b, 1)), cst(b, 0));
  Value asI64 = arith::IndexCastUIOp::create(b, b.getI64Type(), largest);
  Value zeros = math::CountLeadingZerosOp::create(b, asI64);
  Value bits = arith::SubIOp::create(
      b, arith::ConstantOp::create(b, b.getI64IntegerAttr(64)), zeros);
  Value bitsIndex = arith::IndexCastUIOp::create(b, b.getIndexType(), bits);
  return arith::CeilDivUIOp::create(b, bitsIndex, cst(b, kRadixBits));
}

/// The radix histogram (2^kRadixBits + 1 counters) `hist` zeroed.
static Value zeroHistogram(ImplicitLocOpBuilder &b, Value hist) {
  return scf::ForOp::create(
             b, cst(b, 0), cst(b, (1 << kRadixBits) + 1), cst(b, 1),
             ValueRange{hist},
             [&](OpBuilder &nested, Location loc, Value d, ValueRange iter) {
               ImplicitLocOpBuilder ib(loc, nested);
               scf::YieldOp::create(
                   ib, tensor::InsertOp::create(ib, cst(ib, 0), iter[0], d)
                           .getResult());
             })
      .getResult(0);
}

/// One stable pass: the pairs (keys, values)[0 : count] reordered by the
/// digit at `shift`, written into `dstKeys` and `dstValues`, counted in
/// `hist` (reused from pass to pass: one buffer); returns the new keys,
/// values and histogram.
static std::tuple<Value, Value, Value>
radixPass(ImplicitLocOpBuilder &b, Value keys, Value values, Value dstKeys,
          Value dstValues, Value hist, Value count, Value shift) {
  Value buckets = cst(b, 1 << kRadixBits);
  // hist[d + 1] = how many keys have digit d, then its prefix sum:
  // hist[d] is where digit d's run starts.
  hist = zeroHistogram(b, hist);
  hist =
      scf::ForOp::create(
          b, cst(b, 0), count, cst(b, 1), ValueRange{hist},
          [&](OpBuilder &nested, Location loc, Value q, ValueRange iter) {
            ImplicitLocOpBuilder ib(loc, nested);
            Value slot = arith::AddIOp::create(
                ib, digitOf(ib, tensor::ExtractOp::create(ib, keys, q), shift),
                cst(ib, 1));
            Value n = tensor::ExtractOp::create(ib, iter[0], slot);
            Value inc = arith::AddIOp::create(ib, n, cst(ib, 1));
            scf::YieldOp::create(
                ib,
                tensor::InsertOp::create(ib, inc, iter[0], slot).getResult());
          })
          .getResult(0);
  hist =
      scf::ForOp::create(
          b, cst(b, 1), buckets, cst(b, 1), ValueRange{hist},
          [&](OpBuilder &nested, Location loc, Value d, ValueRange iter) {
            ImplicitLocOpBuilder ib(loc, nested);
            Value before = tensor::ExtractOp::create(
                ib, iter[0],
                ValueRange{arith::SubIOp::create(ib, d, cst(ib, 1))});
            Value mine = tensor::ExtractOp::create(ib, iter[0], d);
            Value sum = arith::AddIOp::create(ib, before, mine);
            scf::YieldOp::create(
                ib, tensor::InsertOp::create(ib, sum, iter[0], d).getResult());
          })
          .getResult(0);
  auto scatter = scf::ForOp::create(
      b, cst(b, 0), count, cst(b, 1), ValueRange{hist, dstKeys, dstValues},
      [&](OpBuilder &nested, Location loc, Value q, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value key = tensor::ExtractOp::create(ib, keys, q);
        Value digit = digitOf(ib, key, shift);
        Value pos = tensor::ExtractOp::create(ib, iter[0], digit);
        Value inc = arith::AddIOp::create(ib, pos, cst(ib, 1));
        Value value = tensor::ExtractOp::create(ib, values, q);
        scf::YieldOp::create(
            ib, ValueRange{tensor::InsertOp::create(ib, inc, iter[0], digit),
                           tensor::InsertOp::create(ib, key, iter[1], pos),
                           tensor::InsertOp::create(ib, value, iter[2], pos)});
      });
  return {scatter.getResult(1), scatter.getResult(2), scatter.getResult(0)};
}

/// The unique rows of the sorted `keys[0 : count]` and where their runs
/// start, the list of starts closed by `count`.
static void uniqueRuns(ImplicitLocOpBuilder &b, const TrainProblem &p,
                       Value keys, Value count, Value rowsDest, RowGroups &g) {
  Type indexType = getElementTypeOrSelf(p.indices.getType());
  Value capacity = arith::AddIOp::create(b, p.numPositions, cst(b, 1));
  auto loop = scf::ForOp::create(
      b, cst(b, 0), count, cst(b, 1),
      ValueRange{uniqueRowList(b, p, capacity, rowsDest),
                 empty1D(b, p, arith::AddIOp::create(b, capacity, cst(b, 1)),
                         b.getIndexType()),
                 cst(b, 0), cst(b, -1)},
      [&](OpBuilder &nested, Location loc, Value q, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value key = tensor::ExtractOp::create(ib, keys, q);
        Value isNew =
            arith::CmpIOp::create(ib, arith::CmpIPredicate::ne, key, iter[3]);
        ValueRange lists = ifThenElseKeep(
            ib, isNew, ValueRange{iter[0], iter[1], iter[2]},
            [&](ImplicitLocOpBuilder &tb) -> SmallVector<Value> {
              Value row = arith::IndexCastOp::create(tb, indexType, key);
              return {tensor::InsertOp::create(tb, row, iter[0], iter[2]),
                      tensor::InsertOp::create(tb, q, iter[1], iter[2]),
                      arith::AddIOp::create(tb, iter[2], cst(tb, 1))};
            });
        scf::YieldOp::create(ib, ValueRange{lists[0], lists[1], lists[2], key});
      });
  g.uniqueRows = loop.getResult(0);
  g.numUnique = loop.getResult(2);
  g.starts = tensor::InsertOp::create(b, count, loop.getResult(1), g.numUnique);
}

static RowGroups radixSort(ImplicitLocOpBuilder &b, const TrainProblem &p,
                           Value rowsDest) {
  auto [keys, values, count] = compactReadPositions(b, p);
  // Two passes per iteration, from the first pair of tensors into the
  // second and back: each iteration yields the tensors it was given, which
  // bufferize in place (a third pass of zero digits when the count is odd
  // changes no order).
  Value passes = radixPassCount(b, p.numEmb);
  Value pairs = arith::CeilDivUIOp::create(b, passes, cst(b, 2));
  auto loop = scf::ForOp::create(
      b, cst(b, 0), pairs, cst(b, 1),
      ValueRange{
          keys, values, empty1D(b, p, p.numPositions, b.getIndexType()),
          empty1D(b, p, p.numPositions, b.getIndexType()),
          empty1D(b, p, cst(b, (1 << kRadixBits) + 1), b.getIndexType())},
      [&](OpBuilder &nested, Location loc, Value pair, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value shift = arith::MulIOp::create(ib, pair, cst(ib, 2 * kRadixBits));
        auto [k1, v1, h1] = radixPass(ib, iter[0], iter[1], iter[2], iter[3],
                                      iter[4], count, shift);
        Value shift2 = arith::AddIOp::create(ib, shift, cst(ib, kRadixBits));
        auto [k2, v2, h2] =
            radixPass(ib, k1, v1, iter[0], iter[1], h1, count, shift2);
        scf::YieldOp::create(ib, ValueRange{k2, v2, k1, v1, h2});
      });
  RowGroups g;
  uniqueRuns(b, p, loop.getResult(0), count, rowsDest, g);
  g.perm = loop.getResult(1);
  return g;
}

//===----------------------------------------------------------------------===//
// The choice
//===----------------------------------------------------------------------===//

RowGroups mlir::embbag::loops::groupByRow(ImplicitLocOpBuilder &b,
                                          const TrainProblem &p,
                                          bool uniqueRowsEscape) {
  Value limit = arith::MulIOp::create(
      b, arith::MaxSIOp::create(b, p.numPositions, cst(b, 1)),
      cst(b, kCountingSortRowsPerPosition));
  Value counting =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ule, p.numEmb, limit);
  // The branches are built into an scf.if that is already in place, so
  // that the scratch arena sees which branch asks for a tensor.
  auto dynamic1D = [](Type element) {
    return RankedTensorType::get({ShapedType::kDynamic}, element);
  };
  Type indexType = b.getIndexType();
  Type rowType = getElementTypeOrSelf(p.indices.getType());
  Value rowsDest;
  if (uniqueRowsEscape)
    rowsDest = tensor::EmptyOp::create(
        b, ArrayRef<int64_t>{ShapedType::kDynamic}, rowType,
        ValueRange{arith::AddIOp::create(b, p.numPositions, cst(b, 1))});
  auto ifOp =
      scf::IfOp::create(b,
                        TypeRange{dynamic1D(indexType), dynamic1D(indexType),
                                  dynamic1D(rowType), indexType},
                        counting, /*withElseRegion=*/true);
  auto buildBranch = [&](Region &region, auto sort) {
    ImplicitLocOpBuilder tb = ImplicitLocOpBuilder::atBlockEnd(
        b.getLoc(), &region.front(), b.getListener());
    RowGroups g = sort(tb, p, rowsDest);
    scf::YieldOp::create(
        tb, ValueRange{g.perm, g.starts, g.uniqueRows, g.numUnique});
  };
  buildBranch(ifOp.getThenRegion(), countingSort);
  buildBranch(ifOp.getElseRegion(), radixSort);
  RowGroups g;
  g.perm = ifOp.getResult(0);
  g.starts = ifOp.getResult(1);
  g.uniqueRows = ifOp.getResult(2);
  g.numUnique = ifOp.getResult(3);
  return g;
}
