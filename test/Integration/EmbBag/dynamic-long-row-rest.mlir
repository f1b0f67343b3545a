// Regression test: a row known only at run time that is longer than the
// kernel's register block takes chunks of the block in a loop and then a
// masked pass over the rest. When the rest needed as many vectors as a
// whole chunk (the last one partial), no case of the switch took it and
// the last columns of every bag were never written. Rows of 31 (8 lanes,
// chunks of 2 vectors: 16 + 15), 70 (4 lanes, chunks of 2: 64 + 6) and 510
// (4 lanes, chunks of 4: 496 + 14) each reach that case under one of the
// RUN lines and the ordinary rest under the others.

// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 max-vectors=2" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="target=generic max-vectors=2" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="target=generic max-vectors=4 checks=0" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

func.func @lookup(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x?xf32> {
  %r = embbag.offsets sum %t[%i] offsets(%o)
      : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Table t[r, c] = 10 * r + c with `len` columns; bags {1, 2} and {0}: the
// last four columns c of the result are 30 + 2c and c.
func.func @run(%len: index) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %t = tensor.generate %c3, %len {
  ^bb0(%r: index, %c: index):
    %r10 = arith.muli %r, %c10 : index
    %v = arith.addi %r10, %c : index
    %i = arith.index_cast %v : index to i64
    %f = arith.sitofp %i : i64 to f32
    tensor.yield %f : f32
  } : tensor<?x?xf32>
  %idx = arith.constant dense<[1, 2, 0]> : tensor<3xi32>
  %off = arith.constant dense<[0, 2]> : tensor<2xi32>
  %id = tensor.cast %idx : tensor<3xi32> to tensor<?xi32>
  %od = tensor.cast %off : tensor<2xi32> to tensor<?xi32>
  %r = call @lookup(%t, %id, %od) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
  %start = arith.subi %len, %c4 : index
  %last = tensor.extract_slice %r[0, %start] [2, 4] [1, 1] : tensor<?x?xf32> to tensor<2x4xf32>
  %u = tensor.cast %last : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c31 = arith.constant 31 : index
  %c70 = arith.constant 70 : index
  %c510 = arith.constant 510 : index
  // CHECK: data =
  // CHECK-NEXT: [84,   86,   88,   90],
  // CHECK-NEXT: [27,   28,   29,   30]]
  call @run(%c31) : (index) -> ()
  // CHECK: data =
  // CHECK-NEXT: [162,   164,   166,   168],
  // CHECK-NEXT: [66,   67,   68,   69]]
  call @run(%c70) : (index) -> ()
  // CHECK: data =
  // CHECK-NEXT: [1042,   1044,   1046,   1048],
  // CHECK-NEXT: [506,   507,   508,   509]]
  call @run(%c510) : (index) -> ()
  return
}
