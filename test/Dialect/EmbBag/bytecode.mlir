// Bytecode carries the embbag dialect version (1), so that files written
// today can be read, and upgraded, by a later embbag that changes the ops.
//
// The writer records version 1 (varint 1 = byte 03) for embbag:
// RUN: embbag-opt %s --emit-bytecode -o %t.mlirbc
// RUN: %python %S/Inputs/dialect_versions.py %t.mlirbc | FileCheck %s --check-prefix=WRITTEN
// WRITTEN: embbag: version 03
//
// What it wrote reads back:
// RUN: embbag-opt %t.mlirbc | FileCheck %s
//
// Checked-in files: one written by embbag-opt --emit-bytecode with dialect
// version 1 (this file's function), and one written before the dialect was
// versioned; both load.
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/embbag-v1.mlirbc | FileCheck %s --check-prefix=WRITTEN
// RUN: embbag-opt %S/Inputs/embbag-v1.mlirbc | FileCheck %s
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/unversioned.mlirbc | FileCheck %s --check-prefix=OLD
// OLD: embbag: unversioned
// RUN: embbag-opt %S/Inputs/unversioned.mlirbc | FileCheck %s
//
// A file from a newer embbag (written by a build with version 7) is refused
// rather than read with today's meaning of the ops:
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/embbag-v7-future.mlirbc | FileCheck %s --check-prefix=FUTURE
// FUTURE: embbag: version 0f
// RUN: not embbag-opt %S/Inputs/embbag-v7-future.mlirbc 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: embbag dialect bytecode version 7 is not supported (this build reads versions 1 to 1)

// CHECK-LABEL: func.func @bags(
// CHECK:         embbag.packed sum %{{.*}}[%{{.*}}] weights(%{{.*}}) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK:         embbag.offsets mean %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>
// CHECK:         embbag.segments sum %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
func.func @bags(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>, %w: tensor<3x2xf32>, %i1: tensor<4xi64>, %off: tensor<3xi64>, %d: i64, %seg: tensor<4xi64>, %n: i64) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<?x2xf32>) {
  %0 = embbag.packed sum %table[%indices] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = embbag.offsets mean %table[%i1] offsets(%off) default(%d) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>
  %2 = embbag.segments sum %table[%i1] segment_ids(%seg) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<?x2xf32>
}
