//===- EmbBagToGPU.h - Lower embbag ops to GPU kernels ----------*- C++ -*-===//

#ifndef EMBBAG_CONVERSION_EMBBAGTOGPU_EMBBAGTOGPU_H
#define EMBBAG_CONVERSION_EMBBAGTOGPU_EMBBAGTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mlir::embbag {

#define GEN_PASS_DECL_CONVERTEMBBAGTOGPU
#include "embbag/Conversion/Passes.h.inc"

} // namespace mlir::embbag

#endif // EMBBAG_CONVERSION_EMBBAGTOGPU_EMBBAGTOGPU_H
