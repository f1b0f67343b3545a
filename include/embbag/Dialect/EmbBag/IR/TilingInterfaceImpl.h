//===- TilingInterfaceImpl.h - Tiling of the embbag ops ---------*- C++ -*-===//
//
// TilingInterface for embbag.packed, embbag.offsets and embbag.segments,
// and TilingInterface with PartialReductionOpInterface for their gradient
// ops, attached as external models (docs/Bufferization.md, "Tiling").
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_TILINGINTERFACEIMPL_H
#define EMBBAG_DIALECT_EMBBAG_IR_TILINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace embbag {

/// Attaches the tiling models to the three embbag ops and their gradient
/// ops.
void registerTilingInterfaceExternalModels(DialectRegistry &registry);

/// TrainingTilingInterfaceImpl.cpp: attaches the gradient ops' models.
void registerTrainingTilingInterfaceExternalModels(MLIRContext *ctx);

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_DIALECT_EMBBAG_IR_TILINGINTERFACEIMPL_H
