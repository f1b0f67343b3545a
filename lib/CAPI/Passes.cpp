//===- Passes.cpp - C API of the embbag passes and pipeline ---------------===//

#include "embbag-c/Passes.h"

#include "embbag/Conversion/Passes.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"
#include "embbag/InitAll.h"
#include "embbag/Pipelines/Passes.h"
#include "embbag/Pipelines/Pipelines.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

namespace mlir::embbag::capi {

/// What the generated mlirRegisterEmbBagPasses calls (unqualified, so this
/// one hides the transforms group's registerEmbBagPasses): every group and
/// the pipelines. The pass registry rejects a second registration of a
/// pipeline with a fatal error, hence the guard.
static void registerEmbBagPasses() {
  static bool registered = [] {
    registerAllEmbBagPasses();
    registerAllEmbBagPipelines();
    return true;
  }();
  (void)registered;
}

// The generated functions are declared extern "C" at global scope by
// embbag-c/Passes.h; defined here, they find the embbag create/register
// functions and the registration above by unqualified lookup.
extern "C" {
#include "embbag/Passes.capi.cpp.inc"
}

} // namespace mlir::embbag::capi

using namespace mlir;

/// Reports `message` through the C callback.
static void report(const std::string &message, MlirStringCallback callback,
                   void *userData) {
  callback(mlirStringRefCreate(message.data(), message.size()), userData);
}

MlirLogicalResult mlirEmbBagAddToLLVMPipeline(MlirOpPassManager passManager,
                                              MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData) {
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  embbag::EmbBagToLLVMOptions parsed;
  std::string prefix = "embbag-to-llvm: ";
  if (failed(parsed.parseFromString(unwrap(options), errorStream))) {
    std::string message =
        prefix + "cannot parse options '" + unwrap(options).str() + "'";
    if (!error.empty())
      message += ": " + error;
    report(message, errorCallback, userData);
    return mlirLogicalResultFailure();
  }
  if (llvm::Error bad = embbag::verifyEmbBagToLLVMOptions(parsed)) {
    report(prefix + llvm::toString(std::move(bad)), errorCallback, userData);
    return mlirLogicalResultFailure();
  }
  embbag::buildEmbBagToLLVMPipeline(*unwrap(passManager), parsed);
  return mlirLogicalResultSuccess();
}
