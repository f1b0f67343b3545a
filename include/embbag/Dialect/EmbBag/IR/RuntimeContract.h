//===- RuntimeContract.h - The runtime contract of the bag ops --*- C++ -*-===//
//
// What an embbag op requires of its runtime values (docs/Kernel.md, "The
// runtime contract"): every rule is declared once, in the table of
// RuntimeContract.cpp, with the kind of requirement it states and the
// message a broken one stops with. `getContract(op)` applies the rules to
// an op's values. Evaluators interpret the clauses:
//
//   --embbag-verify-constants    constants -> a located diagnostic
//   the checked lowerings        IR -> a marked check (cf.assert carrying
//                                `embbag.runtime_check`), which the checks
//                                mode turns into abort or a status
//
// An evaluator implements each *kind* once; a new one (a device flag)
// subclasses `Evaluator` without touching the rules.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_RUNTIMECONTRACT_H
#define EMBBAG_DIALECT_EMBBAG_IR_RUNTIMECONTRACT_H

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

namespace mlir::embbag::contract {

/// The rules, in the order an op's checks run.
enum class Rule {
  OffsetsNotEmpty,        // include_last_offset: at least one offset
  OffsetsInIndices,       // offsets >= 0, non-decreasing, <= num_indices
  NumSegmentsNonNegative, // num_segments >= 0
  NumSegmentsMatchResult, // num_segments == the result's static batch
  SegmentIdsInRange,      // every segment id in [0, num_segments)
  IndicesInTable,         // every index a bag reads in [0, num_emb)
  DefaultInTable,         // default is -1 or in [0, num_emb)
  PaddingInTable,         // padding_idx is -1 or in [0, num_emb)
  WeightsPerIndex,        // weights have the shape of the indices
  DestinationShape,       // a destination has the result's shape
};

/// The shapes of requirement the rules state; an evaluator implements each.
enum class Kind {
  NotEmpty,      // `subject` (1-D) has at least one element
  Monotone,      // `subject` (1-D) >= 0, non-decreasing, last <= `bound`
  NonNegative,   // the scalar `subject` >= 0
  Equals,        // the scalar `subject` == the static `staticBound`
  AllBelow,      // the read elements of `subject` lie in [0, `bound`)
  RowOrNone,     // the scalar `subject` is -1 or in [0, `bound`)
  SameShape,     // `subject` has the shape of `reference`
};

struct RuleInfo {
  Rule rule;
  Kind kind;
  /// What the stop says after the op's name and location.
  StringLiteral message;
};

/// The table: one entry per rule.
const RuleInfo &getRuleInfo(Rule rule);

/// A size or bound: a static value, an SSA integer, or a dimension of a
/// shaped value.
struct Bound {
  OpFoldResult value;  // a constant or an integer/index value, or null
  Value shaped;        // with `dim`: dimension `dim` of this value
  int64_t dim = 0;

  static Bound dimOf(Value v, int64_t d) { return {OpFoldResult(), v, d}; }
  static Bound of(OpFoldResult v) { return {v, Value(), 0}; }
  /// The bound when it is known at compile time.
  std::optional<int64_t> getConstant() const;
};

/// One rule applied to the values of one op.
struct Clause {
  Rule rule;
  Value subject;           // the value the rule constrains (may be null
  OpFoldResult staticSubject; // when the clause is a static attribute)
  Bound bound;             // num_emb, num_indices or num_segments
  int64_t staticBound = 0; // Equals
  Value reference;         // SameShape: the value whose shape is required
  // AllBelow on indices read through offsets: the offsets that delimit
  // the read positions ([offsets[0], end), or to the last offset with
  // include_last_offset); null: every position.
  Value readOffsets;
  bool includeLastOffset = false;

  const RuleInfo &getInfo() const { return getRuleInfo(rule); }
  /// The subject as given: the value or the static attribute.
  OpFoldResult getSubject() const {
    return subject ? OpFoldResult(subject) : staticSubject;
  }
};

/// The clauses of `op`'s contract, in the order its checks run.
SmallVector<Clause> getContract(BagOpInterface op);

/// The clause requiring `destination` (a tensor or memref that receives
/// `result`) to have the shape of `result`.
Clause getDestinationClause(Value result, Value destination);

/// `pos`, a position between bags where a part of an op's index list is
/// cut, projected into [lo, numIndices]: the positions the OffsetsInIndices
/// rule allows (`lo` is 0, or an earlier cut). Tiling and sharding cut
/// there, so every slice stays in bounds whatever the offsets; offsets
/// that break the rule still break it in the part, whose checks stop.
Value clampToOffsetRule(OpBuilder &b, Location loc, Value pos, Value lo,
                        Value numIndices);

/// Interprets clauses; each kind is one method.
class Evaluator {
public:
  virtual ~Evaluator();

  /// Evaluates `clauses` in order; fails at the first that fails.
  LogicalResult evaluate(ArrayRef<Clause> clauses);

protected:
  virtual LogicalResult notEmpty(const Clause &c) = 0;
  virtual LogicalResult monotone(const Clause &c) = 0;
  virtual LogicalResult nonNegative(const Clause &c) = 0;
  virtual LogicalResult equals(const Clause &c) = 0;
  virtual LogicalResult allBelow(const Clause &c) = 0;
  virtual LogicalResult rowOrNone(const Clause &c) = 0;
  virtual LogicalResult sameShape(const Clause &c) = 0;
};

} // namespace mlir::embbag::contract

#endif // EMBBAG_DIALECT_EMBBAG_IR_RUNTIMECONTRACT_H
