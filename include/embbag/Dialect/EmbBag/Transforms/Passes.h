//===- Passes.h - EmbBag transformation passes ------------------*- C++ -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_H
#define EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::embbag {

#define GEN_PASS_DECL
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"

} // namespace mlir::embbag

#endif // EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_H
