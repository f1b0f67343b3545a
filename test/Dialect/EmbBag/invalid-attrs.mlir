// RUN: embbag-opt %s -split-input-file -verify-diagnostics

// The discardable attributes of the embbag dialect: `embbag.runtime_check`
// marks the cf.asserts of the lowerings' runtime checks (a unit attribute,
// on cf.assert only), `embbag.row_dispatch` the bag loops of kernels that
// dispatch over a dynamic row length (a unit attribute, on scf.for only),
// `embbag.work_chunks` the kernels' parallel loops over chunks of work (a
// unit attribute, on scf.forall only); no other `embbag.` attribute exists
// on ops.

// The valid form verifies.
func.func @marked(%ok: i1) {
  cf.assert %ok, "check" {embbag.runtime_check}
  return
}

// -----

func.func @not_unit(%ok: i1) {
  // expected-error @+1 {{'embbag.runtime_check' must be a unit attribute}}
  cf.assert %ok, "check" {embbag.runtime_check = true}
  return
}

// -----

func.func @not_assert(%a: i32) -> i32 {
  // expected-error @+1 {{'embbag.runtime_check' is only valid on 'cf.assert', not on 'arith.addi'}}
  %r = arith.addi %a, %a {embbag.runtime_check} : i32
  return %r : i32
}

// -----

func.func @unknown(%ok: i1) {
  // expected-error @+1 {{unknown embbag attribute 'embbag.runtime_checks'}}
  cf.assert %ok, "check" {embbag.runtime_checks}
  return
}

// -----

// `embbag.row_dispatch` marks a kernel's bag loop (scf.for) for
// --embbag-unswitch-row-dispatch.
func.func @row_dispatch(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  } {embbag.row_dispatch}
  return
}

// -----

func.func @row_dispatch_not_unit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'embbag.row_dispatch' must be a unit attribute}}
  scf.for %i = %c0 to %n step %c1 {
  } {embbag.row_dispatch = 1 : i64}
  return
}

// -----

func.func @row_dispatch_not_for(%key: index) {
  // expected-error @+1 {{'embbag.row_dispatch' is only valid on 'scf.for', not on 'scf.index_switch'}}
  scf.index_switch %key {embbag.row_dispatch}
  default {
  }
  return
}

// -----

// `embbag.work_chunks` marks a kernel's parallel loop over chunks of work
// (scf.forall) for --convert-embbag-work-chunks-to-openmp.
func.func @work_chunks(%n: index) {
  scf.forall (%i) in (%n) {
  } {embbag.work_chunks}
  return
}

// -----

func.func @work_chunks_not_unit(%n: index) {
  // expected-error @+1 {{'embbag.work_chunks' must be a unit attribute}}
  scf.forall (%i) in (%n) {
  } {embbag.work_chunks = "guided"}
  return
}

// -----

func.func @work_chunks_not_forall(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'embbag.work_chunks' is only valid on 'scf.forall', not on 'scf.for'}}
  scf.for %i = %c0 to %n step %c1 {
  } {embbag.work_chunks}
  return
}
