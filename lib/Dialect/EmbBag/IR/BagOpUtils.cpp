//===- BagOpUtils.cpp - Rebuilding embbag ops on parts of their data ------===//

#include "BagOpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::bagops;

Value bagops::castIndex(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return arith::IndexCastOp::create(b, loc, type, v);
}

Value bagops::constantOf(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  return arith::ConstantOp::create(b, loc,
                                   b.getIntegerAttr(type, (int64_t)value));
}

Value bagops::inRange(OpBuilder &b, Location loc, Value v, Value lo, Value hi) {
  Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, lo);
  Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, hi);
  return arith::AndIOp::create(b, loc, ge, lt);
}

static OpFoldResult foldConstant(OpFoldResult ofr) {
  if (auto value = dyn_cast<Value>(ofr))
    return getAsOpFoldResult(value);
  return ofr;
}

Value bagops::sliceDim0(OpBuilder &b, Location loc, Value tensor,
                        OpFoldResult offset, OpFoldResult size) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  // Constants as attributes, for static slice sizes where they are known.
  offsets[0] = foldConstant(offset);
  sizes[0] = foldConstant(size);
  return tensor::ExtractSliceOp::create(b, loc, tensor, offsets, sizes,
                                        strides);
}

SmallVector<Value> bagops::mapElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, TypeRange elementTypes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  auto shape = cast<RankedTensorType>(inputs[0].getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, inputs[0]);
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (Type type : elementTypes) {
    inits.push_back(tensor::EmptyOp::create(b, loc, sizes, type));
    types.push_back(shape.clone(type));
  }
  SmallVector<AffineMap> maps(
      inputs.size() + inits.size(),
      AffineMap::getMultiDimIdentityMap(shape.getRank(), b.getContext()));
  SmallVector<utils::IteratorType> iterators(shape.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, types, inputs, inits, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc,
                                body(nb, nloc, args.take_front(inputs.size())));
      });
  return generic.getResults();
}

Value bagops::sliceColumns(OpBuilder &b, Location loc, Value table,
                           ArrayRef<OpFoldResult> offsets,
                           ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(table.getType());
  SmallVector<OpFoldResult> tileOffsets{b.getIndexAttr(0)};
  SmallVector<OpFoldResult> tileSizes{tensor::getMixedSize(b, loc, table, 0)};
  llvm::append_range(tileOffsets, offsets);
  llvm::append_range(tileSizes, sizes);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, table, tileOffsets, tileSizes,
                                        strides);
}

/// Whether `a` and `b` are the same size. The loop bounds and this model's
/// own sizes are computed apart (reifyResultShapes), so besides equal
/// constants and values this knows the ops that compute them.
static bool isSameSize(OpFoldResult a, OpFoldResult b) {
  if (isEqualConstantIntOrValue(a, b))
    return true;
  auto va = dyn_cast<Value>(a), vb = dyn_cast<Value>(b);
  if (!va || !vb)
    return false;
  if (auto da = va.getDefiningOp<tensor::DimOp>())
    if (auto db = vb.getDefiningOp<tensor::DimOp>())
      return da.getSource() == db.getSource() && da.getConstantIndex() &&
             da.getConstantIndex() == db.getConstantIndex();
  if (auto ca = va.getDefiningOp<arith::IndexCastOp>())
    if (auto cb = vb.getDefiningOp<arith::IndexCastOp>())
      return ca.getIn() == cb.getIn();
  return false;
}

bool bagops::coversAllBags(OpFoldResult offset, OpFoldResult size,
                           OpFoldResult batch) {
  return isConstantIntValue(offset, 0) && isSameSize(size, batch);
}

Value bagops::castToTileSizes(OpBuilder &b, Location loc, Value value,
                              ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes)
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  RankedTensorType expected = type.clone(shape);
  if (expected == type)
    return value;
  return tensor::CastOp::create(b, loc, expected, value);
}

bool bagops::coversAllColumns(ArrayRef<OpFoldResult> offsets,
                              ArrayRef<OpFoldResult> sizes,
                              ArrayRef<OpFoldResult> columns) {
  for (auto [offset, size, column] : llvm::zip_equal(offsets, sizes, columns))
    if (!isConstantIntValue(offset, 0) || !isSameSize(size, column))
      return false;
  return true;
}

SmallVector<Range> bagops::iterationDomain(OpBuilder &b,
                                           ArrayRef<OpFoldResult> sizes) {
  SmallVector<Range> domain;
  for (OpFoldResult size : sizes)
    domain.push_back(Range{b.getIndexAttr(0), size, b.getIndexAttr(1)});
  return domain;
}
