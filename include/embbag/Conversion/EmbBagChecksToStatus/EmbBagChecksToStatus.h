//===- EmbBagChecksToStatus.h - Runtime checks to a status ------*- C++ -*-===//

#ifndef EMBBAG_CONVERSION_EMBBAGCHECKSTOSTATUS_EMBBAGCHECKSTOSTATUS_H
#define EMBBAG_CONVERSION_EMBBAGCHECKSTOSTATUS_EMBBAGCHECKSTOSTATUS_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace cf {
class AssertOp;
} // namespace cf

namespace embbag {

#define GEN_PASS_DECL_EMBBAGCHECKSTOSTATUS
#include "embbag/Conversion/Passes.h.inc"

/// Whether `op` checks an embbag op's runtime contract: it carries
/// `embbag.runtime_check`, or (lowerings that predate the attribute) its
/// message starts with the name of an embbag op.
bool isEmbBagRuntimeCheck(cf::AssertOp op);

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_CONVERSION_EMBBAGCHECKSTOSTATUS_EMBBAGCHECKSTOSTATUS_H
