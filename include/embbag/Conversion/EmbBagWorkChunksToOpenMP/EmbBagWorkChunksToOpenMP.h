//===- EmbBagWorkChunksToOpenMP.h - Chunk loops to OpenMP -------*- C++ -*-===//

#ifndef EMBBAG_CONVERSION_EMBBAGWORKCHUNKSTOOPENMP_EMBBAGWORKCHUNKSTOOPENMP_H
#define EMBBAG_CONVERSION_EMBBAGWORKCHUNKSTOOPENMP_EMBBAGWORKCHUNKSTOOPENMP_H

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::embbag {

#define GEN_PASS_DECL_CONVERTEMBBAGWORKCHUNKSTOOPENMP
#include "embbag/Conversion/Passes.h.inc"

} // namespace mlir::embbag

#endif // EMBBAG_CONVERSION_EMBBAGWORKCHUNKSTOOPENMP_EMBBAGWORKCHUNKSTOOPENMP_H
