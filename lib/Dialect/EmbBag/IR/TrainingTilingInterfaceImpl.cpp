//===- TrainingTilingInterfaceImpl.cpp - Tiling of the gradient ops -------===//
//
// TilingInterface and PartialReductionOpInterface for embbag.packed_grad,
// embbag.offsets_grad and embbag.segments_grad (dense gradients). Their
// loops are `dy`'s dimensions
//
//   [bag, column_1 .. column_k]          for a table [num_emb, d_1 .. d_k]
//
// The columns are parallel: a tile of them is the op on those columns of
// the table and of `dy`, whose table gradient is the same columns of the
// whole op's. The bags are a reduction: every bag adds into the rows it
// reads, so a tile of bags gives a table-shaped partial gradient. Tiling
// them is upstream's partial-reduction tiling
// (`transform.structured.tile_reduction_using_for`):
//
//   init:  zeros of the table's shape (f32 for an f16 or bf16 table), and
//          of the weights' shape
//   tile:  the op on the tile's bags (BagOperands sliced by sliceOnBags, as
//          the forward ops' tiles) and `dy` rows; its table gradient is
//          added into the accumulator's tile in place (a linalg.generic),
//          its weights gradient written over the tile's positions
//   merge: the table gradient's accumulator converted to its type (a
//          rounding to f16 or bf16, else an identity that canonicalization
//          erases); the weights gradient's is the result
//
// A segments tile has one extra segment holding the other tiles' ids; its
// `dy` row is zeros, so it adds nothing, and only the tile's own positions
// take its weights gradient. The weights gradient sums over the columns,
// so a weighted op is tiled over its bags only. `sparse` gradients (a
// union of rows across tiles) are not tiled. docs/Bufferization.md,
// "Tiling the gradients".
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"
#include "embbag/Dialect/EmbBag/IR/TilingInterfaceImpl.h"

#include "BagOpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::bagops;

namespace {

/// What the models need of the three gradient ops, apart from what ODS
/// generates alike for them.
template <typename OpT> struct GradOpTraits;

/// The operands of every form, by role, and the default index of the
/// forms that have one (offsets, segments).
template <typename OpT> BagOperands getCommonOperands(OpT op) {
  BagOperands o;
  o.table = op.getTable();
  o.indices = op.getIndices();
  o.paddingIdx = op.getPaddingIdx();
  o.weights = op.getWeights();
  if constexpr (!std::is_same_v<OpT, PackedGradOp>) {
    o.defaultIndex = op.getDefaultIndex();
    o.staticDefault = op.getStaticDefaultIndexAttr();
  }
  return o;
}

template <> struct GradOpTraits<PackedGradOp> {
  static constexpr BagForm form = BagForm::Packed;
  static BagOperands getOperands(PackedGradOp op) {
    return getCommonOperands(op);
  }
  static Operation *create(OpBuilder &b, Location loc, PackedGradOp like,
                           TypeRange types, Value dy, const BagOperands &o) {
    return PackedGradOp::create(b, loc, types, like.getReductionAttr(), dy,
                                o.table, o.indices, o.paddingIdx, o.weights,
                                /*rowwise=*/nullptr);
  }
};

template <> struct GradOpTraits<OffsetsGradOp> {
  static constexpr BagForm form = BagForm::Offsets;
  static BagOperands getOperands(OffsetsGradOp op) {
    BagOperands o = getCommonOperands(op);
    o.bags = op.getOffsets();
    o.includeLastOffset = op.getIncludeLastOffset();
    return o;
  }
  static Operation *create(OpBuilder &b, Location loc, OffsetsGradOp like,
                           TypeRange types, Value dy, const BagOperands &o) {
    return OffsetsGradOp::create(
        b, loc, types, like.getReductionAttr(), dy, o.table, o.indices, o.bags,
        o.includeLastOffset ? b.getUnitAttr() : nullptr, o.defaultIndex,
        o.staticDefault, o.paddingIdx, o.weights, /*rowwise=*/nullptr);
  }
};

template <> struct GradOpTraits<SegmentsGradOp> {
  static constexpr BagForm form = BagForm::Segments;
  static BagOperands getOperands(SegmentsGradOp op) {
    BagOperands o = getCommonOperands(op);
    o.bags = op.getSegmentIds();
    o.numSegments = op.getNumSegments();
    o.staticNumSegments = op.getStaticNumSegmentsAttr();
    return o;
  }
  static Operation *create(OpBuilder &b, Location loc, SegmentsGradOp like,
                           TypeRange types, Value dy, const BagOperands &o) {
    return SegmentsGradOp::create(
        b, loc, types, like.getReductionAttr(), dy, o.table, o.indices, o.bags,
        o.numSegments, o.staticNumSegments, o.defaultIndex, o.staticDefault,
        o.paddingIdx, o.weights, /*rowwise=*/nullptr);
  }
};

/// The loop sizes: `dy`'s dimensions.
SmallVector<OpFoldResult> getLoopSizes(OpBuilder &b, Location loc, Value dy) {
  return tensor::getMixedSizes(b, loc, dy);
}

/// The type the table gradient is accumulated in across tiles: f32 for
/// f16 and bf16 tables (rounded once, by the merge), else the table's.
Type getAccumulatorType(Value table) {
  Type element = getElementTypeOrSelf(table.getType());
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

/// Zeros of `like`'s sizes, of element type `element`.
Value zerosLike(OpBuilder &b, Location loc, Value like, Type element) {
  Value empty = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, like), element);
  Value zero = constantOf(b, loc, element, 0.0);
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

/// `v` (a float) converted to `type`, or `v` itself.
Value convertFloat(OpBuilder &b, Location loc, Value v, Type type) {
  unsigned from = v.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (v.getType() == type)
    return v;
  if (from < to)
    return arith::ExtFOp::create(b, loc, type, v);
  return arith::TruncFOp::create(b, loc, type, v);
}

/// An elementwise linalg.generic over `ins` into `out`, whose body maps the
/// ins' and out's elements to the new out element.
Value mapInto(OpBuilder &b, Location loc, ValueRange ins, Value out,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto type = cast<RankedTensorType>(out.getType());
  SmallVector<AffineMap> maps(
      ins.size() + 1,
      AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext()));
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ins, ValueRange{out}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
             })
      .getResult(0);
}

/// Where the table gradient's tile lies: every row, the tile's columns.
void getTableGradTile(OpBuilder &b, Value table, ArrayRef<OpFoldResult> offsets,
                      ArrayRef<OpFoldResult> sizes,
                      SmallVector<OpFoldResult> &resultOffsets,
                      SmallVector<OpFoldResult> &resultSizes) {
  resultOffsets.assign({b.getIndexAttr(0)});
  llvm::append_range(resultOffsets, offsets.drop_front());
  resultSizes.assign({tensor::getMixedSize(b, table.getLoc(), table, 0)});
  llvm::append_range(resultSizes, sizes.drop_front());
}

/// The whole of `value`'s shape.
void getWhole(OpBuilder &b, Value value, SmallVector<OpFoldResult> &offsets,
              SmallVector<OpFoldResult> &sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  offsets.assign(type.getRank(), b.getIndexAttr(0));
  sizes = tensor::getMixedSizes(b, value.getLoc(), value);
}

/// `dy`'s rows [first, first + count) and the tile's columns.
Value sliceDy(OpBuilder &b, Location loc, Value dy,
              ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, dy, offsets, sizes, strides);
}

/// `dy` with one more row of zeros: the extra segment of a segments tile.
Value appendZeroRow(OpBuilder &b, Location loc, Value dy) {
  auto type = cast<RankedTensorType>(dy.getType());
  SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> high = low;
  high[0] = b.getIndexAttr(1);
  SmallVector<int64_t> shape(type.getShape());
  if (!ShapedType::isDynamic(shape[0]))
    ++shape[0];
  Value zero = constantOf(b, loc, type.getElementType(), 0.0);
  return tensor::PadOp::create(b, loc, type.clone(shape), dy, low, high, zero);
}

template <typename OpT>
struct GradTilingModel
    : public TilingInterface::ExternalModel<GradTilingModel<OpT>, OpT> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    auto grad = cast<OpT>(op);
    int64_t rank = grad.getDy().getType().getRank();
    // The weights gradient sums each position's row over the columns.
    SmallVector<utils::IteratorType> types(
        rank, grad.getWeights() ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    types[0] = utils::IteratorType::reduction;
    return types;
  }

  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    return iterationDomain(
        b, getLoopSizes(b, op->getLoc(), cast<OpT>(op).getDy()));
  }

  /// A tile of the columns, with every bag: the op on those columns.
  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    auto grad = cast<OpT>(op);
    if (failed(checkTile(grad, b, offsets, sizes)))
      return failure();
    SmallVector<OpFoldResult> loopSizes =
        getLoopSizes(b, op->getLoc(), grad.getDy());
    if (!coversAllBags(offsets[0], sizes[0], loopSizes[0]))
      return op->emitOpError()
             << "tiled over its bags adds each tile's gradient into the "
                "rows it reads: tile the bags with a partial reduction "
                "(transform.structured.tile_reduction_using_for), or only "
                "the columns (tile size 0 for dimension 0)";
    return tileOnBags(grad, b, offsets, sizes, /*acc=*/{});
  }

  LogicalResult
  getResultTilePosition(Operation *op, OpBuilder &b, unsigned resultNumber,
                        ArrayRef<OpFoldResult> offsets,
                        ArrayRef<OpFoldResult> sizes,
                        SmallVector<OpFoldResult> &resultOffsets,
                        SmallVector<OpFoldResult> &resultSizes) const {
    getResultTile(cast<OpT>(op), b, resultNumber, offsets, sizes, resultOffsets,
                  resultSizes);
    return success();
  }

  /// Where result `resultNumber` of a tile lies, in either tiling: the
  /// table gradient's tile, or the whole weights gradient (the tile writes
  /// its positions into it).
  static void getResultTile(OpT grad, OpBuilder &b, unsigned resultNumber,
                            ArrayRef<OpFoldResult> offsets,
                            ArrayRef<OpFoldResult> sizes,
                            SmallVector<OpFoldResult> &resultOffsets,
                            SmallVector<OpFoldResult> &resultSizes) {
    if (resultNumber == 0)
      getTableGradTile(b, grad.getTable(), offsets, sizes, resultOffsets,
                       resultSizes);
    else
      getWhole(b, grad.getWeights(), resultOffsets, resultSizes);
  }

  static LogicalResult refuseSparse(OpT grad) {
    return grad->emitOpError()
           << "with `sparse` cannot be tiled: the tiles' unique rows would "
              "need a union; tile the dense gradient";
  }

  /// Refuses the tiles this model cannot build, with the reason.
  static LogicalResult checkTile(OpT grad, OpBuilder &b,
                                 ArrayRef<OpFoldResult> offsets,
                                 ArrayRef<OpFoldResult> sizes) {
    if (grad.getSparse())
      return refuseSparse(grad);
    SmallVector<OpFoldResult> loopSizes =
        getLoopSizes(b, grad.getLoc(), grad.getDy());
    if (grad.getWeights() &&
        !coversAllColumns(offsets.drop_front(), sizes.drop_front(),
                          ArrayRef(loopSizes).drop_front()))
      return grad->emitOpError()
             << "with weights cannot be tiled over its columns: the weights "
                "gradient sums over them; tile its bags only";
    return success();
  }

  /// The op on the tile's bags and columns. With accumulators `acc` (the
  /// loop's partial gradients) the tile's table gradient is added to the
  /// first and its weights gradient written into the second; without, the
  /// tile covers every bag and its results are the tile's values.
  static FailureOr<TilingResult> tileOnBags(OpT grad, OpBuilder &b,
                                            ArrayRef<OpFoldResult> offsets,
                                            ArrayRef<OpFoldResult> sizes,
                                            ValueRange acc) {
    Location loc = grad.getLoc();
    BagOperands o = GradOpTraits<OpT>::getOperands(grad);
    SmallVector<Operation *> slices;
    SmallVector<OpFoldResult> loopSizes = getLoopSizes(b, loc, grad.getDy());
    if (!coversAllColumns(offsets.drop_front(), sizes.drop_front(),
                          ArrayRef(loopSizes).drop_front())) {
      o.table = sliceColumns(b, loc, o.table, offsets.drop_front(),
                             sizes.drop_front());
      slices.push_back(o.table.getDefiningOp());
    }
    Value dy = sliceDy(b, loc, grad.getDy(), offsets, sizes);
    slices.push_back(dy.getDefiningOp());
    BagsPart part{o, b.getIndexAttr(0)};
    if (!acc.empty()) {
      part =
          sliceOnBags(b, loc, GradOpTraits<OpT>::form, o, offsets[0], sizes[0]);
      if (GradOpTraits<OpT>::form == BagForm::Segments)
        dy = appendZeroRow(b, loc, dy);
    }
    SmallVector<Type> types{part.operands.table.getType()};
    if (part.operands.weights)
      types.push_back(part.operands.weights.getType());
    Operation *tiled =
        GradOpTraits<OpT>::create(b, loc, grad, types, dy, part.operands);
    SmallVector<Value> values(tiled->getResults());
    if (!acc.empty())
      values = accumulate(b, loc, grad, part, values, acc, offsets, sizes);
    return TilingResult{{tiled}, values, slices};
  }

  /// The accumulators after a tile of bags: its table gradient added, its
  /// weights gradient written over its positions.
  static SmallVector<Value> accumulate(OpBuilder &b, Location loc, OpT grad,
                                       const BagsPart &part,
                                       ValueRange tileGrads, ValueRange acc,
                                       ArrayRef<OpFoldResult> offsets,
                                       ArrayRef<OpFoldResult> sizes) {
    SmallVector<OpFoldResult> tileOffsets, tileSizes;
    getTableGradTile(b, grad.getTable(), offsets, sizes, tileOffsets,
                     tileSizes);
    SmallVector<OpFoldResult> strides(tileOffsets.size(), b.getIndexAttr(1));
    Value accTile = tensor::ExtractSliceOp::create(b, loc, acc[0], tileOffsets,
                                                   tileSizes, strides);
    Type accType = getElementTypeOrSelf(accTile.getType());
    Value sum =
        mapInto(b, loc, tileGrads[0], accTile,
                [&](OpBuilder &nb, Location nloc, ValueRange v) -> Value {
                  return arith::AddFOp::create(
                      nb, nloc, convertFloat(nb, nloc, v[0], accType), v[1]);
                });
    // The accumulator's tile is inserted back at tileOffsets by the loop.
    SmallVector<Value> values{sum};
    if (tileGrads.size() > 1)
      values.push_back(
          writeWeightsGrad(b, loc, part, tileGrads[1], acc[1], sizes[0]));
    return values;
  }

  /// The weights gradient `acc` with the tile's positions set to `tileGrad`.
  static Value writeWeightsGrad(OpBuilder &b, Location loc,
                                const BagsPart &part, Value tileGrad, Value acc,
                                OpFoldResult count) {
    if (GradOpTraits<OpT>::form != BagForm::Segments) {
      SmallVector<OpFoldResult> offsets, sizes;
      getWhole(b, tileGrad, offsets, sizes);
      offsets[0] = part.firstIndex;
      SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
      return tensor::InsertSliceOp::create(b, loc, tileGrad, acc, offsets,
                                           sizes, strides);
    }
    // Every position is in a segments tile; its own have ids in [0, count).
    Value ids = part.operands.bags;
    Type idType = getElementTypeOrSelf(ids.getType());
    Value lo = constantOf(b, loc, idType, 0);
    Value hi = castIndex(b, loc, getValueOrCreateConstantIndexOp(b, loc, count),
                         idType);
    Type element = getElementTypeOrSelf(acc.getType());
    return mapElementwise(
        b, loc, ValueRange{ids, tileGrad, acc}, element,
        [&](OpBuilder &nb, Location nloc, ValueRange v) -> SmallVector<Value> {
          return {arith::SelectOp::create(
              nb, nloc, inRange(nb, nloc, v[0], lo, hi), v[1], v[2])};
        })[0];
  }
};

template <typename OpT>
struct GradPartialReductionModel
    : public PartialReductionOpInterface::ExternalModel<
          GradPartialReductionModel<OpT>, OpT> {
  FailureOr<SmallVector<Value>>
  generateInitialTensorForPartialReduction(Operation *op, OpBuilder &b,
                                           Location loc, ArrayRef<OpFoldResult>,
                                           const SetVector<unsigned> &) const {
    auto grad = cast<OpT>(op);
    if (grad.getSparse())
      return GradTilingModel<OpT>::refuseSparse(grad);
    Value table = grad.getTable();
    SmallVector<Value> inits{
        zerosLike(b, loc, table, getAccumulatorType(table))};
    if (Value weights = grad.getWeights())
      inits.push_back(
          zerosLike(b, loc, weights, getElementTypeOrSelf(weights.getType())));
    return inits;
  }

  FailureOr<TilingResult> tileToPartialReduction(
      Operation *op, OpBuilder &b, Location, ReductionTilingStrategy strategy,
      ValueRange init, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, const SetVector<unsigned> &,
      ArrayRef<OpFoldResult>) const {
    auto grad = cast<OpT>(op);
    if (strategy != ReductionTilingStrategy::PartialReductionOuterReduction)
      return grad->emitOpError()
             << "is tiled over its bags by a loop over the bags "
                "(tile_reduction_using_for), not over parallel partials";
    using Model = GradTilingModel<OpT>;
    if (failed(Model::checkTile(grad, b, offsets, sizes)))
      return failure();
    return Model::tileOnBags(grad, b, offsets, sizes, init);
  }

  /// The table gradient's accumulator converted to the result's type: a
  /// rounding of an f32 accumulator to f16 or bf16, else a copy that
  /// canonicalization erases (an identity linalg.generic), kept so that
  /// the transform op returns its merge handle as for upstream's ops. The
  /// weights gradient's accumulator is the result.
  FailureOr<MergeResult> mergeReductions(Operation *op, OpBuilder &b,
                                         Location loc, ValueRange partialReduce,
                                         const SetVector<unsigned> &) const {
    Value partial = partialReduce[0];
    Type element = getElementTypeOrSelf(op->getResult(0).getType());
    Value empty = tensor::EmptyOp::create(
        b, loc, tensor::getMixedSizes(b, loc, partial), element);
    Value merged =
        mapInto(b, loc, partial, empty,
                [&](OpBuilder &nb, Location nloc, ValueRange v) -> Value {
                  return convertFloat(nb, nloc, v[0], element);
                });
    MergeResult merge{{merged.getDefiningOp()}, {merged}};
    llvm::append_range(merge.replacements, partialReduce.drop_front());
    return merge;
  }

  LogicalResult getPartialResultTilePosition(
      Operation *op, OpBuilder &b, unsigned resultNumber,
      ReductionTilingStrategy, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, const SetVector<unsigned> &,
      ArrayRef<OpFoldResult>, SmallVector<OpFoldResult> &resultOffsets,
      SmallVector<OpFoldResult> &resultSizes) const {
    GradTilingModel<OpT>::getResultTile(cast<OpT>(op), b, resultNumber, offsets,
                                        sizes, resultOffsets, resultSizes);
    return success();
  }
};

template <typename OpT> void attachGradModels(MLIRContext *ctx) {
  OpT::template attachInterface<GradTilingModel<OpT>>(*ctx);
  OpT::template attachInterface<GradPartialReductionModel<OpT>>(*ctx);
}

} // namespace

void mlir::embbag::registerTrainingTilingInterfaceExternalModels(
    MLIRContext *ctx) {
  attachGradModels<PackedGradOp>(ctx);
  attachGradModels<OffsetsGradOp>(ctx);
  attachGradModels<SegmentsGradOp>(ctx);
}
