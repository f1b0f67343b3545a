//===- Outlining.cpp - Kernel regions into functions of their own ---------===//

#include "Outlining.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

/// Copies the constants `region` uses into it.
static void sinkConstants(RewriterBase &rewriter, Region &region) {
  SetVector<Value> above;
  getUsedValuesDefinedAbove(region, above);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&region.front());
  for (Value value : above) {
    Operation *def = value.getDefiningOp();
    if (!def || !def->hasTrait<OpTrait::ConstantLike>())
      continue;
    Operation *copy = rewriter.clone(*def);
    replaceAllUsesInRegionWith(value, copy->getResult(0), region);
  }
}

/// Private, internal linkage and `noinline`: the attributes func-to-llvm
/// carries over to llvm.func.
static void markInternalNoInline(RewriterBase &rewriter, func::FuncOp func) {
  func.setPrivate();
  func->setAttr("passthrough",
                rewriter.getArrayAttr({rewriter.getStringAttr("noinline")}));
  func->setAttr(
      "llvm.linkage",
      LLVM::LinkageAttr::get(rewriter.getContext(), LLVM::Linkage::Internal));
}

FailureOr<func::FuncOp>
mlir::embbag::outlineKernelRegion(RewriterBase &rewriter, SymbolTable &symbols,
                                  Location loc, Region &region, StringRef base,
                                  StringRef kind, unsigned &next) {
  sinkConstants(rewriter, region);
  std::string name;
  do
    name = (base + "__" + kind + "_" + Twine(next++)).str();
  while (symbols.lookup(name));
  FailureOr<func::FuncOp> outlined =
      outlineSingleBlockRegion(rewriter, loc, region, name);
  if (failed(outlined))
    return failure();
  symbols.insert(*outlined);
  markInternalNoInline(rewriter, *outlined);
  return outlined;
}
