// EmbeddingBagOffsetsSum-3 (EmbeddingBagOffsets with reduction sum), Example 2
// (mislabelled EmbeddingBagOffsets in the spec): per_sample_weights 0.5
// everywhere, default_index -1 fills the empty second bag with zeros.
// Indices of type i64 (T_IND is int32 or int64).
// Spec: OpenVINO opset, EmbeddingBagOffsetsSum-3 (docs/EmbBag/EmbBagOps.md,
// embbag.offsets).
//
// Expected output: [[-1.05, -1.2], [0, 0], [-0.1, 0.4]]

func.func @main() {
  %table = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf32>
  %indices = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi64>
  %offsets = arith.constant dense<[0, 2, 2]> : tensor<3xi64>
  %default = arith.constant -1 : i64
  %weights = arith.constant dense<[0.5, 0.5, 0.5, 0.5]> : tensor<4xf32>
  %r = embbag.offsets sum %table[%indices] offsets(%offsets) default(%default) weights(%weights) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64, tensor<4xf32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
