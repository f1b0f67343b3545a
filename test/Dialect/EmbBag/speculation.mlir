// RUN: embbag-opt %s -split-input-file --loop-invariant-code-motion | FileCheck %s --check-prefix=LICM
// RUN: embbag-opt %s -split-input-file --cse | FileCheck %s --check-prefix=CSE

// The embbag ops have no memory effect but are not speculatable: an index
// out of range stops the checked program, so LICM must not hoist an op out
// of a loop that may run zero times (regression: the ops were Pure), while
// CSE still merges identical ops. docs/Semantics.md explains why.

// LICM-LABEL: func.func @not_hoisted(
// LICM:           %[[SUM:.*]] = arith.addi
// LICM:           scf.for
// LICM-NEXT:        embbag.packed
// CSE-LABEL: func.func @not_hoisted(
func.func @not_hoisted(%t: tensor<5x2xf32>, %i: tensor<3x2xi32>, %n: index, %a: index) -> tensor<3x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = tensor.empty() : tensor<3x2xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> tensor<3x2xf32> {
    // An upstream Pure op next to it, hoisted: LICM did run.
    %sum = arith.addi %a, %a : index
    %0 = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    scf.yield %0 : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

// -----

// LICM-LABEL: func.func @not_hoisted_segments(
// LICM:           scf.for
// LICM-NEXT:        embbag.segments
func.func @not_hoisted_segments(%t: tensor<5x2xf32>, %i: tensor<4xi64>, %s: tensor<4xi64>, %ns: i64, %n: index) -> tensor<?x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = tensor.empty(%c0) : tensor<?x2xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> tensor<?x2xf32> {
    %0 = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%ns) : (tensor<5x2xf32>, tensor<4xi64>, tensor<4xi64>, i64) -> tensor<?x2xf32>
    scf.yield %0 : tensor<?x2xf32>
  }
  return %r : tensor<?x2xf32>
}

// -----

// CSE-LABEL: func.func @cse(
// CSE:           %[[R:.*]] = embbag.offsets sum
// CSE-NOT:       embbag.offsets
// CSE:           return %[[R]], %[[R]]
func.func @cse(%t: tensor<5x2xf32>, %i: tensor<4xi32>, %o: tensor<3xi32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %0 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %1 = embbag.offsets sum %t[%i] offsets(%o) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xf32>
}
