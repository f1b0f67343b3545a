//===- EmbBagToLoops.h - Lower embbag ops to scf loops ----------*- C++ -*-===//

#ifndef EMBBAG_CONVERSION_EMBBAGTOLOOPS_EMBBAGTOLOOPS_H
#define EMBBAG_CONVERSION_EMBBAGTOLOOPS_EMBBAGTOLOOPS_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace embbag {

#define GEN_PASS_DECL_CONVERTEMBBAGTOLOOPS
#include "embbag/Conversion/Passes.h.inc"

/// Adds the patterns lowering embbag.packed, embbag.offsets and
/// embbag.segments to scf loops with vector accumulation.
void populateEmbBagToLoopsPatterns(RewritePatternSet &patterns,
                                   const ConvertEmbBagToLoopsOptions &options);

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_CONVERSION_EMBBAGTOLOOPS_EMBBAGTOLOOPS_H
