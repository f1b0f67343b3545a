//===- Passes.h - EmbBag conversion passes ----------------------*- C++ -*-===//

#ifndef EMBBAG_CONVERSION_PASSES_H
#define EMBBAG_CONVERSION_PASSES_H

#include "embbag/Conversion/EmbBagAssertToLLVM/EmbBagAssertToLLVM.h"
#include "embbag/Conversion/EmbBagChecksToStatus/EmbBagChecksToStatus.h"
#include "embbag/Conversion/EmbBagToGPU/EmbBagToGPU.h"
#include "embbag/Conversion/EmbBagToLinalg/EmbBagToLinalg.h"
#include "embbag/Conversion/EmbBagToLoops/EmbBagToLoops.h"
#include "embbag/Conversion/EmbBagWorkChunksToOpenMP/EmbBagWorkChunksToOpenMP.h"

namespace mlir::embbag {

#define GEN_PASS_REGISTRATION
#include "embbag/Conversion/Passes.h.inc"

} // namespace mlir::embbag

#endif // EMBBAG_CONVERSION_PASSES_H
