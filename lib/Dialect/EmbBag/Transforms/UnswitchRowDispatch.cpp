//===- UnswitchRowDispatch.cpp - Row-length dispatch out of bag loops -----===//
//
// Hoists the scf.index_switch that picks a version of a dynamic row out of
// the bag loop marked `embbag.row_dispatch`, once the kernel is on buffers
// (one copy of the loop per case), and outlines each version into a
// function of its own. Why the lowering cannot build it that way on
// tensors, and why it matters for the generated code, is in the pass
// description (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "Outlining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGUNSWITCHROWDISPATCH
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

constexpr StringLiteral kMark =
    embbag::EmbBagDialect::RowDispatchAttrHelper::getNameStr();

/// The switch that `loop` (marked, result-less) dispatches on: its only
/// direct child switch, without results, on a key defined outside the
/// loop; null otherwise.
scf::IndexSwitchOp getHoistableSwitch(scf::ForOp loop) {
  if (loop.getNumResults() != 0)
    return {};
  auto switches = loop.getBody()->getOps<scf::IndexSwitchOp>();
  if (!llvm::hasSingleElement(switches))
    return {};
  scf::IndexSwitchOp switchOp = *switches.begin();
  if (switchOp.getNumResults() != 0 ||
      !loop.isDefinedOutsideOfLoop(switchOp.getArg()))
    return {};
  return switchOp;
}

/// Fills `target` (a region of the hoisted switch) with a copy of `loop` in
/// which the switch is replaced by the body of its region `regionIndex`.
void buildVersion(RewriterBase &rewriter, scf::ForOp loop,
                  scf::IndexSwitchOp switchOp, unsigned regionIndex,
                  Region &target) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.createBlock(&target);
  IRMapping mapping;
  auto copy = cast<scf::ForOp>(rewriter.clone(*loop, mapping));
  copy->removeAttr(kMark);
  auto copiedSwitch =
      cast<scf::IndexSwitchOp>(mapping.lookup(switchOp.getOperation()));
  Block &chosen = copiedSwitch->getRegion(regionIndex).front();
  rewriter.eraseOp(chosen.getTerminator());
  rewriter.inlineBlockBefore(&chosen, copiedSwitch);
  rewriter.eraseOp(copiedSwitch);
  scf::YieldOp::create(rewriter, loop.getLoc());
}

/// `switch key { case: loop with that case }` in place of `loop`.
scf::IndexSwitchOp unswitch(RewriterBase &rewriter, scf::ForOp loop,
                            scf::IndexSwitchOp switchOp) {
  rewriter.setInsertionPoint(loop);
  auto hoisted = scf::IndexSwitchOp::create(
      rewriter, switchOp.getLoc(), TypeRange{}, switchOp.getArg(),
      switchOp.getCases(), switchOp.getNumCases());
  // IndexSwitchOp's regions: the default one first, then the cases.
  for (unsigned i = 0, e = switchOp->getNumRegions(); i < e; ++i)
    buildVersion(rewriter, loop, switchOp, i, hoisted->getRegion(i));
  rewriter.eraseOp(loop);
  return hoisted;
}

/// Outlines each version into a function, called once per call of the
/// kernel: each gets its own register allocation in LLVM.
void outlineVersions(RewriterBase &rewriter, SymbolTable &symbols,
                     scf::IndexSwitchOp hoisted, unsigned &next) {
  auto parent = hoisted->getParentOfType<func::FuncOp>();
  if (!parent)
    return;
  for (Region &region : hoisted->getRegions())
    (void)embbag::outlineKernelRegion(rewriter, symbols, hoisted.getLoc(),
                                      region, parent.getSymName(),
                                      "row_version", next);
}

struct EmbBagUnswitchRowDispatch
    : public embbag::impl::EmbBagUnswitchRowDispatchBase<
          EmbBagUnswitchRowDispatch> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kMark))
        loops.push_back(loop);
    });
    SymbolTable symbols(getOperation());
    IRRewriter rewriter(&getContext());
    unsigned next = 0;
    for (scf::ForOp loop : loops) {
      scf::IndexSwitchOp switchOp = getHoistableSwitch(loop);
      if (!switchOp) {
        loop->removeAttr(kMark);
        continue;
      }
      scf::IndexSwitchOp hoisted = unswitch(rewriter, loop, switchOp);
      if (outline)
        outlineVersions(rewriter, symbols, hoisted, next);
    }
  }
};

} // namespace
