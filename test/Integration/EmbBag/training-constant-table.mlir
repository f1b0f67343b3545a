// RUN: embbag-opt %s --embbag-to-llvm="vector-bits=128" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s

// Updates of a constant table of one row of 5: the canonicalizer folds the
// kernel's loops away, and the row's writes go out of place into a new
// buffer. With 4-lane vectors (vector-bits=128) the row is a whole vector
// and a masked one. Regression test: the row slice was [1, 5], and one-shot
// bufferization took the first vector's write for a write of the whole
// slice, so the new buffer never got the row's last element, and the
// masked vector's w read back garbage (-0.5 instead of 0.625 for sgd).
// The expected rows: w - lr * dy[1] (segment_ids [1]; sqrtn of one
// position is dy itself), and for row-wise Adagrad
// s = 1.75 + mean(dy[1]^2) = 2.65937..., w - lr * dy[1] / (sqrt(s) + eps).

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %lr = arith.constant 0.5 : f32
  %eps = arith.constant 0.001 : f32
  %state = arith.constant dense<[1.75]> : tensor<1xf32>
  %dy = arith.constant dense<[[1.625, -1.75, 0.0, 0.75, -1.0],
                              [-0.375, -0.625, 0.875, 1.5, 1.0]]> : tensor<2x5xf32>
  %t = arith.constant dense<[[-8.0, 0.625, 0.75, 2.625, 1.125]]> : tensor<1x5xf32>
  %i = arith.constant dense<[0]> : tensor<1xi32>
  %ids = arith.constant dense<[1]> : tensor<1xi32>

  %sgd = embbag.segments_update sqrtn sgd(%lr) %dy, %t[%i] segment_ids(%ids) num_segments(2)
      : (f32, tensor<2x5xf32>, tensor<1x5xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<1x5xf32>
  %a = bufferization.to_buffer %sgd : tensor<1x5xf32> to memref<1x5xf32>
  %au = memref.cast %a : memref<1x5xf32> to memref<*xf32>
  // CHECK: [-7.8125, 0.9375, 0.3125, 1.875, 0.625]
  call @printMemrefF32(%au) : (memref<*xf32>) -> ()

  %ada, %s2 = embbag.segments_update sqrtn rowwise_adagrad(%lr, %eps) state(%state) %dy, %t[%i] segment_ids(%ids) num_segments(2)
      : (f32, f32, tensor<1xf32>, tensor<2x5xf32>, tensor<1x5xf32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<1x5xf32>, tensor<1xf32>)
  %b = bufferization.to_buffer %ada : tensor<1x5xf32> to memref<1x5xf32>
  %bu = memref.cast %b : memref<1x5xf32> to memref<*xf32>
  // CHECK: [-7.88509, 0.816511, 0.481884, 2.16537, 0.818582]
  call @printMemrefF32(%bu) : (memref<*xf32>) -> ()
  return
}
