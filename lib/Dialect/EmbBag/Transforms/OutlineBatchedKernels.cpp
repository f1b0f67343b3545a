//===- OutlineBatchedKernels.cpp - One function per op of a batch ---------===//
//
// The ops of a batched chunk loop (batch-tables) run one after another in
// the loop's body, each under an scf.if; outlined, each op's kernel gets
// LLVM's register allocation to itself (the pass description in Passes.td
// has the measurements).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "Outlining.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGOUTLINEBATCHEDKERNELS
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

struct EmbBagOutlineBatchedKernels
    : public embbag::impl::EmbBagOutlineBatchedKernelsBase<
          EmbBagOutlineBatchedKernels> {
  void runOnOperation() override {
    StringRef mark = embbag::EmbBagDialect::WorkChunksAttrHelper::getNameStr();
    // The ops' parts: result-less scf.ifs directly in a marked loop on
    // buffers (the ifs that pick a chunk's bags yield an index).
    SmallVector<scf::IfOp> parts;
    getOperation().walk([&](scf::ForallOp loop) {
      if (!loop->hasAttr(mark) || !loop.getOutputs().empty())
        return;
      for (Operation &op : loop.getBody()->without_terminator())
        if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && !ifOp.getNumResults())
          parts.push_back(ifOp);
    });
    SymbolTable symbols(getOperation());
    IRRewriter rewriter(&getContext());
    unsigned next = 0;
    for (scf::IfOp part : parts) {
      auto parent = part->getParentOfType<func::FuncOp>();
      if (!parent)
        continue;
      (void)embbag::outlineKernelRegion(
          rewriter, symbols, part.getLoc(), part.getThenRegion(),
          parent.getSymName(), "batched_op", next);
    }
  }
};

} // namespace
