//===- TilingInterfaceImpl.h - Tiling of the embbag ops ---------*- C++ -*-===//
//
// TilingInterface for embbag.packed, embbag.offsets and embbag.segments,
// attached as external models (docs/Bufferization.md, "Tiling").
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_TILINGINTERFACEIMPL_H
#define EMBBAG_DIALECT_EMBBAG_IR_TILINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace embbag {

/// Attaches the tiling models to the three embbag ops.
void registerTilingInterfaceExternalModels(DialectRegistry &registry);

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_DIALECT_EMBBAG_IR_TILINGINTERFACEIMPL_H
