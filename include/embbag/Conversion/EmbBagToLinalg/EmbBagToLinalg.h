//===- EmbBagToLinalg.h - Lower embbag.packed to linalg ---------*- C++ -*-===//

#ifndef EMBBAG_CONVERSION_EMBBAGTOLINALG_EMBBAGTOLINALG_H
#define EMBBAG_CONVERSION_EMBBAGTOLINALG_EMBBAGTOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace embbag {

#define GEN_PASS_DECL_CONVERTEMBBAGTOLINALG
#include "embbag/Conversion/Passes.h.inc"

/// Adds the pattern lowering embbag.packed to linalg.generic; `checks` adds
/// the runtime checks of the indices (`leave-unsupported` concerns the pass
/// only: the pattern rewrites the ops it supports).
void populateEmbBagToLinalgPatterns(
    RewritePatternSet &patterns, const ConvertEmbBagToLinalgOptions &options);

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_CONVERSION_EMBBAGTOLINALG_EMBBAGTOLINALG_H
