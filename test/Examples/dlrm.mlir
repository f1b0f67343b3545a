// RUN: embbag-opt %embbag_src_root/examples/dlrm/embedding_layer.mlir --embbag-to-llvm | %mlir_runner | FileCheck %s

// users: bag 0 = rows 1+2+3, bag 1 empty -> default row 0, bag 2 = rows 4+5
// CHECK:      [1, 1, 1, 0]
// CHECK-NEXT: [0, 0, 0, 1]
// CHECK-NEXT: [1.5, 1.5, 1.5, 1.5]
// items: means of (0,1), (2,3), (4,4)
// CHECK:      [1, 1, 0, 0]
// CHECK-NEXT: [0, 0, 1, 1]
// CHECK-NEXT: [4, 4, 4, 4]
// context: segment 0 = 0.5 * row 1; segment 1 = 3 * row 3; segment 2 = row 0 + 2 * row 2
// CHECK:      [2, 1.5, 1, 0.5]
// CHECK-NEXT: [0, 3, 0, 3]
// CHECK-NEXT: [3, 4, 5, 6]
