// Bytecode carries the embbag dialect version (5), so that a later embbag
// can tell which form of the ops a file holds.
//
// The writer records version 5 (varint 5 = byte 0b) for embbag:
// RUN: embbag-opt %s --emit-bytecode -o %t.mlirbc
// RUN: %python %S/Inputs/dialect_versions.py %t.mlirbc | FileCheck %s --check-prefix=WRITTEN
// WRITTEN: embbag: version 0b
//
// What it wrote reads back, also in MLIR's older bytecode format 5
// (operand segment sizes stored as an attribute):
// RUN: embbag-opt %t.mlirbc | FileCheck %s --check-prefixes=CHECK,V5
// RUN: embbag-opt %s --emit-bytecode --emit-bytecode-version=5 | embbag-opt | FileCheck %s --check-prefixes=CHECK,V5
//
// A checked-in file of version 5 (this file, embbag-opt --emit-bytecode)
// loads:
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/embbag-v5.mlirbc | FileCheck %s --check-prefix=WRITTEN
// RUN: embbag-opt %S/Inputs/embbag-v5.mlirbc | FileCheck %s --check-prefixes=CHECK,V5
//
// A checked-in file of version 4 (written before `rowwise`, so without
// @rowwise) loads too: its ops are read without the property.
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/embbag-v4.mlirbc | FileCheck %s --check-prefix=V4
// V4: embbag: version 09
// RUN: embbag-opt %S/Inputs/embbag-v4.mlirbc | FileCheck %s
//
// Versions 1, 2 and 3 predate properties that changed the ops' encoding
// (the static default/num_segments forms, include_last_offset, then the
// operand segments of padding_idx): they are refused with a diagnostic
// instead of being decoded wrongly. (Unversioned files, written before
// versioning, cannot be told apart and fail while decoding their
// properties.)
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/embbag-v3.mlirbc | FileCheck %s --check-prefix=V3
// V3: embbag: version 07
// RUN: not embbag-opt %S/Inputs/embbag-v3.mlirbc 2>&1 | FileCheck %s --check-prefix=REFUSED3
// REFUSED3: error: embbag dialect bytecode version 3 is not supported (this build reads versions 4 to 5)
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/embbag-v2.mlirbc | FileCheck %s --check-prefix=V2
// V2: embbag: version 05
// RUN: not embbag-opt %S/Inputs/embbag-v2.mlirbc 2>&1 | FileCheck %s --check-prefix=REFUSED2
// REFUSED2: error: embbag dialect bytecode version 2 is not supported (this build reads versions 4 to 5)
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/embbag-v1-old-properties.mlirbc | FileCheck %s --check-prefix=V1
// V1: embbag: version 03
// RUN: not embbag-opt %S/Inputs/embbag-v1-old-properties.mlirbc 2>&1 | FileCheck %s --check-prefix=REFUSED1
// REFUSED1: error: embbag dialect bytecode version 1 is not supported (this build reads versions 4 to 5)
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/unversioned.mlirbc | FileCheck %s --check-prefix=OLD
// OLD: embbag: unversioned
// RUN: not embbag-opt %S/Inputs/unversioned.mlirbc 2>&1 | FileCheck %s --check-prefix=UNVERSIONED
// UNVERSIONED: error:
//
// A file from a newer embbag (written by a build with version 7) is refused
// rather than read with today's meaning of the ops:
// RUN: %python %S/Inputs/dialect_versions.py %S/Inputs/embbag-v7-future.mlirbc | FileCheck %s --check-prefix=FUTURE
// FUTURE: embbag: version 0f
// RUN: not embbag-opt %S/Inputs/embbag-v7-future.mlirbc 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: embbag dialect bytecode version 7 is not supported (this build reads versions 4 to 5)

// CHECK-LABEL: func.func @bags(
// CHECK:         embbag.packed sum %{{.*}}[%{{.*}}] weights(%{{.*}}) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK:         embbag.offsets mean %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>
// CHECK:         embbag.segments sum %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
// CHECK-LABEL: func.func @beyond(
// CHECK:         embbag.offsets max %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<2x2xf32>
// CHECK:         embbag.packed sqrtn %{{.*}}[%{{.*}}] weights(%{{.*}}) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-LABEL: func.func @padding(
// CHECK:         embbag.packed sum %{{.*}}[%{{.*}}] padding_idx(%{{.*}}) weights(%{{.*}}) : (tensor<5x2xf32>, tensor<3x2xi32>, i32, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK:         embbag.offsets mean %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset default(1) padding_idx(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<2x2xf32>
// CHECK:         embbag.segments max %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(3) default(%{{.*}}) padding_idx(%{{.*}}) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<3x2xf32>
// V5-LABEL: func.func @rowwise(
// V5:         embbag.packed max %{{.*}}[%{{.*}}] rowwise(i4) : (tensor<5x36xui8>, tensor<3x2xi32>) -> tensor<3x64xf16>
// V5:         embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) include_last_offset default(1) rowwise(i8) : (tensor<5x72xui8>, tensor<4xi64>, tensor<3xi64>) -> tensor<2x64xf32>
// V5:         embbag.segments mean %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(3) rowwise(i2) : (tensor<5x20xi8>, tensor<4xi64>, tensor<4xi64>) -> tensor<3x64xf32>
func.func @bags(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>, %w: tensor<3x2xf32>, %i1: tensor<4xi64>, %off: tensor<3xi64>, %d: i64, %seg: tensor<4xi64>, %n: i64) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<?x2xf32>) {
  %0 = embbag.packed sum %table[%indices] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = embbag.offsets mean %table[%i1] offsets(%off) default(%d) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<3x2xf32>
  %2 = embbag.segments sum %table[%i1] segment_ids(%seg) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<?x2xf32>
}

func.func @beyond(%table: tensor<5x2xf32>, %i: tensor<4xi64>, %off: tensor<3xi64>, %indices: tensor<3x2xi32>, %w: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<3x2xf32>) {
  %0 = embbag.offsets max %table[%i] offsets(%off) include_last_offset : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<2x2xf32>
  %1 = embbag.packed sqrtn %table[%indices] weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<3x2xf32>
}

func.func @padding(%table: tensor<5x2xf32>, %indices: tensor<3x2xi32>, %w: tensor<3x2xf32>, %p: i32, %i: tensor<4xi64>, %off: tensor<3xi64>, %p64: i64, %d: i64) -> (tensor<3x2xf32>, tensor<2x2xf32>, tensor<3x2xf32>) {
  %0 = embbag.packed sum %table[%indices] padding_idx(%p) weights(%w) : (tensor<5x2xf32>, tensor<3x2xi32>, i32, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = embbag.offsets mean %table[%i] offsets(%off) include_last_offset default(1) padding_idx(%p64) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64) -> tensor<2x2xf32>
  %2 = embbag.segments max %table[%i] segment_ids(%i) num_segments(3) default(%d) padding_idx(%p64) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64, i64) -> tensor<3x2xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<2x2xf32>, tensor<3x2xf32>
}

func.func @rowwise(%q4: tensor<5x36xui8>, %indices: tensor<3x2xi32>, %q8: tensor<5x72xui8>, %i: tensor<4xi64>, %off: tensor<3xi64>, %q2: tensor<5x20xi8>) -> (tensor<3x64xf16>, tensor<2x64xf32>, tensor<3x64xf32>) {
  %0 = embbag.packed max %q4[%indices] rowwise(i4) : (tensor<5x36xui8>, tensor<3x2xi32>) -> tensor<3x64xf16>
  %1 = embbag.offsets sum %q8[%i] offsets(%off) include_last_offset default(1) rowwise(i8) : (tensor<5x72xui8>, tensor<4xi64>, tensor<3xi64>) -> tensor<2x64xf32>
  %2 = embbag.segments mean %q2[%i] segment_ids(%i) num_segments(3) rowwise(i2) : (tensor<5x20xi8>, tensor<4xi64>, tensor<4xi64>) -> tensor<3x64xf32>
  return %0, %1, %2 : tensor<3x64xf16>, tensor<2x64xf32>, tensor<3x64xf32>
}
