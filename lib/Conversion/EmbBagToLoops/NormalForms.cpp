//===- NormalForms.cpp - Packed and offsets ops as lists of bags ----------===//
//
// The packed and offsets forms as lists of bags: the bounds of bag b are
// BagOpInterface's (a packed op's indices flattened). Their runtime
// contract (ContractChecks.h) is checked here, before the kernel; a
// parallel kernel checks the offsets and indices of each bag in the thread
// that reads it instead, so that no thread scans them all first.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

/// A zeroed flag word for the kernel's checks. The slot is made once per
/// call, at the start of the enclosing allocation scope (an op in a loop
/// would otherwise grow the stack every iteration), and zeroed at the op.
static Value allocateFlag(ImplicitLocOpBuilder &b, Operation *op) {
  auto type = MemRefType::get({1}, b.getI32Type());
  Operation *scope = op->getParentWithTrait<OpTrait::AutomaticAllocationScope>();
  Value flag;
  {
    OpBuilder::InsertionGuard guard(b);
    if (scope)
      b.setInsertionPointToStart(&scope->getRegion(0).front());
    flag = memref::AllocaOp::create(b, type);
  }
  memref::StoreOp::create(
      b, arith::ConstantOp::create(b, b.getI32IntegerAttr(0)), flag,
      ValueRange{cst(b, 0)});
  return flag;
}

/// Whether `op` runs in an iteration of a user's parallel loop (a tile of
/// scf.forall): that iteration is already one thread's share, whose checks
/// before the kernel scan only the tile's bags; a flag word made for the
/// function would be shared by the iterations.
static bool isInParallelLoop(Operation *op) {
  return op->getParentOfType<scf::ForallOp>() ||
         op->getParentOfType<scf::ParallelOp>();
}

/// Bag `bag`'s range from `ranges`, checked by `c` into `flag`.
static std::pair<Value, Value> getCheckedRange(OpBuilder &builder, Location loc,
                                               Value bag,
                                               const BagRanges &ranges,
                                               const BagChecks &c, Value flag,
                                               Value indices) {
  ImplicitLocOpBuilder b(loc, builder);
  auto [start, end] = ranges(b, loc, bag);
  if (c.offsetsBit) {
    auto le = [&](Value x, Value y) {
      return arith::CmpIOp::create(b, arith::CmpIPredicate::sle, x, y);
    };
    Value ok = arith::AndIOp::create(
        b, arith::AndIOp::create(b, le(cst(b, 0), start), le(start, end)),
        le(end, c.numIndices));
    flagUnless(b, flag, ok, c.offsetsBit);
    start = arith::SelectOp::create(b, ok, start, cst(b, 0));
    end = arith::SelectOp::create(b, ok, end, cst(b, 0));
  }
  if (c.indicesBit) {
    // The bag's indices, a vector at a time: they are read again at once
    // by the passes over the bag, from the cache.
    Value ok = allBelow(b, indices, start, end, c.numEmb, c.vectorBits);
    flagUnless(b, flag, ok, c.indicesBit);
    end = arith::SelectOp::create(b, ok, end, start);
  }
  return {start, end};
}

BagRanges mlir::embbag::loops::checkedRanges(BagRanges ranges,
                                             const BagChecks &checks,
                                             Value flag, Value indices) {
  return
      [ranges, checks, flag, indices](OpBuilder &b, Location loc, Value bag) {
        return getCheckedRange(b, loc, bag, ranges, checks, flag, indices);
      };
}

/// Checks `op`'s contract with `checks.inKernel`: the scalars and shapes
/// now, the offsets and indices in the bag loop through `p.ranges`.
static void checkInKernel(ImplicitLocOpBuilder &b, BagOpInterface op,
                          const RuntimeChecks &checks, Value numIndices,
                          BagProblem &p) {
  FlagWordChecks &eval = *checks.inKernel;
  (void)eval.evaluate(contract::getContract(op));
  if (!eval.hasKernelClauses())
    return;
  BagChecks &c = p.bagChecks;
  c.offsetsBit = eval.getBit(contract::Rule::OffsetsInIndices);
  c.indicesBit = eval.getBit(contract::Rule::IndicesInTable);
  c.numIndices = numIndices;
  if (const contract::Clause *clause =
          eval.getKernelClause(contract::Rule::IndicesInTable))
    c.numEmb = eval.buildBound(*clause);
  c.vectorBits = checks.vectorBits;
  p.checkFlag = allocateFlag(b, op);
  p.uncheckedRanges = p.ranges;
  p.ranges = checkedRanges(p.ranges, c, p.checkFlag, p.indices);
}

LogicalResult mlir::embbag::loops::normalizeBags(ImplicitLocOpBuilder &b,
                                                 BagOpInterface op,
                                                 const RuntimeChecks &checks,
                                                 BagProblem &p) {
  FailureOr<BagBounds> bounds = op.getBagBounds(b, b.getLoc());
  if (failed(bounds))
    return op->emitOpError("has no contiguous bags to lower");
  bool packed = op.getBagForm() == BagForm::Packed;
  auto flatten = [&](Value v) { return packed ? flattenBags(b, v) : v; };
  p.indices = flatten(op.getIndices());
  p.weights = op.getWeights() ? flatten(op.getWeights()) : Value();
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
    p.defaultIndex = toIndex(b, *d);
  if (Value padding = op.getPaddingIdx())
    p.paddingIdx = toIndex(b, padding);
  p.numBags = bounds->numBags;
  p.ranges = bounds->getRangeFn();
  if (checks.enabled && checks.inKernel && !isInParallelLoop(op))
    checkInKernel(b, op, checks, bounds->numIndices, p);
  else if (checks.enabled)
    emitContractChecks(b, op, checks.vectorBits);
  return success();
}
