//===- VerifyConstants.cpp - Check constant operands of embbag ops -------===//
//
// Reports constant indices, offsets and segment ids that would break an
// embbag op's runtime contract, so that such IR is rejected at compile time
// instead of stopping (checked) or misbehaving (unchecked) at run time.
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <limits>

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGVERIFYCONSTANTS
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;

namespace {

/// The values of a constant integer tensor, flattened in row-major order.
std::optional<SmallVector<int64_t>> getConstantValues(Value v) {
  DenseIntElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  values.reserve(attr.getNumElements());
  for (const APInt &value : attr.getValues<APInt>())
    values.push_back(value.getSExtValue());
  return values;
}

/// An error at `op`, or with `asWarning` a warning: a program may hold an op
/// with such constants in code that never runs, which must still compile
/// (the checked lowering stops the program if the op does run).
InFlightDiagnostic report(Operation *op, bool asWarning) {
  if (!asWarning)
    return op->emitOpError();
  return op->emitWarning() << "'" << op->getName() << "' op ";
}

/// Formats the position of flat element `flat` of a tensor of `shape`.
std::string formatPosition(ArrayRef<int64_t> shape, int64_t flat) {
  SmallVector<int64_t> position(shape.size());
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    position[dim] = flat % shape[dim];
    flat /= shape[dim];
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(position, os);
  os << "]";
  return s;
}

/// Reports the first index at a flat position in [first, last) outside the
/// table.
LogicalResult checkIndices(Operation *op, bool asWarning, Value indices,
                           RankedTensorType tableType, int64_t first = 0,
                           int64_t last = std::numeric_limits<int64_t>::max()) {
  int64_t numEmb = tableType.getDimSize(0);
  if (ShapedType::isDynamic(numEmb))
    return success();
  std::optional<SmallVector<int64_t>> values = getConstantValues(indices);
  if (!values)
    return success();
  auto shape = cast<RankedTensorType>(indices.getType()).getShape();
  for (int64_t i = first, e = std::min<int64_t>(values->size(), last); i < e;
       ++i) {
    int64_t index = (*values)[i];
    if (index < 0 || index >= numEmb)
      return report(op, asWarning)
             << "index " << index << " at indices" << formatPosition(shape, i)
             << " is out of range [0, " << numEmb << ") of the table";
  }
  return success();
}

/// Reports a constant or static default index that is neither -1 nor a row
/// of the table.
LogicalResult checkDefault(BagOpInterface op, bool asWarning) {
  std::optional<OpFoldResult> mixed = op.getMixedDefaultIndex();
  std::optional<int64_t> d = mixed ? getConstantIntValue(*mixed) : std::nullopt;
  if (!d)
    return success();
  if (*d < -1)
    return report(op, asWarning)
           << "default index must be >= -1 (-1 means no default), but got "
           << *d;
  int64_t numEmb = op.getTable().getType().getDimSize(0);
  if (!ShapedType::isDynamic(numEmb) && *d >= numEmb)
    return report(op, asWarning) << "default index " << *d
                            << " is out of range for a table of " << numEmb
                            << " rows";
  return success();
}

/// Reports a constant padding_idx that is neither -1 nor a row of the
/// table. (An index equal to a valid padding_idx is in the table, so the
/// index checks need not know it.)
LogicalResult checkPaddingIdx(BagOpInterface op, bool asWarning) {
  Value padding = op.getPaddingIdx();
  std::optional<int64_t> p =
      padding ? getConstantIntValue(padding) : std::nullopt;
  if (!p)
    return success();
  if (*p < -1)
    return report(op, asWarning)
           << "padding_idx must be >= -1 (-1 means none), but got " << *p;
  int64_t numEmb = op.getTable().getType().getDimSize(0);
  if (!ShapedType::isDynamic(numEmb) && *p >= numEmb)
    return report(op, asWarning)
           << "padding_idx " << *p << " is out of range for a table of "
           << numEmb << " rows";
  return success();
}

LogicalResult checkPacked(BagOpInterface op, bool asWarning) {
  if (failed(checkPaddingIdx(op, asWarning)))
    return failure();
  return checkIndices(op, asWarning, op.getIndices(), op.getTable().getType());
}

LogicalResult checkOffsets(BagOpInterface op, bool asWarning) {
  if (failed(checkDefault(op, asWarning)) ||
      failed(checkPaddingIdx(op, asWarning)))
    return failure();
  std::optional<SmallVector<int64_t>> offsets =
      getConstantValues(op.getBags());
  if (!offsets)
    return success();
  int64_t numIndices =
      cast<RankedTensorType>(op.getIndices().getType()).getDimSize(0);
  int64_t previous = 0;
  for (auto [bag, offset] : llvm::enumerate(*offsets)) {
    if (offset < previous)
      return report(op, asWarning)
             << "offsets[" << bag << "] = " << offset
             << (bag == 0 ? " is negative"
                          : " is smaller than the offset before it, " +
                                std::to_string(previous));
    if (!ShapedType::isDynamic(numIndices) && offset > numIndices)
      return report(op, asWarning)
             << "offsets[" << bag << "] = " << offset
             << " exceeds the number of indices, " << numIndices;
    previous = offset;
  }
  // Indices before offsets[0] belong to no bag and are never read, nor
  // with include_last_offset those from the last offset on.
  if (offsets->empty())
    return success();
  int64_t last = op.getIncludeLastOffset()
                     ? offsets->back()
                     : std::numeric_limits<int64_t>::max();
  return checkIndices(op, asWarning, op.getIndices(), op.getTable().getType(),
                      offsets->front(), last);
}

LogicalResult checkSegments(BagOpInterface op, bool asWarning) {
  if (failed(checkDefault(op, asWarning)) ||
      failed(checkPaddingIdx(op, asWarning)) ||
      failed(checkIndices(op, asWarning, op.getIndices(), op.getTable().getType())))
    return failure();
  int64_t numSegments = op.getBagResultType().getDimSize(0);
  if (std::optional<int64_t> n = getConstantIntValue(op.getMixedNumSegments())) {
    if (*n < 0)
      return report(op, asWarning)
             << "num_segments must be non-negative, but got " << *n;
    if (!ShapedType::isDynamic(numSegments) && *n != numSegments)
      return report(op, asWarning)
             << "num_segments is " << *n << " but the result has "
             << numSegments << " rows";
    numSegments = *n;
  }
  std::optional<SmallVector<int64_t>> ids =
      getConstantValues(op.getBags());
  if (!ids || ShapedType::isDynamic(numSegments))
    return success();
  for (auto [i, id] : llvm::enumerate(*ids))
    if (id < 0 || id >= numSegments)
      return report(op, asWarning) << "segment id " << id << " at segment_ids[" << i
                              << "] is out of range [0, " << numSegments << ")";
  return success();
}

LogicalResult checkOp(BagOpInterface op, bool asWarning) {
  switch (op.getBagForm()) {
  case BagForm::Packed:
    return checkPacked(op, asWarning);
  case BagForm::Offsets:
    return checkOffsets(op, asWarning);
  case BagForm::Segments:
    return checkSegments(op, asWarning);
  }
  llvm_unreachable("unknown bag form");
}

struct EmbBagVerifyConstantsPass
    : public embbag::impl::EmbBagVerifyConstantsBase<
          EmbBagVerifyConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](BagOpInterface op) {
      failed |= mlir::failed(checkOp(op, warningsOnly));
    });
    if (failed && !warningsOnly)
      signalPassFailure();
  }
};

} // namespace
