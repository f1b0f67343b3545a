//===- ScratchArena.cpp - One allocation for a kernel's scratch -----------===//
//
// See ScratchArena.h.
//
//===----------------------------------------------------------------------===//

#include "ScratchArena.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::embbag::loops;

/// Every tensor starts on a cache line (and a vector of any width).
static constexpr int64_t kAlignment = 64;
/// How deep a size's computation is cloned in front of the allocation.
static constexpr unsigned kMaxHoistDepth = 8;

ScratchArena::ScratchArena(ImplicitLocOpBuilder &b) {
  end = arith::ConstantIndexOp::create(b, 0);
  alloc = memref::AllocOp::create(
      b, MemRefType::get({ShapedType::kDynamic}, b.getI8Type()),
      ValueRange{end}, b.getI64IntegerAttr(kAlignment));
}

bool ScratchArena::isAvailable(Value v) {
  Operation *ancestor = v.getParentBlock()->findAncestorOpInBlock(*alloc);
  if (!ancestor)
    return false;
  if (isa<BlockArgument>(v))
    return true;
  return v.getDefiningOp()->isBeforeInBlock(ancestor);
}

Value ScratchArena::hoist(Value v, unsigned depth) {
  if (isAvailable(v))
    return v;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0 || def->getNumRegions() != 0 || !isPure(def))
    return Value();
  IRMapping mapping;
  for (Value operand : def->getOperands()) {
    Value hoisted = hoist(operand, depth - 1);
    if (!hoisted)
      return Value();
    mapping.map(operand, hoisted);
  }
  OpBuilder head(alloc);
  return head.clone(*def, mapping)
      ->getResult(cast<OpResult>(v).getResultNumber());
}

bool ScratchArena::isHoistable(Value v, unsigned depth) {
  if (isAvailable(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0 || def->getNumRegions() != 0 || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isHoistable(operand, depth - 1);
  });
}

FailureOr<SmallVector<ScratchArena::Branch>>
ScratchArena::branchesAbove(ImplicitLocOpBuilder &b) {
  SmallVector<Branch> branches;
  for (Block *block = b.getInsertionBlock(); block != alloc->getBlock();) {
    // A loop would run the request again (on other threads, for
    // scf.forall) while the tensor it got is live.
    auto ifOp = dyn_cast_or_null<scf::IfOp>(block->getParentOp());
    if (!ifOp)
      return failure();
    branches.push_back({ifOp, block->getParent() == &ifOp.getElseRegion()});
    block = ifOp->getBlock();
  }
  return branches;
}

Value ScratchArena::takenCondition(ArrayRef<Branch> branches) {
  ImplicitLocOpBuilder head(alloc.getLoc(), alloc);
  Value taken;
  for (Branch branch : branches) {
    Value cond = hoist(branch.ifOp.getCondition(), kMaxHoistDepth);
    assert(cond && "the request was checked to be carvable");
    if (branch.isElse)
      cond = arith::XOrIOp::create(
          head, cond, arith::ConstantIntOp::create(head, 1, /*width=*/1));
    taken = taken ? arith::AndIOp::create(head, taken, cond).getResult() : cond;
  }
  return taken;
}

Value ScratchArena::empty(ImplicitLocOpBuilder &b, ValueRange sizes,
                          Type elementType) {
  SmallVector<int64_t> shape(sizes.size(), ShapedType::kDynamic);
  auto tensorType = RankedTensorType::get(shape, elementType);
  auto separate = [&] {
    return tensor::EmptyOp::create(b, shape, elementType, sizes).getResult();
  };
  // Checked before anything is built in front of the allocation: a request
  // that cannot be carved leaves no dead arithmetic there.
  auto isHoistableValue = [&](Value v) {
    return isHoistable(v, kMaxHoistDepth);
  };
  FailureOr<SmallVector<Branch>> branches = branchesAbove(b);
  if (failed(branches) || !llvm::all_of(sizes, isHoistableValue) ||
      !llvm::all_of(*branches, [&](Branch branch) {
        return isHoistableValue(branch.ifOp.getCondition());
      }))
    return separate();
  Value taken = takenCondition(*branches);
  ImplicitLocOpBuilder head(b.getLoc(), alloc);
  int64_t elementBytes =
      DataLayout::closest(alloc).getTypeSize(elementType).getFixedValue();
  Value bytes = arith::ConstantIndexOp::create(head, elementBytes);
  for (Value size : sizes)
    bytes = arith::MulIOp::create(head, bytes, hoist(size, kMaxHoistDepth));
  bytes = arith::AndIOp::create(
      head,
      arith::AddIOp::create(
          head, bytes, arith::ConstantIndexOp::create(head, kAlignment - 1)),
      arith::ConstantIndexOp::create(head, -kAlignment));
  if (taken)
    bytes = arith::SelectOp::create(head, taken, bytes,
                                    arith::ConstantIndexOp::create(head, 0));
  Value offset = end;
  end = arith::AddIOp::create(head, offset, bytes);
  Value view = memref::ViewOp::create(b, MemRefType::get(shape, elementType),
                                      alloc, offset, sizes);
  return bufferization::ToTensorOp::create(b, tensorType, view,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

Value ScratchArena::splat(ImplicitLocOpBuilder &b, Value value,
                          ValueRange sizes) {
  Value tensor = empty(b, sizes, value.getType());
  return linalg::FillOp::create(b, value, tensor).getResult(0);
}

void ScratchArena::finish(RewriterBase &rewriter) {
  if (end != alloc.getDynamicSizes().front()) {
    rewriter.modifyOpInPlace(alloc, [&] { alloc->setOperand(0, end); });
    return;
  }
  Operation *zero = end.getDefiningOp();
  rewriter.eraseOp(alloc);
  rewriter.eraseOp(zero);
}
