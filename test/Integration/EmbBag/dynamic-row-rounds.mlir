// A row known only at run time that takes several blocks of columns (rows
// of 40 floats, blocks of 16 with AVX2 and max-vectors=2): the shared
// versions run block by block over rounds of bags, so that a round's later
// blocks find its rows in the cache (docs/DynamicShapes.md). With the L2 of
// 64 bytes that the module's DLTI description gives, every round is one bag;
// with an L2 of 1 MiB, one round takes every bag. Both give the sums of each bag,
// an empty one included, and each column lands at its place in the result.

// mlir-runner does not know the DLTI dialect: the lowered module's
// description is dropped before it runs.
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 max-vectors=2" \
// RUN:   | sed -e '1s/attributes {dlti[^}]*} //' | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="target=avx2 max-vectors=2 checks=0" \
// RUN:   | sed -e '1s/attributes {dlti[^}]*} //' | %mlir_runner | FileCheck %s
// RUN: sed -e 's/= 64 : i64/= 1048576 : i64/' %s \
// RUN:   | embbag-opt --embbag-to-llvm="target=avx2 max-vectors=2" \
// RUN:   | sed -e '1s/attributes {dlti[^}]*} //' | %mlir_runner | FileCheck %s

module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = 64 : i64>>} {
  func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }

  func.func @lookup(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x?xf32> {
    %r = embbag.offsets sum %t[%i] offsets(%o)
        : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }

  func.func @print(%r: tensor<?x?xf32>, %first: index) {
    %s = tensor.extract_slice %r[0, %first] [5, 4] [1, 1] : tensor<?x?xf32> to tensor<5x4xf32>
    %u = tensor.cast %s : tensor<5x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }

  // Table t[r, c] = 10 * r + c, 6 rows of 40; bags {1, 2}, {}, {0, 3, 5},
  // {4} and {1}: column c of the result is 30 + 2c, 0, 80 + 3c, 40 + c and
  // 10 + c.
  func.func @main() {
    %c6 = arith.constant 6 : index
    %c40 = arith.constant 40 : index
    %c10 = arith.constant 10 : index
    %t = tensor.generate %c6, %c40 {
    ^bb0(%r: index, %c: index):
      %r10 = arith.muli %r, %c10 : index
      %v = arith.addi %r10, %c : index
      %i = arith.index_cast %v : index to i64
      %f = arith.sitofp %i : i64 to f32
      tensor.yield %f : f32
    } : tensor<?x?xf32>
    %idx = arith.constant dense<[1, 2, 0, 3, 5, 4, 1]> : tensor<7xi32>
    %off = arith.constant dense<[0, 2, 2, 5, 6]> : tensor<5xi32>
    %id = tensor.cast %idx : tensor<7xi32> to tensor<?xi32>
    %od = tensor.cast %off : tensor<5xi32> to tensor<?xi32>
    %r = call @lookup(%t, %id, %od) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x?xf32>
    // Across the first blocks' boundary (column 16).
    // CHECK: data =
    // CHECK-NEXT: {{\[}}[58,   60,   62,   64],
    // CHECK-NEXT: [0,   0,   0,   0],
    // CHECK-NEXT: [122,   125,   128,   131],
    // CHECK-NEXT: [54,   55,   56,   57],
    // CHECK-NEXT: [24,   25,   26,   27]]
    %c14 = arith.constant 14 : index
    call @print(%r, %c14) : (tensor<?x?xf32>, index) -> ()
    // The last, narrower block.
    // CHECK: data =
    // CHECK-NEXT: {{\[}}[102,   104,   106,   108],
    // CHECK-NEXT: [0,   0,   0,   0],
    // CHECK-NEXT: [188,   191,   194,   197],
    // CHECK-NEXT: [76,   77,   78,   79],
    // CHECK-NEXT: [46,   47,   48,   49]]
    %c36 = arith.constant 36 : index
    call @print(%r, %c36) : (tensor<?x?xf32>, index) -> ()
    return
  }
}
