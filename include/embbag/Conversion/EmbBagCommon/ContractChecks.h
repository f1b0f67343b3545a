//===- ContractChecks.h - The runtime contract as checks in IR --*- C++ -*-===//
//
// The IR evaluator of the runtime contract (embbag/Dialect/EmbBag/IR/
// RuntimeContract.h): each clause becomes a vectorised predicate and a
// marked check (cf.assert carrying `embbag.runtime_check`), which the
// checks mode turns into an abort with the message or a non-zero status.
// A back end that reports otherwise (a device flag) overrides `report`.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_CONVERSION_EMBBAGCOMMON_CONTRACTCHECKS_H
#define EMBBAG_CONVERSION_EMBBAGCOMMON_CONTRACTCHECKS_H

#include "embbag/Dialect/EmbBag/IR/RuntimeContract.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::embbag::lowering {

class ContractCheckEmitter : public contract::Evaluator {
public:
  /// Checks of `op`'s clauses, built with `b`; the vectorised predicates
  /// compare vectors of `vectorBits` bits.
  ContractCheckEmitter(ImplicitLocOpBuilder &b, Operation *op,
                       unsigned vectorBits)
      : b(b), op(op), vectorBits(vectorBits) {}

protected:
  /// Reports the clause `c` as holding when the i1 `ok` is true. The
  /// default is a cf.assert marked `embbag.runtime_check` whose message
  /// names the op, its location and the rule.
  virtual void report(Value ok, const contract::Clause &c);

  LogicalResult notEmpty(const contract::Clause &c) override;
  LogicalResult monotone(const contract::Clause &c) override;
  LogicalResult nonNegative(const contract::Clause &c) override;
  LogicalResult equals(const contract::Clause &c) override;
  LogicalResult allBelow(const contract::Clause &c) override;
  LogicalResult rowOrNone(const contract::Clause &c) override;
  LogicalResult sameShape(const contract::Clause &c) override;

  /// The bound as an index value.
  Value getBound(const contract::Bound &bound);
  /// The clause's subject (a scalar) as an index value.
  Value getScalar(const contract::Clause &c);

  ImplicitLocOpBuilder &b;
  Operation *op;
  unsigned vectorBits;
};

/// The evaluator for a kernel that checks the values it reads itself: the
/// host checks the scalars and shapes before the kernel; the rules on the
/// offsets, indices and segment ids (the Monotone and AllBelow kinds) get a
/// bit of a flag word each, which the kernel's threads set on the values
/// they read (`flagUnless`), and are reported from it after the kernel with
/// their usual messages. Both the GPU kernels and the parallel CPU loops
/// use it, so that no thread scans every index before the work is shared.
class FlagWordChecks : public ContractCheckEmitter {
public:
  using ContractCheckEmitter::ContractCheckEmitter;

  /// The kernel's clause of `rule`, or null when the op's contract has none.
  const contract::Clause *getKernelClause(contract::Rule rule) const;
  /// The flag word's bit of `rule`'s clause, or 0 when the op has none.
  int32_t getBit(contract::Rule rule) const;
  bool hasKernelClauses() const { return !kernelClauses.empty(); }
  /// The clause's bound as an index value, built at the current point.
  Value buildBound(const contract::Clause &c) { return getBound(c.bound); }

  /// The checks of the kernel's clauses from the flag word's value (i32),
  /// in the contract's order.
  void reportFlags(Value flags);

protected:
  LogicalResult monotone(const contract::Clause &c) override;
  LogicalResult allBelow(const contract::Clause &c) override;

private:
  SmallVector<contract::Clause> kernelClauses;
};

/// Sets `bit` of the flag word `flag` (a memref<1xi32>) unless the i1 `ok`
/// holds: atomically, as threads share the word, and only on the broken
/// path, so that a kernel whose values keep the contract never writes it.
void flagUnless(ImplicitLocOpBuilder &b, Value flag, Value ok, int32_t bit);

/// Emits the checks of `op`'s whole contract before it.
void emitContractChecks(ImplicitLocOpBuilder &b, BagOpInterface op,
                        unsigned vectorBits);

/// Emits the checks that every destination of `op`'s results (the
/// `bufferization.materialize_in_destination` ops it feeds, directly or
/// through tensor.cast) has the result's shape: a caller's buffer that is
/// too small must stop the program before the kernel writes into it.
/// Emitted at `b`'s insertion point, which must be before `op`'s kernel;
/// destinations that do not dominate it are checked right before their
/// materialization.
void emitDestinationChecks(ImplicitLocOpBuilder &b, Operation *op,
                           unsigned vectorBits);

} // namespace mlir::embbag::lowering

#endif // EMBBAG_CONVERSION_EMBBAGCOMMON_CONTRACTCHECKS_H
