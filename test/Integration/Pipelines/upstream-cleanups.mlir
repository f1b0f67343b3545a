// RUN: embbag-opt %s --canonicalize --cse --sccp --loop-invariant-code-motion \
// RUN:   | FileCheck %s --check-prefix=CLEAN
// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize --cse --sccp --loop-invariant-code-motion \
// RUN:   | embbag-opt --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize --cse --sccp --loop-invariant-code-motion \
// RUN:   | embbag-opt --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize --cse --sccp --loop-invariant-code-motion \
// RUN:   | embbag-opt --embbag-to-llvm="parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s

// Upstream clean-ups before --embbag-to-llvm leave the results alone: CSE
// merges two identical ops (they have no memory effects), the branch on a
// constant goes (and its offsets op of uniform bags becomes embbag.packed),
// and LICM keeps an op that may trap (its checked
// lowering stops on a bad index) inside a loop that runs zero times, so the
// program runs to the end. Table rows: t0 = [1, 2], t1 = [10, 20],
// t2 = [100, 200], t3 = [1000, 2000]; bags {t0, t1}, {t2, t3}, {t3, t0}.

// CLEAN-LABEL: func.func @repeat(
// CLEAN:         scf.for
// CLEAN-NEXT:      embbag.packed sum
// CLEAN:         return
// The op is loop invariant, but not speculatable: it stays in the loop.
func.func @repeat(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>, %n: index,
                  %init: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> tensor<3x2xf32> {
    %s = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    %next = linalg.add ins(%acc, %s : tensor<3x2xf32>, tensor<3x2xf32>)
                       outs(%acc : tensor<3x2xf32>) -> tensor<3x2xf32>
    scf.yield %next : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// CLEAN-LABEL: func.func @main()
// CLEAN:         embbag.packed sum
// CLEAN-NOT:     embbag.packed sum
// CLEAN-NOT:     scf.if
// CLEAN:         embbag.packed mean {{.*}} -> tensor<2x2xf32>
// CLEAN-NOT:     embbag.
// CLEAN:         return
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0],
                             [1000.0, 2000.0]]> : tensor<4x2xf32>
  %i = arith.constant dense<[[0, 1], [2, 3], [3, 0]]> : tensor<3x2xi32>
  // Index 4 is out of range: only a loop that never runs may hold it.
  %bad = arith.constant dense<[[0, 4], [2, 3], [3, 0]]> : tensor<3x2xi32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x2xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x2xf32>) -> tensor<3x2xf32>

  // Two identical ops, added: twice the bag sums.
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[22,   44],
  // CHECK-NEXT:  [2200,   4400],
  // CHECK-NEXT:  [2002,   4004]]
  %a = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %b = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %ab = linalg.add ins(%a, %b : tensor<3x2xf32>, tensor<3x2xf32>)
                   outs(%empty : tensor<3x2xf32>) -> tensor<3x2xf32>
  %ab_p = tensor.cast %ab : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%ab_p) : (tensor<?x?xf32>) -> ()

  // Twice through the loop: the same.
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[22,   44],
  // CHECK-NEXT:  [2200,   4400],
  // CHECK-NEXT:  [2002,   4004]]
  %twice = call @repeat(%t, %i, %c2, %zeros)
      : (tensor<4x2xf32>, tensor<3x2xi32>, index, tensor<3x2xf32>) -> tensor<3x2xf32>
  %twice_p = tensor.cast %twice : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%twice_p) : (tensor<?x?xf32>) -> ()

  // Zero times through the loop with the bad indices: no check fires, the
  // initial value comes back.
  // CHECK-NOT: embbag.packed at
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0,   0],
  // CHECK-NEXT:  [0,   0],
  // CHECK-NEXT:  [0,   0]]
  %none = call @repeat(%t, %bad, %c0, %zeros)
      : (tensor<4x2xf32>, tensor<3x2xi32>, index, tensor<3x2xf32>) -> tensor<3x2xf32>
  %none_p = tensor.cast %none : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%none_p) : (tensor<?x?xf32>) -> ()

  // A branch on a constant (2 > 0): mean of the bags {t0, t1}, {t2, t3} of
  // offsets [0, 2] over [0, 1, 2, 3].
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[5.5,   11],
  // CHECK-NEXT:  [550,   1100]]
  %oi = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %oo = arith.constant dense<[0, 2]> : tensor<2xi32>
  %pos = arith.cmpi sgt, %c2, %c0 : index
  %m = scf.if %pos -> tensor<2x2xf32> {
    %r = embbag.offsets mean %t[%oi] offsets(%oo)
        : (tensor<4x2xf32>, tensor<4xi32>, tensor<2xi32>) -> tensor<2x2xf32>
    scf.yield %r : tensor<2x2xf32>
  } else {
    %r = embbag.offsets sum %t[%oi] offsets(%oo)
        : (tensor<4x2xf32>, tensor<4xi32>, tensor<2xi32>) -> tensor<2x2xf32>
    scf.yield %r : tensor<2x2xf32>
  }
  %m_p = tensor.cast %m : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%m_p) : (tensor<?x?xf32>) -> ()
  return
}
