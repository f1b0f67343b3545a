//===- Outlining.h - Kernel regions into functions of their own -*- C++ -*-===//
//
// LLVM allocates registers per function: kernels that share one function
// keep each other's values live, and their hot loops reload them from the
// stack. The passes that take kernels out of a shared function
// (embbag-unswitch-row-dispatch, embbag-outline-batched-kernels) outline
// them with these helpers.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_TRANSFORMS_OUTLINING_H
#define EMBBAG_DIALECT_EMBBAG_TRANSFORMS_OUTLINING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::embbag {

/// Outlines the single-block `region` into a new private function
/// `<base>__<kind>_<N>` (N making the name unique in `symbols`), replacing
/// its body with a call. The constants the region uses are copied into it
/// first, so that they stay constants in the function (a zero that is an
/// argument cannot fold into a zero-masked load). The function has internal
/// linkage and LLVM's `noinline` once lowered: with one call site, LLVM's
/// inliner would merge it back.
FailureOr<func::FuncOp> outlineKernelRegion(RewriterBase &rewriter,
                                            SymbolTable &symbols, Location loc,
                                            Region &region, StringRef base,
                                            StringRef kind, unsigned &next);

} // namespace mlir::embbag

#endif // EMBBAG_DIALECT_EMBBAG_TRANSFORMS_OUTLINING_H
