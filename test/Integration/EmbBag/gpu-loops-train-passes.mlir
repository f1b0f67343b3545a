// RUN: embbag-opt %s --embbag-to-llvm=path=gpu-loops | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=gpu-loops checks=0" | %mlir_runner | FileCheck %s

// The GPU training kernels (run by host loops) with their default options
// on a table of 1,100,000 rows: the sort by row takes three passes of
// 10-bit digits (docs/GPU.md, "Training"); rows 1,023, 1,024, 1,048,576
// and 1,099,999 differ in their second and third digits only, and rows 7
// and 1,031 share their low digit, so that only the later passes bring
// each one's positions together (a sort by the low digit alone would leave
// 7 x 150, 1031 x 150, 7 x 50, 1031 in that order, and the runs kernel
// would overwrite the 50's sum). Rows 7 (200 of the 356 positions) and
// 1,031 (151) are hot: after the sort each spans two pieces of 128
// positions (a tail partial row, then a head partial row), which the runs
// kernel sums in piece order. Sum of two bags: [1048576, 7 x 150,
// 1031 x 150, 1023] with dy [1, 2] and [7 x 50, 1031, 1024, 1099999, 0]
// with dy [10, 20]: row 7 gets 150 [1, 2] + 50 [10, 20] = [650, 1300], row
// 1,031 150 [1, 2] + [10, 20] = [160, 320]. The sparse gradient lists the
// touched rows; the dense one is read at rows 7 and 1,031.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1100000x2xf32>
  %t = linalg.fill ins(%zero : f32) outs(%empty : tensor<1100000x2xf32>) -> tensor<1100000x2xf32>
  %dy = arith.constant dense<[[1.0, 2.0], [10.0, 20.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[1048576, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1031, 1023, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1031, 1024, 1099999, 0]> : tensor<356xi64>
  %off = arith.constant dense<[0, 302]> : tensor<2xi64>
  %rows, %values = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) sparse
      : (tensor<2x2xf32>, tensor<1100000x2xf32>, tensor<356xi64>, tensor<2xi64>)
      -> (tensor<?xi64>, tensor<?x2xf32>)
  %r = bufferization.to_buffer %rows : tensor<?xi64> to memref<?xi64>
  %ru = memref.cast %r : memref<?xi64> to memref<*xi64>
  call @printMemrefI64(%ru) : (memref<*xi64>) -> ()
  %v = bufferization.to_buffer %values : tensor<?x2xf32> to memref<?x2xf32>
  %vu = memref.cast %v : memref<?x2xf32> to memref<*xf32>
  call @printMemrefF32(%vu) : (memref<*xf32>) -> ()
  %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
      : (tensor<2x2xf32>, tensor<1100000x2xf32>, tensor<356xi64>, tensor<2xi64>)
      -> tensor<1100000x2xf32>
  %hot = tensor.extract_slice %g[7, 0] [1, 2] [1, 1] : tensor<1100000x2xf32> to tensor<1x2xf32>
  %last = tensor.extract_slice %g[1031, 0] [1, 2] [1, 1] : tensor<1100000x2xf32> to tensor<1x2xf32>
  %both = tensor.concat dim(0) %hot, %last : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %b = bufferization.to_buffer %both : tensor<2x2xf32> to memref<2x2xf32>
  %bu = memref.cast %b : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%bu) : (memref<*xf32>) -> ()
  return
}

// CHECK:      sizes = [7] strides = [1]
// CHECK-NEXT: [0,  7,  1023,  1024,  1031,  1048576,  1099999]
// CHECK:      sizes = [7, 2] strides = [2, 1]
// CHECK-NEXT: {{\[}}[10,   20],
// CHECK-NEXT:  [650,   1300],
// CHECK-NEXT:  [1,   2],
// CHECK-NEXT:  [10,   20],
// CHECK-NEXT:  [160,   320],
// CHECK-NEXT:  [1,   2],
// CHECK-NEXT:  [10,   20]]
// CHECK:      sizes = [2, 2] strides = [2, 1]
// CHECK-NEXT: {{\[}}[650,   1300],
// CHECK-NEXT:  [160,   320]]
