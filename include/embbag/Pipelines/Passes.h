//===- Passes.h - The steps of embbag-shard-to-llvm -------------*- C++ -*-===//

#ifndef EMBBAG_PIPELINES_PASSES_H
#define EMBBAG_PIPELINES_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::embbag {

#define GEN_PASS_DECL
#include "embbag/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "embbag/Pipelines/Passes.h.inc"

} // namespace mlir::embbag

#endif // EMBBAG_PIPELINES_PASSES_H
