// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg parallel=1" \
// RUN:   | env OMP_NUM_THREADS=2 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%libomp | FileCheck %s
// RUN: embbag-opt %s --canonicalize --cse --loop-invariant-code-motion \
// RUN:   | embbag-opt --embbag-to-llvm | %mlir_runner | FileCheck %s

// embbag ops in scf loops: mini-batches summed into an iter_arg (in place),
// results inserted into a slice of a larger tensor, a dynamically shaped
// result yielded by the loop (a new buffer per iteration), and ops under an
// scf.if in a loop. Table rows: t0 = [1, 2], t1 = [10, 20], t2 = [100, 200],
// t3 = [1000, 2000].

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0],
                             [1000.0, 2000.0]]> : tensor<4x2xf32>
  // Bag sums: [11, 22], [1100, 2200], [2, 4], [20, 40], [1100, 2200], [1001, 2002]
  %all = arith.constant dense<[[0, 1], [2, 3], [0, 0], [1, 1], [3, 2], [0, 3]]>
      : tensor<6x2xi32>
  %empty2 = tensor.empty() : tensor<2x2xf32>
  %zeros2 = linalg.fill ins(%zero : f32) outs(%empty2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %empty6 = tensor.empty() : tensor<6x2xf32>

  // Three mini-batches of two bags, position by position:
  // [11 + 2 + 1100, ...], [1100 + 20 + 1001, ...]
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1113,   2226],
  // CHECK-NEXT:  [2121,   4242]]
  %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zeros2) -> tensor<2x2xf32> {
    %row = arith.muli %k, %c2 : index
    %idx = tensor.extract_slice %all[%row, 0] [2, 2] [1, 1] : tensor<6x2xi32> to tensor<2x2xi32>
    %r = embbag.packed sum %t[%idx] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
    %next = linalg.add ins(%acc, %r : tensor<2x2xf32>, tensor<2x2xf32>)
                       outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
    scf.yield %next : tensor<2x2xf32>
  }
  %sum_p = tensor.cast %sum : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%sum_p) : (tensor<?x?xf32>) -> ()

  // The same mini-batches inserted into one result: every bag sum.
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[11,   22],
  // CHECK-NEXT:  [1100,   2200],
  // CHECK-NEXT:  [2,   4],
  // CHECK-NEXT:  [20,   40],
  // CHECK-NEXT:  [1100,   2200],
  // CHECK-NEXT:  [1001,   2002]]
  %ins = scf.for %k = %c0 to %c3 step %c1 iter_args(%out = %empty6) -> tensor<6x2xf32> {
    %row = arith.muli %k, %c2 : index
    %idx = tensor.extract_slice %all[%row, 0] [2, 2] [1, 1] : tensor<6x2xi32> to tensor<2x2xi32>
    %r = embbag.packed sum %t[%idx] : (tensor<4x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
    %next = tensor.insert_slice %r into %out[%row, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<6x2xf32>
    scf.yield %next : tensor<6x2xf32>
  }
  %ins_p = tensor.cast %ins : tensor<6x2xf32> to tensor<?x?xf32>
  call @print(%ins_p) : (tensor<?x?xf32>) -> ()

  // num_segments = k + 2 segments of ids [0, 1, 1, 0], default row 2: the
  // last iteration (k = 1) yields 3 segments: t0 + t3, t1 + t2, t2 (empty).
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1001,   2002],
  // CHECK-NEXT:  [110,   220],
  // CHECK-NEXT:  [100,   200]]
  %sidx = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %sids = arith.constant dense<[0, 1, 1, 0]> : tensor<4xi32>
  %d2 = arith.constant 2 : i32
  %seg_init = tensor.empty(%c0) : tensor<?x2xf32>
  %seg = scf.for %k = %c0 to %c2 step %c1 iter_args(%prev = %seg_init) -> tensor<?x2xf32> {
    %n_index = arith.addi %k, %c2 : index
    %n = arith.index_cast %n_index : index to i32
    %r = embbag.segments sum %t[%sidx] segment_ids(%sids) num_segments(%n) default(%d2)
        : (tensor<4x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<?x2xf32>
    scf.yield %r : tensor<?x2xf32>
  }
  %seg_p = tensor.cast %seg : tensor<?x2xf32> to tensor<?x?xf32>
  call @print(%seg_p) : (tensor<?x?xf32>) -> ()

  // Bags [t0], [t1, t2] of offsets [0, 1]: sum at k = 0, mean at k = 1,
  // accumulated: [2 * t0], [(t1 + t2) * 1.5].
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[2,   4],
  // CHECK-NEXT:  [165,   330]]
  %oidx = arith.constant dense<[0, 1, 2]> : tensor<3xi32>
  %offs = arith.constant dense<[0, 1]> : tensor<2xi32>
  %mixed = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %zeros2) -> tensor<2x2xf32> {
    %first = arith.cmpi eq, %k, %c0 : index
    %r = scf.if %first -> tensor<2x2xf32> {
      %s = embbag.offsets sum %t[%oidx] offsets(%offs)
          : (tensor<4x2xf32>, tensor<3xi32>, tensor<2xi32>) -> tensor<2x2xf32>
      scf.yield %s : tensor<2x2xf32>
    } else {
      %m = embbag.offsets mean %t[%oidx] offsets(%offs)
          : (tensor<4x2xf32>, tensor<3xi32>, tensor<2xi32>) -> tensor<2x2xf32>
      scf.yield %m : tensor<2x2xf32>
    }
    %next = linalg.add ins(%acc, %r : tensor<2x2xf32>, tensor<2x2xf32>)
                       outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
    scf.yield %next : tensor<2x2xf32>
  }
  %mixed_p = tensor.cast %mixed : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%mixed_p) : (tensor<?x?xf32>) -> ()
  return
}
