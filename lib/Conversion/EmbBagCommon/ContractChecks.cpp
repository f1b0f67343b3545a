//===- ContractChecks.cpp - The runtime contract as checks in IR ----------===//
//
// The IR evaluator of the runtime contract: one method per kind of rule,
// each building a vectorised predicate (LoweringUtils.h) and reporting it.
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using contract::Clause;

void ContractCheckEmitter::report(Value ok, const Clause &c) {
  emitAssert(b, op, ok, c.getInfo().message);
}

Value ContractCheckEmitter::getBound(const contract::Bound &bound) {
  if (bound.shaped)
    return dim(b, bound.shaped, bound.dim);
  return toIndex(b, bound.value);
}

Value ContractCheckEmitter::getScalar(const Clause &c) {
  return toIndex(b, c.getSubject());
}

/// A 1-D view of `values`: packed indices and weights are [batch, per_bag].
static Value flatten(ImplicitLocOpBuilder &b, Value values) {
  if (cast<ShapedType>(values.getType()).getRank() == 1)
    return values;
  return flattenBags(b, values);
}

LogicalResult ContractCheckEmitter::notEmpty(const Clause &c) {
  report(arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                               dim(b, c.subject, 0), cst(b, 0)),
         c);
  return success();
}

LogicalResult ContractCheckEmitter::monotone(const Clause &c) {
  report(offsetsAreValid(b, c.subject, getBound(c.bound), vectorBits), c);
  return success();
}

LogicalResult ContractCheckEmitter::nonNegative(const Clause &c) {
  report(arith::CmpIOp::create(b, arith::CmpIPredicate::sge, getScalar(c),
                               cst(b, 0)),
         c);
  return success();
}

LogicalResult ContractCheckEmitter::equals(const Clause &c) {
  report(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, getScalar(c),
                               cst(b, c.staticBound)),
         c);
  return success();
}

/// The positions [first, last) of the indices that the bags delimited by
/// `offsets` read (BagBounds::fromOffsets): from the first bag's start to
/// the last bag's end; none without bags.
static std::pair<Value, Value> getReadRange(ImplicitLocOpBuilder &b,
                                            Value offsets, Value numIndices,
                                            bool includeLastOffset) {
  BagBounds bounds = BagBounds::fromOffsets(b, b.getLoc(), offsets,
                                            numIndices, includeLastOffset);
  Value hasBags = arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                                        bounds.numBags, cst(b, 0));
  auto range = scf::IfOp::create(
      b, hasBags,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        Value first = bounds.start(tb, loc, cst(tb, 0));
        Value last = numIndices;
        // Without include_last_offset the last bag runs to the end.
        if (includeLastOffset)
          last = bounds.boundary(tb, loc, bounds.numBags);
        scf::YieldOp::create(tb, ValueRange{first, last});
      },
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(nested, loc, ValueRange{numIndices, numIndices});
      });
  return {range.getResult(0), range.getResult(1)};
}

LogicalResult ContractCheckEmitter::allBelow(const Clause &c) {
  Value values = flatten(b, c.subject);
  Value numValues = dim(b, values, 0);
  Value first = cst(b, 0), last = numValues;
  if (c.readOffsets)
    std::tie(first, last) =
        getReadRange(b, c.readOffsets, numValues, c.includeLastOffset);
  Value bound = getBound(c.bound);
  report(lowering::allBelow(b, values, first, last, bound, vectorBits), c);
  return success();
}

LogicalResult ContractCheckEmitter::rowOrNone(const Clause &c) {
  report(isRowOrNone(b, getScalar(c), getBound(c.bound)), c);
  return success();
}

/// Dimension `d` of a tensor or memref.
static OpFoldResult getMixedDim(ImplicitLocOpBuilder &b, Value shaped,
                                int64_t d) {
  auto type = cast<ShapedType>(shaped.getType());
  if (!type.isDynamicDim(d))
    return b.getIndexAttr(type.getDimSize(d));
  if (isa<MemRefType>(type))
    return memref::DimOp::create(b, shaped, d).getResult();
  return tensor::DimOp::create(b, shaped, d).getResult();
}

LogicalResult ContractCheckEmitter::sameShape(const Clause &c) {
  auto type = cast<ShapedType>(c.subject.getType());
  auto refType = cast<ShapedType>(c.reference.getType());
  if (type.getRank() != refType.getRank())
    return success(); // the verifiers reject it
  SmallVector<OpFoldResult> refDims;
  // A result of the op being lowered, which goes away with it: its shape
  // from the operands (a sparse gradient's weights gradient has one where
  // its rows have none).
  if (auto reify = c.reference.getDefiningOp<ReifyRankedShapedTypeOpInterface>();
      reify && c.reference.getDefiningOp() == op) {
    FailureOr<SmallVector<OpFoldResult>> dims = reify.reifyShapeOfResult(
        b, cast<OpResult>(c.reference).getResultNumber());
    if (succeeded(dims))
      refDims = std::move(*dims);
  }
  Value ok;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    OpFoldResult have = getMixedDim(b, c.subject, d);
    OpFoldResult want =
        refDims.empty() ? getMixedDim(b, c.reference, d) : refDims[d];
    std::optional<int64_t> h = getConstantIntValue(have),
                           w = getConstantIntValue(want);
    if (h && w && *h == *w)
      continue;
    Value same = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq,
        getValueOrCreateConstantIndexOp(b, b.getLoc(), have),
        getValueOrCreateConstantIndexOp(b, b.getLoc(), want));
    ok = ok ? arith::AndIOp::create(b, ok, same).getResult() : same;
  }
  if (ok)
    report(ok, c);
  return success();
}

/// The flag word's bit of a rule: 1 << rule, so that every rule has its own.
static int32_t bitOf(contract::Rule rule) {
  return int32_t(1) << static_cast<unsigned>(rule);
}

const Clause *FlagWordChecks::getKernelClause(contract::Rule rule) const {
  for (const Clause &c : kernelClauses)
    if (c.rule == rule)
      return &c;
  return nullptr;
}

int32_t FlagWordChecks::getBit(contract::Rule rule) const {
  return getKernelClause(rule) ? bitOf(rule) : 0;
}

void FlagWordChecks::reportFlags(Value flags) {
  for (const Clause &c : kernelClauses) {
    Value bit = arith::ConstantOp::create(b, b.getI32IntegerAttr(bitOf(c.rule)));
    Value ok = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, arith::AndIOp::create(b, flags, bit),
        arith::ConstantOp::create(b, b.getI32IntegerAttr(0)));
    report(ok, c);
  }
}

LogicalResult FlagWordChecks::monotone(const Clause &c) {
  kernelClauses.push_back(c);
  return success();
}

LogicalResult FlagWordChecks::allBelow(const Clause &c) {
  kernelClauses.push_back(c);
  return success();
}

void mlir::embbag::lowering::flagUnless(ImplicitLocOpBuilder &b, Value flag,
                                        Value ok, int32_t bit) {
  Value broken = arith::XOrIOp::create(
      b, ok, arith::ConstantOp::create(b, b.getBoolAttr(true)));
  scf::IfOp::create(b, broken, [&](OpBuilder &nested, Location loc) {
    ImplicitLocOpBuilder tb(loc, nested);
    memref::AtomicRMWOp::create(
        tb, arith::AtomicRMWKind::ori,
        arith::ConstantOp::create(tb, tb.getI32IntegerAttr(bit)), flag,
        ValueRange{cst(tb, 0)});
    scf::YieldOp::create(tb);
  });
}

void mlir::embbag::lowering::emitContractChecks(ImplicitLocOpBuilder &b,
                                                BagOpInterface op,
                                                unsigned vectorBits) {
  ContractCheckEmitter emitter(b, op, vectorBits);
  (void)emitter.evaluate(contract::getContract(op));
}

/// The destinations `value` is materialized in, through tensor.cast.
static void collectDestinations(Value value,
                                SmallVectorImpl<Operation *> &materializes) {
  for (Operation *user : value.getUsers()) {
    if (auto cast = dyn_cast<tensor::CastOp>(user))
      collectDestinations(cast.getResult(), materializes);
    else if (auto m =
                 dyn_cast<bufferization::MaterializeInDestinationOp>(user);
             m && m.getSource() == value)
      materializes.push_back(m);
  }
}

void mlir::embbag::lowering::emitDestinationChecks(ImplicitLocOpBuilder &b,
                                                   Operation *op,
                                                   unsigned vectorBits) {
  SmallVector<Operation *> materializes;
  for (Value result : op->getResults())
    collectDestinations(result, materializes);
  if (materializes.empty())
    return;
  DominanceInfo dominance(op->getParentOfType<FunctionOpInterface>());
  for (Operation *m : materializes) {
    auto materialize = cast<bufferization::MaterializeInDestinationOp>(m);
    Value dest = materialize.getDest();
    Value result = materialize.getSource();
    while (auto cast = result.getDefiningOp<tensor::CastOp>())
      result = cast.getSource();
    Clause c = contract::getDestinationClause(result, dest);
    if (dominance.properlyDominates(dest, op)) {
      ContractCheckEmitter emitter(b, op, vectorBits);
      (void)emitter.evaluate(c);
      continue;
    }
    // The destination is made after the op: check before the copy into it.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(m);
    c.reference = materialize.getSource();
    ContractCheckEmitter emitter(b, op, vectorBits);
    (void)emitter.evaluate(c);
  }
}
