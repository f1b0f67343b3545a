// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm | mlir-translate --mlir-to-llvmir \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: embbag-opt %s --embbag-to-llvm \
// RUN:   | not --crash mlir-runner -e fail_user -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs 2>&1 | FileCheck %s --check-prefix=FAIL-USER
// RUN: embbag-opt %s --embbag-to-llvm \
// RUN:   | not --crash mlir-runner -e fail_check -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs 2>&1 | FileCheck %s --check-prefix=FAIL-CHECK

// A user's cf.assert next to embbag ops keeps its upstream meaning in
// --embbag-to-llvm: convert-cf-to-llvm lowers it (a puts of its message,
// then abort), while only embbag's own runtime checks write to stderr. A
// passing user assert lets the program run on; a failing one stops it.

// IR-DAG: @[[CHECK_MSG:[a-z_0-9]+]] = internal constant [{{[0-9]+}} x i8] c"embbag.packed at {{.*}}: index out of range [0, num_emb)\0A"
// IR-DAG: @[[USER_MSG:[a-z_0-9]+]] = private constant [31 x i8] c"the user's bag is not positive\00"
// IR-LABEL: define {{.*}} @kernel(
// IR: call i64 @write(i32 2, ptr @[[CHECK_MSG]]
// IR: call void @puts(ptr @[[USER_MSG]])
// IR-NEXT: call void @abort()

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

// The user's own check: the first element of bag 0 is positive.
func.func @kernel(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  // FAIL-CHECK: embbag.packed at {{.*}}user-assert.mlir:[[@LINE+1]]:8: index out of range [0, num_emb)
  %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %first = tensor.extract %r[%c0, %c0] : tensor<3x2xf32>
  %ok = arith.cmpf ogt, %first, %zero : f32
  cf.assert %ok, "the user's bag is not positive"
  return %r : tensor<3x2xf32>
}

func.func @run(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>) {
  %r = call @kernel(%t, %i) : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %p = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}

// The user's assert holds: the program runs on and prints.
// CHECK: data =
// CHECK-NEXT: {{\[}}[10,   12],
// CHECK-NEXT:  [8,   10],
// CHECK-NEXT:  [10,   12]]
func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[[0, 4], [1, 2], [1, 3]]> : tensor<3x2xi32>
  call @run(%t, %i) : (tensor<5x2xf32>, tensor<3x2xi32>) -> ()
  return
}

// Bag 0 sums to [-10, -12]: the user's assert fails and the program aborts
// before printing. Its message goes through upstream's puts to a buffered
// stdout that the abort discards, so nothing of it may be relied upon here;
// what is checked is that none of embbag's messages appears.
// FAIL-USER-NOT: embbag.packed at
// FAIL-USER-NOT: data =
func.func @fail_user() {
  %t = arith.constant dense<[[-1.0, -2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [-9.0, -10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[[0, 4], [1, 2], [1, 3]]> : tensor<3x2xi32>
  call @run(%t, %i) : (tensor<5x2xf32>, tensor<3x2xi32>) -> ()
  return
}

// The control: embbag's own check still reports on stderr.
// FAIL-CHECK-NOT: data =
func.func @fail_check() {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %i = arith.constant dense<[[0, 4], [1, 5], [1, 3]]> : tensor<3x2xi32>
  call @run(%t, %i) : (tensor<5x2xf32>, tensor<3x2xi32>) -> ()
  return
}
