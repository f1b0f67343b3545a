// RUN: embbag-opt %s --inline="default-pipeline=" | FileCheck %s --check-prefix=INLINE
// RUN: embbag-opt %s --inline | FileCheck %s --check-prefix=CANON
// RUN: embbag-opt %s --inline="default-pipeline=" --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --inline="default-pipeline=" | embbag-opt --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --inline="default-pipeline=" | embbag-opt --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --inline --canonicalize | embbag-opt --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --inline --canonicalize | embbag-opt --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --inline --canonicalize \
// RUN:   | embbag-opt --embbag-to-llvm="path=linalg parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --inline="default-pipeline=" | embbag-opt --embbag-to-llvm="parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s

// embbag ops inlined into their caller (--inline="default-pipeline=" only
// inlines), then canonicalized with the caller's constants (--inline
// canonicalizes by default): the offsets of uniform bags become embbag.packed,
// default(-1) and all-ones weights go, num_segments and default become
// static. Executed without inlining, inlined, and inlined and
// canonicalized, the numbers are the same. Table rows: t0 = [1, 2],
// t1 = [10, 20], t2 = [100, 200], t3 = [1000, 2000].

// INLINE-LABEL: func.func @main()
// INLINE-NOT:     call @bags
// INLINE:         embbag.offsets sum
// INLINE-NOT:     call @segs
// INLINE:         embbag.segments mean
// INLINE-NOT:     call @{{(bags|segs)}}

// CANON-LABEL: func.func @main()
// CANON-NOT:     embbag.offsets
// CANON:         embbag.packed sum %{{.*}}[%{{.*}}] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
// CANON:         embbag.segments mean {{.*}} num_segments(4) default(1) : {{.*}} -> tensor<4x2xf32>

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

// Kernels with constant operands only at the call sites: inlining makes them
// visible to the canonicalizer.
func.func @bags(%t: tensor<4x2xf32>, %i: tensor<6xi32>, %o: tensor<3xi32>, %d: i32, %w: tensor<6xf32>) -> tensor<3x2xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) default(%d) weights(%w)
      : (tensor<4x2xf32>, tensor<6xi32>, tensor<3xi32>, i32, tensor<6xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
func.func @segs(%t: tensor<4x2xf32>, %i: tensor<4xi32>, %s: tensor<4xi32>, %n: i32, %d: i32) -> tensor<?x2xf32> {
  %r = embbag.segments mean %t[%i] segment_ids(%s) num_segments(%n) default(%d)
      : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0]]> : tensor<4x2xf32>
  %i = arith.constant dense<[0, 1, 2, 3, 3, 0]> : tensor<6xi32>
  %o = arith.constant dense<[0, 2, 4]> : tensor<3xi32>
  %m1 = arith.constant -1 : i32
  %w = arith.constant dense<1.0> : tensor<6xf32>
  %r = call @bags(%t, %i, %o, %m1, %w) : (tensor<4x2xf32>, tensor<6xi32>, tensor<3xi32>, i32, tensor<6xf32>) -> tensor<3x2xf32>
  // Bags {t0, t1}, {t2, t3}, {t3, t0}:
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[11,   22],
  // CHECK-NEXT:  [1100,   2200],
  // CHECK-NEXT:  [1001,   2002]]
  %p = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  %si = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %ss = arith.constant dense<[2, 0, 2, 0]> : tensor<4xi32>
  %n = arith.constant 4 : i32
  %d = arith.constant 1 : i32
  %q = call @segs(%t, %si, %ss, %n, %d) : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<?x2xf32>
  // Segment 0: mean(t1, t3), 1: empty, default row t1, 2: mean(t0, t2), 3: empty.
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[505,   1010],
  // CHECK-NEXT:  [10,   20],
  // CHECK-NEXT:  [50.5,   101],
  // CHECK-NEXT:  [10,   20]]
  %qp = tensor.cast %q : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%qp) : (tensor<*xf32>) -> ()
  return
}
