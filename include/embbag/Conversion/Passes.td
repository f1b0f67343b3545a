//===- Passes.td - EmbBag conversion passes ----------------*- tablegen -*-===//

#ifndef EMBBAG_CONVERSION_PASSES_TD
#define EMBBAG_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // EMBBAG_CONVERSION_PASSES_TD
