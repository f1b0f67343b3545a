// examples/transform/tile-and-lower.mlir: the transform script tiles the ops
// over bags with scf.forall and lowers the tiles to loops; the rest of the
// pipeline runs the forall sequentially or on OpenMP threads. Every run
// prints the values below (derived from the semantics), as the untiled
// program does.
//
// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%embbag_src_root/examples/transform/tile-and-lower.mlir \
// RUN:   --transform-interpreter | FileCheck %s --check-prefix=IR
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%embbag_src_root/examples/transform/tile-and-lower.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%embbag_src_root/examples/transform/tile-and-lower.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm="parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%embbag_src_root/examples/transform/tile-and-lower.mlir \
// RUN:   --transform-interpreter --embbag-to-llvm="parallel=1" | FileCheck %s --check-prefix=OMP

// After the script: embbag.offsets and embbag.segments are each a forall
// over 3 tiles of 2 bags (5 bags), no embbag op is left.
// IR-LABEL: func.func @main
// IR-COUNT-2: scf.forall (%{{.*}}) in (3)
// IR-NOT:   {{= embbag\.}}
// The foralls over tiles are OpenMP loops.
// OMP-COUNT-2: omp.wsloop

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  // Row i is 10^i * [1, 2].
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0],
                             [1000.0, 2000.0], [10000.0, 20000.0]]> : tensor<5x2xf32>

  // Bags: {0, 1}, {} -> default r4, {2}, {3, 3, 1}, {} at the end -> r4;
  // mean. The second tile (bags 2, 3) reads positions [3, 7).
  // CHECK: sizes = [5, 2]
  // CHECK-NEXT: [5.5, 11]
  // CHECK-NEXT: [10000, 20000]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [670, 1340]
  // CHECK-NEXT: [10000, 20000]
  %i = arith.constant dense<[4, 0, 1, 2, 3, 3, 1]> : tensor<7xi32>
  %o = arith.constant dense<[1, 3, 3, 4, 7]> : tensor<5xi32>
  %r = embbag.offsets mean %t[%i] offsets(%o) default(4) : (tensor<5x2xf32>, tensor<7xi32>, tensor<5xi32>) -> tensor<5x2xf32>
  %u = tensor.cast %r : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()

  // Segments (unsorted ids) 0: r3 + r4, 1: r2, 2: empty, 3: r0 + r1,
  // 4: 2 r2 (index 2 twice).
  // CHECK: sizes = [5, 2]
  // CHECK-NEXT: [11000, 22000]
  // CHECK-NEXT: [100, 200]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [11, 22]
  // CHECK-NEXT: [200, 400]
  %is = arith.constant dense<[1, 3, 0, 2, 4, 2, 2]> : tensor<7xi32>
  %ss = arith.constant dense<[3, 0, 3, 1, 0, 4, 4]> : tensor<7xi32>
  %s = embbag.segments sum %t[%is] segment_ids(%ss) num_segments(5) : (tensor<5x2xf32>, tensor<7xi32>, tensor<7xi32>) -> tensor<5x2xf32>
  %v = tensor.cast %s : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
