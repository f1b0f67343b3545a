// EmbeddingSegmentsSum-3: segment_ids [0, 0, 2, 2] leave the second segment
// empty; default_index 0 fills it with row 0 of the table.
// Spec: OpenVINO opset, EmbeddingSegmentsSum-3 (docs/EmbBag/EmbBagOps.md,
// embbag.segments).
//
// Expected output: [[-1.05, -1.2], [-0.2, -0.6], [-0.1, 0.4]]

func.func @main() {
  %table = arith.constant dense<[[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]]> : tensor<5x2xf32>
  %indices = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
  %segment_ids = arith.constant dense<[0, 0, 2, 2]> : tensor<4xi32>
  %num_segments = arith.constant 3 : i32
  %default = arith.constant 0 : i32
  %weights = arith.constant dense<[0.5, 0.5, 0.5, 0.5]> : tensor<4xf32>
  %r = embbag.segments sum %table[%indices] segment_ids(%segment_ids) num_segments(%num_segments) default(%default) weights(%weights) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
