// EmbeddingBagPacked-15, Example 2: reduction sum with per_sample_weights.
// Spec: OpenVINO opset, EmbeddingBagPacked-15 (docs/EmbBag/EmbBagOps.md,
// embbag.packed).
//
// Expected output: [[-1.05, -1.2], [-1.36, -1.38], [-2.8, 3.7]]

func.func @main() {
  %table = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf32>
  %indices = arith.constant dense<[[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi32>
  %weights = arith.constant dense<[[0.5, 0.5], [0.3, 0.7], [2.0, -1.0]]> : tensor<3x2xf32>
  %r = embbag.packed sum %table[%indices] weights(%weights) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
