//===- EmbBagAssertToLLVM.h - cf.assert to stderr + abort -------*- C++ -*-===//

#ifndef EMBBAG_CONVERSION_EMBBAGASSERTTOLLVM_EMBBAGASSERTTOLLVM_H
#define EMBBAG_CONVERSION_EMBBAGASSERTTOLLVM_EMBBAGASSERTTOLLVM_H

#include "mlir/Pass/Pass.h"

namespace mlir::embbag {

#define GEN_PASS_DECL_CONVERTEMBBAGASSERTTOLLVM
#include "embbag/Conversion/Passes.h.inc"

} // namespace mlir::embbag

#endif // EMBBAG_CONVERSION_EMBBAGASSERTTOLLVM_EMBBAGASSERTTOLLVM_H
