//===- BagOpInterface.cpp - What a bag op is ------------------------------===//
//
// The implementation of BagOpInterface (EmbBagInterfaces.td): the operands
// by role, the bounds of bag b in every form, and the op rebuilt on other
// operands or on a range of its bags. This file is the one place that
// knows the three ops apart; the passes ask the interface.
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"
#include "embbag/Dialect/EmbBag/IR/RuntimeContract.h"

#include "BagOpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::bagops;

#include "embbag/Dialect/EmbBag/IR/EmbBagInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// BagOperands
//===----------------------------------------------------------------------===//

BagOperands BagOperands::map(function_ref<Value(Value)> fn) const {
  auto get = [&](Value v) { return v ? fn(v) : v; };
  BagOperands mapped = *this;
  mapped.table = get(table);
  mapped.indices = get(indices);
  mapped.bags = get(bags);
  mapped.numSegments = get(numSegments);
  mapped.defaultIndex = get(defaultIndex);
  mapped.paddingIdx = get(paddingIdx);
  mapped.weights = get(weights);
  return mapped;
}

void BagOperands::materializeStatics(OpBuilder &b, Location loc) {
  Type indexType = getElementTypeOrSelf(indices.getType());
  auto materialize = [&](IntegerAttr &attr, Value &value) {
    if (!attr)
      return;
    value = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(indexType, attr.getInt()));
    attr = nullptr;
  };
  materialize(staticNumSegments, numSegments);
  materialize(staticDefault, defaultIndex);
}

BagOperands BagOpInterface::getBagOperands() {
  BagOperands o;
  o.table = getTable();
  o.indices = getIndices();
  o.bags = getBags();
  o.includeLastOffset = getIncludeLastOffset();
  if (OpFoldResult n = getMixedNumSegments()) {
    o.numSegments = dyn_cast<Value>(n);
    o.staticNumSegments =
        dyn_cast_if_present<IntegerAttr>(dyn_cast<Attribute>(n));
  }
  if (std::optional<OpFoldResult> d = getMixedDefaultIndex()) {
    o.defaultIndex = dyn_cast<Value>(*d);
    o.staticDefault = dyn_cast_if_present<IntegerAttr>(dyn_cast<Attribute>(*d));
  }
  o.paddingIdx = getPaddingIdx();
  o.weights = getWeights();
  o.rowwise = getRowwiseAttr();
  return o;
}

//===----------------------------------------------------------------------===//
// Creating ops
//===----------------------------------------------------------------------===//

/// `created` with the result type of `like` where the inferred type cannot
/// know it: a quantized table's result says D (for 4- and 2-bit codes) and
/// f32 or f16.
static Value keepQuantizedResultType(Operation *like, Value created,
                                     TypeAttr rowwise) {
  if (!rowwise)
    return created;
  auto likeType = cast<RankedTensorType>(like->getResult(0).getType());
  auto inferred = cast<RankedTensorType>(created.getType());
  int64_t columns = likeType.isDynamicDim(1) ? inferred.getDimSize(1)
                                             : likeType.getDimSize(1);
  created.setType(RankedTensorType::get({inferred.getDimSize(0), columns},
                                        likeType.getElementType()));
  return created;
}

Value PackedOp::createWithOperands(OpBuilder &b, Location loc,
                                   Reduction reduction, const BagOperands &o) {
  Value created = PackedOp::create(b, loc, reduction, o.table, o.indices,
                                   o.paddingIdx, o.weights, o.rowwise);
  return keepQuantizedResultType(*this, created, o.rowwise);
}

Value OffsetsOp::createWithOperands(OpBuilder &b, Location loc,
                                    Reduction reduction, const BagOperands &o) {
  Value created = OffsetsOp::create(
      b, loc, reduction, o.table, o.indices, o.bags, o.includeLastOffset,
      o.defaultIndex, o.staticDefault, o.paddingIdx, o.weights, o.rowwise);
  return keepQuantizedResultType(*this, created, o.rowwise);
}

Value SegmentsOp::createWithOperands(OpBuilder &b, Location loc,
                                     Reduction reduction,
                                     const BagOperands &o) {
  Value created =
      SegmentsOp::create(b, loc, reduction, o.table, o.indices, o.bags,
                         o.numSegments, o.staticNumSegments, o.defaultIndex,
                         o.staticDefault, o.paddingIdx, o.weights, o.rowwise);
  return keepQuantizedResultType(*this, created, o.rowwise);
}

//===----------------------------------------------------------------------===//
// Bag bounds
//===----------------------------------------------------------------------===//

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// `values[pos]` as an index; `values` is a tensor, or a buffer inside a
/// kernel built on buffers (the GPU lowering).
static Value extractAsIndex(OpBuilder &b, Location loc, Value values,
                            Value pos) {
  // A buffer's element at its natural alignment (what LLVM's lowering of a
  // memref assumes; a kernel module without a data layout would not).
  Type element = getElementTypeOrSelf(values.getType());
  Value v = isa<MemRefType>(values.getType())
                ? memref::LoadOp::create(
                      b, loc, values, pos, /*nontemporal=*/false,
                      llvm::Align(element.getIntOrFloatBitWidth() / 8))
                      .getResult()
                : tensor::ExtractOp::create(b, loc, values, pos).getResult();
  if (v.getType().isIndex())
    return v;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// offsets[pos], or `numIndices` past the last offset: where bag pos
/// starts, or with pos == batch where the bags end (the last offset with
/// include_last_offset, the end of the index list without).
static BagBounds::BoundFn boundaryOf(Value offsets, Value numOffsets,
                                     Value numIndices) {
  return
      [offsets, numOffsets, numIndices](OpBuilder &b, Location loc, Value pos) {
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             pos, numOffsets);
        auto ifOp = scf::IfOp::create(
            b, loc, inside,
            [&](OpBuilder &nb, Location nloc) {
              scf::YieldOp::create(nb, nloc,
                                   extractAsIndex(nb, nloc, offsets, pos));
            },
            [&](OpBuilder &nb, Location nloc) {
              scf::YieldOp::create(nb, nloc, numIndices);
            });
        return ifOp.getResult(0);
      };
}

BagBounds BagBounds::fromOffsets(OpBuilder &b, Location loc, Value offsets,
                                 Value numIndices, bool includeLastOffset) {
  Value numOffsets = isa<MemRefType>(offsets.getType())
                         ? b.createOrFold<memref::DimOp>(loc, offsets, 0)
                         : b.createOrFold<tensor::DimOp>(loc, offsets, 0);
  BoundFn start = [offsets](OpBuilder &ib, Location l, Value bag) {
    return extractAsIndex(ib, l, offsets, bag);
  };
  if (includeLastOffset) {
    // offsets - 1 bags; an empty offsets tensor (a broken contract that the
    // checks stop on) gives none rather than -1.
    Value numBags = arith::MaxSIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, numOffsets, indexConstant(b, loc, 1)),
        indexConstant(b, loc, 0));
    BoundFn end = [offsets](OpBuilder &ib, Location l, Value bag) {
      Value next = arith::AddIOp::create(ib, l, bag, indexConstant(ib, l, 1));
      return extractAsIndex(ib, l, offsets, next);
    };
    return {numBags, numIndices, start, end,
            boundaryOf(offsets, numOffsets, numIndices)};
  }
  BoundFn end = [offsets, numOffsets, numIndices](OpBuilder &ib, Location l,
                                                  Value bag) -> Value {
    Value next = arith::AddIOp::create(ib, l, bag, indexConstant(ib, l, 1));
    Value isLast = arith::CmpIOp::create(ib, l, arith::CmpIPredicate::eq, next,
                                         numOffsets);
    // The last bag never reads offsets[batch]: select a valid position.
    Value safeNext = arith::SelectOp::create(ib, l, isLast, bag, next);
    Value nextOffset = extractAsIndex(ib, l, offsets, safeNext);
    return arith::SelectOp::create(ib, l, isLast, numIndices, nextOffset);
  };
  return {numOffsets, numIndices, start, end,
          boundaryOf(offsets, numOffsets, numIndices)};
}

BagBounds BagBounds::fromPacked(OpBuilder &b, Location loc, Value numBags,
                                Value perBag) {
  BoundFn start = [perBag](OpBuilder &ib, Location l, Value bag) -> Value {
    return arith::MulIOp::create(ib, l, bag, perBag);
  };
  BoundFn end = [start, perBag](OpBuilder &ib, Location l, Value bag) -> Value {
    return arith::AddIOp::create(ib, l, start(ib, l, bag), perBag);
  };
  Value numIndices = b.createOrFold<arith::MulIOp>(loc, numBags, perBag);
  return BagBounds{numBags, numIndices, start, end, start};
}

FailureOr<BagBounds> BagOpInterface::getBagBounds(OpBuilder &b, Location loc) {
  Value indices = getIndices();
  switch (getBagForm()) {
  case BagForm::Packed: {
    Value numBags = b.createOrFold<tensor::DimOp>(loc, indices, 0);
    Value perBag = b.createOrFold<tensor::DimOp>(loc, indices, 1);
    return BagBounds::fromPacked(b, loc, numBags, perBag);
  }
  case BagForm::Offsets:
    return BagBounds::fromOffsets(
        b, loc, getBags(), b.createOrFold<tensor::DimOp>(loc, indices, 0),
        getIncludeLastOffset());
  case BagForm::Segments:
    return failure();
  }
  llvm_unreachable("unknown bag form");
}

//===----------------------------------------------------------------------===//
// The op on a range of its bags
//===----------------------------------------------------------------------===//

/// embbag.offsets on bags [first, first + count): the offsets rebased to the
/// first position the part reads, the indices (weights) cut there and at
/// the part's end. The cuts are projected into what the contract allows an
/// offset (contract::clampToOffsetRule), so every slice is in bounds; an
/// offset breaking the contract (below 0, past the end, or a decrease
/// across parts) then breaks the part's, whose checks stop the program.
static BagsPart sliceOffsetsOnBags(OpBuilder &b, Location loc, BagOperands o,
                                   Value first, Value count) {
  Value zero = indexConstant(b, loc, 0);
  BagBounds bounds = BagBounds::fromOffsets(
      b, loc, o.bags, b.createOrFold<tensor::DimOp>(loc, o.indices, 0),
      o.includeLastOffset);
  Value next = arith::AddIOp::create(b, loc, first, count);
  Value end = contract::clampToOffsetRule(b, loc, bounds.boundary(b, loc, next),
                                          zero, bounds.numIndices);
  Value start = contract::clampToOffsetRule(
      b, loc, bounds.boundary(b, loc, first), zero, end);
  Value length = arith::SubIOp::create(b, loc, end, start);

  Type indexType = getElementTypeOrSelf(o.bags.getType());
  Value base = castIndex(b, loc, start, indexType);
  // With include_last_offset the part keeps the offset closing its last
  // bag.
  Value numOffsets =
      o.includeLastOffset
          ? arith::AddIOp::create(b, loc, count, indexConstant(b, loc, 1))
                .getResult()
          : count;
  o.bags = mapElementwise(
      b, loc, sliceDim0(b, loc, o.bags, first, numOffsets), indexType,
      [&](OpBuilder &nb, Location nloc, ValueRange v) -> SmallVector<Value> {
        return {arith::SubIOp::create(nb, nloc, v[0], base)};
      })[0];
  o.indices = sliceDim0(b, loc, o.indices, start, length);
  if (o.weights)
    o.weights = sliceDim0(b, loc, o.weights, start, length);
  return {o, start};
}

/// embbag.segments on segments [first, first + count): the others' ids go
/// to one extra segment, last, which the caller drops. An id outside
/// [0, num_segments) becomes -1, so that the part's checks stop as the
/// whole op's would.
static BagsPart sliceSegmentsOnBags(OpBuilder &b, Location loc, BagOperands o,
                                    Value first, Value count) {
  o.materializeStatics(b, loc);
  Type indexType = o.numSegments.getType();
  Value lo = castIndex(b, loc, first, indexType);
  Value size = castIndex(b, loc, count, indexType);
  Value hi = arith::AddIOp::create(b, loc, lo, size);
  auto constant = [&](OpBuilder &nb, Location nloc, int64_t v) -> Value {
    return arith::ConstantOp::create(nb, nloc, nb.getIntegerAttr(indexType, v));
  };
  Value numSegments = o.numSegments;
  o.bags = mapElementwise(
      b, loc, o.bags, indexType,
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> SmallVector<Value> {
        Value id = args[0];
        Value rebased = arith::SubIOp::create(nb, nloc, id, lo);
        Value valid = inRange(nb, nloc, id, constant(nb, nloc, 0), numSegments);
        Value foreign = arith::SelectOp::create(nb, nloc, valid, size,
                                                constant(nb, nloc, -1));
        return {arith::SelectOp::create(nb, nloc, inRange(nb, nloc, id, lo, hi),
                                        rebased, foreign)};
      })[0];
  o.numSegments = arith::AddIOp::create(b, loc, size, constant(b, loc, 1));
  return {o, b.getIndexAttr(0)};
}

BagsPart mlir::embbag::sliceOnBags(OpBuilder &b, Location loc, BagForm form,
                                   BagOperands o, OpFoldResult first,
                                   OpFoldResult count) {
  switch (form) {
  case BagForm::Packed:
    o.indices = sliceDim0(b, loc, o.indices, first, count);
    if (o.weights)
      o.weights = sliceDim0(b, loc, o.weights, first, count);
    return {o, first};
  case BagForm::Offsets:
    return sliceOffsetsOnBags(b, loc, o,
                              getValueOrCreateConstantIndexOp(b, loc, first),
                              getValueOrCreateConstantIndexOp(b, loc, count));
  case BagForm::Segments:
    return sliceSegmentsOnBags(b, loc, o,
                               getValueOrCreateConstantIndexOp(b, loc, first),
                               getValueOrCreateConstantIndexOp(b, loc, count));
  }
  llvm_unreachable("unknown bag form");
}

Value BagOpInterface::cloneOnBags(OpBuilder &b, Location loc, BagOperands o,
                                  OpFoldResult first, OpFoldResult count) {
  return cloneWithOperands(
      b, loc, sliceOnBags(b, loc, getBagForm(), o, first, count).operands);
}
