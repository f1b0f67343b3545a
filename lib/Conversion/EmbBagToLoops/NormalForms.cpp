//===- NormalForms.cpp - Packed and offsets ops as lists of bags ----------===//
//
// The packed and offsets forms as lists of bags: the bounds of bag b are
// BagOpInterface's (a packed op's indices flattened). Their runtime
// contract (ContractChecks.h) is checked here, before the kernel, never
// inside it.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

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
  if (checks.enabled)
    emitContractChecks(b, op, checks.vectorBits);
  return success();
}
