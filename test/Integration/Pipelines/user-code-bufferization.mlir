// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm | FileCheck %s --check-prefix=IR
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg parallel=1" | FileCheck %s --check-prefix=IR
// RUN: embbag-opt %s --embbag-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// Ordinary user code around the ops that --embbag-to-llvm must take (the
// regressions of issue 11):
// - a function returning a constant tensor (and one returning an argument):
//   the deallocation pipeline clones such buffers, and the
//   bufferization.clone left behind kept the output from translating;
// - an scf.for whose body yields an embbag result, not a buffer equivalent
//   to its iter_arg ("Yield operand #0 is not equivalent to the
//   corresponding iter bbArg"), and the same through scf.while and scf.if.

// IR-NOT: {{^ *(%[^ ]+ = )?(arith|scf|cf|vector|memref|tensor|func|bufferization|linalg|embbag|affine|ub|index|omp)\.[a-z_]+}}
// LLVMIR: define void @main()

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// Rows 1, 10, 100, 1000 and 0.5 (times [1, 2] but the last, [0.5, 0.25]).
func.func @table() -> tensor<5x2xf32> {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0],
                             [1000.0, 2000.0], [0.5, 0.25]]> : tensor<5x2xf32>
  return %t : tensor<5x2xf32>
}

func.func @identity(%i: tensor<3x2xi32>) -> tensor<3x2xi32> {
  return %i : tensor<3x2xi32>
}

func.func @pick(%a: tensor<5x2xf32>, %b: tensor<5x2xf32>, %c: i1)
    -> tensor<5x2xf32> {
  %r = arith.select %c, %a, %b : tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// sum or mean, as the op result of an scf.if.
func.func @bags(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %mean: i1)
    -> tensor<3x2xf32> {
  %r = scf.if %mean -> tensor<3x2xf32> {
    %m = embbag.packed mean %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    scf.yield %m : tensor<3x2xf32>
  } else {
    %s = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    scf.yield %s : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zeros = arith.constant dense<0.0> : tensor<5x2xf32>
  %t0 = call @table() : () -> tensor<5x2xf32>
  %t = call @pick(%t0, %zeros, %true)
      : (tensor<5x2xf32>, tensor<5x2xf32>, i1) -> tensor<5x2xf32>
  %i0 = arith.constant dense<[[0, 4], [2, 2], [1, 3]]> : tensor<3x2xi32>
  %i = call @identity(%i0) : (tensor<3x2xi32>) -> tensor<3x2xi32>
  // Bag b of the next two ops adds rows b and b + 1 (mod 3) of a 3x2 tensor.
  %j = arith.constant dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi32>
  %w2 = arith.constant dense<2.0> : tensor<3x2xf32>

  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1.5,   2.25],
  // CHECK-NEXT:  [200,   400],
  // CHECK-NEXT:  [1010,   2020]]
  %sum = call @bags(%t, %i, %false) : (tensor<5x2xf32>, tensor<3x2xi32>, i1) -> tensor<3x2xf32>
  %sum_p = tensor.cast %sum : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%sum_p) : (tensor<?x?xf32>) -> ()

  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0.75,   1.125],
  // CHECK-NEXT:  [100,   200],
  // CHECK-NEXT:  [505,   1010]]
  %mean = call @bags(%t, %i, %true) : (tensor<5x2xf32>, tensor<3x2xi32>, i1) -> tensor<3x2xf32>
  %mean_p = tensor.cast %mean : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%mean_p) : (tensor<?x?xf32>) -> ()

  // Twice acc[b] <- acc[b] + acc[b + 1], from the sums:
  // [201.5, 402.25], [1210, 2420], [1011.5, 2022.25], then
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1411.5,   2822.25],
  // CHECK-NEXT:  [2221.5,   4442.25],
  // CHECK-NEXT:  [1213,   2424.5]]
  %for = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %sum) -> tensor<3x2xf32> {
    %next = embbag.packed sum %acc[%j] : (tensor<3x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    scf.yield %next : tensor<3x2xf32>
  }
  %for_p = tensor.cast %for : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%for_p) : (tensor<?x?xf32>) -> ()

  // Twice x[b] <- 2 * (x[b] + x[b + 1]) from the means:
  // [201.5, 402.25], [1210, 2420], [1011.5, 2022.25], then
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[2823,   5644.5],
  // CHECK-NEXT:  [4443,   8884.5],
  // CHECK-NEXT:  [2426,   4849]]
  %while:2 = scf.while (%n = %c0, %x = %mean) : (index, tensor<3x2xf32>) -> (index, tensor<3x2xf32>) {
    %more = arith.cmpi slt, %n, %c2 : index
    scf.condition(%more) %n, %x : index, tensor<3x2xf32>
  } do {
  ^bb0(%n: index, %x: tensor<3x2xf32>):
    %next = embbag.packed sum %x[%j] weights(%w2)
        : (tensor<3x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %n1 = arith.addi %n, %c1 : index
    scf.yield %n1, %next : index, tensor<3x2xf32>
  }
  %while_p = tensor.cast %while#1 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%while_p) : (tensor<?x?xf32>) -> ()

  // The returned constant, read back.
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1,   2],
  // CHECK-NEXT:  [10,   20],
  // CHECK-NEXT:  [100,   200],
  // CHECK-NEXT:  [1000,   2000],
  // CHECK-NEXT:  [0.5,   0.25]]
  %t_p = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>
  call @print(%t_p) : (tensor<?x?xf32>) -> ()
  return
}
