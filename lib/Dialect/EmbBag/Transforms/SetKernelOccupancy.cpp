//===- SetKernelOccupancy.cpp - Resident blocks per SM for each kernel ----===//
//
// Sets `nvvm.minctasm` on the kernels of a gpu.module that do not set it:
// the bag kernels are bound by the latency of their loads, and ptxas, left
// alone, may trade a block per SM for a few registers (the pass
// description in Passes.td says more).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGSETKERNELOCCUPANCY
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

struct EmbBagSetKernelOccupancy
    : public embbag::impl::EmbBagSetKernelOccupancyBase<
          EmbBagSetKernelOccupancy> {
  using Base::Base;

  void runOnOperation() override {
    if (minBlocks == 0)
      return;
    StringRef name = NVVM::NVVMDialect::getMinctasmAttrName();
    Builder b(&getContext());
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      // A kernel's own bound stands.
      if (func.isKernel() && !func->hasAttr(name))
        func->setAttr(name, b.getI32IntegerAttr(minBlocks));
  }
};

} // namespace
