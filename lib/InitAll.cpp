//===- InitAll.cpp - Register everything embbag provides ------------------===//

#include "embbag/InitAll.h"

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::embbag::registerAllEmbBagDialects(DialectRegistry &registry) {
  registry.insert<EmbBagDialect>();
}

void mlir::embbag::registerAllEmbBagPasses() { registerEmbBagPasses(); }

void mlir::embbag::registerAllEmbBagPipelines() {}
