// RUN: embbag-opt %s | embbag-opt | FileCheck %s
// RUN: embbag-opt %s --mlir-print-op-generic | embbag-opt | FileCheck %s
// RUN: embbag-opt %s --emit-bytecode | embbag-opt | FileCheck %s
// RUN: embbag-opt %s --emit-bytecode --emit-bytecode-version=5 | embbag-opt | FileCheck %s
// RUN: embbag-opt %s --mlir-print-op-generic | embbag-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: embbag-opt %s --loop-invariant-code-motion --cse | FileCheck %s --check-prefix=EFFECTS

// Round trips of the training ops (issue 22): the custom form after a
// custom, a generic and a bytecode round trip (also in MLIR's bytecode
// format 5, which stores operand segment sizes as an attribute), and the
// generic form. Every form, every clause, both optimizers, `sparse`.

//===----------------------------------------------------------------------===//
// The four examples of the design, verbatim
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @design
// CHECK: %{{.*}}:2 = embbag.offsets_grad sum %arg0, %arg1[%arg2] offsets(%arg3) weights(%arg4) : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, tensor<4xf32>) -> (tensor<5x2xf32>, tensor<4xf32>)
// CHECK: %{{.*}}:2 = embbag.packed_grad mean %arg0, %arg1[%arg5] sparse : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> (tensor<?xi64>, tensor<?x2xf32>)
// CHECK: %{{.*}} = embbag.offsets_update sum sgd(%arg6) %arg0, %arg1[%arg2] offsets(%arg3) : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
// CHECK: %{{.*}}:2 = embbag.offsets_update sum rowwise_adagrad(%arg6, %arg7) state(%arg8) %arg0, %arg1[%arg2] offsets(%arg3) : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5xf32>)
// GENERIC-LABEL: sym_name = "design"
// GENERIC-NEXT: ^bb0(%[[DY:[a-z0-9_-]+]]: tensor<3x2xf32>, %[[T:[a-z0-9_-]+]]: tensor<5x2xf32>, %[[I:[a-z0-9_-]+]]: tensor<4xi64>, %[[OFF:[a-z0-9_-]+]]: tensor<3xi64>, %[[W:[a-z0-9_-]+]]: tensor<4xf32>, %[[I2:[a-z0-9_-]+]]: tensor<3x2xi64>, %[[LR:[a-z0-9_-]+]]: f32, %[[EPS:[a-z0-9_-]+]]: f32, %[[S:[a-z0-9_-]+]]: tensor<5xf32>):
// GENERIC-NEXT: "embbag.offsets_grad"(%[[DY]], %[[T]], %[[I]], %[[OFF]], %[[W]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 1>, reduction = #embbag<reduction sum>}> : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, tensor<4xf32>) -> (tensor<5x2xf32>, tensor<4xf32>)
// GENERIC-NEXT: "embbag.packed_grad"(%[[DY]], %[[T]], %[[I2]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, reduction = #embbag<reduction mean>, sparse}> : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> (tensor<?xi64>, tensor<?x2xf32>)
// GENERIC-NEXT: "embbag.offsets_update"(%[[LR]], %[[DY]], %[[T]], %[[I]], %[[OFF]]) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 1, 1, 1, 0, 0, 0>, optimizer = #embbag<optimizer sgd>, reduction = #embbag<reduction sum>}> : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
// GENERIC-NEXT: "embbag.offsets_update"(%[[LR]], %[[EPS]], %[[S]], %[[DY]], %[[T]], %[[I]], %[[OFF]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>, optimizer = #embbag<optimizer rowwise_adagrad>, reduction = #embbag<reduction sum>}> : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5xf32>)
func.func @design(%dy: tensor<3x2xf32>, %table: tensor<5x2xf32>,
                  %indices: tensor<4xi64>, %off: tensor<3xi64>,
                  %w: tensor<4xf32>, %indices2d: tensor<3x2xi64>,
                  %lr: f32, %eps: f32, %s: tensor<5xf32>) {
// Gradient of `embbag.offsets sum %table[%indices] offsets(%off) weights(%w)`, given %dy = dL/dresult:
%dt, %dw = embbag.offsets_grad sum %dy, %table[%indices] offsets(%off) weights(%w)
    : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, tensor<4xf32>) -> (tensor<5x2xf32>, tensor<4xf32>)
// Sparse (PyTorch's sparse=True): the rows touched, sorted and unique, and their gradient rows.
%rows, %drows = embbag.packed_grad mean %dy, %table[%indices2d] sparse
    : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> (tensor<?xi64>, tensor<?x2xf32>)
// Fused SGD, the table updated in destination style.
%t2 = embbag.offsets_update sum sgd(%lr) %dy, %table[%indices] offsets(%off)
    : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
// Fused row-wise Adagrad with its per-row state.
%t3, %s3 = embbag.offsets_update sum rowwise_adagrad(%lr, %eps) state(%s) %dy, %table[%indices] offsets(%off)
    : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>)
    -> (tensor<5x2xf32>, tensor<5xf32>)
  return
}

//===----------------------------------------------------------------------===//
// _grad: every form and clause
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @packed_grad
// CHECK: embbag.packed_grad sum %arg0, %arg1[%arg2] : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
// CHECK: embbag.packed_grad sqrtn %arg0, %arg1[%arg2] padding_idx(%arg3) weights(%arg4) : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, i32, tensor<3x2xf32>) -> (tensor<5x2xf32>, tensor<3x2xf32>)
// CHECK: embbag.packed_grad max %arg0, %arg1[%arg2] padding_idx(%arg3) sparse : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, i32) -> (tensor<?xi32>, tensor<?x2xf32>)
// CHECK: embbag.packed_grad sum %arg0, %arg1[%arg2] weights(%arg4) sparse : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> (tensor<?xi32>, tensor<?x2xf32>, tensor<3x2xf32>)
func.func @packed_grad(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>,
                       %i: tensor<3x2xi32>, %p: i32, %w: tensor<3x2xf32>) {
  %0 = embbag.packed_grad sum %dy, %t[%i]
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  %1:2 = embbag.packed_grad sqrtn %dy, %t[%i] padding_idx(%p) weights(%w)
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, i32, tensor<3x2xf32>)
         -> (tensor<5x2xf32>, tensor<3x2xf32>)
  %2:2 = embbag.packed_grad max %dy, %t[%i] padding_idx(%p) sparse
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, i32)
         -> (tensor<?xi32>, tensor<?x2xf32>)
  %3:3 = embbag.packed_grad sum %dy, %t[%i] weights(%w) sparse
         : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>)
         -> (tensor<?xi32>, tensor<?x2xf32>, tensor<3x2xf32>)
  return
}

// CHECK-LABEL: func.func @offsets_grad
// CHECK: embbag.offsets_grad sum %arg0, %arg1[%arg2] offsets(%arg3) include_last_offset default(%arg5) padding_idx(%arg5) weights(%arg6) : (tensor<3x2x4xbf16>, tensor<5x2x4xbf16>, tensor<4xi64>, tensor<4xi64>, i64, i64, tensor<4xbf16>) -> (tensor<5x2x4xbf16>, tensor<4xbf16>)
// CHECK: embbag.offsets_grad mean %arg0, %arg1[%arg2] offsets(%arg4) default(2) sparse : (tensor<3x2x4xbf16>, tensor<5x2x4xbf16>, tensor<4xi64>, tensor<3xi64>) -> (tensor<?xi64>, tensor<?x2x4xbf16>)
// CHECK: embbag.offsets_grad max %arg7, %arg8[%arg2] offsets(%arg9) : (tensor<?x?xf64>, tensor<?x?xf64>, tensor<4xi64>, tensor<?xi64>) -> tensor<?x?xf64>
func.func @offsets_grad(%dy: tensor<3x2x4xbf16>, %t: tensor<5x2x4xbf16>,
                        %i: tensor<4xi64>, %off4: tensor<4xi64>,
                        %off3: tensor<3xi64>, %d: i64, %w: tensor<4xbf16>,
                        %dyd: tensor<?x?xf64>, %td: tensor<?x?xf64>,
                        %offd: tensor<?xi64>) {
  %0:2 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off4) include_last_offset
           default(%d) padding_idx(%d) weights(%w)
           : (tensor<3x2x4xbf16>, tensor<5x2x4xbf16>, tensor<4xi64>, tensor<4xi64>, i64, i64, tensor<4xbf16>)
           -> (tensor<5x2x4xbf16>, tensor<4xbf16>)
  %1:2 = embbag.offsets_grad mean %dy, %t[%i] offsets(%off3) default(2) sparse
           : (tensor<3x2x4xbf16>, tensor<5x2x4xbf16>, tensor<4xi64>, tensor<3xi64>)
           -> (tensor<?xi64>, tensor<?x2x4xbf16>)
  %2 = embbag.offsets_grad max %dyd, %td[%i] offsets(%offd)
         : (tensor<?x?xf64>, tensor<?x?xf64>, tensor<4xi64>, tensor<?xi64>) -> tensor<?x?xf64>
  return
}

// CHECK-LABEL: func.func @segments_grad
// CHECK: embbag.segments_grad sqrtn %arg0, %arg1[%arg2] segment_ids(%arg3) num_segments(3) : (tensor<3x2xf16>, tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>) -> tensor<5x2xf16>
// CHECK: embbag.segments_grad sum %arg5, %arg1[%arg2] segment_ids(%arg3) num_segments(%arg4) default(%arg4) padding_idx(%arg4) weights(%arg6) sparse : (tensor<?x2xf16>, tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>, i32, i32, i32, tensor<4xf16>) -> (tensor<?xi32>, tensor<?x2xf16>, tensor<4xf16>)
func.func @segments_grad(%dy: tensor<3x2xf16>, %t: tensor<5x2xf16>,
                         %i: tensor<4xi32>, %seg: tensor<4xi32>, %n: i32,
                         %dyd: tensor<?x2xf16>, %w: tensor<4xf16>) {
  %0 = embbag.segments_grad sqrtn %dy, %t[%i] segment_ids(%seg) num_segments(3)
         : (tensor<3x2xf16>, tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>) -> tensor<5x2xf16>
  %1:3 = embbag.segments_grad sum %dyd, %t[%i] segment_ids(%seg) num_segments(%n)
           default(%n) padding_idx(%n) weights(%w) sparse
           : (tensor<?x2xf16>, tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>, i32, i32, i32, tensor<4xf16>)
           -> (tensor<?xi32>, tensor<?x2xf16>, tensor<4xf16>)
  return
}

//===----------------------------------------------------------------------===//
// _update: every form and both optimizers
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @packed_update
// CHECK: embbag.packed_update sum sgd(%arg0) %arg2, %arg3[%arg4] padding_idx(%arg5) weights(%arg6) : (f64, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>, i64, tensor<3x2xf32>) -> tensor<5x2xf32>
// CHECK: embbag.packed_update mean rowwise_adagrad(%arg1, %arg1) state(%arg7) %arg2, %arg3[%arg4] : (f32, f32, tensor<?xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>) -> (tensor<5x2xf32>, tensor<?xf32>)
func.func @packed_update(%lr64: f64, %lr: f32, %dy: tensor<3x2xf32>,
                         %t: tensor<5x2xf32>, %i: tensor<3x2xi64>, %p: i64,
                         %w: tensor<3x2xf32>, %s: tensor<?xf32>) {
  %0 = embbag.packed_update sum sgd(%lr64) %dy, %t[%i] padding_idx(%p) weights(%w)
         : (f64, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>, i64, tensor<3x2xf32>) -> tensor<5x2xf32>
  %1:2 = embbag.packed_update mean rowwise_adagrad(%lr, %lr) state(%s) %dy, %t[%i]
           : (f32, f32, tensor<?xf32>, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>)
           -> (tensor<5x2xf32>, tensor<?xf32>)
  return
}

// CHECK-LABEL: func.func @offsets_update
// CHECK: embbag.offsets_update sqrtn sgd(%arg0) %arg1, %arg2[%arg3] offsets(%arg4) include_last_offset default(0) weights(%arg5) : (bf16, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) -> tensor<5x2xf32>
func.func @offsets_update(%lr: bf16, %dy: tensor<3x2xf32>, %t: tensor<5x2xf32>,
                          %i: tensor<4xi32>, %off: tensor<4xi32>,
                          %w: tensor<4xf32>) {
  %0 = embbag.offsets_update sqrtn sgd(%lr) %dy, %t[%i] offsets(%off)
         include_last_offset default(0) weights(%w)
         : (bf16, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) -> tensor<5x2xf32>
  return
}

// CHECK-LABEL: func.func @segments_update
// CHECK: embbag.segments_update max rowwise_adagrad(%arg0, %arg1) state(%arg2) %arg3, %arg4[%arg5] segment_ids(%arg6) num_segments(%arg7) default(-1) padding_idx(%arg7) : (f16, f32, tensor<5xf64>, tensor<?x2xf16>, tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> (tensor<5x2xf16>, tensor<5xf64>)
// CHECK: embbag.segments_update sum sgd(%arg1) %arg3, %arg4[%arg5] segment_ids(%arg6) num_segments(3) : (f32, tensor<?x2xf16>, tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>) -> tensor<5x2xf16>
func.func @segments_update(%lr: f16, %eps: f32, %s: tensor<5xf64>,
                           %dy: tensor<?x2xf16>, %t: tensor<5x2xf16>,
                           %i: tensor<4xi32>, %seg: tensor<4xi32>, %n: i32) {
  %0:2 = embbag.segments_update max rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i]
           segment_ids(%seg) num_segments(%n) default(-1) padding_idx(%n)
           : (f16, f32, tensor<5xf64>, tensor<?x2xf16>, tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>, i32, i32)
           -> (tensor<5x2xf16>, tensor<5xf64>)
  %1 = embbag.segments_update sum sgd(%eps) %dy, %t[%i] segment_ids(%seg) num_segments(3)
         : (f32, tensor<?x2xf16>, tensor<5x2xf16>, tensor<4xi32>, tensor<4xi32>) -> tensor<5x2xf16>
  return
}

//===----------------------------------------------------------------------===//
// Effects: none, but not speculatable (as the forward ops)
//===----------------------------------------------------------------------===//

// LICM must not hoist them out of a loop that may run zero times (an
// invalid index stops the checked program); CSE merges identical ones,
// and an unused one is erased.
// EFFECTS-LABEL: func.func @effects
// EFFECTS:         arith.addi
// EFFECTS:         scf.for
// EFFECTS-NEXT:      embbag.offsets_grad
// EFFECTS-NEXT:      embbag.offsets_update
// EFFECTS-NEXT:      scf.yield
// EFFECTS-LABEL: func.func @cse
// EFFECTS-NEXT:    %[[U:.*]] = embbag.packed_update
// EFFECTS-NEXT:    return %[[U]], %[[U]]
func.func @effects(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<4xi64>,
                   %off: tensor<3xi64>, %lr: f32, %n: index, %a: index)
    -> (tensor<5x2xf32>, tensor<5x2xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%g = %t, %u = %t, %x = %a)
      -> (tensor<5x2xf32>, tensor<5x2xf32>, index) {
    // An upstream Pure op next to them, hoisted: LICM did run.
    %sum = arith.addi %a, %a : index
    %0 = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
           : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
    %1 = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off)
           : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>) -> tensor<5x2xf32>
    scf.yield %0, %1, %sum : tensor<5x2xf32>, tensor<5x2xf32>, index
  }
  return %r#0, %r#1, %r#2 : tensor<5x2xf32>, tensor<5x2xf32>, index
}

func.func @cse(%dy: tensor<3x2xf32>, %t: tensor<5x2xf32>, %i: tensor<3x2xi32>,
               %lr: f32) -> (tensor<5x2xf32>, tensor<5x2xf32>) {
  %0 = embbag.packed_update sum sgd(%lr) %dy, %t[%i]
         : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  %1 = embbag.packed_update sum sgd(%lr) %dy, %t[%i]
         : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  %unused = embbag.packed_grad sum %dy, %t[%i]
              : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return %0, %1 : tensor<5x2xf32>, tensor<5x2xf32>
}
