// A small program for my-opt (and for utils/run-examples.sh): one
// embbag.offsets op lowered with --embbag-to-llvm and run by mlir-runner.
//
// Table rows: r0 = [1, 2], r1 = [10, 20], r2 = [100, 200].
// Bags: {0, 2}, {}, {1}; the empty bag takes zeros (no default row).

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %table = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]]> : tensor<3x2xf32>
  %indices = arith.constant dense<[0, 2, 1]> : tensor<3xi32>
  %offsets = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  %r = embbag.offsets sum %table[%indices] offsets(%offsets) : (tensor<3x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
