//===- RowPlan.cpp - The passes over a bag, and the loop over bags --------===//
//
// A row whose vector count is known when the kernel is built (a static row,
// or one version of a dynamic row) is cut into passes over each bag at
// compile time; the loop over bags around them is sequential or an
// scf.forall. The kernel's entry point picks the version(s) to build.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

/// The bag's range and count; its result goes to row `outRow`.
static BagRef bagRef(ImplicitLocOpBuilder &b, const KernelContext &k, Value bag,
                     Value outRow) {
  std::pair<Value, Value> range = k.p.ranges(b, b.getLoc(), bag);
  Value count = arith::SubIOp::create(b, range.second, range.first);
  return BagRef{bag, range.first, range.second, count, outRow};
}

WorkChunks mlir::embbag::loops::planWorkChunks(ImplicitLocOpBuilder &b,
                                               const BagProblem &p,
                                               const KernelShape &shape) {
  int64_t lineBits = shape.target.cacheLineBytes * 8;
  int64_t bits = cast<ShapedType>(p.table.getType()).getElementTypeBitWidth();
  Value rowBits = arith::MulIOp::create(b, dim(b, p.table, 1), cst(b, bits));
  Value lines = arith::MaxUIOp::create(
      b, arith::CeilDivUIOp::create(b, rowBits, cst(b, lineBits)), cst(b, 1));
  WorkChunks chunks;
  chunks.rowLines = lines;
  chunks.budget = arith::MaxUIOp::create(
      b, arith::DivUIOp::create(b, cst(b, shape.chunkLines), lines), cst(b, 1));
  Value work =
      arith::AddIOp::create(b, dim(b, p.indices, 0), p.numBags).getResult();
  Value hasBags =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, p.numBags, cst(b, 0));
  chunks.count = arith::SelectOp::create(
      b, hasBags, arith::DivUIOp::create(b, work, chunks.budget), cst(b, 0));
  chunks.lines = arith::SelectOp::create(
      b, hasBags, arith::MulIOp::create(b, work, lines), cst(b, 0));
  return chunks;
}

/// The sequential loop over bags [first, end), bag b writing row
/// b - `firstRow` of `out` (null `firstRow`: row b).
static Value buildBagRange(ImplicitLocOpBuilder &b, const KernelContext &k,
                           Value first, Value end, Value firstRow, Value out,
                           const RowBuilder &buildRow) {
  auto loop = scf::ForOp::create(
      b, first, end, cst(b, 1), ValueRange{out},
      [&](OpBuilder &nested, Location loc, Value bag, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value outRow =
            firstRow ? arith::SubIOp::create(ib, bag, firstRow).getResult()
                     : bag;
        scf::YieldOp::create(
            ib, buildRow(ib, bagRef(ib, k, bag, outRow), iterArgs[0]));
      });
  return loop.getResult(0);
}

scf::ForallOp mlir::embbag::loops::createChunkLoop(ImplicitLocOpBuilder &b,
                                                   Value numChunks,
                                                   ValueRange inits) {
  auto forall =
      scf::ForallOp::create(b, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
                            ArrayRef<OpFoldResult>{numChunks},
                            ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, inits,
                            /*mapping=*/std::nullopt);
  embbag::EmbBagDialect::WorkChunksAttrHelper(b.getContext())
      .setAttr(forall, b.getUnitAttr());
  return forall;
}

Value mlir::embbag::loops::roundChunkCount(ImplicitLocOpBuilder &b,
                                           Value wanted, Value limit) {
  Type i64 = b.getI64Type();
  Value atLeastOne = arith::IndexCastUIOp::create(
      b, i64, arith::MaxUIOp::create(b, wanted, cst(b, 1)));
  Value bits =
      arith::SubIOp::create(b, arith::ConstantIntOp::create(b, i64, 63),
                            math::CountLeadingZerosOp::create(b, atLeastOne));
  Value power =
      arith::ShLIOp::create(b, arith::ConstantIntOp::create(b, i64, 1), bits);
  return arith::MinUIOp::create(
      b, arith::IndexCastUIOp::create(b, b.getIndexType(), power), limit);
}

Value mlir::embbag::loops::chunkStart(ImplicitLocOpBuilder &b, Value chunk,
                                      Value total, Value numChunks) {
  // chunk * total = chunk * (q * numChunks + r): q and r first, so that no
  // product exceeds total.
  Value quotient = arith::DivUIOp::create(b, total, numChunks);
  Value remainder = arith::RemUIOp::create(b, total, numChunks);
  Value part = arith::DivUIOp::create(
      b, arith::MulIOp::create(b, chunk, remainder), numChunks);
  return arith::AddIOp::create(b, arith::MulIOp::create(b, chunk, quotient),
                               part);
}

/// The bag loop as an scf.forall over chunks of consecutive bags: the
/// greatest power of two of chunks of at least `k.shape.chunkLines` cache
/// lines of work each, at most one per bag. Each iteration computes its bags
/// into a slice of the result's rows with the sequential loop and inserts it in
/// parallel. So the loop's trip count follows the work, and
/// embbag-limit-omp-threads sizes the team by it: a call of one chunk of
/// work runs on one thread. A power of two (roundChunkCount): 260 chunks on
/// 16 threads would give some threads 17 and others 16.
static Value buildParallelBags(ImplicitLocOpBuilder &b, const KernelContext &k,
                               Value init, const RowBuilder &buildRow) {
  Value firstBag = k.firstBag ? k.firstBag : cst(b, 0);
  Value bags = arith::SubIOp::create(b, k.p.numBags, firstBag);
  Value numChunks =
      roundChunkCount(b, planWorkChunks(b, k.p, k.shape).count, bags);
  scf::ForallOp forall = createChunkLoop(b, numChunks, init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  // Chunk c: bags [firstBag + c * bags / numChunks, the next chunk's first).
  auto firstBagOf = [&](Value chunk) {
    return arith::AddIOp::create(b, firstBag,
                                 chunkStart(b, chunk, bags, numChunks))
        .getResult();
  };
  Value chunk = forall.getInductionVar(0);
  Value first = firstBagOf(chunk);
  Value end = firstBagOf(arith::AddIOp::create(b, chunk, cst(b, 1)));
  Value shared = forall.getRegionIterArgs()[0];
  SmallVector<OpFoldResult> offsets{first, b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes{
      arith::SubIOp::create(b, end, first).getResult(),
      getAsOpFoldResult(k.row)};
  Value slice = extractSliceOrEmpty(b, shared, offsets, sizes);
  Value rows = buildBagRange(b, k, first, end, first, slice, buildRow);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  parallelInsertSliceUnlessEmpty(b, rows, shared, offsets, sizes);
  return forall.getResult(0);
}

Value mlir::embbag::loops::buildBagLoop(ImplicitLocOpBuilder &b,
                                        const KernelContext &k, Value init,
                                        const RowBuilder &buildRow) {
  if (k.shape.parallel)
    return buildParallelBags(b, k, init, buildRow);
  return buildBagRange(b, k, k.firstBag ? k.firstBag : cst(b, 0), k.p.numBags,
                       /*firstRow=*/nullptr, init, buildRow);
}

/// Sets the prefetch of the first pass over a static row: the whole row, so
/// that the later passes find their part of the bag's rows in the cache and
/// each row is requested from memory at once rather than a part per pass.
/// A row of whole cache lines gets the columns for rows that start on
/// lines too: when the table's do, the prefetch of the row's last element
/// is a wasted load-port uop per index (3% on rows of 64 floats).
static void prefetchWholeRow(ImplicitLocOpBuilder &b, const KernelContext &k,
                             ChunkSpec &chunk, int64_t rowLength) {
  if (!k.tableBuffer)
    return;
  chunk.prefetchColumns =
      prefetchColumns(b, k, chunk.col, rowLength, Value(), /*onLines=*/false);
  int64_t bits = k.storageType.getIntOrFloatBitWidth();
  int64_t lineBits = k.shape.target.cacheLineBytes * 8;
  // A quantized row's bytes are never only its codes.
  if (!k.p.rowwiseBits && rowLength * bits % lineBits == 0)
    chunk.onLinesColumns =
        prefetchColumns(b, k, chunk.col, rowLength, Value(), /*onLines=*/true);
}

Value mlir::embbag::loops::buildStaticRow(ImplicitLocOpBuilder &b,
                                          const KernelContext &k,
                                          const BagRef &bag, Value out,
                                          int64_t rowLength, Value firstCol) {
  int64_t lanes = k.shape.lanes;
  int64_t chunkSize = lanes * k.shape.maxVectors;
  int64_t numFull = rowLength / chunkSize, rest = rowLength % chunkSize;
  // Column `c` of the part of the row the passes cover.
  auto at = [&](int64_t c) -> Value {
    return firstCol ? b.createOrFold<arith::AddIOp>(firstCol, cst(b, c))
                    : cst(b, c);
  };
  if (numFull > 0) {
    ChunkSpec first{at(0), SmallVector<Value>(k.shape.maxVectors)};
    prefetchWholeRow(b, k, first, rowLength);
    out = buildChunk(b, k, bag, first, out);
  }
  if (numFull > 1) {
    auto chunkLoop = scf::ForOp::create(
        b, at(chunkSize), at(numFull * chunkSize), cst(b, chunkSize),
        ValueRange{out},
        [&](OpBuilder &nested, Location loc, Value col, ValueRange iterArgs) {
          ImplicitLocOpBuilder cb(loc, nested);
          ChunkSpec chunk{col, SmallVector<Value>(k.shape.maxVectors)};
          scf::YieldOp::create(cb, buildChunk(cb, k, bag, chunk, iterArgs[0]));
        });
    out = chunkLoop.getResult(0);
  }
  if (rest == 0)
    return out;
  // The thinner last pass, its last vector masked when the row ends inside.
  ChunkSpec last{at(numFull * chunkSize),
                 SmallVector<Value>(llvm::divideCeil(rest, lanes))};
  if (rest % lanes)
    last.masks.back() = vector::CreateMaskOp::create(
        b, k.maskType, ArrayRef<OpFoldResult>{b.getIndexAttr(rest % lanes)});
  if (numFull == 0)
    prefetchWholeRow(b, k, last, rowLength);
  return buildChunk(b, k, bag, last, out);
}

Value mlir::embbag::loops::buildMaskedChunk(ImplicitLocOpBuilder &b,
                                            const KernelContext &k,
                                            const BagRef &bag, Value out,
                                            Value col, int64_t numVectors,
                                            bool prefetch, Value end) {
  int64_t lanes = k.shape.lanes;
  if (!end)
    end = k.row;
  ChunkSpec chunk{col, SmallVector<Value>(numVectors)};
  Value lastStart =
      b.createOrFold<arith::AddIOp>(col, cst(b, (numVectors - 1) * lanes));
  chunk.masks.back() = vector::CreateMaskOp::create(
      b, k.maskType, ValueRange{arith::SubIOp::create(b, end, lastStart)});
  if (prefetch && k.tableBuffer) {
    // The elements up to the last vector's first lie in the row; the
    // chunk's last element is the one before `end`.
    Value lastColumn = arith::SubIOp::create(b, end, cst(b, 1));
    chunk.prefetchColumns =
        prefetchColumns(b, k, col, (numVectors - 1) * lanes + 1, lastColumn,
                        /*onLines=*/false);
  }
  return buildChunk(b, k, bag, chunk, out);
}

Value mlir::embbag::loops::buildEmptyResult(ImplicitLocOpBuilder &b,
                                            const KernelContext &k) {
  return tensor::EmptyOp::create(
      b, getAsOpFoldResult(ValueRange{k.p.numBags, k.row}), k.storageType);
}

Value mlir::embbag::loops::buildKernel(ImplicitLocOpBuilder &b,
                                       const BagProblem &p,
                                       const KernelShape &shape,
                                       SharedKernels *shared) {
  KernelContext k(p, shape);
  k.row = p.rowwiseBits ? planQuantizedRow(b, k) : dim(b, p.table, 1);
  bool dynamicRow = ShapedType::isDynamic(shape.rowLength);
  if (dynamicRow && shared)
    if (FailureOr<Value> result = shared->call(b, k); succeeded(result))
      return *result;
  planPrefetch(b, k);
  return buildBagRows(b, k, buildEmptyResult(b, k));
}

Value mlir::embbag::loops::buildBagRows(ImplicitLocOpBuilder &b,
                                        const KernelContext &k, Value init) {
  if (ShapedType::isDynamic(k.shape.rowLength))
    return buildDispatchedKernel(b, k, init);
  return buildBagLoop(
      b, k, init, [&](ImplicitLocOpBuilder &ib, const BagRef &bag, Value out) {
        return buildStaticRow(ib, k, bag, out, k.shape.rowLength);
      });
}
