//===- TrainingKernels.cpp - Gradients and fused updates as loops ---------===//
//
// Every training kernel has the same shape. The positions that a bag reads
// are grouped by the table row they read, with a stable counting sort (a
// histogram of the rows, its prefix sum, one scatter of the positions in
// index order): row r's positions are then a contiguous run, in index
// order, and the rows that have one are listed in ascending order. One loop
// over those unique rows (an scf.forall with `parallel`) accumulates each
// row's gradient, a vector of the row at a time in f32 (f64 for f64
// tables), its positions in index order, and stores it (or applies it to
// the table) once. No two iterations touch the same row, and each row's
// sum is taken in the same order whatever the threads: the results are
// the same bits on one thread or many.
//
//===----------------------------------------------------------------------===//

#include "Training.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
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
  Value v = vector::TransferReadOp::create(
      b, VectorType::get({p.lanes}, element), tensor, ValueRange{row, col},
      rowMap(b), pad, mask, b.getBoolArrayAttr({true}));
  return convertFloat(b, v, p.accType);
}

/// Writes the accumulator vector `v` into `tensor[row, col:]`, rounded
/// once to the tensor's element type.
static Value writeVector(ImplicitLocOpBuilder &b, Value v, Value tensor,
                         Value row, Value col, Value mask) {
  Type element = cast<ShapedType>(tensor.getType()).getElementType();
  return vector::TransferWriteOp::create(
             b, convertFloat(b, v, element), tensor, ValueRange{row, col},
             rowMap(b), mask, b.getBoolArrayAttr({true}))
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
// The positions grouped by row
//===----------------------------------------------------------------------===//

Value mlir::embbag::loops::splat1D(ImplicitLocOpBuilder &b, Value value,
                                   Value size) {
  auto type = RankedTensorType::get({ShapedType::kDynamic}, value.getType());
  return tensor::SplatOp::create(b, type, value, ValueRange{size});
}

/// Whether a bag reads position `j` (i1).
static Value isRead(ImplicitLocOpBuilder &b, const TrainProblem &p, Value j) {
  Value bag = tensor::ExtractOp::create(b, p.bagOf, j);
  return arith::CmpIOp::create(b, arith::CmpIPredicate::sge, bag, cst(b, 0));
}

/// hist[r + 2] = how many read positions hold row r; the unread ones are
/// counted in the last slot, num_emb + 2, which no row reads: no branch.
static Value rowHistogram(ImplicitLocOpBuilder &b, const TrainProblem &p) {
  Value size = arith::AddIOp::create(b, p.numEmb, cst(b, 3));
  Value spill = arith::AddIOp::create(b, p.numEmb, cst(b, 2));
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numPositions, cst(b, 1),
      ValueRange{splat1D(b, cst(b, 0), size)},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value slot = arith::AddIOp::create(
            ib, extractIndex(ib, p.indices, j), cst(ib, 2));
        slot = arith::SelectOp::create(ib, isRead(ib, p, j), slot, spill);
        Value n = tensor::ExtractOp::create(ib, iter[0], slot);
        Value inc = arith::AddIOp::create(ib, n, cst(ib, 1));
        scf::YieldOp::create(
            ib, tensor::InsertOp::create(ib, inc, iter[0], slot).getResult());
      });
  return loop.getResult(0);
}

/// The inclusive prefix sum of the histogram over the rows (bounds[r + 1]
/// becomes where row r's positions start) and the rows with positions, in
/// ascending order.
static std::tuple<Value, Value, Value>
prefixAndUniqueRows(ImplicitLocOpBuilder &b, const TrainProblem &p,
                    Value hist) {
  Type indexType = getElementTypeOrSelf(p.indices.getType());
  // One more than the positions: the sparse result slices [0, numUnique)
  // out of it, which must be in bounds even without positions.
  Value capacity = arith::AddIOp::create(b, p.numPositions, cst(b, 1));
  Value rows = tensor::EmptyOp::create(
      b, ArrayRef<OpFoldResult>{getAsOpFoldResult(capacity)}, indexType);
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numEmb, cst(b, 1),
      ValueRange{hist, rows, cst(b, 0), cst(b, 0)},
      [&](OpBuilder &nested, Location loc, Value r, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value slot = arith::AddIOp::create(ib, r, cst(ib, 2));
        Value count = tensor::ExtractOp::create(ib, iter[0], slot);
        Value end = arith::AddIOp::create(ib, iter[3], count);
        Value bounds = tensor::InsertOp::create(ib, end, iter[0], slot);
        Value used = arith::CmpIOp::create(ib, arith::CmpIPredicate::ne,
                                           count, cst(ib, 0));
        auto append = scf::IfOp::create(
            ib, used,
            [&](OpBuilder &n2, Location l2) {
              ImplicitLocOpBuilder tb(l2, n2);
              Value row = arith::IndexCastOp::create(tb, indexType, r);
              scf::YieldOp::create(
                  tb, tensor::InsertOp::create(tb, row, iter[1], iter[2])
                          .getResult());
            },
            [&](OpBuilder &n2, Location l2) {
              scf::YieldOp::create(n2, l2, iter[1]);
            });
        Value numUnique = arith::AddIOp::create(
            ib, iter[2], arith::IndexCastUIOp::create(ib, ib.getIndexType(),
                                                      used));
        scf::YieldOp::create(
            ib, ValueRange{bounds, append.getResult(0), numUnique, end});
      });
  return {loop.getResult(0), loop.getResult(1), loop.getResult(2)};
}

/// Scatters the read positions, in index order, to their row's run; each
/// row's cursor bounds[r + 1] ends at the start of row r + 1's run.
static Value scatterPositions(ImplicitLocOpBuilder &b, const TrainProblem &p,
                              Value &bounds) {
  Value perm = tensor::EmptyOp::create(
      b, ArrayRef<OpFoldResult>{getAsOpFoldResult(p.numPositions)},
      b.getIndexType());
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numPositions, cst(b, 1), ValueRange{bounds, perm},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        auto ifOp = scf::IfOp::create(
            ib, isRead(ib, p, j),
            [&](OpBuilder &n2, Location l2) {
              ImplicitLocOpBuilder tb(l2, n2);
              Value slot = arith::AddIOp::create(
                  tb, extractIndex(tb, p.indices, j), cst(tb, 1));
              Value pos = tensor::ExtractOp::create(tb, iter[0], slot);
              Value next = arith::AddIOp::create(tb, pos, cst(tb, 1));
              scf::YieldOp::create(
                  tb, ValueRange{
                          tensor::InsertOp::create(tb, next, iter[0], slot),
                          tensor::InsertOp::create(tb, j, iter[1], pos)});
            },
            [&](OpBuilder &n2, Location l2) {
              scf::YieldOp::create(n2, l2, iter);
            });
        scf::YieldOp::create(ib, ifOp.getResults());
      });
  bounds = loop.getResult(0);
  return loop.getResult(1);
}

RowGroups mlir::embbag::loops::groupByRow(ImplicitLocOpBuilder &b,
                                          const TrainProblem &p) {
  RowGroups g;
  Value hist = rowHistogram(b, p);
  std::tie(g.bounds, g.uniqueRows, g.numUnique) =
      prefixAndUniqueRows(b, p, hist);
  g.perm = scatterPositions(b, p, g.bounds);
  return g;
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

/// The gradient of the vector at `col` of the row whose positions are
/// perm[lo : hi]: the sum, in index order, of each position's share of its
/// bag's dy (for max, dy where the position won the element).
static Value accumulateRow(ImplicitLocOpBuilder &b, const TrainProblem &p,
                           const RowGroups &g, Value lo, Value hi, Value col,
                           Value mask) {
  auto vecType = VectorType::get({p.lanes}, p.accType);
  auto vecI64 = VectorType::get({p.lanes}, b.getI64Type());
  Value zeros = arith::ConstantOp::create(
      b, DenseElementsAttr::get(vecType, b.getFloatAttr(p.accType, 0.0)));
  auto loop = scf::ForOp::create(
      b, lo, hi, cst(b, 1), ValueRange{zeros},
      [&](OpBuilder &nested, Location loc, Value q, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value j = tensor::ExtractOp::create(ib, g.perm, q);
        Value bag = tensor::ExtractOp::create(ib, p.bagOf, j);
        Value dy = readAccVector(ib, p, p.dy, bag, col, mask);
        Value acc;
        if (p.isMax()) {
          Value pad = arith::ConstantOp::create(ib, ib.getI64IntegerAttr(-1));
          Value won = vector::TransferReadOp::create(
              ib, vecI64, p.argmax, ValueRange{bag, col}, rowMap(ib), pad,
              mask, ib.getBoolArrayAttr({true}));
          Value jVec = vector::BroadcastOp::create(
              ib, vecI64, arith::IndexCastOp::create(ib, ib.getI64Type(), j));
          Value mine = arith::CmpIOp::create(ib, arith::CmpIPredicate::eq,
                                             won, jVec);
          acc = arith::AddFOp::create(
              ib, iter[0], arith::SelectOp::create(ib, mine, dy, zeros));
        } else if (Value c = coefficient(ib, p, j, bag)) {
          Value cVec = vector::BroadcastOp::create(ib, vecType, c);
          acc = vector::FMAOp::create(ib, dy, cVec, iter[0]);
        } else {
          acc = arith::AddFOp::create(ib, iter[0], dy);
        }
        scf::YieldOp::create(ib, acc);
      });
  return loop.getResult(0);
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

static SmallVector<OpFoldResult> unitStrides(ImplicitLocOpBuilder &b,
                                             size_t rank) {
  return SmallVector<OpFoldResult>(rank, b.getIndexAttr(1));
}

/// The slices of `outs` at unique row `u`, and the body's new slices.
static SmallVector<Value>
rowIteration(ImplicitLocOpBuilder &b, const RowGroups &g, Value u,
             ArrayRef<RowOutput> outs, ValueRange current,
             SmallVector<SmallVector<OpFoldResult>> &offsets,
             const RowBody &body) {
  Value r = extractIndex(b, g.uniqueRows, u);
  Value lo = tensor::ExtractOp::create(b, g.bounds, r);
  Value hi = tensor::ExtractOp::create(
      b, g.bounds, ValueRange{arith::AddIOp::create(b, r, cst(b, 1))});
  SmallVector<Value> slices;
  for (auto [out, tensor] : llvm::zip_equal(outs, current)) {
    offsets.push_back(out.offsets(b, u, r));
    slices.push_back(tensor::ExtractSliceOp::create(
        b, tensor, offsets.back(), out.sizes,
        unitStrides(b, out.sizes.size())));
  }
  return body(b, r, lo, hi, slices);
}

/// Runs `body` for each unique row, sequentially or as an scf.forall whose
/// iterations write disjoint slices.
static SmallVector<Value> forEachUniqueRow(ImplicitLocOpBuilder &b,
                                           const TrainProblem &p,
                                           const RowGroups &g,
                                           ArrayRef<RowOutput> outs,
                                           const RowBody &body) {
  SmallVector<Value> inits;
  for (const RowOutput &out : outs)
    inits.push_back(out.init);
  if (!p.parallel) {
    auto loop = scf::ForOp::create(
        b, cst(b, 0), g.numUnique, cst(b, 1), inits,
        [&](OpBuilder &nested, Location loc, Value u, ValueRange iter) {
          ImplicitLocOpBuilder ib(loc, nested);
          SmallVector<SmallVector<OpFoldResult>> offsets;
          SmallVector<Value> slices =
              rowIteration(ib, g, u, outs, iter, offsets, body);
          SmallVector<Value> results;
          for (auto [k, slice] : llvm::enumerate(slices))
            results.push_back(tensor::InsertSliceOp::create(
                ib, slice, iter[k], offsets[k], outs[k].sizes,
                unitStrides(ib, outs[k].sizes.size())));
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
      rowIteration(b, g, forall.getInductionVar(0), outs,
                   forall.getRegionIterArgs(), offsets, body);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [k, slice] : llvm::enumerate(slices))
    tensor::ParallelInsertSliceOp::create(
        b, slice, forall.getRegionIterArgs()[k], offsets[k], outs[k].sizes,
        unitStrides(b, outs[k].sizes.size()));
  return forall.getResults();
}

/// An output written a [1, row] slice per unique row, at row `r` (by
/// row) or at the unique row's position `u`.
static RowOutput rowSliceOutput(ImplicitLocOpBuilder &b, const TrainProblem &p,
                                Value init, bool atUniquePosition) {
  RowOutput out;
  out.init = init;
  out.offsets = [atUniquePosition](ImplicitLocOpBuilder &ob, Value u,
                                   Value r) {
    return SmallVector<OpFoldResult>{atUniquePosition ? u : r,
                                     ob.getIndexAttr(0)};
  };
  out.sizes = {b.getIndexAttr(1), getAsOpFoldResult(p.row)};
  return out;
}

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

SmallVector<Value> mlir::embbag::loops::buildTableGrad(ImplicitLocOpBuilder &b,
                                                       const TrainProblem &p,
                                                       const RowGroups &g,
                                                       bool sparse) {
  auto type = RankedTensorType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic}, p.storageType);
  Value init;
  if (sparse) {
    init = tensor::EmptyOp::create(b, type.getShape(), p.storageType,
                                   ValueRange{g.numUnique, p.row});
  } else {
    // Rows no position reads keep their zeros.
    Value zero = arith::ConstantOp::create(b, b.getZeroAttr(p.storageType));
    init = tensor::SplatOp::create(b, type, zero,
                                   ValueRange{p.numEmb, p.row});
  }
  RowOutput out = rowSliceOutput(b, p, init, sparse);
  SmallVector<Value> results = forEachUniqueRow(
      b, p, g, {out},
      [&](ImplicitLocOpBuilder &rb, Value, Value lo, Value hi,
          ValueRange slices) {
        return forEachChunk(
            rb, p, slices,
            [&](ImplicitLocOpBuilder &cb, Value col, Value mask,
                ValueRange iter) {
              Value acc = accumulateRow(cb, p, g, lo, hi, col, mask);
              return SmallVector<Value>{
                  writeVector(cb, acc, iter[0], cst(cb, 0), col, mask)};
            });
      });
  // The static sizes of the table's row (and of its rows, dense) back, for
  // the reshapes to the result types.
  auto tableType = cast<RankedTensorType>(p.table.getType());
  int64_t leading = sparse ? ShapedType::kDynamic : tableType.getDimSize(0);
  Value grad = tensor::CastOp::create(
      b, tableType.clone({leading, tableType.getDimSize(1)}), results[0]);
  if (!sparse)
    return {grad};
  Value rows = tensor::ExtractSliceOp::create(
      b, g.uniqueRows, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{getAsOpFoldResult(g.numUnique)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return {rows, grad};
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
      [&](ImplicitLocOpBuilder &cb, Value col, Value mask,
          ValueRange iter) {
        Value dy = readAccVector(cb, p, p.dy, bag, col, mask);
        Value row = readAccVector(cb, p, p.table, idx, col, mask);
        return SmallVector<Value>{
            vector::FMAOp::create(cb, dy, row, iter[0]).getResult()};
      })[0];
  return vector::ReductionOp::create(b, vector::CombiningKind::ADD, acc);
}

/// A loop over the positions read by a bag: `body` gets the position, its
/// bag and the iter_args; unread positions leave them as they are.
static SmallVector<Value>
forEachReadPosition(ImplicitLocOpBuilder &b, const TrainProblem &p,
                    ValueRange inits,
                    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &,
                                                    Value, Value, ValueRange)>
                        body) {
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numPositions, cst(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value j, ValueRange iter) {
        ImplicitLocOpBuilder ib(loc, nested);
        auto ifOp = scf::IfOp::create(
            ib, isRead(ib, p, j),
            [&](OpBuilder &n2, Location l2) {
              ImplicitLocOpBuilder tb(l2, n2);
              Value bag = tensor::ExtractOp::create(tb, p.bagOf, j);
              scf::YieldOp::create(tb, body(tb, j, bag, iter));
            },
            [&](OpBuilder &n2, Location l2) {
              scf::YieldOp::create(n2, l2, iter);
            });
        scf::YieldOp::create(ib, ifOp.getResults());
      });
  return loop.getResults();
}

Value mlir::embbag::loops::buildWeightsGrad(ImplicitLocOpBuilder &b,
                                            const TrainProblem &p) {
  Type wType = cast<ShapedType>(p.weights.getType()).getElementType();
  Value zeroW = arith::ConstantOp::create(b, b.getZeroAttr(wType));
  Value dw = splat1D(b, zeroW, p.numPositions);
  if (!p.isSqrtn()) {
    // sum: d(dy . sum_j w_j x_j) / dw_j = dy . x_j.
    return forEachReadPosition(
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
  SmallVector<Value> first = forEachReadPosition(
      b, p,
      ValueRange{splat1D(b, zero, p.numPositions), splat1D(b, zero, p.numBags)},
      [&](ImplicitLocOpBuilder &tb, Value j, Value bag, ValueRange iter) {
        Value d = dotWithDy(tb, p, j, bag);
        Value w = convertFloat(tb, tensor::ExtractOp::create(tb, p.weights, j),
                               p.accType);
        Value old = tensor::ExtractOp::create(tb, iter[1], bag);
        Value sum = arith::AddFOp::create(
            tb, old, arith::MulFOp::create(tb, w, d));
        return SmallVector<Value>{
            tensor::InsertOp::create(tb, d, iter[0], j).getResult(),
            tensor::InsertOp::create(tb, sum, iter[1], bag).getResult()};
      });
  return forEachReadPosition(
      b, p, ValueRange{dw},
      [&](ImplicitLocOpBuilder &tb, Value j, Value bag, ValueRange iter) {
        Value d = tensor::ExtractOp::create(tb, first[0], j);
        Value bigD = tensor::ExtractOp::create(tb, first[1], bag);
        Value s = tensor::ExtractOp::create(tb, p.scale, bag);
        Value w = convertFloat(tb, tensor::ExtractOp::create(tb, p.weights, j),
                               p.accType);
        Value s2 = arith::MulFOp::create(tb, s, s);
        Value s3 = arith::MulFOp::create(tb, s2, s);
        Value minus = arith::MulFOp::create(
            tb, arith::MulFOp::create(tb, w, bigD), s3);
        Value grad = arith::SubFOp::create(
            tb, arith::MulFOp::create(tb, s, d), minus);
        return SmallVector<Value>{
            tensor::InsertOp::create(tb, convertFloat(tb, grad, wType),
                                     iter[0], j)
                .getResult()};
      })[0];
}

/// sgd on one row: w -= lr * g, a vector at a time.
static SmallVector<Value> sgdRow(ImplicitLocOpBuilder &b, const TrainProblem &p,
                                 const RowGroups &g, Value lr, Value lo,
                                 Value hi, Value tableSlice) {
  auto vecType = VectorType::get({p.lanes}, p.accType);
  Value minusLr = vector::BroadcastOp::create(
      b, vecType, arith::NegFOp::create(b, lr));
  return forEachChunk(
      b, p, ValueRange{tableSlice},
      [&](ImplicitLocOpBuilder &cb, Value col, Value mask, ValueRange iter) {
        Value grad = accumulateRow(cb, p, g, lo, hi, col, mask);
        Value w = readAccVector(cb, p, iter[0], cst(cb, 0), col, mask);
        Value next = vector::FMAOp::create(cb, minusLr, grad, w);
        return SmallVector<Value>{
            writeVector(cb, next, iter[0], cst(cb, 0), col, mask)};
      });
}

/// Row-wise Adagrad on one row: the state grows by the mean of g^2 (a first
/// pass over the row), then w -= lr / (sqrt(state) + eps) * g (a second
/// pass, summing g again rather than storing it).
static SmallVector<Value> adagradRow(ImplicitLocOpBuilder &b,
                                     const TrainProblem &p, const RowGroups &g,
                                     Value lr, Value eps, Value lo, Value hi,
                                     Value tableSlice, Value stateSlice) {
  Value zero = arith::ConstantOp::create(b, b.getFloatAttr(p.accType, 0.0));
  Value sumSquares = forEachChunk(
      b, p, ValueRange{zero},
      [&](ImplicitLocOpBuilder &cb, Value col, Value mask, ValueRange iter) {
        Value grad = accumulateRow(cb, p, g, lo, hi, col, mask);
        Value squares = arith::MulFOp::create(cb, grad, grad);
        return SmallVector<Value>{vector::ReductionOp::create(
            cb, vector::CombiningKind::ADD, squares, iter[0])};
      })[0];
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
  Value step = arith::DivFOp::create(b, lr, denominator);
  SmallVector<Value> table = sgdRow(b, p, g, step, lo, hi, tableSlice);
  return {table[0], newState};
}

SmallVector<Value> mlir::embbag::loops::buildUpdate(
    ImplicitLocOpBuilder &b, const TrainProblem &p, const RowGroups &g,
    Value learningRate, Value epsilon, Value state) {
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
  return forEachUniqueRow(
      b, p, g, outs,
      [&](ImplicitLocOpBuilder &rb, Value, Value lo, Value hi,
          ValueRange slices) {
        if (!state)
          return sgdRow(rb, p, g, lr, lo, hi, slices[0]);
        return adagradRow(rb, p, g, lr, eps, lo, hi, slices[0], slices[1]);
      });
}
