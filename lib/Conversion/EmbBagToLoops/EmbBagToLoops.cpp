//===- EmbBagToLoops.cpp - Lower embbag ops to scf loops ------------------===//
//
// Every embbag op is brought to one normal form, a list of bags over a 2-D
// table [num_emb, row] and a 1-D index list, and lowered by one kernel
// builder: for each bag, for each chunk of the row, one pass over the bag's
// indices accumulating the chunk in vector iter_args, one store per chunk.
// The ops differ only in how a bag's range [start, end) of the index list is
// found, which `BagRanges` below abstracts.
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagToLoops/EmbBagToLoops.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_CONVERTEMBBAGTOLOOPS
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;

namespace {

/// The range [start, end) of bag `bag` in the index list.
using BagRanges =
    std::function<std::pair<Value, Value>(ImplicitLocOpBuilder &b, Value bag)>;

/// The normal form of a bag op.
struct BagProblem {
  Operation *op;
  Value table;        // tensor<num_emb x row x T>, T signless
  Value indices;      // tensor<num_indices x T_IND>
  Value weights;      // tensor<num_indices x T>, or null
  Value defaultIndex; // index, or null; -1 means none
  Value numBags;      // index
  BagRanges ranges;
  bool mean;
  bool isUnsigned;
};

/// Per-op vectorisation choices.
struct KernelShape {
  int64_t lanes;            // elements per vector
  int64_t maxVectors;       // accumulator vectors per pass over a bag
  int64_t prefetchDistance; // in indices; 0: no prefetch
  unsigned unroll;          // of the loop over a bag's indices
};

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

class KernelBuilder {
public:
  KernelBuilder(ImplicitLocOpBuilder &b, const BagProblem &p, KernelShape shape,
                bool parallel)
      : b(b), p(p), shape(shape), parallel(parallel) {
    auto tableType = cast<RankedTensorType>(p.table.getType());
    storageType = tableType.getElementType();
    // f16 and bf16 accumulate in f32 and round once when storing.
    // Integers compute in the signless type of their width.
    widensFloat = storageType.isF16() || storageType.isBF16();
    accType = getAccumulatorType(storageType);
    vecStorageType = VectorType::get({shape.lanes}, storageType);
    vecAccType = VectorType::get({shape.lanes}, accType);
    rowLength = tableType.getDimSize(1);
  }

  /// Returns the [num_bags, row] result tensor.
  Value build() {
    Value row = dim(b, p.table, 1);
    if (shape.prefetchDistance > 0) {
      // memref.prefetch needs a buffer. The table is only read, so one-shot
      // bufferization resolves this to the table's own buffer, cast to a
      // fully dynamic layout: any buffer the table lives in (a subview of
      // a larger one, say) casts to it, where an identity layout would
      // make bufferization copy the whole table.
      auto tableType = cast<RankedTensorType>(p.table.getType());
      auto anyLayout = StridedLayoutAttr::get(
          b.getContext(), ShapedType::kDynamic,
          SmallVector<int64_t>(tableType.getRank(), ShapedType::kDynamic));
      tableBuffer = bufferization::ToBufferOp::create(
          b, MemRefType::get(tableType.getShape(), storageType, anyLayout),
          p.table, /*read_only=*/true);
      lastPosition = arith::SubIOp::create(b, dim(b, p.indices, 0), cst(b, 1));
      lastColumn = arith::SubIOp::create(b, row, cst(b, 1));
    }
    // A row of whole cache lines is prefetched one line at a time, plus its
    // last element in case it does not start on a line. When the table's
    // rows all start on lines (a line-aligned table, as allocators give
    // large buffers), that extra prefetch is a wasted load-port uop per
    // index (3% on rows of 64 floats): the pass over a bag then runs a
    // loop without it, picked by a branch per bag.
    if (tableBuffer && !ShapedType::isDynamic(rowLength) &&
        (rowLength * storageType.getIntOrFloatBitWidth()) %
                (kCacheLineBytes * 8) ==
            0)
      rowsOnLines = rowsStartOnLines();
    Value init = tensor::EmptyOp::create(
        b, getAsOpFoldResult(ValueRange{p.numBags, row}), storageType);
    if (parallel)
      return buildParallelBags(init, row);
    auto bagLoop = scf::ForOp::create(
        b, cst(b, 0), p.numBags, cst(b, 1), ValueRange{init},
        [&](OpBuilder &nested, Location loc, Value bag, ValueRange iterArgs) {
          ImplicitLocOpBuilder ib(loc, nested);
          scf::YieldOp::create(ib, buildBag(ib, bag, iterArgs[0], row, bag));
        });
    return bagLoop.getResult(0);
  }

private:
  /// Whether every row of the table buffer starts on a cache line: the
  /// first element on one, a row stride of whole lines, unit column stride.
  Value rowsStartOnLines() {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, tableBuffer);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, tableBuffer);
    Value elementBytes = cst(b, storageType.getIntOrFloatBitWidth() / 8);
    Value lineBytes = cst(b, kCacheLineBytes);
    auto onLine = [&](Value bytes) -> Value {
      return arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                   arith::RemUIOp::create(b, bytes, lineBytes),
                                   cst(b, 0));
    };
    Value first = arith::AddIOp::create(
        b, base, arith::MulIOp::create(b, metadata.getOffset(), elementBytes));
    Value rowStride =
        arith::MulIOp::create(b, metadata.getStrides()[0], elementBytes);
    Value unitColumns = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, metadata.getStrides()[1], cst(b, 1));
    return arith::AndIOp::create(
        b, arith::AndIOp::create(b, onLine(first), onLine(rowStride)),
        unitColumns);
  }

  /// The bag loop as an scf.forall: each iteration computes its bag into a
  /// [1, row] slice of the result and inserts it in parallel.
  Value buildParallelBags(Value init, Value row) {
    auto forall = scf::ForallOp::create(
        b, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{getAsOpFoldResult(p.numBags)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, ValueRange{init},
        /*mapping=*/std::nullopt);
    Value bag = forall.getInductionVar(0);
    Value shared = forall.getRegionIterArgs()[0];
    SmallVector<OpFoldResult> offsets{bag, b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(1), getAsOpFoldResult(row)};
    SmallVector<OpFoldResult> strides{b.getIndexAttr(1), b.getIndexAttr(1)};
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall.getTerminator());
    Value slice =
        tensor::ExtractSliceOp::create(b, shared, offsets, sizes, strides);
    Value bagRow = buildBag(b, bag, slice, row, /*outRow=*/cst(b, 0));
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, bagRow, shared, offsets, sizes,
                                          strides);
    return forall.getResult(0);
  }

  /// Emits the chunks of one bag: full chunks of `maxVectors` unmasked
  /// vectors in a loop, then one epilogue chunk with masked vectors.
  /// The result row of the bag is row `outRow` of `out`.
  Value buildBag(ImplicitLocOpBuilder &ib, Value bag, Value out, Value row,
                 Value outRow) {
    // Named values, not structured bindings: lambdas below capture them.
    std::pair<Value, Value> range = p.ranges(ib, bag);
    Value start = range.first, end = range.second;
    Value count = arith::SubIOp::create(ib, end, start);
    int64_t chunk = shape.lanes * shape.maxVectors;
    Value chunkSize = cst(ib, chunk);
    Value numFull = arith::DivUIOp::create(ib, row, chunkSize);
    Value mainEnd = arith::MulIOp::create(ib, numFull, chunkSize);
    // A static row of several passes is prefetched whole by the first pass:
    // the later passes find their part of the bag's rows in cache, and each
    // row is requested from memory at once rather than a part per pass.
    bool prefetchWholeRow =
        !ShapedType::isDynamic(rowLength) && rowLength > chunk;
    int64_t chunkPrefetch = prefetchWholeRow ? 0 : chunk;
    Value firstCol = cst(ib, 0);
    if (prefetchWholeRow) {
      SmallVector<Value> masks(shape.maxVectors, nullptr);
      out = buildChunk(ib, bag, outRow, start, end, count, firstCol, masks, out,
                       /*prefetchWidth=*/rowLength, /*mayOverrun=*/false);
      firstCol = chunkSize;
    }
    auto chunkLoop = scf::ForOp::create(
        ib, firstCol, mainEnd, chunkSize, ValueRange{out},
        [&](OpBuilder &nested, Location loc, Value col, ValueRange iterArgs) {
          ImplicitLocOpBuilder cb(loc, nested);
          SmallVector<Value> masks(shape.maxVectors, nullptr);
          scf::YieldOp::create(cb, buildChunk(cb, bag, outRow, start, end,
                                              count, col, masks, iterArgs[0],
                                              chunkPrefetch,
                                              /*mayOverrun=*/false));
        });
    out = chunkLoop.getResult(0);

    // The epilogue: the last row % chunk elements.
    if (!ShapedType::isDynamic(rowLength)) {
      int64_t rest = rowLength % chunk;
      if (rest == 0)
        return out;
      int64_t numVectors = llvm::divideCeil(rest, shape.lanes);
      SmallVector<Value> masks(numVectors, nullptr);
      if (rest % shape.lanes)
        masks.back() = vector::CreateMaskOp::create(
            ib, VectorType::get({shape.lanes}, ib.getI1Type()),
            ArrayRef<OpFoldResult>{ib.getIndexAttr(rest % shape.lanes)});
      return buildChunk(ib, bag, outRow, start, end, count, mainEnd, masks, out,
                        prefetchWholeRow ? 0 : numVectors * shape.lanes,
                        /*mayOverrun=*/true);
    }
    Value rest = arith::SubIOp::create(ib, row, mainEnd);
    Value hasRest =
        arith::CmpIOp::create(ib, arith::CmpIPredicate::ne, rest, cst(ib, 0));
    auto ifOp = scf::IfOp::create(
        ib, hasRest,
        [&](OpBuilder &nested, Location loc) {
          ImplicitLocOpBuilder tb(loc, nested);
          SmallVector<Value> masks;
          for (int64_t u = 0; u < shape.maxVectors; ++u) {
            // create_mask clamps: a negative size gives an all-false mask.
            Value size =
                arith::SubIOp::create(tb, rest, cst(tb, u * shape.lanes));
            masks.push_back(vector::CreateMaskOp::create(
                tb, VectorType::get({shape.lanes}, tb.getI1Type()),
                ValueRange{size}));
          }
          scf::YieldOp::create(tb, buildChunk(tb, bag, outRow, start, end,
                                              count, mainEnd, masks, out, chunk,
                                              /*mayOverrun=*/true));
        },
        [&](OpBuilder &nested, Location loc) {
          scf::YieldOp::create(nested, loc, out);
        });
    return ifOp.getResult(0);
  }

  /// Reads `table[rowIndex, col : col + lanes]` (masked when `mask` is set)
  /// as accumulator vector.
  Value readRow(ImplicitLocOpBuilder &cb, Value rowIndex, Value col,
                Value mask) {
    Value pad = castTo(cb,
                       arith::ConstantOp::create(
                           cb, cb.getZeroAttr(getSignlessType(storageType))),
                       storageType);
    auto map = AffineMap::getMinorIdentityMap(2, 1, cb.getContext());
    Value v = vector::TransferReadOp::create(
        cb, vecStorageType, p.table, ValueRange{rowIndex, col},
        AffineMapAttr::get(map), pad, mask, cb.getBoolArrayAttr({true}));
    v = castToSignless(cb, v);
    if (widensFloat)
      v = arith::ExtFOp::create(cb, vecAccType, v);
    return v;
  }

  /// Prefetches the cache lines of the chunk [col, col + width) of the row
  /// of the index `prefetchDistance` positions after `j` in the index list
  /// (clamped to the last one). Rows of the next bags are prefetched while
  /// this bag's end is read, so short bags keep misses in flight too.
  /// `mayOverrun`: the chunk may extend past the end of the row.
  /// `onLines`: the chunk is a whole row and rows start on cache lines.
  void prefetchAhead(ImplicitLocOpBuilder &lb, Value j, Value col,
                     int64_t width, bool mayOverrun, bool onLines) {
    Value ahead = arith::AddIOp::create(lb, j, cst(lb, shape.prefetchDistance));
    ahead = arith::MinUIOp::create(lb, ahead, lastPosition);
    Value rowIndex = extractIndex(lb, p.indices, ahead);
    int64_t perLine = std::max<int64_t>(
        1, kCacheLineBytes * 8 / storageType.getIntOrFloatBitWidth());
    // One element per line the chunk touches: the chunk need not start on a
    // line boundary, hence also its last element, unless `onLines`.
    SmallVector<int64_t> offsets;
    for (int64_t o = 0; o < width; o += perLine)
      offsets.push_back(o);
    if (!onLines && (width - 1) % perLine != 0)
      offsets.push_back(width - 1);
    for (int64_t o : offsets) {
      Value c = o == 0 ? col : arith::AddIOp::create(lb, col, cst(lb, o));
      if (mayOverrun && o != 0)
        c = arith::MinUIOp::create(lb, c, lastColumn);
      memref::PrefetchOp::create(lb, tableBuffer, ValueRange{rowIndex, c},
                                 lb.getBoolAttr(false), lb.getI32IntegerAttr(3),
                                 lb.getBoolAttr(true));
    }
  }

  /// Emits one chunk of `masks.size()` vectors at column `col`: the pass
  /// over the bag, empty-bag default, mean, and the stores. The pass
  /// prefetches `prefetchWidth` elements of the row from `col` on (none
  /// when 0); `mayOverrun`: they may extend past the end of the row.
  Value buildChunk(ImplicitLocOpBuilder &cb, Value bag, Value outRow,
                   Value start, Value end, Value count, Value col,
                   ArrayRef<Value> masks, Value out, int64_t prefetchWidth,
                   bool mayOverrun) {
    int64_t numVectors = masks.size();
    SmallVector<Value> cols;
    for (int64_t u = 0; u < numVectors; ++u)
      cols.push_back(
          u == 0 ? col
                 : arith::AddIOp::create(cb, col, cst(cb, u * shape.lanes)));
    Value zero = arith::ConstantOp::create(
        cb, vecAccType,
        DenseElementsAttr::get(vecAccType, cb.getZeroAttr(accType)));
    SmallVector<Value> inits(numVectors, zero);
    bool isFloat = isa<FloatType>(accType);

    // The pass over the bag's indices; `onLines`: prefetch whole rows that
    // start on cache lines.
    auto buildPass = [&](ImplicitLocOpBuilder &pb,
                         bool onLines) -> SmallVector<Value> {
      auto indexLoop = scf::ForOp::create(
          pb, start, end, cst(pb, 1), inits,
          [&](OpBuilder &nested, Location loc, Value j, ValueRange accs) {
            ImplicitLocOpBuilder lb(loc, nested);
            if (tableBuffer && prefetchWidth > 0)
              prefetchAhead(lb, j, cols[0], prefetchWidth, mayOverrun, onLines);
            Value rowIndex = extractIndex(lb, p.indices, j);
            Value weight;
            if (p.weights) {
              Value w = castToSignless(
                  lb, tensor::ExtractOp::create(lb, p.weights, j));
              if (widensFloat)
                w = arith::ExtFOp::create(lb, accType, w);
              weight = vector::BroadcastOp::create(lb, vecAccType, w);
            }
            SmallVector<Value> next;
            for (int64_t u = 0; u < numVectors; ++u) {
              Value rowVec = readRow(lb, rowIndex, cols[u], masks[u]);
              Value acc = accs[u];
              if (isFloat) {
                next.push_back(
                    weight
                        ? vector::FMAOp::create(lb, rowVec, weight, acc)
                              .getResult()
                        : arith::AddFOp::create(lb, acc, rowVec).getResult());
              } else {
                if (weight)
                  rowVec = arith::MulIOp::create(lb, rowVec, weight);
                next.push_back(arith::AddIOp::create(lb, acc, rowVec));
              }
            }
            scf::YieldOp::create(lb, next);
          });
      // With a remainder, unrolling adds an epilogue loop that continues
      // the accumulation: the bag's sums are then its results.
      scf::ForOp lastLoop = indexLoop;
      if (shape.unroll > 1) {
        FailureOr<UnrolledLoopInfo> unrolled =
            loopUnrollByFactor(indexLoop, shape.unroll);
        if (succeeded(unrolled) && unrolled->epilogueLoopOp)
          lastLoop = *unrolled->epilogueLoopOp;
      }
      return SmallVector<Value>(lastLoop.getResults());
    };
    SmallVector<Value> accs;
    if (rowsOnLines && prefetchWidth == rowLength) {
      auto ifOp = scf::IfOp::create(cb, TypeRange(ValueRange(inits)),
                                    rowsOnLines, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(cb);
      cb.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(cb, buildPass(cb, /*onLines=*/true));
      cb.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(cb, buildPass(cb, /*onLines=*/false));
      accs.assign(ifOp.getResults().begin(), ifOp.getResults().end());
    } else {
      accs = buildPass(cb, /*onLines=*/false);
    }

    // An empty bag takes the default row, unweighted, when one is given.
    if (p.defaultIndex) {
      Value isEmpty = arith::CmpIOp::create(cb, arith::CmpIPredicate::eq, count,
                                            cst(cb, 0));
      Value hasDefault = arith::CmpIOp::create(cb, arith::CmpIPredicate::sge,
                                               p.defaultIndex, cst(cb, 0));
      Value useDefault = arith::AndIOp::create(cb, isEmpty, hasDefault);
      auto ifOp = scf::IfOp::create(
          cb, useDefault,
          [&](OpBuilder &nested, Location loc) {
            ImplicitLocOpBuilder tb(loc, nested);
            SmallVector<Value> rows;
            for (int64_t u = 0; u < numVectors; ++u)
              rows.push_back(readRow(tb, p.defaultIndex, cols[u], masks[u]));
            scf::YieldOp::create(tb, rows);
          },
          [&](OpBuilder &nested, Location loc) {
            scf::YieldOp::create(nested, loc, accs);
          });
      accs.assign(ifOp.getResults().begin(), ifOp.getResults().end());
    }

    if (p.mean) {
      Value divisor = countDivisor(cb, count);
      for (Value &acc : accs)
        acc = divideByCount(cb, acc, divisor, p.isUnsigned);
    }

    for (int64_t u = 0; u < numVectors; ++u) {
      Value v = accs[u];
      v = widensFloat ? arith::TruncFOp::create(cb, vecStorageType, v)
                      : castTo(cb, v, vecStorageType);
      auto map = AffineMap::getMinorIdentityMap(2, 1, cb.getContext());
      out = vector::TransferWriteOp::create(
                cb, out.getType(), v, out, ValueRange{outRow, cols[u]},
                AffineMapAttr::get(map), masks[u], cb.getBoolArrayAttr({true}))
                .getResult();
    }
    return out;
  }

  static constexpr int64_t kCacheLineBytes = 64;

  ImplicitLocOpBuilder &b;
  const BagProblem &p;
  KernelShape shape;
  bool parallel;
  // With prefetch: the table as a buffer, the last position in the index
  // list, and the last column of the row.
  Value tableBuffer, lastPosition, lastColumn;
  // Whether the rows of the table start on cache lines (an i1), or null when
  // that makes no difference to the prefetches.
  Value rowsOnLines;
  Type storageType, accType;
  bool widensFloat;
  VectorType vecStorageType, vecAccType;
  int64_t rowLength;
};

//===----------------------------------------------------------------------===//
// From an op to its normal form and back
//===----------------------------------------------------------------------===//

/// Picks the vector length, the register blocking and the prefetch distance.
KernelShape chooseShape(RankedTensorType tableType, bool weighted,
                        const ConvertEmbBagToLoopsOptions &options) {
  Type element = tableType.getElementType();
  unsigned accBits = element.isF16() || element.isBF16()
                         ? 32
                         : element.getIntOrFloatBitWidth();
  KernelShape shape;
  shape.lanes = std::max<int64_t>(1, options.vectorBits / accBits);
  // LLVM packs the elements of a vector of i4, i6, i12, i24, ... bit by bit
  // in memory, while a memref gives each element whole bytes: such tables
  // are read one element at a time.
  if (!llvm::isPowerOf2_32(accBits) || accBits < 8)
    shape.lanes = 1;
  int64_t row = 1;
  for (int64_t d : tableType.getShape().drop_front())
    row = ShapedType::isDynamic(d) || ShapedType::isDynamic(row)
              ? ShapedType::kDynamic
              : row * d;
  bool staticRow = !ShapedType::isDynamic(row);

  if (staticRow && row < shape.lanes) {
    // A row shorter than one vector is read whole, without a mask.
    shape.lanes = std::max<int64_t>(row, 1);
    shape.maxVectors = 1;
  } else if (options.maxVectors != 0) {
    shape.maxVectors = options.maxVectors;
    if (staticRow)
      shape.maxVectors = std::min<int64_t>(shape.maxVectors,
                                           llvm::divideCeil(row, shape.lanes));
  } else if (!staticRow) {
    shape.maxVectors = 8;
  } else {
    // x86 has 16 vector registers up to AVX2 and 32 with AVX-512. Full row
    // vectors are memory operands of the add or FMA and need no register;
    // the broadcast weight takes one, a masked tail two more (the mask and
    // the masked load's destination). The others are accumulators. (With 16
    // accumulators and a weight, LLVM's allocator shuffles every register on
    // each index: two passes are faster.) A row
    // that does not fit takes full passes and a thinner last one: the first
    // pass waits on DRAM, which hides its arithmetic, while the later passes
    // re-read the bag's rows from the cache and cost what they compute
    // (c2 wsum, 128 floats: 15 + 1 vectors 0.95x of the AVX2 kernel, 12 + 4
    // 0.90x, 8 + 8 0.82x).
    int64_t registers = options.vectorBits >= 512 ? 32 : 16;
    int64_t budget =
        registers - (weighted ? 1 : 0) - (row % shape.lanes ? 2 : 0);
    shape.maxVectors =
        std::min<int64_t>(budget, llvm::divideCeil(row, shape.lanes));
  }

  // Enough rows in flight to cover the memory latency: about 16 KiB, within
  // [16, 128] indices ahead. A table known to fit in 4 MiB lives in the
  // last-level cache, whose latency 16 rows ahead cover: further ahead only
  // keeps more lines waiting in L1 (c3, 2.5 MB: 16 ahead is 10-20% faster
  // than 64).
  shape.unroll = options.unroll;
  shape.prefetchDistance = options.prefetchDistance;
  if (shape.prefetchDistance < 0) {
    int64_t rowBytes =
        staticRow ? row * element.getIntOrFloatBitWidth() / 8 : 256;
    shape.prefetchDistance =
        std::clamp<int64_t>(16384 / std::max<int64_t>(rowBytes, 1), 16, 128);
    int64_t numEmb = tableType.getDimSize(0);
    constexpr int64_t kCachedTableBytes = 4 << 20;
    if (staticRow && !ShapedType::isDynamic(numEmb) &&
        numEmb * rowBytes <= kCachedTableBytes)
      shape.prefetchDistance = 16;
  }
  return shape;
}

template <typename OpTy> struct BagOpLowering : public OpRewritePattern<OpTy> {
  BagOpLowering(MLIRContext *ctx, const ConvertEmbBagToLoopsOptions &options)
      : OpRewritePattern<OpTy>(ctx), options(options) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    BagProblem p;
    p.op = op;
    p.table = flattenTable(b, op.getTable());
    p.mean = op.isMean();
    p.isUnsigned = isUnsignedElement(op.getTableType());
    if (failed(normalize(b, op, p)))
      return failure();
    KernelShape shape =
        chooseShape(op.getTableType(), static_cast<bool>(p.weights), options);
    Value result = KernelBuilder(b, p, shape, options.parallel).build();
    rewriter.replaceOp(op, unflattenResult(b, result, op.getResultType(),
                                           op.getTable(), p.numBags));
    return success();
  }

  LogicalResult normalize(ImplicitLocOpBuilder &b, OpTy op,
                          BagProblem &p) const;

  ConvertEmbBagToLoopsOptions options;
};

template <>
LogicalResult BagOpLowering<PackedOp>::normalize(ImplicitLocOpBuilder &b,
                                                 PackedOp op,
                                                 BagProblem &p) const {
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
  if (options.checks)
    checkIndices(b, p.op, p.table, p.indices, cst(b, 0), dim(b, p.indices, 0));
  return success();
}

template <>
LogicalResult BagOpLowering<OffsetsOp>::normalize(ImplicitLocOpBuilder &b,
                                                  OffsetsOp op,
                                                  BagProblem &p) const {
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
  if (!options.checks)
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

template <>
LogicalResult BagOpLowering<SegmentsOp>::normalize(ImplicitLocOpBuilder &b,
                                                   SegmentsOp op,
                                                   BagProblem &p) const {
  Value indices = op.getIndices();
  Value weights = op.getWeights();
  Value ids = op.getSegmentIds();
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
    p.defaultIndex = toIndex(b, *d);
  Value numSegments = toIndex(b, op.getMixedNumSegments());
  Value numIndices = dim(b, indices, 0);
  p.indices = indices;
  p.weights = weights;
  if (options.checks) {
    emitAssert(b, op,
               arith::CmpIOp::create(b, arith::CmpIPredicate::sge, numSegments,
                                     cst(b, 0)),
               "num_segments must be non-negative");
    // The result type may give the batch statically; num_segments must
    // agree with it.
    int64_t staticBatch = op.getResultType().getDimSize(0);
    if (!ShapedType::isDynamic(staticBatch))
      emitAssert(b, op,
                 arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                       numSegments, cst(b, staticBatch)),
                 "num_segments must equal the result's static batch size");
    checkAllBelow(b, op, ids, cst(b, 0), numIndices, numSegments,
                  "segment id out of range [0, num_segments)");
    checkIndices(b, p.op, p.table, p.indices, cst(b, 0), numIndices);
    checkDefault(b, p.op, p.table, p.defaultIndex);
  }
  // A histogram of the ids and its prefix sum give each segment's range
  // [starts[s], starts[s + 1]) in the ids sorted stably.
  Value one = cst(b, 1);
  Value numStarts = arith::AddIOp::create(b, numSegments, one);
  Value zeros = tensor::SplatOp::create(
      b, RankedTensorType::get({ShapedType::kDynamic}, b.getIndexType()),
      cst(b, 0), ValueRange{numStarts});
  Value isSortedInit = arith::ConstantIntOp::create(b, 1, 1);
  auto histogram = scf::ForOp::create(
      b, cst(b, 0), numIndices, one, ValueRange{zeros, isSortedInit, cst(b, 0)},
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
  auto prefix = scf::ForOp::create(
      b, one, numStarts, one, ValueRange{histogram.getResult(0)},
      [&](OpBuilder &nested, Location loc, Value s, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value prev = arith::SubIOp::create(ib, s, cst(ib, 1));
        Value sum = arith::AddIOp::create(
            ib, tensor::ExtractOp::create(ib, iterArgs[0], prev),
            tensor::ExtractOp::create(ib, iterArgs[0], s));
        scf::YieldOp::create(
            ib, tensor::InsertOp::create(ib, sum, iterArgs[0], s).getResult());
      });
  Value starts = prefix.getResult(0);

  // Unsorted ids: bucket the indices (and weights) by segment, stably.
  auto sortedIf = scf::IfOp::create(
      b, histogram.getResult(1),
      [&](OpBuilder &nested, Location loc) {
        SmallVector<Value> same{indices};
        if (weights)
          same.push_back(weights);
        scf::YieldOp::create(nested, loc, same);
      },
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        SmallVector<Value> inits{
            tensor::EmptyOp::create(tb,
                                    getAsOpFoldResult(ValueRange{numIndices}),
                                    getElementTypeOrSelf(indices.getType())),
            starts};
        if (weights)
          inits.push_back(tensor::EmptyOp::create(
              tb, getAsOpFoldResult(ValueRange{numIndices}),
              getElementTypeOrSelf(weights.getType())));
        auto bucket = scf::ForOp::create(
            tb, cst(tb, 0), numIndices, cst(tb, 1), inits,
            [&](OpBuilder &n2, Location l2, Value i, ValueRange iterArgs) {
              ImplicitLocOpBuilder ib(l2, n2);
              Value id = extractIndex(ib, ids, i);
              Value pos = tensor::ExtractOp::create(ib, iterArgs[1], id);
              SmallVector<Value> next;
              next.push_back(tensor::InsertOp::create(
                  ib, tensor::ExtractOp::create(ib, indices, i), iterArgs[0],
                  pos));
              next.push_back(tensor::InsertOp::create(
                  ib, arith::AddIOp::create(ib, pos, cst(ib, 1)), iterArgs[1],
                  id));
              if (weights)
                next.push_back(tensor::InsertOp::create(
                    ib, tensor::ExtractOp::create(ib, weights, i), iterArgs[2],
                    pos));
              scf::YieldOp::create(ib, next);
            });
        SmallVector<Value> results{bucket.getResult(0)};
        if (weights)
          results.push_back(bucket.getResult(2));
        auto castTo = [&](Value v, Type t) -> Value {
          return v.getType() == t ? v : tensor::CastOp::create(tb, t, v);
        };
        results[0] = castTo(results[0], indices.getType());
        if (weights)
          results[1] = castTo(results[1], weights.getType());
        scf::YieldOp::create(tb, results);
      });
  p.indices = sortedIf.getResult(0);
  if (weights)
    p.weights = sortedIf.getResult(1);
  p.numBags = numSegments;
  p.ranges = [starts](ImplicitLocOpBuilder &ib, Value bag) {
    Value start = tensor::ExtractOp::create(ib, starts, bag);
    Value next = arith::AddIOp::create(ib, bag, cst(ib, 1));
    Value end = tensor::ExtractOp::create(ib, starts, next);
    return std::make_pair(start, end);
  };
  return success();
}

struct ConvertEmbBagToLoopsPass
    : public embbag::impl::ConvertEmbBagToLoopsBase<ConvertEmbBagToLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ConvertEmbBagToLoopsOptions options{
        vectorBits, maxVectors, prefetchDistance, unroll, checks, parallel};
    RewritePatternSet patterns(&getContext());
    populateEmbBagToLoopsPatterns(patterns, options);
    // Each op is rewritten once into ops of other dialects: a walk suffices.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult leftover = getOperation()->walk([](Operation *op) {
      if (isa<PackedOp, OffsetsOp, SegmentsOp>(op)) {
        op->emitOpError("could not be lowered to loops");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::embbag::populateEmbBagToLoopsPatterns(
    RewritePatternSet &patterns, const ConvertEmbBagToLoopsOptions &options) {
  patterns.add<BagOpLowering<PackedOp>, BagOpLowering<OffsetsOp>,
               BagOpLowering<SegmentsOp>>(patterns.getContext(), options);
}
