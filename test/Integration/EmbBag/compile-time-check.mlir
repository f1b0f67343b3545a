// RUN: embbag-opt %s --embbag-to-llvm="strict-constants=1" -verify-diagnostics | FileCheck %s --allow-empty
// RUN: embbag-opt %s --embbag-to-llvm 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: embbag-opt %s --embbag-to-llvm 2>/dev/null | FileCheck %s --check-prefix=LOWERED

// The compile-time check in the pipeline: --embbag-to-llvm starts with
// embbag-verify-constants. With strict-constants it rejects constant
// operands that break the runtime contract (here in @main, where the runtime
// checks of check-*.mlir would otherwise stop the program), with an error at
// the op; the pipeline stops and nothing is lowered. By default it warns at
// the op and lowers the program: such an op may sit in code that never runs
// (the runtime checks stop the program if it does).
//
// (-verify-diagnostics rather than `not embbag-opt ... 2>&1 | FileCheck`:
// lit.cfg.py substitutes `not` only after a pipe, and `not` is not on the
// PATH of the tests.)

// WARN: compile-time-check.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: 'embbag.packed' op index 5 at indices[1, 1] is out of range [0, 5) of the table
// WARN: warning: 'embbag.offsets' op index -3 at indices[2] is out of range [0, 5) of the table
// WARN: warning: 'embbag.offsets' op offsets[2] = 2 is smaller than the offset before it, 3
// WARN: warning: 'embbag.segments' op segment id 3 at segment_ids[3] is out of range [0, 3)
// LOWERED: llvm.func @main

// CHECK-NOT: llvm.func

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>

  %ip = arith.constant dense<[[0, 4], [2, 5]]> : tensor<2x2xi32>
  // expected-error @+1 {{'embbag.packed' op index 5 at indices[1, 1] is out of range [0, 5) of the table}}
  %r0 = embbag.packed sum %t[%ip] : (tensor<5x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %p0 = tensor.cast %r0 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  %io = arith.constant dense<[0, 2, -3, 4]> : tensor<4xi64>
  %oo = arith.constant dense<[0, 2, 2]> : tensor<3xi64>
  // expected-error @+1 {{'embbag.offsets' op index -3 at indices[2] is out of range [0, 5) of the table}}
  %r1 = embbag.offsets sum %t[%io] offsets(%oo) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  %p1 = tensor.cast %r1 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  %io2 = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %oo2 = arith.constant dense<[0, 3, 2]> : tensor<3xi32>
  // expected-error @+1 {{'embbag.offsets' op offsets[2] = 2 is smaller than the offset before it, 3}}
  %r2 = embbag.offsets mean %t[%io2] offsets(%oo2) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %p2 = tensor.cast %r2 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  %ss = arith.constant dense<[0, 0, 2, 3]> : tensor<4xi32>
  %n3 = arith.constant 3 : i32
  // expected-error @+1 {{'embbag.segments' op segment id 3 at segment_ids[3] is out of range [0, 3)}}
  %r3 = embbag.segments sum %t[%io2] segment_ids(%ss) num_segments(%n3) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<3x2xf32>
  %p3 = tensor.cast %r3 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()
  return
}
