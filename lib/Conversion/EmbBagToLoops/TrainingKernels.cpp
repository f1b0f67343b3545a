//===- TrainingKernels.cpp - Gradients and fused updates as loops ---------===//
//
// Every training kernel has the same shape. The positions that a bag reads
// are grouped by the table row they read, each row's in index order
// (TrainingGrouping.cpp), and the rows that have positions are listed in
// ascending order. One loop over those unique rows (an scf.forall with
// `parallel`) accumulates each row's gradient in f32 (f64 for f64 tables):
// a pass over the row's positions sums a block of up to passVectors()
// vectors of the row at once, in registers, whole vectors but the row's
// last one (a dynamic row: whole blocks, then one masked block for the
// rest); the gradient is then stored (or
// applied to the table) once. The rows a few iterations ahead are
// prefetched when the table outgrows the caches. No two iterations touch
// the same row, and each row's sum is taken in the same order whatever the
// threads: the results are the same bits on one thread or many. A
// sequential dense gradient of an f32/f64 table skips the grouping: a
// scatter-add in index order into the zeroed gradient (bag by bag, each
// bag's dy block read once) sums each row in that same order.
//
//===----------------------------------------------------------------------===//

#include "Training.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

//===----------------------------------------------------------------------===//
// Vectors of a row
//===----------------------------------------------------------------------===//

static AffineMapAttr rowMap(ImplicitLocOpBuilder &b) {
  return AffineMapAttr::get(
      AffineMap::getMinorIdentityMap(2, 1, b.getContext()));
}

/// The indices and map of a vector at column `col` of row `row` of
/// `tensor`: [row, col] of a 2-D tensor, or [col] of one row (a 1-D
/// slice, `row` unused).
static std::pair<SmallVector<Value>, AffineMapAttr>
vectorAccess(ImplicitLocOpBuilder &b, Value tensor, Value row, Value col) {
  if (cast<ShapedType>(tensor.getType()).getRank() == 1)
    return {{col}, AffineMapAttr::get(b.getMultiDimIdentityMap(1))};
  return {{row, col}, rowMap(b)};
}

Value mlir::embbag::loops::convertFloat(ImplicitLocOpBuilder &b, Value v,
                                        Type type) {
  Type from = getElementTypeOrSelf(v.getType());
  if (from == type)
    return v;
  Type target = type;
  if (auto vectorType = dyn_cast<VectorType>(v.getType()))
    target = vectorType.clone(type);
  if (from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, target, v);
  return arith::TruncFOp::create(b, target, v);
}

Value mlir::embbag::loops::chunkMask(ImplicitLocOpBuilder &b,
                                     const TrainProblem &p, Value col) {
  // create_mask clamps the count to the vector's length.
  Value left = arith::SubIOp::create(b, p.row, col);
  return vector::CreateMaskOp::create(
      b, VectorType::get({p.lanes}, b.getI1Type()), ValueRange{left});
}

Value mlir::embbag::loops::readAccVector(ImplicitLocOpBuilder &b,
                                         const TrainProblem &p, Value tensor,
                                         Value row, Value col, Value mask) {
  Type element = cast<ShapedType>(tensor.getType()).getElementType();
  Value pad = arith::ConstantOp::create(b, b.getZeroAttr(element));
  auto [indices, map] = vectorAccess(b, tensor, row, col);
  Value v = vector::TransferReadOp::create(
      b, VectorType::get({p.lanes}, element), tensor, indices, map, pad, mask,
      b.getBoolArrayAttr({true}));
  return convertFloat(b, v, p.accType);
}

/// Writes the accumulator vector `v` into `tensor[row, col:]` (a 1-D
/// slice of one row: `tensor[col:]`), rounded once to the tensor's
/// element type.
static Value writeVector(ImplicitLocOpBuilder &b, Value v, Value tensor,
                         Value row, Value col, Value mask) {
  Type element = cast<ShapedType>(tensor.getType()).getElementType();
  auto [indices, map] = vectorAccess(b, tensor, row, col);
  return vector::TransferWriteOp::create(b, convertFloat(b, v, element), tensor,
                                         indices, map, mask,
                                         b.getBoolArrayAttr({true}))
      .getResult();
}

SmallVector<Value> mlir::embbag::loops::forEachChunk(ImplicitLocOpBuilder &b,
                                                     const TrainProblem &p,
                                                     ValueRange inits,
                                                     ChunkBody body) {
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.row, cst(b, p.lanes), inits,
      [&](OpBuilder &nested, Location loc, Value col, ValueRange iter) {
        ImplicitLocOpBuilder cb(loc, nested);
        scf::YieldOp::create(cb, body(cb, col, chunkMask(cb, p, col), iter));
      });
  return loop.getResults();
}

//===----------------------------------------------------------------------===//
// Scratch tensors
//===----------------------------------------------------------------------===//

Value mlir::embbag::loops::splat1D(ImplicitLocOpBuilder &b, Value value,
                                   Value size) {
  auto type = RankedTensorType::get({ShapedType::kDynamic}, value.getType());
  return tensor::SplatOp::create(b, type, value, ValueRange{size});
}

//===----------------------------------------------------------------------===//
// One row's gradient
//===----------------------------------------------------------------------===//

/// The scalar that position `j` of bag `bag` multiplies `dy[bag]` by (its
/// weight times its bag's scale); null when it is 1 (sum without weights).
static Value coefficient(ImplicitLocOpBuilder &b, const TrainProblem &p,
                         Value j, Value bag) {
  Value c;
  if (p.weights)
    c = convertFloat(b, tensor::ExtractOp::create(b, p.weights, j), p.accType);
  if (p.scale) {
    Value s = tensor::ExtractOp::create(b, p.scale, bag);
    c = c ? arith::MulFOp::create(b, c, s).getResult() : s;
  }
  return c;
}

/// Accumulator vectors per pass over a row's positions: with the dy vector
/// loaded and the coefficient they fit AVX2's 16 registers (max also holds
/// the winning positions, vectors of i64).
static int64_t passVectors(const TrainProblem &p) { return p.isMax() ? 4 : 8; }

/// The table's row length when it is static, or ShapedType::kDynamic.
static int64_t staticRowLength(const TrainProblem &p) {
  return cast<RankedTensorType>(p.table.getType()).getDimSize(1);
}

/// Whether one pass covers the whole row (a static row of at most
/// passVectors vectors).
static bool isSinglePass(const TrainProblem &p) {
  // (A row of no elements has no pass: it takes the general path, as a
  // dynamic row does.)
  int64_t row = staticRowLength(p);
  return !ShapedType::isDynamic(row) && row > 0 &&
         llvm::divideCeilSigned(row, p.lanes) <= passVectors(p);
}

/// The column of the vector `v` of a block starting at `col`.
static Value vectorColumn(ImplicitLocOpBuilder &b, const TrainProblem &p,
                          Value col, size_t v) {
  if (v == 0)
    return col;
  return arith::AddIOp::create(b, col,
                               cst(b, static_cast<int64_t>(v) * p.lanes));
}

/// `body`'s values from `inits` when `taken` holds, else `inits`, as a
/// loop of zero or one iteration rather than an scf.if: one-shot
/// bufferization sees a loop's result as its iter_arg's buffer, where an
/// scf.if that may yield a slice extracted from the table unchanged made
/// it copy the slice out and back (memrefCopy calls in an AOT library).
static SmallVector<Value> loopIf(
    ImplicitLocOpBuilder &b, Value taken, ValueRange inits,
    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, ValueRange)> body) {
  Value trips = arith::SelectOp::create(b, taken, cst(b, 1), cst(b, 0));
  auto loop = scf::ForOp::create(
      b, cst(b, 0), trips, cst(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        scf::YieldOp::create(ib, body(ib, iter));
      });
  return loop.getResults();
}

/// The passes over a row of dynamic length: whole blocks of passVectors()
/// vectors in a loop, then the rest's whole vectors, if any, in one block
/// of as many vectors as there are, then a partial last vector, if any, on
/// its own, masked.
static SmallVector<Value> forEachDynamicPass(ImplicitLocOpBuilder &b,
                                             const TrainProblem &p,
                                             ValueRange inits, PassBody body) {
  int64_t count = passVectors(p);
  Value blockColumns = cst(b, count * p.lanes);
  Value wholeBlocks = arith::DivUIOp::create(b, p.row, blockColumns);
  auto loop = scf::ForOp::create(
      b, cst(b, 0), wholeBlocks, cst(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value block, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value col = arith::MulIOp::create(ib, block, blockColumns);
        SmallVector<Value> whole(count, Value());
        scf::YieldOp::create(ib, body(ib, col, whole, iter));
      });
  // A pass over the block at `col` when `taken` holds.
  SmallVector<Value> results = loop.getResults();
  auto passIf = [&](Value taken, Value col, int64_t numVectors, bool masked) {
    results = loopIf(b, taken, results,
                     [&](ImplicitLocOpBuilder &ib, ValueRange iter) {
                       SmallVector<Value> masks(numVectors, Value());
                       if (masked)
                         masks.back() = chunkMask(ib, p, col);
                       return body(ib, col, masks, iter);
                     });
  };
  // The rest has k = (row - restCol) / lanes whole vectors, 0 <= k <
  // count: one version of the block per k, every vector unmasked. The
  // partial vector after them, if any, is a pass of its own. Masking the
  // last vector of each version instead cost rows of 16 floats (two whole
  // vectors) a `vmaskmovps` store per position, microcoded: 1.5x the
  // static kernel's time. Masking every vector of a block of `count` cost
  // five times.
  // Each version is a loop of zero or one iteration (loopIf). The price:
  // one-shot bufferization's analysis follows both the init and the yield
  // of each loop of the chain, 2^count paths. At `count` loops (count - 1
  // versions and the partial vector) the dynamic-row dense gradient compiles in
  // 0.2 s; 2 * count (a version per count of whole vectors, with and
  // without a partial last one) took more than 100 s.
  Value restCol = arith::MulIOp::create(b, wholeBlocks, blockColumns);
  Value restWhole = arith::DivUIOp::create(
      b, arith::SubIOp::create(b, p.row, restCol), cst(b, p.lanes));
  for (int64_t k = 1; k < count; ++k)
    passIf(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, restWhole,
                                 cst(b, k)),
           restCol, k, /*masked=*/false);
  Value tailCol = arith::AddIOp::create(
      b, restCol, arith::MulIOp::create(b, restWhole, cst(b, p.lanes)));
  passIf(arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tailCol, p.row),
         tailCol, 1, /*masked=*/true);
  return results;
}

/// The passes over a row: for a static row, blocks of passVectors vectors,
/// each vector whole (a null mask) but a partial last one; for a dynamic
/// row, forEachDynamicPass's blocks. `body` gets each block's first
/// column, its masks and the iter_args, and returns their next values.
static SmallVector<Value> forEachPass(ImplicitLocOpBuilder &b,
                                      const TrainProblem &p, ValueRange inits,
                                      PassBody body) {
  int64_t row = staticRowLength(p);
  if (ShapedType::isDynamic(row))
    return forEachDynamicPass(b, p, inits, body);
  SmallVector<Value> iter(inits);
  int64_t numVectors = llvm::divideCeil(row, p.lanes);
  for (int64_t first = 0; first < numVectors; first += passVectors(p)) {
    int64_t count = std::min(passVectors(p), numVectors - first);
    SmallVector<Value> masks(count);
    int64_t lastCol = (first + count - 1) * p.lanes;
    if (row - lastCol < p.lanes)
      masks.back() = chunkMask(b, p, cst(b, lastCol));
    iter = body(b, cst(b, first * p.lanes), masks, iter);
  }
  return iter;
}

/// What a bag adds to a block of a row's vectors: its `dy` vectors and,
/// for max, the positions that won each element.
struct BagBlock {
  SmallVector<Value> dy, won;
};

/// The block at `col` (masks: one per vector) of bag `bag`'s share.
static BagBlock readBagBlock(ImplicitLocOpBuilder &b, const TrainProblem &p,
                             Value bag, Value col, ArrayRef<Value> masks) {
  auto vecI64 = VectorType::get({p.lanes}, b.getI64Type());
  BagBlock block;
  for (auto [v, mask] : llvm::enumerate(masks)) {
    Value vcol = vectorColumn(b, p, col, v);
    block.dy.push_back(readAccVector(b, p, p.dy, bag, vcol, mask));
    if (!p.isMax())
      continue;
    Value pad = arith::ConstantOp::create(b, b.getI64IntegerAttr(-1));
    block.won.push_back(vector::TransferReadOp::create(
        b, vecI64, p.argmax, ValueRange{bag, vcol}, rowMap(b), pad, mask,
        b.getBoolArrayAttr({true})));
  }
  return block;
}

/// The accumulators `accs` of a block plus position `j`'s share of its
/// bag's block: dy times the position's coefficient, or for max dy where
/// `j` won.
static SmallVector<Value> addShare(ImplicitLocOpBuilder &b,
                                   const TrainProblem &p, Value j, Value bag,
                                   const BagBlock &block, ValueRange accs) {
  auto vecType = VectorType::get({p.lanes}, p.accType);
  auto vecI64 = VectorType::get({p.lanes}, b.getI64Type());
  Value cVec, jVec, zeros;
  if (p.isMax()) {
    jVec = vector::BroadcastOp::create(
        b, vecI64, arith::IndexCastOp::create(b, b.getI64Type(), j));
    zeros = arith::ConstantOp::create(
        b, DenseElementsAttr::get(vecType, b.getFloatAttr(p.accType, 0.0)));
  } else if (Value c = coefficient(b, p, j, bag)) {
    cVec = vector::BroadcastOp::create(b, vecType, c);
  }
  SmallVector<Value> next;
  for (auto [v, dy] : llvm::enumerate(block.dy)) {
    if (p.isMax()) {
      Value mine = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                         block.won[v], jVec);
      next.push_back(arith::AddFOp::create(
          b, accs[v], arith::SelectOp::create(b, mine, dy, zeros)));
    } else if (cVec) {
      next.push_back(vector::FMAOp::create(b, dy, cVec, accs[v]));
    } else {
      next.push_back(arith::AddFOp::create(b, accs[v], dy));
    }
  }
  return next;
}

/// The accumulators `accs` of the block at `col` (masks: one per vector)
/// plus position `j`'s share.
static SmallVector<Value> addPosition(ImplicitLocOpBuilder &b,
                                      const TrainProblem &p, Value j, Value bag,
                                      Value col, ArrayRef<Value> masks,
                                      ValueRange accs) {
  return addShare(b, p, j, bag, readBagBlock(b, p, bag, col, masks), accs);
}

/// The gradient of the block of vectors at `col` (masks: one per vector)
/// of the row whose positions are perm[lo : hi]: the sums, in index order,
/// of each position's share, one walk over the positions for the block.
static SmallVector<Value> accumulateRow(ImplicitLocOpBuilder &b,
                                        const TrainProblem &p,
                                        const RowGroups &g, Value lo, Value hi,
                                        Value col, ArrayRef<Value> masks) {
  auto vecType = VectorType::get({p.lanes}, p.accType);
  Value zeros = arith::ConstantOp::create(
      b, DenseElementsAttr::get(vecType, b.getFloatAttr(p.accType, 0.0)));
  SmallVector<Value> inits(masks.size(), zeros);
  auto loop = scf::ForOp::create(
      b, lo, hi, cst(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value q, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value listed = tensor::ExtractOp::create(ib, g.perm, q);
        // The listed value is the position, or its bag when no share needs
        // the position (RowGroups::perm).
        Value j = p.sharesNeedPositions() ? listed : Value();
        Value bag =
            j ? tensor::ExtractOp::create(ib, p.bagOf, j).getResult() : listed;
        scf::YieldOp::create(ib, addPosition(ib, p, j, bag, col, masks, iter));
      });
  return loop.getResults();
}

//===----------------------------------------------------------------------===//
// The loop over the unique rows
//===----------------------------------------------------------------------===//

namespace {
/// A tensor the row loop writes: each iteration a slice of it, at offsets
/// that depend on the unique row's position `u` and its row `r`.
struct RowOutput {
  Value init;
  std::function<SmallVector<OpFoldResult>(ImplicitLocOpBuilder &, Value u,
                                          Value r)>
      offsets;
  SmallVector<OpFoldResult> sizes;
};

/// What one iteration computes: the new slices of the outputs, given row
/// `r`, its positions perm[lo : hi] and the current slices.
using RowBody = std::function<SmallVector<Value>(
    ImplicitLocOpBuilder &b, Value r, Value lo, Value hi, ValueRange slices)>;
} // namespace

/// `tensor[offsets][sizes]`; a [1, row] slice of a 2-D tensor as the 1-D
/// row (an empty tensor for a row of no columns, extractSliceOrEmpty). Why 1-D:
/// to tell whether a vector.transfer_write at [0, 0] of a static tensor
/// overwrites all of it, one-shot bufferization (MLIR 22) compares the tensor's
/// dimensions with the vector's from the first one, so a [1, N] row slice
/// looked wholly overwritten by its first vector. When that write went out of
/// place (a constant table whose loops the canonicalizer had folded away), the
/// rest of the row was not copied into the new buffer and read back as garbage
/// (a row of 5 in 4-lane vectors). Along a 1-D row the comparison is of the
/// row's length with the vector's.
static Value extractRowSlice(ImplicitLocOpBuilder &b, Value tensor,
                             ArrayRef<OpFoldResult> offsets,
                             ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getRank() != 2 || !isConstantIntValue(sizes[0], 1))
    return extractSliceOrEmpty(b, tensor, offsets, sizes);
  std::optional<int64_t> row = getConstantIntValue(sizes[1]);
  auto rowType = RankedTensorType::get({row ? *row : ShapedType::kDynamic},
                                       type.getElementType());
  return extractSliceOrEmpty(b, tensor, offsets, sizes, rowType);
}

/// Prefetches (for writing) row `r` of `buffer`, a [num_emb, row] memref:
/// every cache line of it, the row's last element too since rows need not
/// start on lines.
static void prefetchRowLines(ImplicitLocOpBuilder &b, const TrainProblem &p,
                             Value buffer, Value r) {
  auto prefetch = [&](ImplicitLocOpBuilder &pb, Value col) {
    memref::PrefetchOp::create(pb, buffer, ValueRange{r, col},
                               /*isWrite=*/pb.getBoolAttr(true),
                               /*localityHint=*/pb.getI32IntegerAttr(3),
                               /*isDataCache=*/pb.getBoolAttr(true));
  };
  int64_t perLine =
      std::max<int64_t>(1, 64 / (p.storageType.getIntOrFloatBitWidth() / 8));
  int64_t row = staticRowLength(p);
  if (ShapedType::isDynamic(row)) {
    scf::ForOp::create(
        b, cst(b, 0), p.row, cst(b, perLine), ValueRange{},
        [&](OpBuilder &nested, Location loc, Value col, ValueRange) {
          ImplicitLocOpBuilder lb(loc, nested);
          prefetch(lb, col);
          scf::YieldOp::create(lb);
        });
  } else {
    for (int64_t col = 0; col < row; col += perLine)
      prefetch(b, cst(b, col));
  }
  if (row != 0)
    prefetch(b, arith::MaxSIOp::create(
                    b, arith::SubIOp::create(b, p.row, cst(b, 1)), cst(b, 0)));
}

/// Prefetches the row `p.prefetchRows` unique rows after unique row `u`
/// (clamped to the last) of `buffer`.
static void prefetchRowAhead(ImplicitLocOpBuilder &b, const TrainProblem &p,
                             const RowGroups &g, Value buffer, Value u) {
  Value last = arith::SubIOp::create(b, g.numUnique, cst(b, 1));
  Value ahead = arith::MinUIOp::create(
      b, arith::AddIOp::create(b, u, cst(b, p.prefetchRows)), last);
  prefetchRowLines(b, p, buffer, extractIndex(b, g.uniqueRows, ahead));
}

/// The slices of `outs` at unique row `u`, and the body's new slices;
/// first the prefetch of a row ahead of `prefetchBuffer` when given.
static SmallVector<Value> rowIteration(
    ImplicitLocOpBuilder &b, const TrainProblem &p, const RowGroups &g, Value u,
    ArrayRef<RowOutput> outs, ValueRange current, Value prefetchBuffer,
    SmallVector<SmallVector<OpFoldResult>> &offsets, const RowBody &body) {
  if (prefetchBuffer)
    prefetchRowAhead(b, p, g, prefetchBuffer, u);
  Value r = extractIndex(b, g.uniqueRows, u);
  Value lo = tensor::ExtractOp::create(b, g.starts, u);
  Value hi = tensor::ExtractOp::create(
      b, g.starts, ValueRange{arith::AddIOp::create(b, u, cst(b, 1))});
  SmallVector<Value> slices;
  for (auto [out, tensor] : llvm::zip_equal(outs, current)) {
    offsets.push_back(out.offsets(b, u, r));
    slices.push_back(extractRowSlice(b, tensor, offsets.back(), out.sizes));
  }
  return body(b, r, lo, hi, slices);
}

/// The [num_emb, row] tensor `tensor` as a buffer to prefetch rows of
/// when the kernel prefetches, else null. Taken before the row loop writes
/// into it: a read there, which leaves the writes in place.
static Value prefetchBufferOf(ImplicitLocOpBuilder &b, const TrainProblem &p,
                              Value tensor) {
  if (p.prefetchRows == 0)
    return Value();
  auto type = cast<RankedTensorType>(tensor.getType());
  auto layout = StridedLayoutAttr::get(
      b.getContext(), ShapedType::kDynamic,
      SmallVector<int64_t>(type.getRank(), ShapedType::kDynamic));
  return bufferization::ToBufferOp::create(
      b, MemRefType::get(type.getShape(), type.getElementType(), layout),
      tensor, /*read_only=*/true);
}

/// Runs `body` for each unique row, sequentially or as an scf.forall whose
/// iterations write disjoint slices; prefetches rows of `prefetchOf` (a
/// [num_emb, row] tensor, or null) ahead.
static SmallVector<Value>
forEachUniqueRow(ImplicitLocOpBuilder &b, const TrainProblem &p,
                 const RowGroups &g, ArrayRef<RowOutput> outs, Value prefetchOf,
                 const RowBody &body) {
  Value prefetchBuffer =
      prefetchOf ? prefetchBufferOf(b, p, prefetchOf) : Value();
  SmallVector<Value> inits;
  for (const RowOutput &out : outs)
    inits.push_back(out.init);
  if (!p.parallel) {
    auto loop = scf::ForOp::create(
        b, cst(b, 0), g.numUnique, cst(b, 1), inits,
        [&](OpBuilder &nested, Location loc, Value u, ValueRange iter) {
          ImplicitLocOpBuilder ib(loc, nested);
          SmallVector<SmallVector<OpFoldResult>> offsets;
          SmallVector<Value> slices = rowIteration(
              ib, p, g, u, outs, iter, prefetchBuffer, offsets, body);
          SmallVector<Value> results;
          for (auto [k, slice] : llvm::enumerate(slices))
            results.push_back(insertSliceUnlessEmpty(
                ib, slice, iter[k], offsets[k], outs[k].sizes));
          scf::YieldOp::create(ib, results);
        });
    return loop.getResults();
  }
  auto forall = scf::ForallOp::create(
      b, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{getAsOpFoldResult(g.numUnique)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, inits,
      /*mapping=*/std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  SmallVector<SmallVector<OpFoldResult>> offsets;
  SmallVector<Value> slices =
      rowIteration(b, p, g, forall.getInductionVar(0), outs,
                   forall.getRegionIterArgs(), prefetchBuffer, offsets, body);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [k, slice] : llvm::enumerate(slices))
    parallelInsertSliceUnlessEmpty(b, slice, forall.getRegionIterArgs()[k],
                                   offsets[k], outs[k].sizes);
  return forall.getResults();
}

/// An output written a [1, row] slice per unique row, at row `r` (by
/// row) or at the unique row's position `u`.
static RowOutput rowSliceOutput(ImplicitLocOpBuilder &b, const TrainProblem &p,
                                Value init, bool atUniquePosition) {
  RowOutput out;
  out.init = init;
  out.offsets = [atUniquePosition](ImplicitLocOpBuilder &ob, Value u, Value r) {
    return SmallVector<OpFoldResult>{atUniquePosition ? u : r,
                                     ob.getIndexAttr(0)};
  };
  out.sizes = {b.getIndexAttr(1), getAsOpFoldResult(p.row)};
  return out;
}

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

/// Writes the accumulator vectors `accs` into the block at `col` of row 0
/// of `slice` (masks: one per vector), each rounded once.
static Value writeBlock(ImplicitLocOpBuilder &b, const TrainProblem &p,
                        ValueRange accs, Value slice, Value col,
                        ArrayRef<Value> masks) {
  for (auto [v, acc] : llvm::enumerate(accs))
    slice = writeVector(b, acc, slice, cst(b, 0), vectorColumn(b, p, col, v),
                        masks[v]);
  return slice;
}

/// A dense gradient's initial value: rows no position reads keep their
/// zeros. A fill of an empty tensor: empty-tensor elimination then makes
/// the caller's destination the gradient's buffer (no table-sized
/// allocation, no copy into it), and --embbag-to-llvm makes the fill a
/// memset (embbag-zero-fill-to-memset).
static Value zeroGradient(ImplicitLocOpBuilder &b, const TrainProblem &p) {
  auto type = RankedTensorType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic}, p.storageType);
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(p.storageType));
  Value empty = tensor::EmptyOp::create(b, type.getShape(), p.storageType,
                                        ValueRange{p.numEmb, p.row});
  return linalg::FillOp::create(b, zero, empty).getResult(0);
}

/// `grad` ([?, ?]) with the static sizes of the table's row back (and of
/// its rows, dense), for the reshapes to the result types.
static Value withTableSizes(ImplicitLocOpBuilder &b, const TrainProblem &p,
                            Value grad, bool sparse) {
  auto tableType = cast<RankedTensorType>(p.table.getType());
  int64_t leading = sparse ? ShapedType::kDynamic : tableType.getDimSize(0);
  return tensor::CastOp::create(
      b, tableType.clone({leading, tableType.getDimSize(1)}), grad);
}

/// Adds position `j`'s share of `block` to its row of `grad`, in the block
/// at `col` (masks: one per vector).
static Value addToRow(ImplicitLocOpBuilder &b, const TrainProblem &p,
                      Value grad, Value j, Value bag, const BagBlock &block,
                      Value col, ArrayRef<Value> masks) {
  RowOutput out = rowSliceOutput(b, p, grad, false);
  Value r = extractIndex(b, p.indices, j);
  SmallVector<OpFoldResult> offsets = out.offsets(b, r, r);
  Value slice = extractRowSlice(b, grad, offsets, out.sizes);
  SmallVector<Value> accs;
  for (auto [v, mask] : llvm::enumerate(masks))
    accs.push_back(readAccVector(b, p, slice, cst(b, 0),
                                 vectorColumn(b, p, col, v), mask));
  accs = addShare(b, p, j, bag, block, accs);
  slice = writeBlock(b, p, accs, slice, col, masks);
  return insertSliceUnlessEmpty(b, slice, grad, offsets, out.sizes);
}

/// `grad` plus the shares of bag `bag`'s positions [start, end): per block
/// of the row's vectors, the bag's block is read once (into registers) and
/// added to each position's row. Every element still gets its positions'
/// shares in index order.
static Value
scatterBag(ImplicitLocOpBuilder &b, const TrainProblem &p, Value grad,
           Value bag, Value start, Value end,
           function_ref<void(ImplicitLocOpBuilder &, Value j)> prefetch) {
  return forEachPass(
      b, p, ValueRange{grad},
      [&](ImplicitLocOpBuilder &cb, Value col, ArrayRef<Value> masks,
          ValueRange t) {
        BagBlock block = readBagBlock(cb, p, bag, col, masks);
        // One prefetch per position, in the first block's walk: the block
        // at column 0. A dynamic row's blocks start at computed columns,
        // so there the walk asks at run time (a branch the loop's
        // invariant condition predicts).
        std::optional<int64_t> constCol = getConstantIntValue(col);
        bool mayPrefetch = prefetch && (!constCol || *constCol == 0);
        Value isFirst;
        if (mayPrefetch && !constCol)
          isFirst = arith::CmpIOp::create(cb, arith::CmpIPredicate::eq, col,
                                          cst(cb, 0));
        auto loop = scf::ForOp::create(
            cb, start, end, cst(cb, 1), t,
            [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
              ImplicitLocOpBuilder jb(loc, nested);
              if (isFirst)
                scf::IfOp::create(jb, isFirst,
                                  [&](OpBuilder &then, Location thenLoc) {
                                    ImplicitLocOpBuilder tb(thenLoc, then);
                                    prefetch(tb, j);
                                    scf::YieldOp::create(tb);
                                  });
              else if (mayPrefetch)
                prefetch(jb, j);
              auto add = [&](ImplicitLocOpBuilder &tb) -> SmallVector<Value> {
                return {addToRow(tb, p, iter[0], j, bag, block, col, masks)};
              };
              scf::YieldOp::create(jb, skipPadding(jb, p, j, iter, add));
            });
        return SmallVector<Value>(loop.getResults());
      })[0];
}

/// The dense table gradient ([num_emb, row]) as a scatter-add of each read
/// position's share into `init` (zeros), in index order: each element gets
/// its positions' shares in the grouped kernel's order, the same bits.
static Value buildScatteredGrad(ImplicitLocOpBuilder &b, const TrainProblem &p,
                                Value init) {
  Value prefetchBuffer = prefetchBufferOf(b, p, init);
  Value lastPosition = arith::SubIOp::create(b, p.numPositions, cst(b, 1));
  auto prefetchAhead = [&](ImplicitLocOpBuilder &ib, Value j) {
    // The row of the position ahead, kept inside the table: an unread
    // position's index may be anything (a hint for a wrong row costs
    // nothing but bandwidth).
    Value ahead = arith::MinUIOp::create(
        ib, arith::AddIOp::create(ib, j, cst(ib, p.prefetchRows)),
        lastPosition);
    Value row =
        arith::MinUIOp::create(ib, extractIndex(ib, p.indices, ahead),
                               arith::SubIOp::create(ib, p.numEmb, cst(ib, 1)));
    prefetchRowLines(ib, p, prefetchBuffer, row);
  };
  function_ref<void(ImplicitLocOpBuilder &, Value)> prefetch =
      prefetchBuffer
          ? function_ref<void(ImplicitLocOpBuilder &, Value)>(prefetchAhead)
          : nullptr;
  Value grad;
  if (p.bagRanges) {
    // Contiguous bags: bag by bag, each bag's dy read once per block.
    const BagBounds &bounds = *p.bagRanges;
    auto loop = scf::ForOp::create(
        b, cst(b, 0), bounds.numBags, cst(b, 1), ValueRange{init},
        [&](OpBuilder &nested, Location loc, Value bag, ValueRange iter) {
          ImplicitLocOpBuilder ib(loc, nested);
          auto [start, end] = bounds.range(ib, loc, bag);
          scf::YieldOp::create(
              ib, scatterBag(ib, p, iter[0], bag, start, end, prefetch));
        });
    grad = loop.getResult(0);
  } else {
    auto addRow = [&](ImplicitLocOpBuilder &tb, Value j, Value bag,
                      ValueRange iter) -> SmallVector<Value> {
      Value g =
          forEachPass(tb, p, iter,
                      [&](ImplicitLocOpBuilder &cb, Value col,
                          ArrayRef<Value> masks, ValueRange t) {
                        BagBlock block = readBagBlock(cb, p, bag, col, masks);
                        return SmallVector<Value>{
                            addToRow(cb, p, t[0], j, bag, block, col, masks)};
                      })[0];
      return {g};
    };
    grad = buildReadPositionLoop(b, p, ValueRange{init}, addRow, prefetch)[0];
  }
  return withTableSizes(b, p, grad, /*sparse=*/false);
}

SmallVector<Value> mlir::embbag::loops::buildTableGrad(ImplicitLocOpBuilder &b,
                                                       const TrainProblem &p,
                                                       const RowGroups &g,
                                                       bool sparse,
                                                       Value denseInit) {
  auto type = RankedTensorType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic}, p.storageType);
  Value init = sparse
                   ? tensor::EmptyOp::create(b, type.getShape(), p.storageType,
                                             ValueRange{g.numUnique, p.row})
                         .getResult()
                   : (denseInit ? denseInit : zeroGradient(b, p));
  RowOutput out = rowSliceOutput(b, p, init, sparse);
  // The dense rows are written out of order: prefetched for writing.
  SmallVector<Value> results = forEachUniqueRow(
      b, p, g, {out}, sparse ? Value() : init,
      [&](ImplicitLocOpBuilder &rb, Value, Value lo, Value hi,
          ValueRange slices) {
        return forEachPass(rb, p, slices,
                           [&](ImplicitLocOpBuilder &cb, Value col,
                               ArrayRef<Value> masks, ValueRange iter) {
                             SmallVector<Value> accs =
                                 accumulateRow(cb, p, g, lo, hi, col, masks);
                             return SmallVector<Value>{
                                 writeBlock(cb, p, accs, iter[0], col, masks)};
                           });
      });
  Value grad = withTableSizes(b, p, results[0], sparse);
  if (!sparse)
    return {grad};
  Value rows = tensor::ExtractSliceOp::create(
      b, g.uniqueRows, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{getAsOpFoldResult(g.numUnique)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return {rows, grad};
}

/// Below this many bytes a row's scatter-add beats the grouped kernel on
/// a table whose zero fill dominates. train_bench, 2 threads against the
/// sequential scatter (1M-row tables, 64Ki positions): rows of 16 and 64
/// f32 (c4, c1) took 3.0-3.3 and 8.5 ms grouped against 2.5-2.7 and 8.2
/// scattered; rows of 100 and 128 (c5, c2) 12.3 and 14.2 grouped against
/// 13.0 and 15.8.
static constexpr int64_t kScatterMaxRowBytes = 256;
/// From this many table rows per position on, the zero fill dominates the
/// dense gradient's call.
static constexpr int64_t kScatterMinRowsPerPosition = 8;

/// The i1 that says whether the `parallel` dense gradient is the
/// sequential scatter-add: the grouped kernel's sort and the wake-up of
/// the threads then cost more than a second thread saves, since either the
/// zero fill (one `memset`, which one core already runs at the memory's
/// speed) takes most of the call, or the gradient fits the last-level
/// cache, where the scatter's adds cost about what the grouped kernel's
/// sequential sort alone does. train_bench c3 (10k x 64 f32, 2.5 MB, 64Ki
/// positions): 1.06 ms grouped on 2 threads against 0.80 scattered on one.
/// Null: never.
static Value scatterPaysOff(ImplicitLocOpBuilder &b, const TrainProblem &p) {
  int64_t elementBytes = p.storageType.getIntOrFloatBitWidth() / 8;
  int64_t maxRow = kScatterMaxRowBytes / elementBytes;
  int64_t row = staticRowLength(p);
  if (!ShapedType::isDynamic(row) && row > maxRow)
    return {};
  Value fillDominates = arith::CmpIOp::create(
      b, arith::CmpIPredicate::uge, p.numEmb,
      arith::MulIOp::create(b, p.numPositions,
                            cst(b, kScatterMinRowsPerPosition)));
  // rows * row * bytes <= cache, as rows <= cache / (row * bytes).
  Value rowBytes = arith::MulIOp::create(b, p.row, cst(b, elementBytes));
  Value inCache = arith::CmpIOp::create(
      b, arith::CmpIPredicate::ule, p.numEmb,
      arith::DivUIOp::create(b, cst(b, p.lastLevelCacheBytes),
                             arith::MaxUIOp::create(b, rowBytes, cst(b, 1))));
  Value scatters = arith::OrIOp::create(b, fillDominates, inCache);
  if (!ShapedType::isDynamic(row))
    return scatters;
  Value shortRow = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, p.row,
                                         cst(b, maxRow));
  return arith::AndIOp::create(b, scatters, shortRow);
}

Value mlir::embbag::loops::buildDenseGrad(ImplicitLocOpBuilder &b,
                                          const TrainProblem &p) {
  auto grouped = [&](ImplicitLocOpBuilder &gb, Value init) {
    RowGroups g = groupByRow(gb, p, /*uniqueRowsEscape=*/false);
    return buildTableGrad(gb, p, g, /*sparse=*/false, init)[0];
  };
  // f16/bf16: the grouped kernel rounds each row once.
  if (p.accType != p.storageType)
    return grouped(b, nullptr);
  if (!p.parallel)
    return buildScatteredGrad(b, p, zeroGradient(b, p));
  Value scatters = scatterPaysOff(b, p);
  if (!scatters)
    return grouped(b, nullptr);
  // Either way the same bits: both sum each element in index order.
  Value init = zeroGradient(b, p);
  // The branches are built inside the scf.if, once it is in its block: the
  // scratch arena carves the grouping's tensors only for requests whose
  // enclosing ops it can see.
  auto choice = scf::IfOp::create(b, TypeRange{p.table.getType()}, scatters,
                                  /*withElseRegion=*/true);
  auto buildBranch = [&](Region &region, auto build) {
    ImplicitLocOpBuilder rb = ImplicitLocOpBuilder::atBlockEnd(
        b.getLoc(), &region.front(), b.getListener());
    scf::YieldOp::create(rb, build(rb));
  };
  buildBranch(choice.getThenRegion(), [&](ImplicitLocOpBuilder &tb) {
    return buildScatteredGrad(tb, p, init);
  });
  buildBranch(choice.getElseRegion(),
              [&](ImplicitLocOpBuilder &eb) { return grouped(eb, init); });
  return choice.getResult(0);
}

/// dot(dy[bag], table[idx]) of position `j`, in the accumulator type.
static Value dotWithDy(ImplicitLocOpBuilder &b, const TrainProblem &p, Value j,
                       Value bag) {
  auto vecType = VectorType::get({p.lanes}, p.accType);
  Value idx = extractIndex(b, p.indices, j);
  Value zeros = arith::ConstantOp::create(
      b, DenseElementsAttr::get(vecType, b.getFloatAttr(p.accType, 0.0)));
  Value acc = forEachChunk(
      b, p, ValueRange{zeros},
      [&](ImplicitLocOpBuilder &cb, Value col, Value mask, ValueRange iter) {
        Value dy = readAccVector(cb, p, p.dy, bag, col, mask);
        Value row = readAccVector(cb, p, p.table, idx, col, mask);
        return SmallVector<Value>{
            vector::FMAOp::create(cb, dy, row, iter[0]).getResult()};
      })[0];
  return vector::ReductionOp::create(b, vector::CombiningKind::ADD, acc);
}

Value mlir::embbag::loops::buildWeightsGrad(ImplicitLocOpBuilder &b,
                                            const TrainProblem &p) {
  Type wType = cast<ShapedType>(p.weights.getType()).getElementType();
  Value zeroW = arith::ConstantOp::create(b, b.getZeroAttr(wType));
  Value dw = splat1D(b, zeroW, p.numPositions);
  if (!p.isSqrtn()) {
    // sum: d(dy . sum_j w_j x_j) / dw_j = dy . x_j.
    return buildReadPositionLoop(
        b, p, ValueRange{dw},
        [&](ImplicitLocOpBuilder &tb, Value j, Value bag, ValueRange iter) {
          Value d = convertFloat(tb, dotWithDy(tb, p, j, bag), wType);
          return SmallVector<Value>{
              tensor::InsertOp::create(tb, d, iter[0], j).getResult()};
        })[0];
  }
  // sqrtn: y = S / sqrt(Q), S = sum w_k x_k, Q = sum w_k^2, so
  // dL/dw_j = (dy . x_j) / sqrt(Q) - w_j (dy . S) / Q^(3/2); with
  // s = 1 / sqrt(Q) and D = sum_k w_k (dy . x_k) = dy . S:
  // dL/dw_j = s (dy . x_j) - w_j D s^3. First each dot and D per bag.
  Value zero = arith::ConstantOp::create(b, b.getFloatAttr(p.accType, 0.0));
  SmallVector<Value> first = buildReadPositionLoop(
      b, p,
      ValueRange{p.scratch->splat(b, zero, p.numPositions),
                 p.scratch->splat(b, zero, p.numBags)},
      [&](ImplicitLocOpBuilder &tb, Value j, Value bag, ValueRange iter) {
        Value d = dotWithDy(tb, p, j, bag);
        Value w = convertFloat(tb, tensor::ExtractOp::create(tb, p.weights, j),
                               p.accType);
        Value old = tensor::ExtractOp::create(tb, iter[1], bag);
        Value sum =
            arith::AddFOp::create(tb, old, arith::MulFOp::create(tb, w, d));
        return SmallVector<Value>{
            tensor::InsertOp::create(tb, d, iter[0], j).getResult(),
            tensor::InsertOp::create(tb, sum, iter[1], bag).getResult()};
      });
  return buildReadPositionLoop(
      b, p, ValueRange{dw},
      [&](ImplicitLocOpBuilder &tb, Value j, Value bag, ValueRange iter) {
        Value d = tensor::ExtractOp::create(tb, first[0], j);
        Value bigD = tensor::ExtractOp::create(tb, first[1], bag);
        Value s = tensor::ExtractOp::create(tb, p.scale, bag);
        Value w = convertFloat(tb, tensor::ExtractOp::create(tb, p.weights, j),
                               p.accType);
        Value s2 = arith::MulFOp::create(tb, s, s);
        Value s3 = arith::MulFOp::create(tb, s2, s);
        Value minus =
            arith::MulFOp::create(tb, arith::MulFOp::create(tb, w, bigD), s3);
        Value grad =
            arith::SubFOp::create(tb, arith::MulFOp::create(tb, s, d), minus);
        return SmallVector<Value>{
            tensor::InsertOp::create(tb, convertFloat(tb, grad, wType), iter[0],
                                     j)
                .getResult()};
      })[0];
}

/// w += minusLr * g for the block at `col` of row 0 of `slice`.
static Value applyStep(ImplicitLocOpBuilder &b, const TrainProblem &p,
                       ValueRange grads, Value minusLr, Value slice, Value col,
                       ArrayRef<Value> masks) {
  auto vecType = VectorType::get({p.lanes}, p.accType);
  Value step = vector::BroadcastOp::create(b, vecType, minusLr);
  for (auto [v, grad] : llvm::enumerate(grads)) {
    Value vcol = vectorColumn(b, p, col, v);
    Value w = readAccVector(b, p, slice, cst(b, 0), vcol, masks[v]);
    Value next = vector::FMAOp::create(b, step, grad, w);
    slice = writeVector(b, next, slice, cst(b, 0), vcol, masks[v]);
  }
  return slice;
}

/// sgd on one row: w -= lr * g, a block of vectors per pass.
static SmallVector<Value> sgdRow(ImplicitLocOpBuilder &b, const TrainProblem &p,
                                 const RowGroups &g, Value lr, Value lo,
                                 Value hi, Value tableSlice) {
  Value minusLr = arith::NegFOp::create(b, lr);
  return forEachPass(b, p, ValueRange{tableSlice},
                     [&](ImplicitLocOpBuilder &cb, Value col,
                         ArrayRef<Value> masks, ValueRange iter) {
                       SmallVector<Value> grads =
                           accumulateRow(cb, p, g, lo, hi, col, masks);
                       return SmallVector<Value>{applyStep(
                           cb, p, grads, minusLr, iter[0], col, masks)};
                     });
}

/// `sum` plus the squares of the vectors `grads`, each vector's reduced in
/// turn (the same order for a row taken in one pass or in several).
static Value addSquares(ImplicitLocOpBuilder &b, ValueRange grads, Value sum) {
  for (Value grad : grads)
    sum =
        vector::ReductionOp::create(b, vector::CombiningKind::ADD,
                                    arith::MulFOp::create(b, grad, grad), sum);
  return sum;
}

/// The row's new state s + sum_squares / row (stored into `stateSlice`)
/// and its step lr / (sqrt(state) + eps).
static std::pair<Value, Value> adagradState(ImplicitLocOpBuilder &b,
                                            const TrainProblem &p,
                                            Value sumSquares, Value lr,
                                            Value eps, Value stateSlice) {
  Value rowLength = arith::UIToFPOp::create(
      b, p.accType, arith::IndexCastUIOp::create(b, b.getI64Type(), p.row));
  Type stateType = cast<ShapedType>(stateSlice.getType()).getElementType();
  Value old = convertFloat(
      b, tensor::ExtractOp::create(b, stateSlice, ValueRange{cst(b, 0)}),
      p.accType);
  Value state = arith::AddFOp::create(
      b, old, arith::DivFOp::create(b, sumSquares, rowLength));
  Value newState = tensor::InsertOp::create(
      b, convertFloat(b, state, stateType), stateSlice, ValueRange{cst(b, 0)});
  Value denominator =
      arith::AddFOp::create(b, math::SqrtOp::create(b, state), eps);
  return {newState, arith::DivFOp::create(b, lr, denominator)};
}

/// Row-wise Adagrad on a row that the block at `col` covers (masks: one
/// per vector): g stays in registers between the state and the step.
static SmallVector<Value>
adagradBlock(ImplicitLocOpBuilder &b, const TrainProblem &p, const RowGroups &g,
             Value lr, Value eps, Value lo, Value hi, Value col,
             ArrayRef<Value> masks, ValueRange slices) {
  Value zero = arith::ConstantOp::create(b, b.getFloatAttr(p.accType, 0.0));
  SmallVector<Value> grads = accumulateRow(b, p, g, lo, hi, col, masks);
  auto [newState, step] =
      adagradState(b, p, addSquares(b, grads, zero), lr, eps, slices[1]);
  Value minusStep = arith::NegFOp::create(b, step);
  return {applyStep(b, p, grads, minusStep, slices[0], col, masks), newState};
}

/// Row-wise Adagrad on any row: walked twice, summing g again in the
/// second walk rather than storing it.
static SmallVector<Value> adagradTwoWalks(ImplicitLocOpBuilder &b,
                                          const TrainProblem &p,
                                          const RowGroups &g, Value lr,
                                          Value eps, Value lo, Value hi,
                                          ValueRange slices) {
  Value zero = arith::ConstantOp::create(b, b.getFloatAttr(p.accType, 0.0));
  Value sumSquares =
      forEachPass(b, p, ValueRange{zero},
                  [&](ImplicitLocOpBuilder &cb, Value col,
                      ArrayRef<Value> masks, ValueRange iter) {
                    SmallVector<Value> grads =
                        accumulateRow(cb, p, g, lo, hi, col, masks);
                    return SmallVector<Value>{addSquares(cb, grads, iter[0])};
                  })[0];
  auto [newState, step] = adagradState(b, p, sumSquares, lr, eps, slices[1]);
  SmallVector<Value> table = sgdRow(b, p, g, step, lo, hi, slices[0]);
  return {table[0], newState};
}

/// Row-wise Adagrad on one row: the state grows by the mean of g^2, then
/// w -= lr / (sqrt(state) + eps) * g. A row of one pass keeps g in
/// registers between the two (adagradBlock); a longer row is walked twice
/// (adagradTwoWalks). A row of dynamic length takes adagradBlock when it
/// is a power of two of whole vectors up to passVectors (the usual
/// embedding widths: 16 to 64 f32 with AVX2, 16 to 128 with AVX-512), in
/// one version per count, else the two walks. The two walks took c4's
/// dynamic rows of 16 floats 1.13x the time of its one version (2.84
/// against 2.52 ms, from C). A version for every count from 1 to 8 made
/// the training benchmark's dynamic module 31% larger; powers of two
/// only, 14%.
static SmallVector<Value> adagradRow(ImplicitLocOpBuilder &b,
                                     const TrainProblem &p, const RowGroups &g,
                                     Value lr, Value eps, Value lo, Value hi,
                                     Value tableSlice, Value stateSlice) {
  SmallVector<Value> slices{tableSlice, stateSlice};
  if (isSinglePass(p)) {
    return forEachPass(b, p, slices,
                       [&](ImplicitLocOpBuilder &cb, Value col,
                           ArrayRef<Value> masks, ValueRange iter) {
                         return adagradBlock(cb, p, g, lr, eps, lo, hi, col,
                                             masks, iter);
                       });
  }
  if (!ShapedType::isDynamic(staticRowLength(p)))
    return adagradTwoWalks(b, p, g, lr, eps, lo, hi, slices);
  Value oneBlock = arith::ConstantIntOp::create(b, b.getI1Type(), 0);
  for (int64_t k = 1; k <= passVectors(p); k *= 2) {
    Value isK = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, p.row,
                                      cst(b, k * p.lanes));
    oneBlock = arith::OrIOp::create(b, oneBlock, isK);
    SmallVector<Value> masks(k, Value());
    slices =
        loopIf(b, isK, slices, [&](ImplicitLocOpBuilder &ib, ValueRange iter) {
          return adagradBlock(ib, p, g, lr, eps, lo, hi, cst(ib, 0), masks,
                              iter);
        });
  }
  Value general = arith::XOrIOp::create(
      b, oneBlock, arith::ConstantIntOp::create(b, b.getI1Type(), 1));
  return loopIf(b, general, slices,
                [&](ImplicitLocOpBuilder &ib, ValueRange iter) {
                  return adagradTwoWalks(ib, p, g, lr, eps, lo, hi, iter);
                });
}

SmallVector<Value>
mlir::embbag::loops::buildUpdate(ImplicitLocOpBuilder &b, const TrainProblem &p,
                                 const RowGroups &g, Value learningRate,
                                 Value epsilon, Value state) {
  Value lr = convertFloat(b, learningRate, p.accType);
  SmallVector<RowOutput> outs{rowSliceOutput(b, p, p.table, false)};
  if (state) {
    RowOutput stateOut;
    stateOut.init = state;
    stateOut.offsets = [](ImplicitLocOpBuilder &, Value, Value r) {
      return SmallVector<OpFoldResult>{r};
    };
    stateOut.sizes = {b.getIndexAttr(1)};
    outs.push_back(stateOut);
  }
  Value eps = epsilon ? convertFloat(b, epsilon, p.accType) : Value();
  // The table's rows are read and written out of order: prefetched.
  return forEachUniqueRow(b, p, g, outs, p.table,
                          [&](ImplicitLocOpBuilder &rb, Value, Value lo,
                              Value hi, ValueRange slices) {
                            if (!state)
                              return sgdRow(rb, p, g, lr, lo, hi, slices[0]);
                            return adagradRow(rb, p, g, lr, eps, lo, hi,
                                              slices[0], slices[1]);
                          });
}
