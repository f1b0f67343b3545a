/*===- Passes.h - C API of the embbag passes and pipeline ---------*- C -*-===*\
|*                                                                            *|
|* Registration and creation of the embbag passes, following the names       *|
|* mlir-tblgen -gen-pass-capi-header gives upstream passes:                   *|
|* mlirCreate<Prefix><PassDefName>, with the prefix EmbBag.                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef EMBBAG_C_PASSES_H
#define EMBBAG_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers every embbag pass and the embbag-to-llvm pipeline with the
 * global registries, so that mlirParsePassPipeline and
 * mlirOpPassManagerAddPipeline accept their names and options. */
MLIR_CAPI_EXPORTED void mlirRegisterEmbBagPasses(void);

/* One pass each, with its default options (options: parse a pipeline
 * string such as "convert-embbag-to-loops{vector-bits=512}" instead). */
MLIR_CAPI_EXPORTED MlirPass mlirCreateEmbBagEmbBagVerifyConstants(void);
MLIR_CAPI_EXPORTED MlirPass mlirCreateEmbBagConvertEmbBagToLoops(void);
MLIR_CAPI_EXPORTED MlirPass mlirCreateEmbBagConvertEmbBagToLinalg(void);
MLIR_CAPI_EXPORTED MlirPass mlirCreateEmbBagConvertEmbBagAssertToLLVM(void);
MLIR_CAPI_EXPORTED MlirPass mlirCreateEmbBagEmbBagChecksToStatus(void);
MLIR_CAPI_EXPORTED MlirPass
mlirCreateEmbBagEmbBagInlineParallelAllocaScopes(void);
MLIR_CAPI_EXPORTED MlirPass mlirCreateEmbBagEmbBagSetOmpBlocktime(void);
MLIR_CAPI_EXPORTED MlirPass mlirCreateEmbBagEmbBagUnswitchRowDispatch(void);

/* Appends the embbag-to-llvm pipeline to `passManager` (which must run on
 * builtin.module) with `options` in the textual form of the pipeline's
 * options, e.g. "path=loops vector-bits=512 checks=0" (empty: defaults).
 * Returns failure, and reports through `errorCallback`, for an option that
 * does not parse. */
MLIR_CAPI_EXPORTED MlirLogicalResult mlirEmbBagAddToLLVMPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* EMBBAG_C_PASSES_H */
