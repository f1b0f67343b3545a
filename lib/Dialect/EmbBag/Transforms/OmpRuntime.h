//===- OmpRuntime.h - Declarations of libomp's functions --------*- C++ -*-===//
//
// The passes that call libomp (embbag-set-omp-blocktime,
// embbag-limit-omp-threads) declare its functions in the module they
// rewrite, once.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_DIALECT_EMBBAG_TRANSFORMS_OMPRUNTIME_H
#define EMBBAG_LIB_DIALECT_EMBBAG_TRANSFORMS_OMPRUNTIME_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::embbag {

/// libomp's function `name` of type `type` in `module`: the existing
/// declaration, or a new private one. A symbol of that name that is not
/// such a function gets an error naming `passName`, and failure.
FailureOr<func::FuncOp> getOrDeclareOmpFunction(ModuleOp module, StringRef name,
                                                FunctionType type,
                                                StringRef passName);

} // namespace mlir::embbag

#endif // EMBBAG_LIB_DIALECT_EMBBAG_TRANSFORMS_OMPRUNTIME_H
