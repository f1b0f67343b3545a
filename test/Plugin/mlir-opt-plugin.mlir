// REQUIRES: embbag-plugin
//
// Debian's stock mlir-opt with EmbBagPlugin.so: the dialect through
// --load-dialect-plugin, the passes and the embbag-to-llvm pipeline
// through --load-pass-plugin, the same file for both.
//
// Without the plugin, mlir-opt does not know the dialect.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: error: Dialect `embbag' not found for custom op 'embbag.offsets'
//
// The dialect: a round trip through two mlir-opt processes.
// RUN: mlir-opt %s --load-dialect-plugin=%embbag_plugin \
// RUN:   | mlir-opt --load-dialect-plugin=%embbag_plugin | FileCheck %s --check-prefix=ROUNDTRIP
// ROUNDTRIP: embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) : (tensor<3x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x2xf32>
//
// A pass by name.
// RUN: mlir-opt %s --load-dialect-plugin=%embbag_plugin --load-pass-plugin=%embbag_plugin \
// RUN:   --pass-pipeline="builtin.module(func.func(convert-embbag-to-loops{checks=0}))" \
// RUN:   | FileCheck %s --check-prefix=LOOPS
// LOOPS-LABEL: func.func @main
// LOOPS-NOT:   embbag.offsets
// LOOPS:       scf.for
//
// The whole pipeline, with options, then run: the plugin's lowering is the
// one embbag-opt has.
// RUN: mlir-opt %s --load-dialect-plugin=%embbag_plugin --load-pass-plugin=%embbag_plugin \
// RUN:   --pass-pipeline="builtin.module(embbag-to-llvm{vector-bits=128 unroll=2})" \
// RUN:   | %mlir_runner | FileCheck %s
// CHECK:      sizes = [3, 2] strides = [2, 1] data =
// CHECK-NEXT: [101, 202]
// CHECK-NEXT: [0, 0]
// CHECK-NEXT: [10, 20]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %table = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]]> : tensor<3x2xf32>
  %indices = arith.constant dense<[0, 2, 1]> : tensor<3xi32>
  %offsets = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  %r = embbag.offsets sum %table[%indices] offsets(%offsets) : (tensor<3x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
