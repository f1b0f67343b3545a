//===- embbag-tblgen.cpp - mlir-tblgen with embbag's backends -------------===//
//
// MLIR's TableGen driver with the backends registered in this directory
// (PassOptionsGen.cpp: -gen-pass-options).
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/mlir-tblgen/MlirTblgenMain.h"

int main(int argc, char **argv) { return mlir::MlirTblgenMain(argc, argv); }
