// RUN: embbag-opt %s --embbag-to-llvm | FileCheck %s
// RUN: embbag-opt %s --embbag-set-target-triple="triple=aarch64-unknown-linux-gnu" | FileCheck %s --check-prefix=OPTION
// RUN: embbag-opt %s --embbag-set-target-triple="triple=aarch64-unknown-linux-gnu" --embbag-to-llvm | FileCheck %s --check-prefix=OPTION
//
// The LLVM IR names the machine, so that llc calls memcpy for a copy of a
// size known at run time instead of copying byte by byte (before
// embbag-set-target-triple, `mlir-translate | llc -mcpu=...` without
// -mtriple gave the byte loop).
// RUN: embbag-opt %s --embbag-to-llvm | mlir-translate --mlir-to-llvmir | llc -O3 | FileCheck %s --check-prefix=ASM
//
// CHECK: module attributes {{{.*}}llvm.target_triple = "{{[a-z0-9_]+-.+}}"
// A triple the module already has (here from the option) is kept.
// OPTION: module attributes {{{.*}}llvm.target_triple = "aarch64-unknown-linux-gnu"
// ASM-LABEL: copy:
// ASM-NOT: dynamic-memcpy-expansion
// ASM: {{call|jmp}}{{q?}} memcpy

func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) attributes {llvm.emit_c_interface} {
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  return
}
