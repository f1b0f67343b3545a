//===- InlineParallelAllocaScopes.cpp - Scopes around OpenMP loop bodies --===//
//
// Inlines the memref.alloca_scope that convert-scf-to-openmp puts around an
// omp.loop_nest body, between a stack save and restore when something in it
// allocates on the stack of that scope. Why upstream canonicalization does
// not always do it, and why the scope cannot stay, is in the pass
// description (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGINLINEPARALLELALLOCASCOPES
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

/// Whether an op inside `scope` allocates on the stack in that scope: an
/// alloca that is not nested in a deeper automatic allocation scope.
bool allocatesInScope(memref::AllocaScopeOp scope) {
  return scope
      ->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == scope.getOperation())
          return WalkResult::advance();
        if (isa<memref::AllocaOp, LLVM::AllocaOp>(op))
          return WalkResult::interrupt();
        if (op->hasTrait<OpTrait::AutomaticAllocationScope>())
          return WalkResult::skip();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// The alloca_scope convert-scf-to-openmp made for `loop`'s body, if any:
/// the first op of its single block.
memref::AllocaScopeOp getBodyScope(omp::LoopNestOp loop) {
  Region &body = loop.getRegion();
  if (!body.hasOneBlock() || body.front().empty())
    return {};
  return dyn_cast<memref::AllocaScopeOp>(body.front().front());
}

/// Inlines `scope`; with `restoreStack`, between a stack save and restore
/// (what the scope's lowering to LLVM does, but in the block it is in:
/// convert-scf-to-cf may then split the body into blocks).
void inlineScope(memref::AllocaScopeOp scope, bool restoreStack) {
  IRRewriter rewriter(scope.getContext());
  Location loc = scope.getLoc();
  Block &inner = scope.getBodyRegion().front();
  Operation *terminator = inner.getTerminator();
  SmallVector<Value> results(terminator->getOperands());
  if (restoreStack) {
    rewriter.setInsertionPoint(scope);
    Value stack = LLVM::StackSaveOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(scope.getContext()));
    rewriter.setInsertionPoint(terminator);
    LLVM::StackRestoreOp::create(rewriter, loc, stack);
  }
  rewriter.eraseOp(terminator);
  rewriter.inlineBlockBefore(&inner, scope);
  rewriter.replaceOp(scope, results);
}

struct EmbBagInlineParallelAllocaScopes
    : public embbag::impl::EmbBagInlineParallelAllocaScopesBase<
          EmbBagInlineParallelAllocaScopes> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](omp::LoopNestOp loop) {
      memref::AllocaScopeOp scope = getBodyScope(loop);
      if (scope && scope.getBodyRegion().hasOneBlock())
        scopes.push_back(scope);
    });
    for (memref::AllocaScopeOp scope : scopes)
      inlineScope(scope, allocatesInScope(scope));
  }
};

} // namespace
