// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | FileCheck %s --check-prefix=UNCHECKED
// RUN: embbag-opt %s --embbag-to-llvm | FileCheck %s --check-prefix=CHECKED
// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | %mlir_runner | FileCheck %s --check-prefix=RESULT
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg checks=0" | FileCheck %s --check-prefix=UNCHECKED
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | FileCheck %s --check-prefix=CHECKED
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg checks=0" | %mlir_runner | FileCheck %s --check-prefix=RESULT

// --embbag-to-llvm="checks=0" emits no runtime check (docs/EmbBag/EmbBagOps.md: the
// unchecked policy): none of the check messages, no call to abort, in the
// lowered kernels of every op. The second RUN line is the control: with
// checks (the default) the messages are there. The third runs the unchecked
// kernels on valid inputs. The last three do the same with path=linalg (the
// other lowering of embbag.packed).

// UNCHECKED-NOT: index out of range
// UNCHECKED-NOT: default index out of range
// UNCHECKED-NOT: offsets must be
// UNCHECKED-NOT: segment id out of range
// UNCHECKED-NOT: num_segments must be
// UNCHECKED-NOT: @abort

// CHECKED-DAG: embbag.packed at {{.*}}: index out of range [0, num_emb)
// CHECKED-DAG: embbag.offsets at {{.*}}: index out of range [0, num_emb)
// CHECKED-DAG: embbag.offsets at {{.*}}: default index out of range [0, num_emb) and not -1
// CHECKED-DAG: embbag.offsets at {{.*}}: offsets must be non-negative, non-decreasing and at most the number of indices
// CHECKED-DAG: embbag.segments at {{.*}}: index out of range [0, num_emb)
// CHECKED-DAG: embbag.segments at {{.*}}: default index out of range [0, num_emb) and not -1
// CHECKED-DAG: embbag.segments at {{.*}}: segment id out of range [0, num_segments)
// CHECKED-DAG: embbag.segments at {{.*}}: num_segments must be non-negative
// CHECKED-DAG: llvm.call @abort

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @packed(%t: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = embbag.packed sum %t[%i] : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @offsets(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %d: i64) -> tensor<?x?xf32> {
  %r = embbag.offsets mean %t[%i] offsets(%o) default(%d) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @segments(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %s: tensor<?xi32>, %n: i32, %d: i32) -> tensor<?x?xf32> {
  %r = embbag.segments sum %t[%i] segment_ids(%s) num_segments(%n) default(%d) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32, i32) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  // Rows r0 = [1, 2], r1 = [10, 20], r2 = [100, 200].
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]]> : tensor<3x2xf32>
  %td = tensor.cast %t : tensor<3x2xf32> to tensor<?x?xf32>

  // packed sum, bags {0, 2}, {1, 1}.
  // RESULT: sizes = [2, 2] strides = [2, 1] data =
  // RESULT-NEXT: [101, 202]
  // RESULT-NEXT: [20, 40]
  %ip = arith.constant dense<[[0, 2], [1, 1]]> : tensor<2x2xi32>
  %ipd = tensor.cast %ip : tensor<2x2xi32> to tensor<?x?xi32>
  %r0 = call @packed(%td, %ipd) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  %p0 = tensor.cast %r0 : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // offsets mean, indices [0, 1, 2], offsets [0, 2, 2], default 2:
  // bags {0, 1} -> [5.5, 11], {} -> r2, {2} -> r2.
  // RESULT: sizes = [3, 2] strides = [2, 1] data =
  // RESULT-NEXT: [5.5, 11]
  // RESULT-NEXT: [100, 200]
  // RESULT-NEXT: [100, 200]
  %io = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
  %iod = tensor.cast %io : tensor<3xi64> to tensor<?xi64>
  %oo = arith.constant dense<[0, 2, 2]> : tensor<3xi64>
  %ood = tensor.cast %oo : tensor<3xi64> to tensor<?xi64>
  %d2 = arith.constant 2 : i64
  %r1 = call @offsets(%td, %iod, %ood, %d2) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x?xf32>
  %p1 = tensor.cast %r1 : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // segments sum, indices [2, 0], segment_ids [1, 1], 2 segments, default 1:
  // {} -> r1, {2, 0} -> [101, 202].
  // RESULT: sizes = [2, 2] strides = [2, 1] data =
  // RESULT-NEXT: [10, 20]
  // RESULT-NEXT: [101, 202]
  %is = arith.constant dense<[2, 0]> : tensor<2xi32>
  %isd = tensor.cast %is : tensor<2xi32> to tensor<?xi32>
  %ss = arith.constant dense<[1, 1]> : tensor<2xi32>
  %ssd = tensor.cast %ss : tensor<2xi32> to tensor<?xi32>
  %n2 = arith.constant 2 : i32
  %d1 = arith.constant 1 : i32
  %r2 = call @segments(%td, %isd, %ssd, %n2, %d1) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32, i32) -> tensor<?x?xf32>
  %p2 = tensor.cast %r2 : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}
