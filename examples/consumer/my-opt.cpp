//===- my-opt.cpp - A consumer's driver with embbag registered ------------===//
//
// What a project using embbag as a library writes: upstream MLIR's
// dialects, extensions and passes, plus embbag's, through one header.
//
//===----------------------------------------------------------------------===//

#include "embbag/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::embbag::registerAllEmbBagPasses();
  mlir::embbag::registerAllEmbBagPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::embbag::registerAllEmbBagDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "my-opt: MLIR with embbag\n", registry));
}
