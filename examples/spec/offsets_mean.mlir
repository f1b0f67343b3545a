// EmbeddingBagOffsets-15, Example 3: reduction mean, no default_index and no
// per_sample_weights; the empty second bag is filled with zeros.
// Spec: OpenVINO opset, EmbeddingBagOffsets-15 (docs/EmbBag/EmbBagOps.md,
// embbag.offsets).
//
// Expected output: [[-1.05, -1.2], [0, 0], [-0.1, 0.4]]

func.func @main() {
  %table = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf32>
  %indices = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
  %offsets = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  %r = embbag.offsets mean %table[%indices] offsets(%offsets) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
