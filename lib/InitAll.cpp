//===- InitAll.cpp - Register everything embbag provides ------------------===//

#include "embbag/InitAll.h"

#include "embbag/Conversion/Passes.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/ShardingInterfaceImpl.h"
#include "embbag/Dialect/EmbBag/IR/TilingInterfaceImpl.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"
#include "embbag/Pipelines/Passes.h"
#include "embbag/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::embbag::registerAllEmbBagDialects(DialectRegistry &registry) {
  registry.insert<EmbBagDialect>();
  registerShardingInterfaceExternalModels(registry);
  registerTilingInterfaceExternalModels(registry);
}

void mlir::embbag::registerAllEmbBagPasses() {
  registerEmbBagPasses();
  registerEmbBagConversionPasses();
  registerEmbBagShardingPasses();
}

void mlir::embbag::registerAllEmbBagPipelines() {
  registerEmbBagToLLVMPipeline();
  registerEmbBagToNVVMPipeline();
  registerEmbBagShardToLLVMPipeline();
}
