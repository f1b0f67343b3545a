//===- embbag-opt.cpp - The embbag optimizer driver -----------------------===//
//
// An mlir-opt with the embbag dialect, passes and pipelines added: every
// upstream dialect, pass and interface model is registered too, so that a
// whole lowering from embbag ops to the LLVM dialect runs in this one tool.
//
//===----------------------------------------------------------------------===//

#include "embbag/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::embbag::registerAllEmbBagPasses();
  mlir::embbag::registerAllEmbBagPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::embbag::registerAllEmbBagDialects(registry);
  // gpu-module-to-binary (embbag-to-nvvm) translates the kernels to LLVM IR.
  mlir::registerAllGPUToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "embbag optimizer driver: the embbag dialect and its lowering passes "
      "on top of every upstream MLIR dialect and pass\n",
      registry));
}
