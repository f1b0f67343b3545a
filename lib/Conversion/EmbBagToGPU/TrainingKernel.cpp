//===- TrainingKernel.cpp - The GPU kernels of the training ops -----------===//
//
// The threads' code of the training ops' kernels (TrainingKernel.h). Lanes
// split a row element by element: a group of lanes reads a row's
// consecutive elements, so that its loads and stores coalesce.
//
//===----------------------------------------------------------------------===//

#include "TrainingKernel.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::gpu_lowering;

/// The value `v` of float type as `type` (f16 and bf16 through f32).
static Value convert(ImplicitLocOpBuilder &b, Value v, Type type) {
  unsigned from = v.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (v.getType() == type)
    return v;
  if (from == to)
    return convert(b, arith::ExtFOp::create(b, b.getF32Type(), v), type);
  if (from < to)
    return arith::ExtFOp::create(b, type, v);
  return arith::TruncFOp::create(b, type, v);
}

static Value f32(ImplicitLocOpBuilder &b, double v) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(v));
}

static Value cmp(ImplicitLocOpBuilder &b, arith::CmpIPredicate predicate,
                 Value x, Value y) {
  return arith::CmpIOp::create(b, predicate, x, y);
}

/// The index read at position `pos`, as an index.
static Value loadRow(ImplicitLocOpBuilder &b, const BagKernel &k, Value pos) {
  return arith::IndexCastOp::create(b, b.getIndexType(),
                                    loadElement(b, k.indices, pos));
}

/// Whether `row` is a row of the table (i1).
static Value isInTable(ImplicitLocOpBuilder &b, const BagKernel &k, Value row) {
  return arith::AndIOp::create(
      b, cmp(b, arith::CmpIPredicate::sge, row, cst(b, 0)),
      cmp(b, arith::CmpIPredicate::slt, row, k.numEmb));
}

/// Whether `row`, in the table, is read (i1): not the padding row.
static Value isTaken(ImplicitLocOpBuilder &b, const BagKernel &k, Value row,
                     Value inTable) {
  if (!k.paddingIdx)
    return inTable;
  return arith::AndIOp::create(
      b, inTable, cmp(b, arith::CmpIPredicate::ne, row, k.paddingIdx));
}

/// The weight of position `pos` in f32.
static Value loadWeight(ImplicitLocOpBuilder &b, const BagKernel &k,
                        Value pos) {
  return convert(b, loadElement(b, k.weights, pos), b.getF32Type());
}

/// A loop over [lo, hi) by `step` carrying `inits`; `body` returns the
/// next values.
static ValueRange buildLoop(
    ImplicitLocOpBuilder &b, Value lo, Value hi, Value step, ValueRange inits,
    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value, ValueRange)>
        body) {
  auto loop = scf::ForOp::create(
      b, lo, hi, step, inits,
      [&](OpBuilder &nested, Location loc, Value i, ValueRange iter) {
        ImplicitLocOpBuilder lb(loc, nested);
        scf::YieldOp::create(lb, body(lb, i, iter));
      });
  return loop.getResults();
}

/// a * x + c, rounded once. On the device it is LLVM's intrinsic:
/// convert-gpu-to-nvvm would turn math.fma into a call into libdevice
/// (BagKernel.h, `onDevice`).
static Value fma(ImplicitLocOpBuilder &b, const BagKernel &k, Value a, Value x,
                 Value c) {
  if (!k.onDevice)
    return math::FmaOp::create(b, a, x, c);
  return LLVM::CallIntrinsicOp::create(b, a.getType(),
                                       b.getStringAttr("llvm.fma.f32"),
                                       ValueRange{a, x, c})
      .getResult(0);
}

/// 1 / sqrt(x) for sqrtn, 1 / x for mean, and 0 when `x` is 0 (a bag
/// that reads no row: no position takes its scale).
static Value reciprocalScale(ImplicitLocOpBuilder &b, const BagKernel &k,
                             Value x) {
  Value divisor = k.reduction == Reduction::sqrtn ? sqrtF32(b, k, x) : x;
  Value isZero =
      arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, x, f32(b, 0.0));
  return arith::SelectOp::create(
      b, isZero, f32(b, 0.0), arith::DivFOp::create(b, f32(b, 1.0), divisor));
}

/// Runs `body` for each taken position of [start, end), with its row,
/// carrying `inits`.
static ValueRange
forEachTaken(ImplicitLocOpBuilder &b, const BagKernel &k, Value start,
             Value end, ValueRange inits,
             function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value pos,
                                             Value row, ValueRange)>
                 body) {
  return buildLoop(b, start, end, cst(b, 1), inits,
                   [&](ImplicitLocOpBuilder &lb, Value pos, ValueRange iter) {
                     Value row = loadRow(lb, k, pos);
                     Value taken = isTaken(lb, k, row, isInTable(lb, k, row));
                     auto ifOp = scf::IfOp::create(
                         lb, taken,
                         [&](OpBuilder &nested, Location loc) {
                           ImplicitLocOpBuilder tb(loc, nested);
                           scf::YieldOp::create(tb, body(tb, pos, row, iter));
                         },
                         [&](OpBuilder &nested, Location loc) {
                           scf::YieldOp::create(nested, loc, iter);
                         });
                     return SmallVector<Value>(ifOp.getResults());
                   });
}

//===----------------------------------------------------------------------===//
// Threads, spans and scans
//===----------------------------------------------------------------------===//

/// The thread's global id: block * kBlockSize + thread.
static Value globalId(ImplicitLocOpBuilder &b, Value block, Value thread) {
  return arith::AddIOp::create(
      b, arith::MulIOp::create(b, block, cst(b, kBlockSize)), thread);
}

/// Runs `body` on span `span` (the thread's global id) of the spans of
/// `length` items that cover [0, total), if there is one, with its items
/// [first, end).
static void forThreadSpan(ImplicitLocOpBuilder &b, Value block, Value thread,
                          Value total, int64_t length,
                          function_ref<void(ImplicitLocOpBuilder &, Value span,
                                            Value first, Value end)>
                              body) {
  Value span = globalId(b, block, thread);
  Value spans = arith::CeilDivUIOp::create(b, total, cst(b, length));
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, span, spans),
          [&](ImplicitLocOpBuilder &tb) {
            Value first = arith::MulIOp::create(tb, span, cst(tb, length));
            Value end = arith::MinUIOp::create(
                tb, arith::AddIOp::create(tb, first, cst(tb, length)), total);
            body(tb, span, first, end);
          });
}

static Value i64(ImplicitLocOpBuilder &b, int64_t v) {
  return arith::ConstantOp::create(b, b.getI64IntegerAttr(v));
}

/// Runs `body` on the items of [lo, hi) in order, `groupSize` at a time,
/// then one at a time, carrying `inits`; `body` returns the next values. A
/// body that loads for all its items before it uses any has their loads in
/// flight together, where one item at a time would wait for each.
static ValueRange
forEachGroup(ImplicitLocOpBuilder &b, Value lo, Value hi, int64_t groupSize,
             ValueRange inits,
             function_ref<SmallVector<Value>(ImplicitLocOpBuilder &,
                                             ArrayRef<Value> items, ValueRange)>
                 body) {
  Value step = cst(b, groupSize);
  Value mainEnd = wholeStepsEnd(b, lo, hi, step);
  ValueRange whole = buildLoop(
      b, lo, mainEnd, step, inits,
      [&](ImplicitLocOpBuilder &lb, Value first, ValueRange iter) {
        SmallVector<Value> items;
        for (int64_t i = 0; i < groupSize; ++i)
          items.push_back(arith::AddIOp::create(lb, first, cst(lb, i)));
        return body(lb, items, iter);
      });
  return buildLoop(b, mainEnd, hi, cst(b, 1), whole,
                   [&](ImplicitLocOpBuilder &lb, Value item, ValueRange iter) {
                     return body(lb, item, iter);
                   });
}

/// Values a scan loads at once: a thread's scan would otherwise wait for
/// each load before the next.
constexpr int64_t kScanLoads = 8;

/// Stores at each i of [lo, hi) the sum (i64 or f32) of `init` and the values
/// `load` gives before i (with `store`; nothing when null), and returns
/// the sum after `hi`. Each value is loaded before its sum is stored, so a
/// scan may store where it loads.
static Value exclusiveScan(
    ImplicitLocOpBuilder &b, Value lo, Value hi, Value init,
    function_ref<Value(ImplicitLocOpBuilder &, Value i)> load,
    function_ref<void(ImplicitLocOpBuilder &, Value i, Value sum)> store) {
  auto add = [&](ImplicitLocOpBuilder &lb, Value i, Value value,
                 Value sum) -> Value {
    if (store)
      store(lb, i, sum);
    if (isa<FloatType>(sum.getType()))
      return arith::AddFOp::create(lb, sum, value);
    return arith::AddIOp::create(lb, sum, value);
  };
  return forEachGroup(
      b, lo, hi, kScanLoads, ValueRange{init},
      [&](ImplicitLocOpBuilder &lb, ArrayRef<Value> items, ValueRange iter) {
        SmallVector<Value> values;
        for (Value i : items)
          values.push_back(load(lb, i));
        Value sum = iter[0];
        for (auto [i, value] : llvm::zip(items, values))
          sum = add(lb, i, value, sum);
        return SmallVector<Value>{sum};
      })[0];
}

/// exclusiveScan of the i64 buffer `counts` into `starts` (nowhere when
/// null).
static Value exclusiveScan(ImplicitLocOpBuilder &b, Value counts, Value starts,
                           Value lo, Value hi, Value init) {
  auto load = [&](ImplicitLocOpBuilder &lb, Value i) {
    return loadElement(lb, counts, ValueRange{i});
  };
  if (!starts)
    return exclusiveScan(b, lo, hi, init, load, {});
  return exclusiveScan(b, lo, hi, init, load,
                       [&](ImplicitLocOpBuilder &lb, Value i, Value sum) {
                         storeElement(lb, sum, starts, ValueRange{i});
                       });
}

/// Thread 0 (of block 0) scans `counts`' first `n` words into `starts`
/// and stores their total at `totals[at]`; the other threads do nothing.
static void scanInFirstThread(ImplicitLocOpBuilder &b, Value block,
                              Value thread, Value counts, Value starts, Value n,
                              Value totals, Value at) {
  Value first =
      cmp(b, arith::CmpIPredicate::eq, globalId(b, block, thread), cst(b, 0));
  buildIf(b, first, [&](ImplicitLocOpBuilder &tb) {
    Value total = exclusiveScan(tb, counts, starts, cst(tb, 0), n, i64(tb, 0));
    storeElement(tb, total, totals, ValueRange{at});
  });
}

//===----------------------------------------------------------------------===//
// The sort by row
//===----------------------------------------------------------------------===//

/// Whether the reduction scales each bag (mean, sqrtn).
static bool isScaled(const BagKernel &k) {
  return k.reduction == Reduction::mean || k.reduction == Reduction::sqrtn;
}

/// The digit of `row`, a taken row of the table, in this pass: its
/// log2(numOwners) bits from bit digitShift (the digits are a power of
/// two).
static Value digitOf(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                     Value row) {
  return arith::AndIOp::create(
      b, arith::ShRUIOp::create(b, row, k.digitShift),
      arith::SubIOp::create(b, k.numOwners, cst(b, 1)));
}

/// Runs `body` on chunk `chunk` of bags (the thread's global id), if there
/// is one.
static void forThreadBagChunk(
    ImplicitLocOpBuilder &b, const TrainingKernel &k, Value block, Value thread,
    function_ref<void(ImplicitLocOpBuilder &, Value chunk)> body) {
  forThreadSpan(b, block, thread, k.numBagChunks, 1,
                [&](ImplicitLocOpBuilder &tb, Value chunk, Value, Value) {
                  body(tb, chunk);
                });
}

/// Runs `body` for each bag of chunk `chunk`, with its checked range: the
/// counting and the filling kernels see the same positions.
static void forEachBagOf(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                         Value chunk,
                         function_ref<void(ImplicitLocOpBuilder &, Value bag,
                                           Value start, Value end)>
                             body) {
  Value first = arith::MulIOp::create(b, chunk, k.bagsPerChunk);
  Value last =
      arith::MinUIOp::create(b, arith::AddIOp::create(b, first, k.bagsPerChunk),
                             k.bags.bounds.numBags);
  buildLoop(b, first, last, cst(b, 1), ValueRange{},
            [&](ImplicitLocOpBuilder &lb, Value bag, ValueRange) {
              auto [start, end] = getCheckedRange(lb, k.bags, bag);
              body(lb, bag, start, end);
              return SmallVector<Value>{};
            });
}

/// Positions a thread of the sort takes at a time: their rows and counts
/// are independent loads, in flight together, where one position at a time
/// would wait for each.
constexpr int64_t kSortLoads = 4;

/// Adds their digits to chunk `chunk`'s counts for a group of positions in
/// order, but those not `taken` (i1 each; all when empty), with every
/// count loaded before any is stored; returns each position's count
/// before it, its place among the chunk's positions of its digit. A digit
/// that comes back in the group takes the places after its earlier ones.
static SmallVector<Value> bumpCounts(ImplicitLocOpBuilder &b,
                                     const TrainingKernel &k, Value chunk,
                                     ArrayRef<Value> digits,
                                     ArrayRef<Value> taken = {}) {
  auto adds = [&](size_t j, Value also) -> Value { // 1 or 0, as an i64
    Value one = taken.empty() ? also : arith::AndIOp::create(b, also, taken[j]);
    return arith::ExtUIOp::create(b, b.getI64Type(), one);
  };
  Value yes = arith::ConstantOp::create(b, b.getBoolAttr(true));
  SmallVector<Value> places;
  for (Value digit : digits)
    places.push_back(loadElement(b, k.bucketCounts, ValueRange{chunk, digit}));
  for (size_t j = 0; j < digits.size(); ++j)
    for (size_t e = 0; e < j; ++e)
      places[j] = arith::AddIOp::create(
          b, places[j],
          adds(e, cmp(b, arith::CmpIPredicate::eq, digits[e], digits[j])));
  for (size_t j = 0; j < digits.size(); ++j)
    storeElement(b, arith::AddIOp::create(b, places[j], adds(j, yes)),
                 k.bucketCounts, ValueRange{chunk, digits[j]});
  return places;
}

namespace {

/// A position of the first pass: its row (index), whether it is taken
/// (i1), and the row's digit (meaningless when not taken).
struct SortPosition {
  Value pos, row, taken, digit;
};

} // namespace

/// The positions `positions`, their rows loaded together; with `flag`, the
/// indices outside the table are flagged.
static SmallVector<SortPosition> loadPositions(ImplicitLocOpBuilder &b,
                                               const TrainingKernel &k,
                                               ArrayRef<Value> positions,
                                               bool flag) {
  const BagKernel &bags = k.bags;
  SmallVector<SortPosition> result;
  for (Value pos : positions)
    result.push_back({pos, loadRow(b, bags, pos), Value(), Value()});
  for (SortPosition &p : result) {
    Value inTable = isInTable(b, bags, p.row);
    if (flag && bags.indicesBit)
      flagUnless(b, bags.flag, inTable, bags.indicesBit);
    p.taken = isTaken(b, bags, p.row, inTable);
    p.digit = digitOf(b, k, p.row);
  }
  return result;
}

/// The digits and the taken flags of `positions`.
static std::pair<SmallVector<Value>, SmallVector<Value>>
digitsAndTaken(ArrayRef<SortPosition> positions) {
  SmallVector<Value> digits, taken;
  for (const SortPosition &p : positions) {
    digits.push_back(p.digit);
    taken.push_back(p.taken);
  }
  return {digits, taken};
}

/// Counts the taken positions of [start, end) by digit into chunk `chunk`'s
/// counts, and flags the indices outside the table. For mean and sqrtn it
/// returns the bag's norm (f32: its taken positions, or the sum of their
/// squared weights for weighted sqrtn); else null.
static Value countBag(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                      Value chunk, Value start, Value end) {
  const BagKernel &bags = k.bags;
  bool squares = bags.reduction == Reduction::sqrtn && bags.weights;
  SmallVector<Value, 1> inits;
  if (isScaled(bags))
    inits.push_back(f32(b, 0.0));
  ValueRange norm = forEachGroup(
      b, start, end, kSortLoads, inits,
      [&](ImplicitLocOpBuilder &lb, ArrayRef<Value> items, ValueRange iter) {
        SmallVector<SortPosition> positions =
            loadPositions(lb, k, items, /*flag=*/true);
        auto [digits, taken] = digitsAndTaken(positions);
        bumpCounts(lb, k, chunk, digits, taken);
        if (iter.empty())
          return SmallVector<Value>{};
        Value sum = iter[0];
        for (const SortPosition &p : positions) {
          Value add = f32(lb, 1.0);
          if (squares) {
            Value w = loadWeight(lb, bags, p.pos);
            add = arith::MulFOp::create(lb, w, w);
          }
          sum = arith::AddFOp::create(
              lb, sum, arith::SelectOp::create(lb, p.taken, add, f32(lb, 0.0)));
        }
        return SmallVector<Value>{sum};
      });
  return norm.empty() ? Value() : norm[0];
}

/// Zeroes chunk `chunk`'s count of each digit.
static void zeroCounts(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                       Value chunk) {
  buildLoop(
      b, cst(b, 0), k.numOwners, cst(b, 1), ValueRange{},
      [&](ImplicitLocOpBuilder &lb, Value digit, ValueRange) {
        storeElement(lb, i64(lb, 0), k.bucketCounts, ValueRange{chunk, digit});
        return SmallVector<Value>{};
      });
}

void mlir::embbag::gpu_lowering::buildCountBucketsThread(
    ImplicitLocOpBuilder &b, const TrainingKernel &k, Value block,
    Value thread) {
  forThreadBagChunk(
      b, k, block, thread, [&](ImplicitLocOpBuilder &tb, Value chunk) {
        zeroCounts(tb, k, chunk);
        // The segment ids are checked here, once each, by one thread per bag.
        BagKernel oneLane = k.bags;
        oneLane.lanesPerBag = cst(tb, 1);
        forEachBagOf(
            tb, k, chunk,
            [&](ImplicitLocOpBuilder &ib, Value bag, Value start, Value end) {
              if (k.bags.segmentIdsBit)
                checkSegment(ib, oneLane, bag, cst(ib, 0), start, end);
              if (Value norm = countBag(ib, k, chunk, start, end))
                storeElement(ib, reciprocalScale(ib, k.bags, norm), k.bagScales,
                             ValueRange{bag});
            });
      });
}

void mlir::embbag::gpu_lowering::buildScanOwnersThread(ImplicitLocOpBuilder &b,
                                                       const TrainingKernel &k,
                                                       Value block,
                                                       Value thread) {
  Value owner = globalId(b, block, thread);
  buildIf(
      b, cmp(b, arith::CmpIPredicate::ult, owner, k.numOwners),
      [&](ImplicitLocOpBuilder &tb) {
        Value total = exclusiveScan(
            tb, cst(tb, 0), k.numBagChunks, i64(tb, 0),
            [&](ImplicitLocOpBuilder &lb, Value chunk) {
              return loadElement(lb, k.bucketCounts, ValueRange{chunk, owner});
            },
            [&](ImplicitLocOpBuilder &lb, Value chunk, Value sum) {
              storeElement(lb, sum, k.bucketCounts, ValueRange{chunk, owner});
            });
        storeElement(tb, total, k.ownerTotals, ValueRange{owner});
      });
}

void mlir::embbag::gpu_lowering::buildPlaceOwnersThread(ImplicitLocOpBuilder &b,
                                                        const TrainingKernel &k,
                                                        Value block,
                                                        Value thread) {
  // The total goes after the bases: owner g's slots end at base g + 1.
  scanInFirstThread(b, block, thread, k.ownerTotals, k.ownerBases, k.numOwners,
                    k.ownerBases, k.numOwners);
}

/// The number of slots (num_indices), as an i64.
static Value numSlots(ImplicitLocOpBuilder &b, const TrainingKernel &k) {
  return arith::IndexCastOp::create(
      b, b.getI64Type(), memref::DimOp::create(b, k.slotPositions, 0));
}

/// Writes position `pos` of bag `bag`, which reads `row` (index), into
/// the slot of its digit `digit` given by its place (i64) among the
/// digit's positions.
static void writeSlot(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                      Value digit, Value place, Value pos, Value bag,
                      Value row) {
  Value slot = arith::AddIOp::create(
      b, loadElement(b, k.ownerBases, ValueRange{digit}), place);
  // Only bags that overlap, which the offsets' rule forbids, have more
  // positions than the slots.
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, slot, numSlots(b, k)),
          [&](ImplicitLocOpBuilder &sb) {
            Value at = arith::IndexCastOp::create(sb, sb.getIndexType(), slot);
            auto toI64 = [&](Value v) {
              return arith::IndexCastOp::create(sb, sb.getI64Type(), v);
            };
            storeElement(sb, toI64(pos), k.slotPositions, ValueRange{at});
            storeElement(sb, toI64(bag), k.slotBags, ValueRange{at});
            storeElement(sb, toI64(row), k.slotRows, ValueRange{at});
          });
}

void mlir::embbag::gpu_lowering::buildFillBucketsThread(ImplicitLocOpBuilder &b,
                                                        const TrainingKernel &k,
                                                        Value block,
                                                        Value thread) {
  forThreadBagChunk(
      b, k, block, thread, [&](ImplicitLocOpBuilder &tb, Value chunk) {
        forEachBagOf(
            tb, k, chunk,
            [&](ImplicitLocOpBuilder &ib, Value bag, Value start, Value end) {
              forEachGroup(
                  ib, start, end, kSortLoads, ValueRange{},
                  [&](ImplicitLocOpBuilder &lb, ArrayRef<Value> items,
                      ValueRange) {
                    SmallVector<SortPosition> positions =
                        loadPositions(lb, k, items, /*flag=*/false);
                    auto [digits, taken] = digitsAndTaken(positions);
                    SmallVector<Value> places =
                        bumpCounts(lb, k, chunk, digits, taken);
                    // The row is loaded again (from the cache): kept
                    // across the counts, the 4 rows and digits made the
                    // kernel spill.
                    for (auto [p, place] : llvm::zip(positions, places))
                      buildIf(lb, p.taken, [&](ImplicitLocOpBuilder &tb) {
                        Value row = loadRow(tb, k.bags, p.pos);
                        writeSlot(tb, k, digitOf(tb, k, row), place, p.pos,
                                  bag, row);
                      });
                    return SmallVector<Value>{};
                  });
            });
      });
}

/// The number of sorted slots (index): the positions whose rows are taken,
/// at most num_indices (bags that overlap, which the offsets' rule
/// forbids, count more positions than there are slots).
static Value numTaken(ImplicitLocOpBuilder &b, const TrainingKernel &k) {
  Value total = loadElement(b, k.ownerBases, ValueRange{k.numOwners});
  return arith::IndexCastOp::create(
      b, b.getIndexType(), arith::MinUIOp::create(b, total, numSlots(b, k)));
}

/// Element `slot` of the i64 slot buffer `buffer`, as an index.
static Value loadSlotWord(ImplicitLocOpBuilder &b, Value buffer, Value slot) {
  return arith::IndexCastOp::create(b, b.getIndexType(),
                                    loadElement(b, buffer, ValueRange{slot}));
}

/// Runs `body` on the slots of the previous pass in chunk `chunk` (the
/// thread's global id), if there is one, in order, kSortLoads at a time
/// (then one at a time), with the chunk and the group's slots.
static void forEachSourceGroup(
    ImplicitLocOpBuilder &b, const TrainingKernel &k, Value block, Value thread,
    bool zero,
    function_ref<void(ImplicitLocOpBuilder &, Value chunk, ArrayRef<Value>)>
        body) {
  forThreadBagChunk(
      b, k, block, thread, [&](ImplicitLocOpBuilder &tb, Value chunk) {
        if (zero)
          zeroCounts(tb, k, chunk);
        Value taken = numTaken(tb, k);
        Value first = arith::MinUIOp::create(
            tb, arith::MulIOp::create(tb, chunk, k.slotsPerChunk), taken);
        Value end = arith::MinUIOp::create(
            tb, arith::AddIOp::create(tb, first, k.slotsPerChunk), taken);
        forEachGroup(
            tb, first, end, kSortLoads, ValueRange{},
            [&](ImplicitLocOpBuilder &lb, ArrayRef<Value> slots, ValueRange) {
              body(lb, chunk, slots);
              return SmallVector<Value>{};
            });
      });
}

/// The digits of the rows of the previous pass's `slots`, and their rows.
static std::pair<SmallVector<Value>, SmallVector<Value>>
loadSourceDigits(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                 ArrayRef<Value> slots) {
  SmallVector<Value> rows, digits;
  for (Value slot : slots)
    rows.push_back(loadSlotWord(b, k.sourceRows, slot));
  for (Value row : rows)
    digits.push_back(digitOf(b, k, row));
  return {digits, rows};
}

void mlir::embbag::gpu_lowering::buildCountSlotsThread(ImplicitLocOpBuilder &b,
                                                       const TrainingKernel &k,
                                                       Value block,
                                                       Value thread) {
  forEachSourceGroup(
      b, k, block, thread, /*zero=*/true,
      [&](ImplicitLocOpBuilder &lb, Value chunk, ArrayRef<Value> slots) {
        bumpCounts(lb, k, chunk, loadSourceDigits(lb, k, slots).first);
      });
}

void mlir::embbag::gpu_lowering::buildFillSlotsThread(ImplicitLocOpBuilder &b,
                                                      const TrainingKernel &k,
                                                      Value block,
                                                      Value thread) {
  forEachSourceGroup(
      b, k, block, thread, /*zero=*/false,
      [&](ImplicitLocOpBuilder &lb, Value chunk, ArrayRef<Value> slots) {
        auto [digits, rows] = loadSourceDigits(lb, k, slots);
        SmallVector<Value> places = bumpCounts(lb, k, chunk, digits);
        // The positions and bags are loaded late: loaded with the rows,
        // they are live across the counts, and the kernel spills.
        for (size_t i = 0; i < slots.size(); ++i)
          writeSlot(lb, k, digits[i], places[i],
                    loadSlotWord(lb, k.sourcePositions, slots[i]),
                    loadSlotWord(lb, k.sourceBags, slots[i]), rows[i]);
      });
}

//===----------------------------------------------------------------------===//
// The rows, the pieces and the runs
//===----------------------------------------------------------------------===//

namespace {

/// A group of lanes of the row, piece or run kernels: `group` is a row
/// owner, or a piece.
struct Owner {
  const TrainingKernel &k;
  Value group, lane;
  const BagKernel &bags() const { return k.bags; }
  bool scaled() const { return isScaled(bags()); }
  /// Where the group sums its rows' gradients.
  Value accumulator() const { return k.rowGrads ? k.rowGrads : k.tableGrad; }
  Type accumulatorType() const {
    return cast<MemRefType>(accumulator().getType()).getElementType();
  }
};

} // namespace

/// Runs `body` for the lane's columns of a row: lane, lane + lanes, ...
static void
forEachColumn(ImplicitLocOpBuilder &b, const Owner &o,
              function_ref<void(ImplicitLocOpBuilder &, Value)> body) {
  buildLoop(b, o.lane, o.bags().rowLength, o.bags().lanesPerBag, ValueRange{},
            [&](ImplicitLocOpBuilder &lb, Value col, ValueRange) {
              body(lb, col);
              return SmallVector<Value>{};
            });
}

/// Runs `body` for each row the group owns.
static void
forEachOwnedRow(ImplicitLocOpBuilder &b, const Owner &o,
                function_ref<void(ImplicitLocOpBuilder &, Value)> body) {
  buildLoop(b, o.group, o.bags().numEmb, o.k.numRowWalkers, ValueRange{},
            [&](ImplicitLocOpBuilder &lb, Value row, ValueRange) {
              body(lb, row);
              return SmallVector<Value>{};
            });
}

/// The lane's bit of `touched` (i32).
static Value laneBit(ImplicitLocOpBuilder &b, const Owner &o) {
  Value lane = arith::IndexCastOp::create(b, b.getI32Type(), o.lane);
  return arith::ShLIOp::create(
      b, arith::ConstantOp::create(b, b.getI32IntegerAttr(1)), lane);
}

/// Sets the lane's bit of `touched` for `row`.
static void markTouched(ImplicitLocOpBuilder &b, const Owner &o, Value row) {
  memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::ori, laneBit(b, o),
                              o.k.touched, ValueRange{row});
}

/// The group's rows' accumulators zeroed, and for an update the lane's
/// touched bits cleared.
static void zeroOwnedRows(ImplicitLocOpBuilder &b, const Owner &o) {
  Value zero = convert(b, f32(b, 0.0), o.accumulatorType());
  forEachOwnedRow(b, o, [&](ImplicitLocOpBuilder &rb, Value row) {
    forEachColumn(rb, o, [&](ImplicitLocOpBuilder &cb, Value col) {
      storeElement(cb, zero, o.accumulator(), ValueRange{row, col});
    });
    if (o.k.touched)
      memref::AtomicRMWOp::create(
          rb, arith::AtomicRMWKind::andi,
          arith::XOrIOp::create(
              rb, laneBit(rb, o),
              arith::ConstantOp::create(rb, rb.getI32IntegerAttr(-1))),
          o.k.touched, ValueRange{row});
  });
}

namespace {

/// Where a share goes: row `row` of `buffer` (the accumulator, or the
/// partial rows); `touchedRow` is the table row whose touched bit it sets,
/// null for a partial row.
struct ShareTarget {
  Value buffer, row, touchedRow;
};

} // namespace

/// Adds position `pos`'s share (of bag `bag`) to `target`: dy times the
/// position's coefficient, or for max dy where the position won.
static void addShare(ImplicitLocOpBuilder &b, const Owner &o, Value bag,
                     Value pos, Value scale, const ShareTarget &target) {
  const BagKernel &k = o.bags();
  bool isMax = k.reduction == Reduction::max;
  Value coefficient = scale;
  if (k.weights && !isMax) {
    Value w = loadWeight(b, k, pos);
    coefficient = scale ? arith::MulFOp::create(b, w, scale).getResult() : w;
  }
  Value position = arith::IndexCastOp::create(b, b.getI64Type(), pos);
  forEachColumn(b, o, [&](ImplicitLocOpBuilder &cb, Value col) {
    auto add = [&](ImplicitLocOpBuilder &ab) {
      Value dy = convert(ab, loadElement(ab, o.k.dy, ValueRange{bag, col}),
                         ab.getF32Type());
      Value share =
          coefficient ? arith::MulFOp::create(ab, dy, coefficient) : dy;
      Value old = loadElement(ab, target.buffer, ValueRange{target.row, col});
      storeElement(ab, arith::AddFOp::create(ab, old, share), target.buffer,
                   ValueRange{target.row, col});
    };
    if (!isMax)
      return add(cb);
    Value won =
        cmp(cb, arith::CmpIPredicate::eq,
            loadElement(cb, o.k.winners, ValueRange{bag, col}), position);
    buildIf(cb, won, add);
  });
  if (o.k.touched && target.touchedRow)
    markTouched(b, o, target.touchedRow);
}

namespace {

/// A slot's position, its bag and its row (index).
struct Slot {
  Value pos, bag, row;
};

/// A piece of sorted slots, [first, end), and whether the row of its first
/// slot goes on in the piece before (head) and that of its last in the
/// piece after (tail): their shares go into the piece's partial rows.
struct Piece {
  Value index, first, end, firstRow, lastRow, headGoesOn, tailGoesOn;
};

} // namespace

static Slot loadSlot(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                     Value slot) {
  return {loadSlotWord(b, k.slotPositions, slot),
          loadSlotWord(b, k.slotBags, slot), loadSlotWord(b, k.slotRows, slot)};
}

/// Piece `index`, whose first slot `first` is below `taken`, the number of
/// sorted slots.
static Piece describePiece(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                           Value index, Value first, Value taken) {
  Value one = cst(b, 1);
  Value end = arith::MinUIOp::create(
      b, arith::AddIOp::create(b, first, k.positionsPerPiece), taken);
  Value last = arith::SubIOp::create(b, end, one);
  auto rowAt = [&](Value slot) { return loadSlotWord(b, k.slotRows, slot); };
  auto eq = [&](Value x, Value y) {
    return cmp(b, arith::CmpIPredicate::eq, x, y);
  };
  Value firstRow = rowAt(first), lastRow = rowAt(last);
  // The slots just before and after the piece, where there are some (else
  // the piece's own, which the conditions then ignore).
  Value hasBefore = cmp(b, arith::CmpIPredicate::ugt, first, cst(b, 0));
  Value hasAfter = cmp(b, arith::CmpIPredicate::ult, end, taken);
  Value before = arith::SelectOp::create(
      b, hasBefore, arith::SubIOp::create(b, first, one), first);
  Value after = arith::SelectOp::create(b, hasAfter, end, last);
  Value headGoesOn =
      arith::AndIOp::create(b, hasBefore, eq(rowAt(before), firstRow));
  Value tailGoesOn =
      arith::AndIOp::create(b, hasAfter, eq(rowAt(after), lastRow));
  return {index, first, end, firstRow, lastRow, headGoesOn, tailGoesOn};
}

/// Partial row `2 piece + which` (index): the piece's head (0) or tail (1).
static Value partialRow(ImplicitLocOpBuilder &b, Value piece, Value which) {
  return arith::AddIOp::create(b, arith::MulIOp::create(b, piece, cst(b, 2)),
                               which);
}

/// Adds the share of slot `s` of piece `p`: to the piece's head or tail
/// partial row when its row goes on beyond the piece, else to its row.
static void addPieceSlot(ImplicitLocOpBuilder &b, const Owner &o,
                         const Piece &p, const Slot &s) {
  Value scale;
  if (o.scaled())
    scale = loadElement(b, o.k.bagScales, ValueRange{s.bag});
  auto eq = [&](Value x, Value y) {
    return cmp(b, arith::CmpIPredicate::eq, x, y);
  };
  Value isHead = arith::AndIOp::create(b, eq(s.row, p.firstRow), p.headGoesOn);
  Value isTail = arith::AndIOp::create(b, eq(s.row, p.lastRow), p.tailGoesOn);
  auto ifOp = scf::IfOp::create(b, arith::OrIOp::create(b, isHead, isTail),
                                /*withElseRegion=*/true);
  {
    ImplicitLocOpBuilder tb(b.getLoc(), ifOp.getThenBodyBuilder());
    Value which = arith::SelectOp::create(tb, isHead, cst(tb, 0), cst(tb, 1));
    addShare(tb, o, s.bag, s.pos, scale,
             {o.k.partials, partialRow(tb, p.index, which), Value()});
  }
  ImplicitLocOpBuilder eb(b.getLoc(), ifOp.getElseBodyBuilder());
  addShare(eb, o, s.bag, s.pos, scale, {o.accumulator(), s.row, s.row});
}

/// Slots a group loads at once in its walk: independent loads, in flight
/// together, where one at a time would wait for each (a share stores, so
/// a later slot is not loaded before it).
constexpr int64_t kSlotsInFlight = 4;

/// Adds the shares of piece `p`'s slots, in order.
static void addPieceSlots(ImplicitLocOpBuilder &b, const Owner &o,
                          const Piece &p) {
  forEachGroup(
      b, p.first, p.end, kSlotsInFlight, ValueRange{},
      [&](ImplicitLocOpBuilder &lb, ArrayRef<Value> items, ValueRange) {
        SmallVector<Slot, kSlotsInFlight> slots;
        for (Value slot : items)
          slots.push_back(loadSlot(lb, o.k, slot));
        for (const Slot &s : slots)
          addPieceSlot(lb, o, p, s);
        return SmallVector<Value>{};
      });
}

/// Runs `body` with piece `o.group` when it has sorted slots.
static void
forGroupPiece(ImplicitLocOpBuilder &b, const Owner &o,
              function_ref<void(ImplicitLocOpBuilder &, const Piece &)> body) {
  Value taken = numTaken(b, o.k);
  Value first = arith::MulIOp::create(b, o.group, o.k.positionsPerPiece);
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, first, taken),
          [&](ImplicitLocOpBuilder &tb) {
            body(tb, describePiece(tb, o.k, o.group, first, taken));
          });
}

/// The piece's head and tail partial rows zeroed (the lane's columns).
static void zeroPartials(ImplicitLocOpBuilder &b, const Owner &o,
                         const Piece &p) {
  Value zero = f32(b, 0.0);
  for (int64_t which = 0; which < 2; ++which) {
    Value row = partialRow(b, p.index, cst(b, which));
    forEachColumn(b, o, [&](ImplicitLocOpBuilder &cb, Value col) {
      storeElement(cb, zero, o.k.partials, ValueRange{row, col});
    });
  }
}

/// The row of the tail of piece `p`, whose positions go on in the pieces
/// after it: its sum is the tail partial row, then the head partial rows
/// of those pieces, in order, stored into the row.
static void sumRun(ImplicitLocOpBuilder &b, const Owner &o, const Piece &p) {
  const TrainingKernel &k = o.k;
  Value row = p.lastRow;
  // The run ends at the first slot after it whose row is greater (the
  // slots are sorted by row).
  Value taken = numTaken(b, k);
  Value after =
      lowerBound(b, arith::SubIOp::create(b, taken, p.end),
                 arith::AddIOp::create(b, row, cst(b, 1)),
                 [&](ImplicitLocOpBuilder &wb, Value i) {
                   return loadSlotWord(wb, k.slotRows,
                                       arith::AddIOp::create(wb, p.end, i));
                 });
  Value runEnd = arith::AddIOp::create(b, p.end, after);
  Value lastPiece = arith::DivUIOp::create(
      b, arith::SubIOp::create(b, runEnd, cst(b, 1)), k.positionsPerPiece);
  Value next = arith::AddIOp::create(b, p.index, cst(b, 1));
  Value endPiece = arith::AddIOp::create(b, lastPiece, cst(b, 1));
  forEachColumn(b, o, [&](ImplicitLocOpBuilder &cb, Value col) {
    Value tail = loadElement(
        cb, k.partials, ValueRange{partialRow(cb, p.index, cst(cb, 1)), col});
    Value sum =
        exclusiveScan(cb, next, endPiece, tail,
                      [&](ImplicitLocOpBuilder &lb, Value piece) {
                        return loadElement(
                            lb, k.partials,
                            ValueRange{partialRow(lb, piece, cst(lb, 0)), col});
                      },
                      {});
    storeElement(cb, sum, o.accumulator(), ValueRange{row, col});
  });
  if (k.touched)
    markTouched(b, o, row);
}

/// Whether the lane added to `row` (i1).
static Value isTouched(ImplicitLocOpBuilder &b, const Owner &o, Value row) {
  Value bit = laneBit(b, o);
  Value word = loadElement(b, o.k.touched, ValueRange{row});
  return cmp(b, arith::CmpIPredicate::ne, arith::AndIOp::create(b, word, bit),
             arith::ConstantOp::create(b, b.getI32IntegerAttr(0)));
}

/// Copies element `indices` of `from` into `to` unless `inPlace` (i1).
static void copyUnlessInPlace(ImplicitLocOpBuilder &b, Value inPlace,
                              Value from, Value to, ValueRange indices) {
  Value copy = arith::XOrIOp::create(
      b, inPlace, arith::ConstantOp::create(b, b.getBoolAttr(true)));
  buildIf(b, copy, [&](ImplicitLocOpBuilder &tb) {
    storeElement(tb, loadElement(tb, from, indices), to, indices);
  });
}

/// w -= step * g on the lane's columns of `row`.
static void applyStep(ImplicitLocOpBuilder &b, const Owner &o, Value row,
                      Value step) {
  const TrainingKernel &k = o.k;
  Type type = cast<MemRefType>(k.updatedTable.getType()).getElementType();
  Value minusStep = arith::NegFOp::create(b, step);
  forEachColumn(b, o, [&](ImplicitLocOpBuilder &cb, Value col) {
    Value g = loadElement(cb, k.rowGrads, ValueRange{row, col});
    Value w = convert(cb, loadElement(cb, k.bags.table, ValueRange{row, col}),
                      cb.getF32Type());
    Value next = fma(cb, k.bags, minusStep, g, w);
    storeElement(cb, convert(cb, next, type), k.updatedTable,
                 ValueRange{row, col});
  });
}

/// Row-wise Adagrad on `row` (one lane per row: oneLaneStepper in
/// TrainingLowering.cpp): state += mean(g^2), then
/// w -= lr / (sqrt(state) + eps) * g.
static void adagradStep(ImplicitLocOpBuilder &b, const Owner &o, Value row) {
  const TrainingKernel &k = o.k;
  Value sumSquares = buildLoop(
      b, cst(b, 0), k.bags.rowLength, cst(b, 1), ValueRange{f32(b, 0.0)},
      [&](ImplicitLocOpBuilder &lb, Value col, ValueRange iter) {
        Value g = loadElement(lb, k.rowGrads, ValueRange{row, col});
        return SmallVector<Value>{arith::AddFOp::create(
            lb, iter[0], arith::MulFOp::create(lb, g, g))};
      })[0];
  Value rowLength = arith::UIToFPOp::create(
      b, b.getF32Type(),
      arith::IndexCastUIOp::create(b, b.getI64Type(), k.bags.rowLength));
  Type stateType = cast<MemRefType>(k.updatedState.getType()).getElementType();
  Value state = arith::AddFOp::create(
      b, convert(b, loadElement(b, k.state, ValueRange{row}), b.getF32Type()),
      arith::DivFOp::create(b, sumSquares, rowLength));
  storeElement(b, convert(b, state, stateType), k.updatedState,
               ValueRange{row});
  Value step = arith::DivFOp::create(
      b, k.learningRate,
      arith::AddFOp::create(b, sqrtF32(b, k.bags, state), k.epsilon));
  applyStep(b, o, row, step);
}

/// The optimizer's step on each row the group touched; with results in
/// other memory than their operands, the other rows copied.
static void stepOwnedRows(ImplicitLocOpBuilder &b, const Owner &o) {
  const TrainingKernel &k = o.k;
  forEachOwnedRow(b, o, [&](ImplicitLocOpBuilder &rb, Value row) {
    auto ifOp = scf::IfOp::create(rb, isTouched(rb, o, row),
                                  /*withElseRegion=*/true);
    {
      ImplicitLocOpBuilder tb(rb.getLoc(), ifOp.getThenBodyBuilder());
      if (k.state)
        adagradStep(tb, o, row);
      else
        applyStep(tb, o, row, k.learningRate);
    }
    ImplicitLocOpBuilder eb(rb.getLoc(), ifOp.getElseBodyBuilder());
    forEachColumn(eb, o, [&](ImplicitLocOpBuilder &cb, Value col) {
      copyUnlessInPlace(cb, k.tableInPlace, k.bags.table, k.updatedTable,
                        ValueRange{row, col});
    });
    if (k.state)
      copyUnlessInPlace(eb, k.stateInPlace, k.state, k.updatedState,
                        ValueRange{row});
  });
}

/// An f16 or bf16 gradient: the group's f32 rows rounded into the result.
static void roundOwnedRows(ImplicitLocOpBuilder &b, const Owner &o) {
  const TrainingKernel &k = o.k;
  Type type = cast<MemRefType>(k.tableGrad.getType()).getElementType();
  forEachOwnedRow(b, o, [&](ImplicitLocOpBuilder &rb, Value row) {
    forEachColumn(rb, o, [&](ImplicitLocOpBuilder &cb, Value col) {
      Value g = loadElement(cb, k.rowGrads, ValueRange{row, col});
      storeElement(cb, convert(cb, g, type), k.tableGrad, ValueRange{row, col});
    });
  });
}

/// The group of lanes (lanesPerBag of them, bagsPerBlock groups a block)
/// of thread `thread` of block `block`, and its lane in the group.
static std::pair<Value, Value> groupAndLane(ImplicitLocOpBuilder &b,
                                            const BagKernel &bags, Value block,
                                            Value thread) {
  Value group = arith::AddIOp::create(
      b, arith::MulIOp::create(b, block, bags.bagsPerBlock),
      arith::DivUIOp::create(b, thread, bags.lanesPerBag));
  return {group, arith::RemUIOp::create(b, thread, bags.lanesPerBag)};
}

/// Max's winners.
void mlir::embbag::gpu_lowering::buildWinnersThread(ImplicitLocOpBuilder &b,
                                                    const TrainingKernel &k,
                                                    Value block, Value thread) {
  const BagKernel &bags = k.bags;
  // A group of lanes per bag, a lane per column: one thread walking every
  // column's positions made this kernel most of a max gradient's time.
  auto [bag, lane] = groupAndLane(b, bags, block, thread);
  Owner o{k, bag, lane};
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, bag, bags.bounds.numBags),
          [&](ImplicitLocOpBuilder &tb) {
            auto [start, end] = getCheckedRange(tb, bags, bag);
            Value none =
                arith::ConstantOp::create(tb, tb.getI64IntegerAttr(-1));
            Value lowest = f32(tb, -std::numeric_limits<float>::infinity());
            forEachColumn(tb, o, [&](ImplicitLocOpBuilder &cb, Value col) {
              // The CPU's rule: a position wins when it is the first taken one,
              // or greater than the maximum so far (ordered).
              ValueRange best = forEachTaken(
                  cb, bags, start, end, ValueRange{lowest, none},
                  [&](ImplicitLocOpBuilder &ib, Value pos, Value row,
                      ValueRange iter) {
                    Value v = convert(
                        ib, loadElement(ib, bags.table, ValueRange{row, col}),
                        ib.getF32Type());
                    Value wins = arith::OrIOp::create(
                        ib,
                        arith::CmpFOp::create(ib, arith::CmpFPredicate::OGT, v,
                                              iter[0]),
                        cmp(ib, arith::CmpIPredicate::eq, iter[1], none));
                    Value p =
                        arith::IndexCastOp::create(ib, ib.getI64Type(), pos);
                    return SmallVector<Value>{
                        arith::SelectOp::create(ib, wins, v, iter[0]),
                        arith::SelectOp::create(ib, wins, p, iter[1])};
                  });
              storeElement(cb, best[1], k.winners, ValueRange{bag, col});
            });
          });
}

void mlir::embbag::gpu_lowering::buildZeroRowsThread(ImplicitLocOpBuilder &b,
                                                     const TrainingKernel &k,
                                                     Value block,
                                                     Value thread) {
  auto [group, lane] = groupAndLane(b, k.bags, block, thread);
  zeroOwnedRows(b, Owner{k, group, lane});
}

void mlir::embbag::gpu_lowering::buildPiecesThread(ImplicitLocOpBuilder &b,
                                                   const TrainingKernel &k,
                                                   Value block, Value thread) {
  auto [group, lane] = groupAndLane(b, k.bags, block, thread);
  Owner o{k, group, lane};
  forGroupPiece(b, o, [&](ImplicitLocOpBuilder &tb, const Piece &p) {
    zeroPartials(tb, o, p);
    addPieceSlots(tb, o, p);
  });
}

void mlir::embbag::gpu_lowering::buildRunsThread(ImplicitLocOpBuilder &b,
                                                 const TrainingKernel &k,
                                                 Value block, Value thread) {
  auto [group, lane] = groupAndLane(b, k.bags, block, thread);
  Owner o{k, group, lane};
  forGroupPiece(b, o, [&](ImplicitLocOpBuilder &tb, const Piece &p) {
    // The piece whose tail row starts in it sums that row; a piece that is
    // all one row going on from the piece before adds to another's run.
    Value inside = arith::AndIOp::create(
        tb, p.headGoesOn,
        cmp(tb, arith::CmpIPredicate::eq, p.firstRow, p.lastRow));
    Value starts = arith::AndIOp::create(
        tb, p.tailGoesOn,
        arith::XOrIOp::create(
            tb, inside, arith::ConstantOp::create(tb, tb.getBoolAttr(true))));
    buildIf(tb, starts, [&](ImplicitLocOpBuilder &sb) { sumRun(sb, o, p); });
  });
}

void mlir::embbag::gpu_lowering::buildFinishRowsThread(ImplicitLocOpBuilder &b,
                                                       const TrainingKernel &k,
                                                       Value block,
                                                       Value thread) {
  auto [group, lane] = groupAndLane(b, k.bags, block, thread);
  Owner o{k, group, lane};
  if (k.isUpdate())
    stepOwnedRows(b, o);
  else
    roundOwnedRows(b, o);
}

//===----------------------------------------------------------------------===//
// The sparse gradient's rows
//===----------------------------------------------------------------------===//

Value mlir::embbag::gpu_lowering::numRowChunks(ImplicitLocOpBuilder &b,
                                               Value numEmb) {
  return arith::CeilDivUIOp::create(b, numEmb, cst(b, kRowsPerChunk));
}

/// forThreadSpan over the table's chunks of kRowsPerChunk rows.
static void
forThreadChunk(ImplicitLocOpBuilder &b, const TrainingKernel &k, Value block,
               Value thread,
               function_ref<void(ImplicitLocOpBuilder &, Value chunk,
                                 Value first, Value end)>
                   body) {
  forThreadSpan(b, block, thread, k.bags.numEmb, kRowsPerChunk, body);
}

/// Whether its owner added to `row` (i1): lane 0's bit, since every lane
/// of a group adds to the same rows (the bits of lanes a group does not
/// have are never cleared).
static Value isRowTouched(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                          Value row) {
  Value one = arith::ConstantOp::create(b, b.getI32IntegerAttr(1));
  Value word = loadElement(b, k.touched, ValueRange{row});
  return cmp(b, arith::CmpIPredicate::ne, arith::AndIOp::create(b, word, one),
             arith::ConstantOp::create(b, b.getI32IntegerAttr(0)));
}

void mlir::embbag::gpu_lowering::buildCountTouchedThread(
    ImplicitLocOpBuilder &b, const TrainingKernel &k, Value block,
    Value thread) {
  forThreadChunk(
      b, k, block, thread,
      [&](ImplicitLocOpBuilder &tb, Value chunk, Value first, Value end) {
        Value count = buildLoop(
            tb, first, end, cst(tb, 1), ValueRange{i64(tb, 0)},
            [&](ImplicitLocOpBuilder &lb, Value row, ValueRange iter) {
              Value one = arith::ExtUIOp::create(lb, lb.getI64Type(),
                                                 isRowTouched(lb, k, row));
              return SmallVector<Value>{
                  arith::AddIOp::create(lb, iter[0], one)};
            })[0];
        storeElement(tb, count, k.chunkCounts, ValueRange{chunk});
      });
}

Value mlir::embbag::gpu_lowering::numChunkGroups(ImplicitLocOpBuilder &b,
                                                 Value numEmb) {
  return arith::CeilDivUIOp::create(b, numRowChunks(b, numEmb),
                                    cst(b, kChunksPerGroup));
}

/// forThreadSpan over the groups of kChunksPerGroup chunks.
static void
forThreadGroup(ImplicitLocOpBuilder &b, const TrainingKernel &k, Value block,
               Value thread,
               function_ref<void(ImplicitLocOpBuilder &, Value group,
                                 Value first, Value end)>
                   body) {
  forThreadSpan(b, block, thread, numRowChunks(b, k.bags.numEmb),
                kChunksPerGroup, body);
}

void mlir::embbag::gpu_lowering::buildSumGroupsThread(ImplicitLocOpBuilder &b,
                                                      const TrainingKernel &k,
                                                      Value block,
                                                      Value thread) {
  forThreadGroup(
      b, k, block, thread,
      [&](ImplicitLocOpBuilder &tb, Value group, Value first, Value end) {
        Value sum =
            exclusiveScan(tb, k.chunkCounts, Value(), first, end, i64(tb, 0));
        storeElement(tb, sum, k.groupCounts, ValueRange{group});
      });
}

void mlir::embbag::gpu_lowering::buildRankGroupsThread(ImplicitLocOpBuilder &b,
                                                       const TrainingKernel &k,
                                                       Value block,
                                                       Value thread) {
  scanInFirstThread(b, block, thread, k.groupCounts, k.groupStarts,
                    numChunkGroups(b, k.bags.numEmb), k.numUnique, cst(b, 0));
}

void mlir::embbag::gpu_lowering::buildRankChunksThread(ImplicitLocOpBuilder &b,
                                                       const TrainingKernel &k,
                                                       Value block,
                                                       Value thread) {
  forThreadGroup(
      b, k, block, thread,
      [&](ImplicitLocOpBuilder &tb, Value group, Value first, Value end) {
        Value start = loadElement(tb, k.groupStarts, ValueRange{group});
        exclusiveScan(tb, k.chunkCounts, k.chunkStarts, first, end, start);
      });
}

void mlir::embbag::gpu_lowering::buildListTouchedThread(ImplicitLocOpBuilder &b,
                                                        const TrainingKernel &k,
                                                        Value block,
                                                        Value thread) {
  Type rowType = cast<MemRefType>(k.uniqueRows.getType()).getElementType();
  forThreadChunk(
      b, k, block, thread,
      [&](ImplicitLocOpBuilder &tb, Value chunk, Value first, Value end) {
        Value start = loadElement(tb, k.chunkStarts, ValueRange{chunk});
        buildLoop(tb, first, end, cst(tb, 1), ValueRange{start},
                  [&](ImplicitLocOpBuilder &lb, Value row, ValueRange iter) {
                    auto ifOp = scf::IfOp::create(
                        lb, isRowTouched(lb, k, row),
                        [&](OpBuilder &nested, Location loc) {
                          ImplicitLocOpBuilder ib(loc, nested);
                          Value rank = arith::IndexCastOp::create(
                              ib, ib.getIndexType(), iter[0]);
                          storeElement(
                              ib, arith::IndexCastOp::create(ib, rowType, row),
                              k.uniqueRows, ValueRange{rank});
                          scf::YieldOp::create(ib,
                                               ValueRange{arith::AddIOp::create(
                                                   ib, iter[0], i64(ib, 1))});
                        },
                        [&](OpBuilder &nested, Location loc) {
                          scf::YieldOp::create(nested, loc, iter);
                        });
                    return SmallVector<Value>(ifOp.getResults());
                  });
      });
}

void mlir::embbag::gpu_lowering::buildCopyRowValuesThread(
    ImplicitLocOpBuilder &b, const TrainingKernel &k, Value block,
    Value thread) {
  // A group of lanes per listed row: the rank of its row.
  auto [rank, lane] = groupAndLane(b, k.bags, block, thread);
  Value numUnique = memref::DimOp::create(b, k.rowValues, 0);
  Type type = cast<MemRefType>(k.rowValues.getType()).getElementType();
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, rank, numUnique),
          [&](ImplicitLocOpBuilder &tb) {
            Value row = arith::IndexCastOp::create(
                tb, tb.getIndexType(),
                loadElement(tb, k.uniqueRows, ValueRange{rank}));
            Owner o{k, rank, lane};
            forEachColumn(tb, o, [&](ImplicitLocOpBuilder &cb, Value col) {
              Value g = loadElement(cb, k.rowGrads, ValueRange{row, col});
              storeElement(cb, convert(cb, g, type), k.rowValues,
                           ValueRange{rank, col});
            });
          });
}

//===----------------------------------------------------------------------===//
// The weights gradient
//===----------------------------------------------------------------------===//

void mlir::embbag::gpu_lowering::buildZeroWeightsGradThread(
    ImplicitLocOpBuilder &b, const TrainingKernel &k, Value block,
    Value thread) {
  Value pos = globalId(b, block, thread);
  Type type = cast<MemRefType>(k.weightsGrad.getType()).getElementType();
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, pos, k.bags.bounds.numIndices),
          [&](ImplicitLocOpBuilder &tb) {
            storeElement(tb, convert(tb, f32(tb, 0.0), type), k.weightsGrad,
                         ValueRange{pos});
          });
}

/// dy[bag] . table[row], in f32, column by column.
static Value dotWithDy(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                       Value bag, Value row) {
  return buildLoop(
      b, cst(b, 0), k.bags.rowLength, cst(b, 1), ValueRange{f32(b, 0.0)},
      [&](ImplicitLocOpBuilder &lb, Value col, ValueRange iter) {
        Value dy = convert(lb, loadElement(lb, k.dy, ValueRange{bag, col}),
                           lb.getF32Type());
        Value x =
            convert(lb, loadElement(lb, k.bags.table, ValueRange{row, col}),
                    lb.getF32Type());
        return SmallVector<Value>{arith::AddFOp::create(
            lb, iter[0], arith::MulFOp::create(lb, dy, x))};
      })[0];
}

void mlir::embbag::gpu_lowering::buildWeightsGradThread(ImplicitLocOpBuilder &b,
                                                        const TrainingKernel &k,
                                                        Value block,
                                                        Value thread) {
  const BagKernel &bags = k.bags;
  Value bag = globalId(b, block, thread);
  Type type = cast<MemRefType>(k.weightsGrad.getType()).getElementType();
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, bag, bags.bounds.numBags),
          [&](ImplicitLocOpBuilder &tb) {
            auto [start, end] = getCheckedRange(tb, bags, bag);
            // sqrtn: y = S / sqrt(Q), S = sum w_j x_j, Q = sum w_j^2, so with
            // s = 1 / sqrt(Q) and D = sum_j w_j (dy . x_j):
            // dL/dw_j = s (dy . x_j) - w_j D s^3 (the CPU kernel's formula).
            Value s, bigD;
            if (bags.reduction == Reduction::sqrtn) {
              ValueRange sums = forEachTaken(
                  tb, bags, start, end, ValueRange{f32(tb, 0.0), f32(tb, 0.0)},
                  [&](ImplicitLocOpBuilder &ib, Value pos, Value row,
                      ValueRange iter) {
                    Value w = loadWeight(ib, bags, pos);
                    Value d = dotWithDy(ib, k, bag, row);
                    return SmallVector<Value>{
                        arith::AddFOp::create(ib, iter[0],
                                              arith::MulFOp::create(ib, w, w)),
                        arith::AddFOp::create(ib, iter[1],
                                              arith::MulFOp::create(ib, w, d))};
                  });
              s = reciprocalScale(tb, bags, sums[0]);
              bigD = sums[1];
            }
            forEachTaken(tb, bags, start, end, ValueRange{},
                         [&](ImplicitLocOpBuilder &ib, Value pos, Value row,
                             ValueRange) {
                           Value grad = dotWithDy(ib, k, bag, row);
                           if (s) {
                             Value w = loadWeight(ib, bags, pos);
                             Value s3 = arith::MulFOp::create(
                                 ib, arith::MulFOp::create(ib, s, s), s);
                             Value minus = arith::MulFOp::create(
                                 ib, arith::MulFOp::create(ib, w, bigD), s3);
                             grad = arith::SubFOp::create(
                                 ib, arith::MulFOp::create(ib, s, grad), minus);
                           }
                           storeElement(ib, convert(ib, grad, type),
                                        k.weightsGrad, ValueRange{pos});
                           return SmallVector<Value>{};
                         });
          });
}
