//===- BagOpUtils.cpp - Rebuilding embbag ops on parts of their data ------===//

#include "BagOpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::bagops;

BagOperands bagops::getBagOperands(Operation *op) {
  return TypeSwitch<Operation *, BagOperands>(op)
      .Case([](PackedOp o) {
        BagOperands operands;
        operands.table = o.getTable();
        operands.indices = o.getIndices();
        operands.weights = o.getWeights();
        operands.paddingIdx = o.getPaddingIdx();
        operands.rowwise = o.getRowwiseAttr();
        return operands;
      })
      .Case([](OffsetsOp o) {
        return BagOperands{o.getTable(),
                           o.getIndices(),
                           o.getOffsets(),
                           {},
                           o.getDefaultIndex(),
                           o.getWeights(),
                           {},
                           o.getStaticDefaultIndexAttr(),
                           o.getIncludeLastOffset(),
                           o.getPaddingIdx(),
                           o.getRowwiseAttr()};
      })
      .Case([](SegmentsOp o) {
        return BagOperands{o.getTable(),
                           o.getIndices(),
                           o.getSegmentIds(),
                           o.getNumSegments(),
                           o.getDefaultIndex(),
                           o.getWeights(),
                           o.getStaticNumSegmentsAttr(),
                           o.getStaticDefaultIndexAttr(),
                           /*includeLastOffset=*/false,
                           o.getPaddingIdx(),
                           o.getRowwiseAttr()};
      });
}

BagOperands bagops::mapBagOperands(const BagOperands &o, IRMapping &map) {
  auto get = [&](Value v) { return v ? map.lookupOrDefault(v) : v; };
  return {get(o.table),
          get(o.indices),
          get(o.bags),
          get(o.numSegments),
          get(o.defaultIndex),
          get(o.weights),
          o.staticNumSegments,
          o.staticDefault,
          o.includeLastOffset,
          get(o.paddingIdx),
          o.rowwise};
}

void bagops::materializeStatics(OpBuilder &b, Location loc, BagOperands &o) {
  Type indexType = getElementTypeOrSelf(o.indices.getType());
  auto materialize = [&](IntegerAttr &attr, Value &value) {
    if (!attr)
      return;
    value = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(indexType, attr.getInt()));
    attr = nullptr;
  };
  materialize(o.staticNumSegments, o.numSegments);
  materialize(o.staticDefault, o.defaultIndex);
}

Value bagops::createBagOp(OpBuilder &b, Location loc, Operation *like,
                          Reduction reduction, const BagOperands &o) {
  Value result =
      TypeSwitch<Operation *, Value>(like)
          .Case([&](PackedOp) {
            return PackedOp::create(b, loc, reduction, o.table, o.indices,
                                    o.paddingIdx, o.weights, o.rowwise);
          })
          .Case([&](OffsetsOp) {
            return OffsetsOp::create(b, loc, reduction, o.table, o.indices,
                                     o.bags, o.includeLastOffset,
                                     o.defaultIndex, o.staticDefault,
                                     o.paddingIdx, o.weights, o.rowwise);
          })
          .Case([&](SegmentsOp) {
            return SegmentsOp::create(
                b, loc, reduction, o.table, o.indices, o.bags, o.numSegments,
                o.staticNumSegments, o.defaultIndex, o.staticDefault,
                o.paddingIdx, o.weights, o.rowwise);
          });
  if (!o.rowwise)
    return result;
  // The inferred type of a quantized table's result is f32 with D known
  // for 8-bit codes only: `like`'s result says D and f32 or f16.
  auto likeType = cast<RankedTensorType>(like->getResult(0).getType());
  auto inferred = cast<RankedTensorType>(result.getType());
  int64_t columns = likeType.isDynamicDim(1) ? inferred.getDimSize(1)
                                             : likeType.getDimSize(1);
  result.setType(RankedTensorType::get({inferred.getDimSize(0), columns},
                                       likeType.getElementType()));
  return result;
}

Reduction bagops::getReduction(Operation *op) {
  return TypeSwitch<Operation *, Reduction>(op)
      .Case<PackedOp, OffsetsOp, SegmentsOp>(
          [](auto o) { return o.getReduction(); });
}

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

// The others' ids go to one extra segment, which is dropped. An id outside
// [0, num_segments) becomes -1, so that the new op's runtime check stops the
// program as the whole op's would.
Value bagops::createSegmentsOnRange(OpBuilder &b, Location loc, Operation *op,
                                    const BagOperands &o, Value offset,
                                    Value size) {
  Type indexType = o.numSegments.getType();
  Value lo = castIndex(b, loc, offset, indexType);
  Value count = castIndex(b, loc, size, indexType);
  Value hi = arith::AddIOp::create(b, loc, lo, count);
  BagOperands part = o;
  part.bags = mapElementwise(
      b, loc, o.bags, indexType,
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> SmallVector<Value> {
        Value id = args[0];
        Value rebased = arith::SubIOp::create(nb, nloc, id, lo);
        Value valid = inRange(nb, nloc, id, constantOf(nb, nloc, indexType, 0),
                              o.numSegments);
        Value foreign = arith::SelectOp::create(
            nb, nloc, valid, count, constantOf(nb, nloc, indexType, -1));
        return {arith::SelectOp::create(nb, nloc, inRange(nb, nloc, id, lo, hi),
                                        rebased, foreign)};
      })[0];
  part.numSegments =
      arith::AddIOp::create(b, loc, count, constantOf(b, loc, indexType, 1));
  return createBagOp(b, loc, op, getReduction(op), part);
}
