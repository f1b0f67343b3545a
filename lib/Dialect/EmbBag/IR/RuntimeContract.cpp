//===- RuntimeContract.cpp - The rules of the bag ops' runtime contract ---===//
//
// The table of rules and the clauses of each op. The evaluators live with
// their users: --embbag-verify-constants (constants) and the checked
// lowerings (lib/Conversion/EmbBagCommon/ContractChecks.cpp).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/RuntimeContract.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::contract;

static constexpr RuleInfo kRules[] = {
    {Rule::OffsetsNotEmpty, Kind::NotEmpty,
     "offsets must have at least one entry with include_last_offset"},
    {Rule::OffsetsInIndices, Kind::Monotone,
     "offsets must be non-negative, non-decreasing and at most the number "
     "of indices"},
    {Rule::NumSegmentsNonNegative, Kind::NonNegative,
     "num_segments must be non-negative"},
    {Rule::NumSegmentsMatchResult, Kind::Equals,
     "num_segments must equal the result's static batch size"},
    {Rule::SegmentIdsInRange, Kind::AllBelow,
     "segment id out of range [0, num_segments)"},
    {Rule::IndicesInTable, Kind::AllBelow, "index out of range [0, num_emb)"},
    {Rule::DefaultInTable, Kind::RowOrNone,
     "default index out of range [0, num_emb) and not -1"},
    {Rule::PaddingInTable, Kind::RowOrNone,
     "padding_idx out of range [0, num_emb) and not -1"},
    {Rule::WeightsPerIndex, Kind::SameShape,
     "weights must have one weight per index"},
    {Rule::DestinationShape, Kind::SameShape,
     "the destination must have the shape of the result"},
};

const RuleInfo &contract::getRuleInfo(Rule rule) {
  for (const RuleInfo &info : kRules)
    if (info.rule == rule)
      return info;
  llvm_unreachable("a rule without an entry in the table");
}

std::optional<int64_t> Bound::getConstant() const {
  if (shaped) {
    int64_t size = cast<ShapedType>(shaped.getType()).getDimSize(dim);
    if (ShapedType::isDynamic(size))
      return std::nullopt;
    return size;
  }
  return value ? getConstantIntValue(value) : std::nullopt;
}

/// The clauses shared by every form after its bags' own: the indices the
/// bags read, the default, padding_idx and the weights.
static void appendRowClauses(BagOpInterface op, SmallVector<Clause> &clauses) {
  Value table = op.getTable();
  Bound numEmb = Bound::dimOf(table, 0);
  Clause indices{Rule::IndicesInTable, op.getIndices()};
  indices.bound = numEmb;
  if (op.getBagForm() == BagForm::Offsets) {
    indices.readOffsets = op.getBags();
    indices.includeLastOffset = op.getIncludeLastOffset();
  }
  clauses.push_back(indices);
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex()) {
    Clause c{Rule::DefaultInTable};
    c.subject = dyn_cast<Value>(*d);
    c.staticSubject = *d;
    c.bound = numEmb;
    clauses.push_back(c);
  }
  if (Value padding = op.getPaddingIdx()) {
    Clause c{Rule::PaddingInTable, padding};
    c.bound = numEmb;
    clauses.push_back(c);
  }
  if (Value weights = op.getWeights()) {
    Clause c{Rule::WeightsPerIndex, weights};
    c.reference = op.getIndices();
    clauses.push_back(c);
  }
}

SmallVector<Clause> contract::getContract(BagOpInterface op) {
  SmallVector<Clause> clauses;
  Value bags = op.getBags();
  switch (op.getBagForm()) {
  case BagForm::Packed:
    break;
  case BagForm::Offsets: {
    if (op.getIncludeLastOffset())
      clauses.push_back(Clause{Rule::OffsetsNotEmpty, bags});
    Clause offsets{Rule::OffsetsInIndices, bags};
    offsets.bound = Bound::dimOf(op.getIndices(), 0);
    clauses.push_back(offsets);
    break;
  }
  case BagForm::Segments: {
    OpFoldResult numSegments = op.getMixedNumSegments();
    Clause nonNegative{Rule::NumSegmentsNonNegative};
    nonNegative.subject = dyn_cast<Value>(numSegments);
    nonNegative.staticSubject = numSegments;
    clauses.push_back(nonNegative);
    int64_t staticBatch = op.getBagResultType().getDimSize(0);
    if (!ShapedType::isDynamic(staticBatch)) {
      Clause matches = nonNegative;
      matches.rule = Rule::NumSegmentsMatchResult;
      matches.staticBound = staticBatch;
      clauses.push_back(matches);
    }
    Clause ids{Rule::SegmentIdsInRange, bags};
    ids.bound = Bound::of(numSegments);
    clauses.push_back(ids);
    break;
  }
  }
  appendRowClauses(op, clauses);
  return clauses;
}

Clause contract::getDestinationClause(Value result, Value destination) {
  Clause c{Rule::DestinationShape, destination};
  c.reference = result;
  return c;
}

Value contract::clampToOffsetRule(OpBuilder &b, Location loc, Value pos,
                                  Value lo, Value numIndices) {
  Value atLeast = arith::MaxSIOp::create(b, loc, pos, lo);
  return arith::MinSIOp::create(b, loc, atLeast, numIndices);
}

Evaluator::~Evaluator() = default;

LogicalResult Evaluator::evaluate(ArrayRef<Clause> clauses) {
  for (const Clause &c : clauses) {
    LogicalResult result = success();
    switch (c.getInfo().kind) {
    case Kind::NotEmpty:
      result = notEmpty(c);
      break;
    case Kind::Monotone:
      result = monotone(c);
      break;
    case Kind::NonNegative:
      result = nonNegative(c);
      break;
    case Kind::Equals:
      result = equals(c);
      break;
    case Kind::AllBelow:
      result = allBelow(c);
      break;
    case Kind::RowOrNone:
      result = rowOrNone(c);
      break;
    case Kind::SameShape:
      result = sameShape(c);
      break;
    }
    if (failed(result))
      return failure();
  }
  return success();
}
