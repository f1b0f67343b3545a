// RUN: embbag-opt %s --embbag-to-llvm 2>%t.warnings | not --crash %mlir_runner 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.warnings
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1" 2>/dev/null | env OMP_NUM_THREADS=2 not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%libomp 2>&1 | FileCheck %s
// RUN: embbag-opt %s --verify-each --embbag-to-llvm="path=linalg checks=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN

// A constant num_segments (3) that disagrees with the static result (2
// rows): the verifier cannot see it (an operand), embbag-verify-constants
// warns, and the runtime check stops the program. The lowering once built
// the kernel's result from num_segments, 3 rows, whose cast to the 2-row
// result did not verify ("'memref.cast' op operand type 'memref<3x2xf32>'
// and result type 'memref<2x2xf32>' are cast incompatible"), so the
// program did not compile; the kernel now takes the static batch.

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

// The result returned, as in test/Dialect/EmbBag/canonicalize.mlir's
// @keep_invalid_num_segments, where the sweep of `--verify-each` met it.
func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>) -> tensor<2x2xf32> {
  %n = arith.constant 3 : i32
  // WARN: warning: 'embbag.segments' op num_segments is 3 but the result has 2 rows
  // WARN-NOT: error
  // CHECK: embbag.segments at {{.*}}:[[@LINE+1]]:8: num_segments must equal the result's static batch size
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %s = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi32>
  %r = call @kernel(%t, %i, %s) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<2x2xf32>
  // CHECK-NOT: data =
  %p = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
