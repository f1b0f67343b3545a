// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2" --canonicalize --cse | FileCheck %s
// RUN: embbag-opt %s --convert-embbag-to-loops="target=avx2 checks=0" --canonicalize --cse | FileCheck %s --check-prefix=UNCHECKED

// The kernel shape: checks first (apart from the row loops), with vectors
// of the kernel's width (256 bits: four i64): the offsets (the first
// non-negative, none below the one before it, four pairs at a time, the
// last at most num_indices), the unsigned maximum of the indices (four at a
// time, then the last few one by one) against num_emb; then for
// each bag one pass over its indices carrying the 64-float row in eight
// vector iter_args, the empty-bag default, the mean, and eight stores.

// CHECK-LABEL: func.func @offsets_mean_default(
// CHECK-SAME:    %[[T:[a-z0-9]+]]: tensor<?x64xf32>, %[[I:[a-z0-9]+]]: tensor<?xi64>, %[[O:[a-z0-9]+]]: tensor<?xi64>, %[[D:[a-z0-9]+]]: i64
// CHECK:         scf.if %{{.*}} -> (i1) {
// CHECK:           scf.for {{.*}} step %c4 iter_args({{.*}}) -> (vector<4xi1>)
// CHECK-COUNT-2:     vector.transfer_read %[[O]]{{.*}} : tensor<?xi64>, vector<4xi64>
// CHECK:             arith.cmpi sgt, {{.*}} : vector<4xi64>
// CHECK:           vector.reduction <or>, {{.*}} : vector<4xi1> into i1
// CHECK:           scf.for {{.*}} -> (i1)
// CHECK:             arith.cmpi sgt, {{.*}} : i64
// CHECK-DAG:       arith.cmpi sle, {{.*}} : i64
// CHECK-DAG:       arith.cmpi sge, {{.*}} : i64
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}offsets.mlir:{{[0-9]+}}:{{[0-9]+}}: offsets must be non-negative, non-decreasing and at most the number of indices"
// CHECK:         scf.for {{.*}} -> (vector<4xi64>)
// CHECK:           vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<?xi64>, vector<4xi64>
// CHECK:           arith.maxui {{.*}} : vector<4xi64>
// CHECK:         vector.reduction <maxui>, {{.*}} : vector<4xi64> into i64
// CHECK:         scf.for {{.*}} -> (i64)
// CHECK:           arith.maxui
// CHECK:         arith.cmpi ult
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: index out of range [0, num_emb)"
// CHECK:         cf.assert %{{.*}}, "embbag.offsets at {{.*}}: default index out of range [0, num_emb) and not -1"
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<?x64xf32>
// CHECK:         scf.for %[[BAG:.*]] = %{{.*}} iter_args(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<?x64xf32>)
// CHECK:           %[[ACC:.*]]:8 = scf.for %[[J:.*]] = %[[START:.*]] to %[[END:.*]] step %{{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-NOT:         cf.assert
// CHECK-NOT:         vector.transfer_write
// CHECK-COUNT-8:     vector.transfer_read %[[T]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<?x64xf32>, vector<8xf32>
// CHECK:             scf.yield
// CHECK:           scf.if %{{.*}} -> (vector<8xf32>
// CHECK-COUNT-8:     vector.transfer_read %[[T]]
// CHECK:           arith.maxui
// CHECK-COUNT-8:   arith.divf
// CHECK-COUNT-8:   vector.transfer_write
// UNCHECKED-NOT:  cf.assert
func.func @offsets_mean_default(%t: tensor<?x64xf32>, %i: tensor<?xi64>,
                                %o: tensor<?xi64>, %d: i64) -> tensor<?x64xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d)
      : (tensor<?x64xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// A row of 100 floats: 13 accumulators, a weight and a tail mask fit the 16
// AVX2 registers, so the whole row takes one pass over the bag, the last
// vector masked (100 = 12 * 8 + 4) and read first (the row's last line
// first, docs/Kernel.md). Weighted sums use fma.
// CHECK-LABEL: func.func @offsets_row100_weighted(
// CHECK:         scf.for {{.*}} -> (tensor<?x100xf32>)
// CHECK:           %[[MASK:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK:           scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:             vector.transfer_read {{.*}}, %[[MASK]] {in_bounds = [true]}
// CHECK-NEXT:        vector.fma
// CHECK-COUNT-12:    vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<10x100xf32>, vector<8xf32>
// CHECK:             vector.fma
// CHECK-NEXT:        scf.yield %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}} :
// CHECK-NOT:       scf.for
// CHECK:           vector.transfer_write {{.*}}, %[[MASK]] {in_bounds = [true]}
func.func @offsets_row100_weighted(%t: tensor<10x100xf32>, %i: tensor<?xi32>,
                                   %o: tensor<?xi32>, %w: tensor<?xf32>)
    -> tensor<?x100xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o) weights(%w)
      : (tensor<10x100xf32>, tensor<?xi32>, tensor<?xi32>, tensor<?xf32>)
      -> tensor<?x100xf32>
  return %r : tensor<?x100xf32>
}
