// RUN: embbag-opt %s --embbag-to-llvm=path=gpu-loops | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops checks=0" | %mlir_runner | FileCheck %s

// A sparse gradient through the GPU kernels (run by host loops) on a table
// of 200,000 rows: 782 chunks of 256 rows in 4 groups of 256 chunks
// (docs/GPU.md, "Sparse gradients"), so that the rows' ranks cross chunk
// and group boundaries: rows 5 (group 0), 65,536 (the first row of group 1),
// 70,000 (twice, in two bags) and 199,999 (the last chunk, which is
// partial, of the last group). Sum of two bags: [5, 70000] and
// [70000, 65536, 199999]; row 70,000 gets both bags' dy.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<200000x2xf32>
  %t = linalg.fill ins(%zero : f32) outs(%empty : tensor<200000x2xf32>) -> tensor<200000x2xf32>
  %dy = arith.constant dense<[[1.0, 2.0], [10.0, 20.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[5, 70000, 70000, 65536, 199999]> : tensor<5xi32>
  %off = arith.constant dense<[0, 2]> : tensor<2xi32>
  %rows, %values = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<2x2xf32>, tensor<200000x2xf32>, tensor<5xi32>, tensor<2xi32>)
      -> (tensor<?xi32>, tensor<?x2xf32>)
  %r = bufferization.to_buffer %rows : tensor<?xi32> to memref<?xi32>
  %ru = memref.cast %r : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%ru) : (memref<*xi32>) -> ()
  %v = bufferization.to_buffer %values : tensor<?x2xf32> to memref<?x2xf32>
  %vu = memref.cast %v : memref<?x2xf32> to memref<*xf32>
  call @printMemrefF32(%vu) : (memref<*xf32>) -> ()
  return
}

// CHECK:      sizes = [4] strides = [1]
// CHECK-NEXT: [5,  65536,  70000,  199999]
// CHECK:      sizes = [4, 2] strides = [2, 1]
// CHECK-NEXT: {{\[}}[1,   2],
// CHECK-NEXT:  [10,   20],
// CHECK-NEXT:  [11,   22],
// CHECK-NEXT:  [10,   20]]
