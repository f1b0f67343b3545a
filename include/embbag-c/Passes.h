/*===- Passes.h - C API of the embbag passes and pipeline ---------*- C -*-===*\
|*                                                                            *|
|* Registration and creation of the embbag passes, generated from their .td  *|
|* declarations by mlir-tblgen -gen-pass-capi-header with the prefix EmbBag  *|
|* (include/embbag/Passes.td), and the embbag-to-llvm pipeline.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef EMBBAG_C_PASSES_H
#define EMBBAG_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

/* For every pass <Pass> (its name in Passes.td, e.g. ConvertEmbBagToLoops):
 *
 *   MlirPass mlirCreateEmbBag<Pass>(void);  the pass with its default
 *       options (options: parse a pipeline string such as
 *       "convert-embbag-to-loops{vector-bits=512}" instead);
 *   void mlirRegisterEmbBag<Pass>(void);    registers it by name.
 *
 * and mlirRegisterEmbBagPasses(void), which registers every embbag pass and
 * the pipelines embbag-to-llvm and embbag-shard-to-llvm with the global
 * registries, so that mlirParsePassPipeline and mlirOpPassManagerAddPipeline
 * accept their names and options (calling it again does nothing). */
#include "embbag/Passes.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the embbag-to-llvm pipeline to `passManager` (which must run on
 * builtin.module) with `options` in the textual form of the pipeline's
 * options, e.g. "path=loops vector-bits=512 checks=0" (empty: defaults).
 * Returns failure, and reports through `errorCallback`, for an option that
 * does not parse or whose value is out of range. */
MLIR_CAPI_EXPORTED MlirLogicalResult mlirEmbBagAddToLLVMPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* EMBBAG_C_PASSES_H */
