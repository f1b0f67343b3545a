//===- Passes.cpp - C API of the embbag passes and pipeline ---------------===//

#include "embbag-c/Passes.h"

#include "embbag/Conversion/Passes.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"
#include "embbag/InitAll.h"
#include "embbag/Pipelines/Pipelines.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlirRegisterEmbBagPasses(void) {
  // Registration is idempotent per name only through these guards: a second
  // call would otherwise register every pass and the pipeline twice, which
  // the pass registry rejects with a fatal error.
  static bool registered = [] {
    embbag::registerAllEmbBagPasses();
    embbag::registerAllEmbBagPipelines();
    return true;
  }();
  (void)registered;
}

MlirPass mlirCreateEmbBagEmbBagVerifyConstants(void) {
  return wrap(embbag::createEmbBagVerifyConstants().release());
}

MlirPass mlirCreateEmbBagConvertEmbBagToLoops(void) {
  return wrap(embbag::createConvertEmbBagToLoops().release());
}

MlirPass mlirCreateEmbBagConvertEmbBagToLinalg(void) {
  return wrap(embbag::createConvertEmbBagToLinalg().release());
}

MlirPass mlirCreateEmbBagConvertEmbBagAssertToLLVM(void) {
  return wrap(embbag::createConvertEmbBagAssertToLLVM().release());
}

MlirPass mlirCreateEmbBagEmbBagChecksToStatus(void) {
  return wrap(embbag::createEmbBagChecksToStatus().release());
}

MlirPass mlirCreateEmbBagEmbBagInlineParallelAllocaScopes(void) {
  return wrap(embbag::createEmbBagInlineParallelAllocaScopes().release());
}

MlirPass mlirCreateEmbBagEmbBagSetOmpBlocktime(void) {
  return wrap(embbag::createEmbBagSetOmpBlocktime().release());
}

MlirPass mlirCreateEmbBagEmbBagUnswitchRowDispatch(void) {
  return wrap(embbag::createEmbBagUnswitchRowDispatch().release());
}

MlirLogicalResult mlirEmbBagAddToLLVMPipeline(MlirOpPassManager passManager,
                                              MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData) {
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  embbag::EmbBagToLLVMOptions parsed;
  if (failed(parsed.parseFromString(unwrap(options), errorStream))) {
    std::string message =
        "embbag-to-llvm: cannot parse options '" + unwrap(options).str() + "'";
    if (!error.empty())
      message += ": " + error;
    errorCallback(mlirStringRefCreate(message.data(), message.size()),
                  userData);
    return mlirLogicalResultFailure();
  }
  embbag::buildEmbBagToLLVMPipeline(*unwrap(passManager), parsed);
  return mlirLogicalResultSuccess();
}
