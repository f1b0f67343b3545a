//===- LoweringUtils.cpp - Helpers shared by the embbag lowerings ---------===//

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace mlir::embbag::lowering {

Value cst(ImplicitLocOpBuilder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, v);
}

Value toIndex(ImplicitLocOpBuilder &b, Value v) {
  return arith::IndexCastOp::create(b, b.getIndexType(), v);
}

Value toIndex(ImplicitLocOpBuilder &b, OpFoldResult v) {
  if (auto attr = dyn_cast<Attribute>(v))
    return cst(b, cast<IntegerAttr>(attr).getInt());
  return toIndex(b, cast<Value>(v));
}

Value extractIndex(ImplicitLocOpBuilder &b, Value tensor, ValueRange pos) {
  return toIndex(b, tensor::ExtractOp::create(b, tensor, pos));
}

Value dim(ImplicitLocOpBuilder &b, Value tensor, int64_t d) {
  return b.createOrFold<tensor::DimOp>(tensor, d);
}

Type getSignlessType(Type type) {
  Type element = getElementTypeOrSelf(type);
  auto intType = dyn_cast<IntegerType>(element);
  if (!intType || intType.isSignless())
    return type;
  Type signless = IntegerType::get(type.getContext(), intType.getWidth());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(signless);
  return signless;
}

Value castTo(ImplicitLocOpBuilder &b, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return UnrealizedConversionCastOp::create(b, type, v).getResult(0);
}

Value castToSignless(ImplicitLocOpBuilder &b, Value v) {
  return castTo(b, v, getSignlessType(v.getType()));
}

/// Builds the prefix of every check message: the op name and its location,
/// so that a stopped program says which op of which file broke.
static std::string checkPrefix(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << op->getName();
  if (auto fileLoc = op->getLoc()->findInstanceOf<FileLineColLoc>())
    os << " at " << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine()
       << ":" << fileLoc.getColumn();
  os << ": ";
  return s;
}

void emitAssert(ImplicitLocOpBuilder &b, Operation *op, Value ok,
                StringRef what) {
  auto check =
      cf::AssertOp::create(b, ok, b.getStringAttr(checkPrefix(op) + what));
  // The mark tells --convert-embbag-assert-to-llvm that this assert is one
  // of ours; a user's cf.assert keeps its upstream lowering.
  check->setAttr(EmbBagDialect::RuntimeCheckAttrHelper::getNameStr(),
                 b.getUnitAttr());
}

/// Reads `type` from the 1-D `tensor` at `pos`, in bounds, unmasked.
static Value readVector(ImplicitLocOpBuilder &b, VectorType type, Value tensor,
                        Value pos) {
  Value pad =
      arith::ConstantOp::create(b, b.getZeroAttr(type.getElementType()));
  auto map = AffineMap::getMinorIdentityMap(1, 1, b.getContext());
  return vector::TransferReadOp::create(
      b, type, tensor, ValueRange{pos}, AffineMapAttr::get(map), pad,
      /*mask=*/Value(), b.getBoolArrayAttr({true}));
}

/// Lanes of `elementType` in a vector of `vectorBits` bits (at least two).
static int64_t checkLanes(IntegerType elementType, unsigned vectorBits) {
  return std::max<int64_t>(2, vectorBits / elementType.getWidth());
}

/// Checks that the offsets are non-negative, non-decreasing and at most
/// `bound`: the first is non-negative, none is smaller than the one before
/// it (a vector of pairs at a time, two overlapping vector reads and one
/// compare), and the last is at most `bound`.
Value offsetsAreValid(ImplicitLocOpBuilder &b, Value offsets, Value bound,
                      unsigned vectorBits) {
  offsets = castToSignless(b, offsets);
  auto elementType = cast<IntegerType>(getElementTypeOrSelf(offsets.getType()));
  const int64_t lanes = checkLanes(elementType, vectorBits);
  auto vectorType = VectorType::get({lanes}, elementType);
  auto flagsType = VectorType::get({lanes}, b.getI1Type());
  Value count = dim(b, offsets, 0);
  Value hasOffsets =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, count, cst(b, 0));
  auto ifOp = scf::IfOp::create(
      b, hasOffsets,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        Value one = cst(tb, 1);
        Value pairs = arith::SubIOp::create(tb, count, one);
        Value rest = arith::RemUIOp::create(tb, pairs, cst(tb, lanes));
        Value vectorEnd = arith::SubIOp::create(tb, count, rest);
        Value noneDecrease = arith::ConstantOp::create(
            tb, flagsType, DenseElementsAttr::get(flagsType, false));
        auto vectorLoop = scf::ForOp::create(
            tb, one, vectorEnd, cst(tb, lanes), ValueRange{noneDecrease},
            [&](OpBuilder &n2, Location l2, Value i, ValueRange iterArgs) {
              ImplicitLocOpBuilder ib(l2, n2);
              Value current = readVector(ib, vectorType, offsets, i);
              Value previous = readVector(ib, vectorType, offsets,
                                          arith::SubIOp::create(ib, i, one));
              Value decreases = arith::CmpIOp::create(
                  ib, arith::CmpIPredicate::sgt, previous, current);
              scf::YieldOp::create(
                  ib,
                  arith::OrIOp::create(ib, iterArgs[0], decreases).getResult());
            });
        Value decreased = vector::ReductionOp::create(
            tb, vector::CombiningKind::OR, vectorLoop.getResult(0));
        auto scalarLoop = scf::ForOp::create(
            tb, vectorEnd, count, one, ValueRange{decreased},
            [&](OpBuilder &n2, Location l2, Value i, ValueRange iterArgs) {
              ImplicitLocOpBuilder ib(l2, n2);
              Value current = tensor::ExtractOp::create(ib, offsets, i);
              Value previous = tensor::ExtractOp::create(
                  ib, offsets, ValueRange{arith::SubIOp::create(ib, i, one)});
              Value decreases = arith::CmpIOp::create(
                  ib, arith::CmpIPredicate::sgt, previous, current);
              scf::YieldOp::create(
                  ib,
                  arith::OrIOp::create(ib, iterArgs[0], decreases).getResult());
            });
        Value zero = arith::ConstantOp::create(tb, tb.getZeroAttr(elementType));
        Value first = tensor::ExtractOp::create(tb, offsets, cst(tb, 0));
        Value last = tensor::ExtractOp::create(tb, offsets, ValueRange{pairs});
        // A bound beyond the element type's maximum bounds nothing.
        unsigned width = elementType.getWidth();
        Value limit = bound;
        if (width < 64)
          limit = arith::MinUIOp::create(
              tb, bound, cst(tb, (int64_t(1) << (width - 1)) - 1));
        limit = arith::IndexCastUIOp::create(tb, elementType, limit);
        Value ok = arith::AndIOp::create(
            tb,
            arith::CmpIOp::create(tb, arith::CmpIPredicate::sge, first, zero),
            arith::CmpIOp::create(tb, arith::CmpIPredicate::sle, last, limit));
        Value notDecreased =
            arith::XOrIOp::create(tb, scalarLoop.getResult(0),
                                  arith::ConstantIntOp::create(tb, 1, 1));
        scf::YieldOp::create(
            tb, arith::AndIOp::create(tb, ok, notDecreased).getResult());
      },
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(
            nested, loc,
            arith::ConstantIntOp::create(nested, loc, 1, 1).getResult());
      });
  return ifOp.getResult(0);
}

/// Checks that every index in positions [lb, ub) lies in [0, num_emb).
/// Negative indices become huge in the unsigned comparison.
Value allBelow(ImplicitLocOpBuilder &b, Value values, Value lb, Value ub,
               Value bound, unsigned vectorBits) {
  // The unsigned maximum of the values, a vector at a time (vpmaxud on
  // i32), then the last (ub - lb) % lanes one by one, against the bound
  // once: a negative value is a huge unsigned one, so it fails like a too
  // large one. i32 values are compared with the bound clamped to 2^31,
  // above which every non-negative i32 is in range.
  values = castToSignless(b, values);
  auto elementType = cast<IntegerType>(getElementTypeOrSelf(values.getType()));
  const int64_t lanes = checkLanes(elementType, vectorBits);
  auto vectorType = VectorType::get({lanes}, elementType);
  Value count = arith::SubIOp::create(b, ub, lb);
  Value rest = arith::RemUIOp::create(b, count, cst(b, lanes));
  Value vectorEnd =
      arith::AddIOp::create(b, lb, arith::SubIOp::create(b, count, rest));
  Value zeros = arith::ConstantOp::create(
      b, vectorType,
      DenseElementsAttr::get(vectorType, b.getZeroAttr(elementType)));
  auto vectorLoop = scf::ForOp::create(
      b, lb, vectorEnd, cst(b, lanes), ValueRange{zeros},
      [&](OpBuilder &nested, Location loc, Value i, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value v = readVector(ib, vectorType, values, i);
        scf::YieldOp::create(
            ib, arith::MaxUIOp::create(ib, iterArgs[0], v).getResult());
      });
  Value max = vector::ReductionOp::create(b, vector::CombiningKind::MAXUI,
                                          vectorLoop.getResult(0));
  auto scalarLoop = scf::ForOp::create(
      b, vectorEnd, ub, cst(b, 1), ValueRange{max},
      [&](OpBuilder &nested, Location loc, Value i, ValueRange iterArgs) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value v = tensor::ExtractOp::create(ib, values, i);
        scf::YieldOp::create(
            ib, arith::MaxUIOp::create(ib, iterArgs[0], v).getResult());
      });
  unsigned width = elementType.getWidth();
  Value limit = bound;
  if (width < 64)
    limit = arith::MinUIOp::create(b, bound, cst(b, int64_t(1) << (width - 1)));
  limit = arith::IndexCastUIOp::create(b, elementType, limit);
  Value below = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                      scalarLoop.getResult(0), limit);
  Value none =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, count, cst(b, 0));
  return arith::OrIOp::create(b, none, below);
}

Value isRowOrNone(ImplicitLocOpBuilder &b, Value row, Value numEmb) {
  // Unsigned, a negative row is huge.
  Value inRange =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row, numEmb);
  Value none =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, row, cst(b, -1));
  return arith::OrIOp::create(b, inRange, none);
}

/// Whether `shape` has a static 0 among dynamic dims: it holds nothing,
/// but a reshape of it infers a static 0 for a group of the 0 and a
/// dynamic dim, which the memref verifiers reject after bufferization.
static bool isZeroAmongDynamic(ArrayRef<int64_t> shape) {
  return llvm::is_contained(shape, 0) &&
         llvm::any_of(shape, ShapedType::isDynamic);
}

/// Flattens the table's row dimensions: [num_emb, d1, ..., dk] becomes
/// [num_emb, d1 * ... * dk] (a rank-1 table gets a row of one element).
Value flattenTable(ImplicitLocOpBuilder &b, Value table) {
  auto type = cast<RankedTensorType>(table.getType());
  int64_t rank = type.getRank();
  if (rank == 2)
    return table;
  if (rank == 1) {
    SmallVector<int64_t> shape{type.getDimSize(0), 1};
    SmallVector<OpFoldResult> sizes{
        tensor::getMixedSize(b, b.getLoc(), table, 0), b.getIndexAttr(1)};
    return tensor::ExpandShapeOp::create(b, type.clone(shape), table,
                                         {ReassociationIndices{0, 1}}, sizes);
  }
  ReassociationIndices rowDims;
  for (int64_t d = 1; d < rank; ++d)
    rowDims.push_back(d);
  // Rows of nothing that could not collapse (isZeroAmongDynamic): the table
  // is [num_emb, 0] of nothing.
  if (isZeroAmongDynamic(type.getShape().drop_front()))
    return tensor::EmptyOp::create(
        b,
        ArrayRef<OpFoldResult>{tensor::getMixedSize(b, b.getLoc(), table, 0),
                               b.getIndexAttr(0)},
        type.getElementType());
  return tensor::CollapseShapeOp::create(
      b, table, ArrayRef<ReassociationIndices>{{0}, rowDims});
}

/// Turns the [num_bags, row] kernel result into the op's result type.
Value flattenBags(ImplicitLocOpBuilder &b, Value packed) {
  // Indices that hold nothing and could not collapse (isZeroAmongDynamic,
  // 0x? into 0): nothing to read, so an empty tensor.
  auto type = cast<RankedTensorType>(packed.getType());
  if (isZeroAmongDynamic(type.getShape()))
    return tensor::EmptyOp::create(b, ArrayRef<int64_t>{0},
                                   type.getElementType());
  return tensor::CollapseShapeOp::create(
      b, packed, ArrayRef<ReassociationIndices>{{0, 1}});
}

Value unflattenResult(ImplicitLocOpBuilder &b, Value result,
                      RankedTensorType resultType, Value originalTable,
                      Value numBags) {
  // The reshapes take the static dims the kernel result and the table
  // actually have (a size that is static in the type must be given as a
  // constant); a final tensor.cast reaches the declared result type.
  auto sourceType = cast<RankedTensorType>(result.getType());
  auto tableType = cast<RankedTensorType>(originalTable.getType());
  int64_t rank = resultType.getRank();
  Value shaped = result;
  if (rank == 1) {
    shaped = tensor::CollapseShapeOp::create(
        b, result, ArrayRef<ReassociationIndices>{ReassociationIndices{0, 1}});
  } else if (rank > 2) {
    int64_t batch = sourceType.getDimSize(0);
    SmallVector<int64_t> shape{batch};
    SmallVector<OpFoldResult> sizes{ShapedType::isDynamic(batch)
                                        ? OpFoldResult(numBags)
                                        : OpFoldResult(b.getIndexAttr(batch))};
    ReassociationIndices rowDims;
    for (int64_t d = 1; d < rank; ++d) {
      shape.push_back(tableType.getDimSize(d));
      sizes.push_back(tensor::getMixedSize(b, b.getLoc(), originalTable, d));
      rowDims.push_back(d);
    }
    auto expandedType = sourceType.clone(shape);
    ArrayRef<int64_t> rowShape = ArrayRef<int64_t>(shape).drop_front();
    if (isZeroAmongDynamic(rowShape)) {
      // Rows of nothing, a static 0 among dynamic dims: the expansion of
      // their static 0 into a dynamic dim does not verify; nothing to move.
      shaped = tensor::EmptyOp::create(b, sizes, sourceType.getElementType());
    } else if (llvm::count_if(rowShape, ShapedType::isDynamic) <= 1) {
      shaped = tensor::ExpandShapeOp::create(
          b, expandedType, result, ArrayRef<ReassociationIndices>{{0}, rowDims},
          sizes);
    } else {
      // Upstream expand-strided-metadata crashes on a memref.expand_shape
      // with several dynamic sizes in one group; tensor.reshape avoids it.
      SmallVector<Value> sizeValues;
      for (OpFoldResult size : sizes)
        sizeValues.push_back(
            getValueOrCreateConstantIndexOp(b, b.getLoc(), size));
      Value shapeTensor = tensor::FromElementsOp::create(b, sizeValues);
      shaped = tensor::ReshapeOp::create(b, expandedType, result, shapeTensor);
    }
  }
  // A dynamic operand may not give the static result dims.
  if (shaped.getType() != resultType)
    shaped = tensor::CastOp::create(b, resultType, shaped);
  return shaped;
}

Type getAccumulatorType(Type storageType) {
  if (storageType.isF16() || storageType.isBF16())
    return Float32Type::get(storageType.getContext());
  return getSignlessType(storageType);
}

Value countDivisor(ImplicitLocOpBuilder &b, Value count) {
  return arith::IndexCastUIOp::create(
      b, b.getI64Type(), arith::MaxUIOp::create(b, count, cst(b, 1)));
}

Value divideByCount(ImplicitLocOpBuilder &b, Value acc, Value divisor,
                    bool isUnsigned) {
  Type type = acc.getType();
  auto vectorType = dyn_cast<VectorType>(type);
  auto splat = [&](Value scalar) -> Value {
    if (!vectorType)
      return scalar;
    return vector::BroadcastOp::create(b, vectorType.clone(scalar.getType()),
                                       scalar);
  };
  Type element = getElementTypeOrSelf(type);
  if (isa<FloatType>(element))
    return arith::DivFOp::create(
        b, acc, splat(arith::UIToFPOp::create(b, element, divisor)));
  // The wrapped sum divided by the true count, in at least 64 bits (the
  // count of an i8 bag may exceed 127; an i128 sum keeps its width).
  unsigned width = element.getIntOrFloatBitWidth();
  Type wideElement = b.getIntegerType(std::max(width, 64u));
  Type wideType =
      vectorType ? Type(vectorType.clone(wideElement)) : wideElement;
  bool narrow = width < 64;
  Value wide = acc;
  if (narrow)
    wide = isUnsigned ? arith::ExtUIOp::create(b, wideType, acc).getResult()
                      : arith::ExtSIOp::create(b, wideType, acc).getResult();
  if (width > 64)
    divisor = arith::ExtUIOp::create(b, wideElement, divisor);
  Value d = splat(divisor);
  Value q = isUnsigned ? arith::DivUIOp::create(b, wide, d).getResult()
                       : arith::DivSIOp::create(b, wide, d).getResult();
  return narrow ? arith::TruncIOp::create(b, type, q).getResult() : q;
}

bool isUnsignedElement(RankedTensorType type) {
  auto intType = dyn_cast<IntegerType>(type.getElementType());
  return intType && intType.isUnsigned();
}

void rewriteEach(Operation *root, function_ref<bool(Operation *)> filter,
                 const FrozenRewritePatternSet &patterns) {
  // Collected first: a rewrite replaces its op, which must not disturb the
  // walk. Unlike walkAndApplyPatterns, the walk also visits unreachable
  // blocks, so no op is left behind there.
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (filter(op))
      ops.push_back(op);
  });
  PatternApplicator applicator(patterns);
  applicator.applyDefaultCostModel();
  PatternRewriter rewriter(root->getContext());
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    // An op no pattern takes stays; the callers report what is left.
    (void)applicator.matchAndRewrite(op, rewriter);
  }
}

LogicalResult refuseTrainingOps(Operation *root, StringRef why) {
  bool found = false;
  root->walk([&](Operation *op) {
    if (!isTrainingOp(op))
      return;
    op->emitOpError(why);
    found = true;
  });
  return failure(found);
}

Value unflattenWeights(ImplicitLocOpBuilder &b, Value flat, Value weights) {
  auto type = cast<RankedTensorType>(weights.getType());
  if (type.getRank() == 1)
    return tensor::CastOp::create(b, type, flat);
  // tensor.reshape rather than expand_shape: the flat gradient's length is
  // dynamic while the weights' dims may both be static or both dynamic.
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(dim(b, weights, d));
  Value shape = tensor::FromElementsOp::create(b, sizes);
  return tensor::ReshapeOp::create(b, type, flat, shape);
}

/// The forward op of `op`, one of the training ops of its form `OpT`.
template <typename OpT>
static BagOpInterface buildForwardOf(ImplicitLocOpBuilder &b, OpT op) {
  Type result = op.getDy().getType();
  if constexpr (std::is_same_v<OpT, PackedGradOp> ||
                std::is_same_v<OpT, PackedUpdateOp>) {
    return PackedOp::create(b, result, op.getReductionAttr(), op.getTable(),
                            op.getIndices(), op.getPaddingIdx(),
                            op.getWeights(), op.getRowwiseAttr());
  } else if constexpr (std::is_same_v<OpT, OffsetsGradOp> ||
                       std::is_same_v<OpT, OffsetsUpdateOp>) {
    return OffsetsOp::create(
        b, result, op.getReductionAttr(), op.getTable(), op.getIndices(),
        op.getOffsets(), op.getIncludeLastOffsetAttr(), op.getDefaultIndex(),
        op.getStaticDefaultIndexAttr(), op.getPaddingIdx(), op.getWeights(),
        op.getRowwiseAttr());
  } else {
    return SegmentsOp::create(
        b, result, op.getReductionAttr(), op.getTable(), op.getIndices(),
        op.getSegmentIds(), op.getNumSegments(), op.getStaticNumSegmentsAttr(),
        op.getDefaultIndex(), op.getStaticDefaultIndexAttr(),
        op.getPaddingIdx(), op.getWeights(), op.getRowwiseAttr());
  }
}

BagOpInterface buildForwardOp(ImplicitLocOpBuilder &b, Operation *trainingOp) {
  return TypeSwitch<Operation *, BagOpInterface>(trainingOp)
      .Case<PackedGradOp, PackedUpdateOp, OffsetsGradOp, OffsetsUpdateOp,
            SegmentsGradOp, SegmentsUpdateOp>(
          [&](auto op) { return buildForwardOf(b, op); })
      .Default([](Operation *) -> BagOpInterface {
        llvm_unreachable("not a training op");
      });
}

} // namespace mlir::embbag::lowering

TypedAttr mlir::embbag::lowering::maxIdentity(Builder &b, Type accType,
                                              bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(accType))
    return b.getFloatAttr(
        floatType,
        APFloat::getInf(floatType.getFloatSemantics(), /*Negative=*/true));
  unsigned width = accType.getIntOrFloatBitWidth();
  return b.getIntegerAttr(accType, isUnsigned
                                       ? APInt::getZero(width)
                                       : APInt::getSignedMinValue(width));
}

bool mlir::embbag::lowering::isSurelyEmpty(ArrayRef<OpFoldResult> sizes) {
  return llvm::any_of(
      sizes, [](OpFoldResult size) { return isConstantIntValue(size, 0); });
}

static SmallVector<OpFoldResult> unitStrides(Builder &b, size_t rank) {
  return SmallVector<OpFoldResult>(rank, b.getIndexAttr(1));
}

Value mlir::embbag::lowering::extractSliceOrEmpty(
    ImplicitLocOpBuilder &b, Value source, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, RankedTensorType type) {
  if (!isSurelyEmpty(sizes)) {
    if (type)
      return tensor::ExtractSliceOp::create(b, type, source, offsets, sizes,
                                            unitStrides(b, sizes.size()));
    return tensor::ExtractSliceOp::create(b, source, offsets, sizes,
                                          unitStrides(b, sizes.size()));
  }
  SmallVector<OpFoldResult> kept;
  int64_t toDrop = type ? int64_t(sizes.size()) - type.getRank() : 0;
  for (OpFoldResult size : sizes) {
    if (toDrop > 0 && isConstantIntValue(size, 1)) {
      --toDrop;
      continue;
    }
    kept.push_back(size);
  }
  return tensor::EmptyOp::create(b, kept, getElementTypeOrSelf(source));
}

Value mlir::embbag::lowering::insertSliceUnlessEmpty(
    ImplicitLocOpBuilder &b, Value slice, Value dest,
    ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  if (isSurelyEmpty(sizes))
    return dest;
  return tensor::InsertSliceOp::create(b, slice, dest, offsets, sizes,
                                       unitStrides(b, sizes.size()));
}

void mlir::embbag::lowering::parallelInsertSliceUnlessEmpty(
    ImplicitLocOpBuilder &b, Value slice, Value dest,
    ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  if (!isSurelyEmpty(sizes))
    tensor::ParallelInsertSliceOp::create(b, slice, dest, offsets, sizes,
                                          unitStrides(b, sizes.size()));
}

Value mlir::embbag::lowering::lowerBound(
    ImplicitLocOpBuilder &b, Value n, Value target,
    function_ref<Value(ImplicitLocOpBuilder &, Value)> key) {
  Type index = b.getIndexType();
  auto loop = scf::WhileOp::create(
      b, TypeRange{index, index}, ValueRange{cst(b, 0), n},
      [&](OpBuilder &nested, Location loc, ValueRange range) {
        ImplicitLocOpBuilder wb(loc, nested);
        Value more = arith::CmpIOp::create(wb, arith::CmpIPredicate::ult,
                                           range[0], range[1]);
        scf::ConditionOp::create(wb, more, range);
      },
      [&](OpBuilder &nested, Location loc, ValueRange range) {
        ImplicitLocOpBuilder wb(loc, nested);
        Value lo = range[0], hi = range[1];
        // lo + (hi - lo) / 2: no overflow, and lo <= mid < hi.
        Value mid = arith::AddIOp::create(
            wb, lo,
            arith::DivUIOp::create(wb, arith::SubIOp::create(wb, hi, lo),
                                   cst(wb, 2)));
        Value below = arith::CmpIOp::create(wb, arith::CmpIPredicate::slt,
                                            key(wb, mid), target);
        Value next = arith::AddIOp::create(wb, mid, cst(wb, 1));
        scf::YieldOp::create(
            wb, ValueRange{arith::SelectOp::create(wb, below, next, lo),
                           arith::SelectOp::create(wb, below, hi, mid)});
      });
  return loop.getResult(0);
}

Value mlir::embbag::lowering::maximum(ImplicitLocOpBuilder &b, Value lhs,
                                      Value rhs, bool isUnsigned) {
  if (isa<FloatType>(getElementTypeOrSelf(lhs.getType())))
    return arith::MaximumFOp::create(b, lhs, rhs);
  if (isUnsigned)
    return arith::MaxUIOp::create(b, lhs, rhs);
  return arith::MaxSIOp::create(b, lhs, rhs);
}

Value mlir::embbag::lowering::sqrtnDivisor(
    ImplicitLocOpBuilder &b, Value sumOfSquares, Value count,
    function_ref<Value(ImplicitLocOpBuilder &, Value)> sqrt) {
  Value isEmpty =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, count, cst(b, 0));
  Value one =
      arith::ConstantOp::create(b, b.getFloatAttr(sumOfSquares.getType(), 1.0));
  Value root = sqrt ? sqrt(b, sumOfSquares)
                    : math::SqrtOp::create(b, sumOfSquares).getResult();
  return arith::SelectOp::create(b, isEmpty, one, root);
}

Value mlir::embbag::lowering::divideBy(ImplicitLocOpBuilder &b, Value acc,
                                       Value divisor) {
  if (auto vectorType = dyn_cast<VectorType>(acc.getType()))
    divisor = vector::BroadcastOp::create(b, vectorType, divisor);
  return arith::DivFOp::create(b, acc, divisor);
}
