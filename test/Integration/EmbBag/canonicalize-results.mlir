// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --canonicalize | FileCheck %s --check-prefix=CANON

// Every canonicalization of the embbag ops leaves the computed values
// unchanged: the same expected values (worked out by hand from the table
// row r = [r + 1, 10 (r + 1)]) with and without --canonicalize. The CANON
// run shows that the rewrites did apply to this file.

// CANON-LABEL: func.func @main
// CANON-NOT:     tensor.cast %{{.*}} : tensor<5x2xf32> to tensor<?x?xf32>
// CANON:         embbag.packed sum %{{.*}}[%{{.*}}] : (tensor<5x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
// CANON:         embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x2xf32>
// CANON:         embbag.offsets sum %{{.*}}[%{{.*}}] offsets(%{{.*}}) default(2) :
// CANON:         embbag.segments mean %{{.*}}[%{{.*}}] segment_ids(%{{.*}}) num_segments(3) default(0) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<3x2xf32>
// CANON:         embbag.packed sum %{{.*}}[%{{.*}}] : (tensor<5x2xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
// CANON:         embbag.packed sum %{{.*}}[%{{.*}}] weights(%{{.*}}) : (tensor<5x2xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CANON-NOT:     embbag.offsets
// CANON:         tensor.empty() : tensor<0x2xf32>
// CANON-NOT:     embbag

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// A default that breaks the contract in a branch that never runs: after
// --canonicalize folds the select into default(-2), the program still
// compiles (a warning) and runs. Regression: the verifier rejected it.
func.func @never_runs(%t: tensor<5x2xf32>, %i: tensor<3xi32>, %o: tensor<3xi32>, %run: i1) -> tensor<3x2xf32> {
  %true = arith.constant true
  %m2 = arith.constant -2 : i32
  %c0 = arith.constant 0 : i32
  %d = arith.select %true, %m2, %c0 : i32
  %r = scf.if %run -> tensor<3x2xf32> {
    %0 = embbag.offsets sum %t[%i] offsets(%o) default(%d) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
    scf.yield %0 : tensor<3x2xf32>
  } else {
    %z = arith.constant dense<7.0> : tensor<3x2xf32>
    scf.yield %z : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

func.func @main() {
  %t = arith.constant dense<[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0], [5.0, 50.0]]> : tensor<5x2xf32>

  // tensor.cast producers: [[3, 30], [7, 70]]
  %tc = tensor.cast %t : tensor<5x2xf32> to tensor<?x?xf32>
  %ip = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %ipc = tensor.cast %ip : tensor<2x2xi32> to tensor<?x?xi32>
  %0 = embbag.packed sum %tc[%ipc] : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%0) : (tensor<?x?xf32>) -> ()

  // default(-1) dropped: [[3, 30], [5, 50], [0, 0]] (the last bag is empty)
  %io = arith.constant dense<[0, 1, 4]> : tensor<3xi32>
  %oo = arith.constant dense<[0, 2, 3]> : tensor<3xi32>
  %m1 = arith.constant -1 : i32
  %1 = embbag.offsets sum %t[%io] offsets(%oo) default(%m1) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %c1 = tensor.cast %1 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c1) : (tensor<?x?xf32>) -> ()

  // default(2) static: [[3, 30], [5, 50], [3, 30]]
  %d2 = arith.constant 2 : i32
  %2 = embbag.offsets sum %t[%io] offsets(%oo) default(%d2) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>, i32) -> tensor<3x2xf32>
  %c2 = tensor.cast %2 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c2) : (tensor<?x?xf32>) -> ()

  // num_segments(3) static, default(0): [[3, 30], [1, 10], [3.5, 35]]
  %is = arith.constant dense<[1, 3, 4, 1]> : tensor<4xi32>
  %seg = arith.constant dense<[0, 0, 2, 2]> : tensor<4xi32>
  %n3 = arith.constant 3 : i32
  %c0 = arith.constant 0 : i32
  %3 = embbag.segments mean %t[%is] segment_ids(%seg) num_segments(%n3) default(%c0) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32) -> tensor<?x2xf32>
  %c3 = tensor.cast %3 : tensor<?x2xf32> to tensor<?x?xf32>
  call @print(%c3) : (tensor<?x?xf32>) -> ()

  // weights of ones dropped: [[6, 60], [4, 40]]
  %iw = arith.constant dense<[[0, 4], [1, 1]]> : tensor<2x2xi32>
  %ones = arith.constant dense<1.0> : tensor<2x2xf32>
  %4 = embbag.packed sum %t[%iw] weights(%ones) : (tensor<5x2xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %c4 = tensor.cast %4 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%c4) : (tensor<?x?xf32>) -> ()

  // uniform offsets to packed; index 99 before offsets[0] is never read:
  // [[1 + 2 * 2, 10 + 2 * 20], [3 + 3 * 4, 30 + 3 * 40]] = [[5, 50], [15, 150]]
  %iu = arith.constant dense<[99, 0, 1, 2, 3]> : tensor<5xi64>
  %ou = arith.constant dense<[1, 3]> : tensor<2xi64>
  %wu = arith.constant dense<[5.0, 1.0, 2.0, 1.0, 3.0]> : tensor<5xf32>
  %5 = embbag.offsets sum %t[%iu] offsets(%ou) weights(%wu) : (tensor<5x2xf32>, tensor<5xi64>, tensor<2xi64>, tensor<5xf32>) -> tensor<2x2xf32>
  %c5 = tensor.cast %5 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print(%c5) : (tensor<?x?xf32>) -> ()

  // zero bags: an empty tensor
  %i0 = arith.constant dense<0> : tensor<0x2xi32>
  %6 = embbag.packed sum %t[%i0] : (tensor<5x2xf32>, tensor<0x2xi32>) -> tensor<0x2xf32>
  %c6 = tensor.cast %6 : tensor<0x2xf32> to tensor<?x?xf32>
  call @print(%c6) : (tensor<?x?xf32>) -> ()

  // the branch with default(-2) never runs: [[7, 7], [7, 7], [7, 7]]
  %false = arith.constant false
  %7 = call @never_runs(%t, %io, %oo, %false) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3xi32>, i1) -> tensor<3x2xf32>
  %c7 = tensor.cast %7 : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%c7) : (tensor<?x?xf32>) -> ()
  return
}

// CHECK:      Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: [3,   30]
// CHECK-NEXT: [7,   70]
// CHECK:      Unranked Memref {{.*}} sizes = [3, 2]
// CHECK-NEXT: [3,   30]
// CHECK-NEXT: [5,   50]
// CHECK-NEXT: [0,   0]
// CHECK:      Unranked Memref {{.*}} sizes = [3, 2]
// CHECK-NEXT: [3,   30]
// CHECK-NEXT: [5,   50]
// CHECK-NEXT: [3,   30]
// CHECK:      Unranked Memref {{.*}} sizes = [3, 2]
// CHECK-NEXT: [3,   30]
// CHECK-NEXT: [1,   10]
// CHECK-NEXT: [3.5,   35]
// CHECK:      Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: [6,   60]
// CHECK-NEXT: [4,   40]
// CHECK:      Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: [5,   50]
// CHECK-NEXT: [15,   150]
// CHECK:      Unranked Memref {{.*}} sizes = [0, 2]
// CHECK:      Unranked Memref {{.*}} sizes = [3, 2]
// CHECK-NEXT: [7,   7]
// CHECK-NEXT: [7,   7]
// CHECK-NEXT: [7,   7]
