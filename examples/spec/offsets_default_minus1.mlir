// EmbeddingBagOffsets-15, Example 2: reduction sum, per_sample_weights given,
// default_index -1 fills the empty second bag with zeros.
// Spec: OpenVINO opset, EmbeddingBagOffsets-15 (docs/EmbBag/EmbBagOps.md,
// embbag.offsets).
//
// Expected output: [[-0.48, -0.66], [0, 0], [2.8, -3.7]]

func.func @main() {
  %table = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf32>
  %indices = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
  %offsets = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  %default = arith.constant -1 : i32
  %weights = arith.constant dense<[0.5, 0.2, -2.0, 1.0]> : tensor<4xf32>
  %r = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
