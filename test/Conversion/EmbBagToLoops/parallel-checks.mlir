// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 parallel=1" --canonicalize --cse | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2" --canonicalize --cse | FileCheck %s --check-prefix=SERIAL

// With parallel=1 the checks of the offsets and indices run in the
// scf.forall, on the bag each iteration reads: no pass over all offsets or
// indices before the loop. A broken bag sets its rule's bit of a flag word
// (1 << rule: 2 for the offsets, 32 for the indices) and is read as empty;
// after the loop the flag word is reported rule by rule with the messages
// of the checks before the loop. Scalars (the default) are still checked
// before the loop.

// CHECK-LABEL: func.func @offsets(
// CHECK-DAG:     %[[NUM_EMB:.*]] = arith.constant 1000 : i32
// CHECK-DAG:     %[[OFF_BIT:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[IDX_BIT:.*]] = arith.constant 32 : i32
// CHECK:         %[[FLAG:.*]] = memref.alloca() : memref<1xi32>
// CHECK-NOT:     scf.for
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: default index out of range [0, num_emb) and not -1"
// CHECK-NOT:     scf.for
// CHECK:         memref.store %{{.*}}, %[[FLAG]]
// CHECK-NOT:     scf.for
// CHECK:         scf.forall (%[[BAG:.*]]) in
// The bag's offsets: 0 <= start <= end <= num_indices, else flagged and
// read as the empty range [0, 0).
// CHECK:           %[[OFF_BAD:.*]] = arith.xori %[[OFF_OK:[0-9]+]], %true
// CHECK-NEXT:      scf.if %[[OFF_BAD]]
// CHECK-NEXT:        memref.atomic_rmw ori %[[OFF_BIT]], %[[FLAG]]
// CHECK:           %[[START:.*]] = arith.select %[[OFF_OK]]
// CHECK:           %[[END:.*]] = arith.select %[[OFF_OK]]
// The bag's indices, by their unsigned maximum, 8 at a time.
// CHECK:           scf.for %{{.*}} = %[[START]] to
// CHECK:             arith.maxui %{{.*}} : vector<8xi32>
// CHECK:           %[[IN_TABLE:.*]] = arith.cmpi ult, %{{.*}}, %[[NUM_EMB]] : i32
// CHECK:           %[[IDX_OK:.*]] = arith.ori %{{.*}}, %[[IN_TABLE]]
// CHECK-NEXT:      %[[IDX_BAD:.*]] = arith.xori %[[IDX_OK]], %true
// CHECK-NEXT:      scf.if %[[IDX_BAD]]
// CHECK-NEXT:        memref.atomic_rmw ori %[[IDX_BIT]], %[[FLAG]]
// CHECK:           %[[READ_END:.*]] = arith.select %[[IDX_OK]], %[[END]], %[[START]]
// CHECK:           scf.for %{{.*}} = %[[START]] to %[[READ_END]]
// CHECK:             vector.transfer_read
// CHECK:           scf.forall.in_parallel
// CHECK:         %[[FLAGS:.*]] = memref.load %[[FLAG]]
// CHECK:         arith.andi %[[FLAGS]], %[[OFF_BIT]]
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: offsets must be non-negative, non-decreasing and at most the number of indices"
// CHECK:         arith.andi %[[FLAGS]], %[[IDX_BIT]]
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: index out of range [0, num_emb)"

// One thread (parallel=0) keeps the vectorised passes before the bag loop.
// SERIAL-LABEL: func.func @offsets(
// SERIAL-NOT:     memref.alloca
// SERIAL:         scf.for
// SERIAL:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: offsets must be
// SERIAL:         scf.for
// SERIAL:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: index out of range [0, num_emb)"
// SERIAL:         scf.for
func.func @offsets(%t: tensor<1000x64xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %d: i32) -> tensor<?x64xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<1000x64xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// A packed op's bags cannot break the offsets' rule: only the indices are
// flagged.
// CHECK-LABEL: func.func @packed(
// CHECK-NOT:     scf.for
// CHECK:         scf.forall
// CHECK-NOT:       arith.constant 2 : i32
// CHECK:           arith.maxui
// CHECK:           memref.atomic_rmw ori
// CHECK:         scf.forall.in_parallel
// CHECK:         cf.assert %{{.*}}, "embbag.packed at {{.*}}: index out of range [0, num_emb)"
// CHECK-NOT:     cf.assert
// CHECK:         return
func.func @packed(%t: tensor<1000x64xf32>, %i: tensor<?x8xi32>) -> tensor<?x64xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<1000x64xf32>, tensor<?x8xi32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// Inside a user's parallel loop (a tile of scf.forall) the iteration is
// already one thread's share: the op checks its tile before its kernel, in
// that thread, and no flag word is shared by the iterations.
// CHECK-LABEL: func.func @in_user_forall(
// CHECK-NOT:     memref.alloca
// CHECK:         scf.forall
// CHECK-NOT:       memref.alloca
// CHECK:           cf.assert %{{.*}}, "embbag.offsets at {{.*}}: offsets must be
// CHECK:           cf.assert %{{.*}}, "embbag.offsets at {{.*}}: index out of range [0, num_emb)"
// CHECK:           scf.forall
// CHECK-NOT:         memref.atomic_rmw
// CHECK:           scf.forall.in_parallel
func.func @in_user_forall(%t: tensor<1000x64xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>, %init: tensor<4x?x64xf32>) -> tensor<4x?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %o, %c0 : tensor<?xi32>
  %r = scf.forall (%k) in (4) shared_outs(%s = %init) -> (tensor<4x?x64xf32>) {
    %e = embbag.offsets sum %t[%i] offsets(%o) : (tensor<1000x64xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %s[%k, 0, 0] [1, %n, 64] [1, 1, 1] : tensor<?x64xf32> into tensor<4x?x64xf32>
    }
  }
  return %r : tensor<4x?x64xf32>
}
