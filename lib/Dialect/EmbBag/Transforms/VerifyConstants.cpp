//===- VerifyConstants.cpp - Check constant operands of embbag ops -------===//
//
// Reports constant indices, offsets and segment ids that would break an
// embbag op's runtime contract, so that such IR is rejected at compile time
// instead of stopping (checked) or misbehaving (unchecked) at run time. It
// is the constant evaluator of the contract's rules (RuntimeContract.h).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"
#include "embbag/Dialect/EmbBag/IR/RuntimeContract.h"
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

/// The constant evaluator of the runtime contract: a clause whose values
/// are constants and break its rule gets a diagnostic at the op.
class ConstantEvaluator : public contract::Evaluator {
public:
  ConstantEvaluator(BagOpInterface op, bool asWarning)
      : op(op), asWarning(asWarning) {}

  /// The scalar clauses first (a bad default or padding_idx is reported
  /// before the tensors that hold many values), then the contract's order.
  LogicalResult evaluateAll() {
    SmallVector<contract::Clause> clauses = contract::getContract(op);
    std::stable_partition(clauses.begin(), clauses.end(),
                          [](const contract::Clause &c) {
                            return c.getInfo().kind == contract::Kind::RowOrNone;
                          });
    return evaluate(clauses);
  }

protected:
  // Shapes are the verifiers' to check: a static mismatch is rejected there.
  LogicalResult notEmpty(const contract::Clause &) override {
    return success();
  }
  LogicalResult sameShape(const contract::Clause &) override {
    return success();
  }
  LogicalResult monotone(const contract::Clause &c) override;
  LogicalResult nonNegative(const contract::Clause &c) override;
  LogicalResult equals(const contract::Clause &c) override;
  LogicalResult allBelow(const contract::Clause &c) override;
  LogicalResult rowOrNone(const contract::Clause &c) override;

private:
  /// The name a message gives a clause's subject.
  static StringRef subjectName(const contract::Clause &c) {
    switch (c.rule) {
    case contract::Rule::DefaultInTable:
      return "default index";
    case contract::Rule::PaddingInTable:
      return "padding_idx";
    case contract::Rule::SegmentIdsInRange:
      return "segment id";
    default:
      return "index";
    }
  }

  BagOpInterface op;
  bool asWarning;
};

LogicalResult ConstantEvaluator::monotone(const contract::Clause &c) {
  std::optional<SmallVector<int64_t>> offsets = getConstantValues(c.subject);
  if (!offsets)
    return success();
  std::optional<int64_t> numIndices = c.bound.getConstant();
  int64_t previous = 0;
  for (auto [bag, offset] : llvm::enumerate(*offsets)) {
    if (offset < previous)
      return report(op, asWarning)
             << "offsets[" << bag << "] = " << offset
             << (bag == 0 ? " is negative"
                          : " is smaller than the offset before it, " +
                                std::to_string(previous));
    if (numIndices && offset > *numIndices)
      return report(op, asWarning)
             << "offsets[" << bag << "] = " << offset
             << " exceeds the number of indices, " << *numIndices;
    previous = offset;
  }
  return success();
}

LogicalResult ConstantEvaluator::nonNegative(const contract::Clause &c) {
  std::optional<int64_t> n = getConstantIntValue(c.getSubject());
  if (n && *n < 0)
    return report(op, asWarning)
           << "num_segments must be non-negative, but got " << *n;
  return success();
}

LogicalResult ConstantEvaluator::equals(const contract::Clause &c) {
  std::optional<int64_t> n = getConstantIntValue(c.getSubject());
  if (n && *n >= 0 && *n != c.staticBound)
    return report(op, asWarning) << "num_segments is " << *n
                                 << " but the result has " << c.staticBound
                                 << " rows";
  return success();
}

LogicalResult ConstantEvaluator::allBelow(const contract::Clause &c) {
  std::optional<int64_t> bound = c.bound.getConstant();
  // Segment ids are bounded by the result's rows when num_segments is not
  // a constant.
  if (!bound && c.rule == contract::Rule::SegmentIdsInRange) {
    int64_t rows = op.getBagResultType().getDimSize(0);
    if (!ShapedType::isDynamic(rows))
      bound = rows;
  }
  if (!bound || *bound < 0)
    return success();
  std::optional<SmallVector<int64_t>> values = getConstantValues(c.subject);
  if (!values)
    return success();
  // Indices before offsets[0] belong to no bag and are never read, nor
  // with include_last_offset those from the last offset on.
  int64_t first = 0, last = values->size();
  if (c.readOffsets) {
    std::optional<SmallVector<int64_t>> offsets =
        getConstantValues(c.readOffsets);
    if (!offsets)
      return success();
    if (offsets->empty())
      return success();
    first = offsets->front();
    if (c.includeLastOffset)
      last = std::min<int64_t>(last, offsets->back());
  }
  auto shape = cast<RankedTensorType>(c.subject.getType()).getShape();
  bool isIndex = c.rule == contract::Rule::IndicesInTable;
  for (int64_t i = std::max<int64_t>(first, 0); i < last; ++i) {
    int64_t v = (*values)[i];
    if (v >= 0 && v < *bound)
      continue;
    InFlightDiagnostic diag = report(op, asWarning);
    diag << subjectName(c) << " " << v << " at "
         << (isIndex ? "indices" : "segment_ids") << formatPosition(shape, i)
         << " is out of range [0, " << *bound << ")";
    if (isIndex)
      diag << " of the table";
    return diag;
  }
  return success();
}

LogicalResult ConstantEvaluator::rowOrNone(const contract::Clause &c) {
  std::optional<int64_t> row = getConstantIntValue(c.getSubject());
  if (!row)
    return success();
  bool isDefault = c.rule == contract::Rule::DefaultInTable;
  if (*row < -1)
    return report(op, asWarning)
           << subjectName(c) << " must be >= -1 (-1 means "
           << (isDefault ? "no default" : "none") << "), but got " << *row;
  std::optional<int64_t> numEmb = c.bound.getConstant();
  if (numEmb && *row >= *numEmb)
    return report(op, asWarning) << subjectName(c) << " " << *row
                                 << " is out of range for a table of "
                                 << *numEmb << " rows";
  return success();
}

struct EmbBagVerifyConstantsPass
    : public embbag::impl::EmbBagVerifyConstantsBase<
          EmbBagVerifyConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](BagOpInterface op) {
      failed |= mlir::failed(ConstantEvaluator(op, warningsOnly).evaluateAll());
    });
    if (failed && !warningsOnly)
      signalPassFailure();
  }
};

} // namespace
