//===- OmpRuntime.cpp - Declarations of libomp's functions ----------------===//

#include "OmpRuntime.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;

FailureOr<func::FuncOp>
mlir::embbag::getOrDeclareOmpFunction(ModuleOp module, StringRef name,
                                      FunctionType type, StringRef passName) {
  Operation *existing = SymbolTable::lookupSymbolIn(module, name);
  if (auto func = dyn_cast_or_null<func::FuncOp>(existing)) {
    if (func.getFunctionType() == type)
      return func;
  }
  if (existing) {
    existing->emitError() << "'" << name << "' is libomp's " << type
                          << " function; " << passName
                          << " cannot call this one";
    return failure();
  }
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name, type);
  decl.setPrivate();
  return decl;
}
