// RUN: embbag-opt %s -split-input-file -verify-diagnostics

// The discardable attributes of the embbag dialect: `embbag.runtime_check`
// marks the cf.asserts of the lowerings' runtime checks (a unit attribute,
// on cf.assert only); no other `embbag.` attribute exists.

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
