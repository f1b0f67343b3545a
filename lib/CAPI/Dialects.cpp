//===- Dialects.cpp - C API of the embbag dialect -------------------------===//

#include "embbag-c/Dialects.h"

#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(EmbBag, embbag,
                                      mlir::embbag::EmbBagDialect)
