//===- EmbBagPlugin.cpp - embbag as a plugin of a stock mlir-opt ----------===//
//
// One shared object, EmbBagPlugin.so, that mlir-opt accepts with both
// --load-dialect-plugin (the embbag dialect) and --load-pass-plugin (the
// embbag passes and the embbag-to-llvm pipeline). It links libMLIR.so, the
// library Debian's mlir-opt is linked with, so the dialect and pass
// registries it fills are mlir-opt's own and not a private copy.
//
//===----------------------------------------------------------------------===//

#include "embbag/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "EmbBag", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            embbag::registerAllEmbBagDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "EmbBag", LLVM_VERSION_STRING, []() {
            embbag::registerAllEmbBagPasses();
            embbag::registerAllEmbBagPipelines();
          }};
}
