//===- EmbBagToLoops.h - Lower embbag ops to scf loops ----------*- C++ -*-===//

#ifndef EMBBAG_CONVERSION_EMBBAGTOLOOPS_EMBBAGTOLOOPS_H
#define EMBBAG_CONVERSION_EMBBAGTOLOOPS_EMBBAGTOLOOPS_H

#include "embbag/Conversion/EmbBagToLoops/TargetModel.h"

#include "mlir/Pass/Pass.h"

namespace llvm {
class Error;
} // namespace llvm

namespace mlir {
class RewritePatternSet;

namespace embbag {

#define GEN_PASS_DECL_CONVERTEMBBAGTOLOOPS
#include "embbag/Conversion/Passes.h.inc"

/// Checks the value of every option (the bounds are in Passes.td): an error
/// naming the first bad option, or success. Nothing else reads the options
/// before it.
llvm::Error
verifyConvertEmbBagToLoopsOptions(const ConvertEmbBagToLoopsOptions &options);

/// Adds the patterns lowering embbag.packed, embbag.offsets and
/// embbag.segments to scf loops with vector accumulation, for the machine
/// `target` (resolveTargetModel) and valid `options`.
void populateEmbBagToLoopsPatterns(RewritePatternSet &patterns,
                                   const ConvertEmbBagToLoopsOptions &options,
                                   const TargetModel &target);

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_CONVERSION_EMBBAGTOLOOPS_EMBBAGTOLOOPS_H
