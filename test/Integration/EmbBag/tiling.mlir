// The same program untiled and tiled by the upstream transform ops
// (tile_using_for, tile_using_forall: scf::tileUsingSCF through the ops'
// TilingInterface): every run prints the values below, derived from the
// semantics.
//
// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-for.mlir \
// RUN:   --transform-interpreter | FileCheck %s --check-prefix=FOR
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-for.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-forall.mlir \
// RUN:   --transform-interpreter | FileCheck %s --check-prefix=FORALL
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-forall.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/tile-forall.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm="parallel=1" \
// RUN: | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
//
// The last run executes the forall tiles of every op, embbag.segments
// included, on two OpenMP threads.

// The tiled programs really are tiled: a loop nest per op (two scf.for or
// one 2-d scf.forall).
// FOR-COUNT-10: = scf.for %
// FOR-NOT:     = scf.for %
// FORALL-COUNT-5: = scf.forall (
// FORALL-NOT:     = scf.forall (

// Table row i is 10^i * [1, 2, 3, 4].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x4xf32>) {
  %u = tensor.cast %r : tensor<?x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0],
                             [100.0, 200.0, 300.0, 400.0],
                             [1000.0, 2000.0, 3000.0, 4000.0],
                             [10000.0, 20000.0, 30000.0, 40000.0]]> : tensor<5x4xf32>

  // packed, weighted sum: r0 + 2 r1, r2 + r3, 0.5 r4 + 0.5 r4, r1 + r0,
  // 2 r3 + 0 r3.
  // CHECK: sizes = [5, 4]
  // CHECK-NEXT: [21, 42, 63, 84]
  // CHECK-NEXT: [1100, 2200, 3300, 4400]
  // CHECK-NEXT: [10000, 20000, 30000, 40000]
  // CHECK-NEXT: [11, 22, 33, 44]
  // CHECK-NEXT: [2000, 4000, 6000, 8000]
  %ip = arith.constant dense<[[0, 1], [2, 3], [4, 4], [1, 0], [3, 3]]> : tensor<5x2xi32>
  %wp = arith.constant dense<[[1.0, 2.0], [1.0, 1.0], [0.5, 0.5], [1.0, 1.0], [2.0, 0.0]]> : tensor<5x2xf32>
  %p = embbag.packed sum %t[%ip] weights(%wp) : (tensor<5x4xf32>, tensor<5x2xi32>, tensor<5x2xf32>) -> tensor<5x4xf32>
  %pc = tensor.cast %p : tensor<5x4xf32> to tensor<?x4xf32>
  call @print(%pc) : (tensor<?x4xf32>) -> ()

  // offsets, mean, default 4. Position 0 comes before the first offset and
  // is never read. Bags: positions [1, 3) = {0, 1}; [3, 3) empty -> r4;
  // [3, 4) = {2}; [4, 7) = {3, 3, 1}; [7, 7) empty at the end -> r4.
  // Tiles of 2 bags: the first reads positions [1, 3), the second [3, 7).
  // CHECK: sizes = [5, 4]
  // CHECK-NEXT: [5.5, 11, 16.5, 22]
  // CHECK-NEXT: [10000, 20000, 30000, 40000]
  // CHECK-NEXT: [100, 200, 300, 400]
  // CHECK-NEXT: [670, 1340, 2010, 2680]
  // CHECK-NEXT: [10000, 20000, 30000, 40000]
  %io = arith.constant dense<[4, 0, 1, 2, 3, 3, 1]> : tensor<7xi32>
  %oo = arith.constant dense<[1, 3, 3, 4, 7]> : tensor<5xi32>
  %o = embbag.offsets mean %t[%io] offsets(%oo) default(4) : (tensor<5x4xf32>, tensor<7xi32>, tensor<5xi32>) -> tensor<5x4xf32>
  %oc = tensor.cast %o : tensor<5x4xf32> to tensor<?x4xf32>
  call @print(%oc) : (tensor<?x4xf32>) -> ()

  // segments, weighted sum, unsorted ids, default %d = 0 (SSA). Segment 0:
  // 2 r3 + 0.5 r4; 1: r2; 2: empty -> r0; 3: r1 + 3 r0; 4: 2 r2.
  // CHECK: sizes = [5, 4]
  // CHECK-NEXT: [7000, 14000, 21000, 28000]
  // CHECK-NEXT: [100, 200, 300, 400]
  // CHECK-NEXT: [1, 2, 3, 4]
  // CHECK-NEXT: [13, 26, 39, 52]
  // CHECK-NEXT: [200, 400, 600, 800]
  %is = arith.constant dense<[1, 3, 0, 2, 4, 2]> : tensor<6xi64>
  %ss = arith.constant dense<[3, 0, 3, 1, 0, 4]> : tensor<6xi64>
  %ws = arith.constant dense<[1.0, 2.0, 3.0, 1.0, 0.5, 2.0]> : tensor<6xf32>
  %d = arith.constant 0 : i64
  %s = embbag.segments sum %t[%is] segment_ids(%ss) num_segments(5) default(%d) weights(%ws) : (tensor<5x4xf32>, tensor<6xi64>, tensor<6xi64>, i64, tensor<6xf32>) -> tensor<5x4xf32>
  %sc = tensor.cast %s : tensor<5x4xf32> to tensor<?x4xf32>
  call @print(%sc) : (tensor<?x4xf32>) -> ()

  // segments, mean, num_segments an SSA value (3, so the result has a
  // dynamic number of rows): 0 = (r2 + r3) / 2; 1 empty -> zeros;
  // 2 = (r0 + r1) / 2.
  // CHECK: sizes = [3, 4]
  // CHECK-NEXT: [550, 1100, 1650, 2200]
  // CHECK-NEXT: [0, 0, 0, 0]
  // CHECK-NEXT: [5.5, 11, 16.5, 22]
  %im = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %sm = arith.constant dense<[2, 2, 0, 0]> : tensor<4xi32>
  %n = arith.constant 3 : i32
  %m = embbag.segments mean %t[%im] segment_ids(%sm) num_segments(%n) : (tensor<5x4xf32>, tensor<4xi32>, tensor<4xi32>, i32) -> tensor<?x4xf32>
  call @print(%m) : (tensor<?x4xf32>) -> ()

  // offsets, max, include_last_offset: offsets [1, 3, 3, 4, 6] close 4 bags
  // {0, 1}, {}, {2}, {3, 4}; positions 0 and 6 are never read. Each tile
  // of 2 bags keeps the offset that closes its last bag.
  // CHECK: sizes = [4, 4]
  // CHECK-NEXT: [10, 20, 30, 40]
  // CHECK-NEXT: [0, 0, 0, 0]
  // CHECK-NEXT: [100, 200, 300, 400]
  // CHECK-NEXT: [10000, 20000, 30000, 40000]
  %il = arith.constant dense<[3, 0, 1, 2, 3, 4, 2]> : tensor<7xi32>
  %ol = arith.constant dense<[1, 3, 3, 4, 6]> : tensor<5xi32>
  %x = embbag.offsets max %t[%il] offsets(%ol) include_last_offset : (tensor<5x4xf32>, tensor<7xi32>, tensor<5xi32>) -> tensor<4x4xf32>
  %xc = tensor.cast %x : tensor<4x4xf32> to tensor<?x4xf32>
  call @print(%xc) : (tensor<?x4xf32>) -> ()
  return
}
