//===- SetTargetTriple.cpp - Name the machine of the module's LLVM IR -----===//
//
// Sets `llvm.target_triple` on a module that has none: without it, LLVM's
// code generators know no C library and expand memcpy / memset of dynamic
// sizes into byte loops (the pass description in Passes.td says more).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/TargetParser/Host.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGSETTARGETTRIPLE
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

struct EmbBagSetTargetTriple
    : public embbag::impl::EmbBagSetTargetTripleBase<EmbBagSetTargetTriple> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef name = LLVM::LLVMDialect::getTargetTripleAttrName();
    // The user's (or an earlier pipeline's) choice stands.
    if (module->hasAttr(name))
      return;
    std::string value = triple.empty() ? llvm::sys::getProcessTriple() : triple;
    module->setAttr(name, StringAttr::get(module.getContext(), value));
  }
};

} // namespace
