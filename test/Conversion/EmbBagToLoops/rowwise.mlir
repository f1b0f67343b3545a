// RUN: embbag-opt %s --split-input-file --verify-diagnostics --convert-embbag-to-loops="checks=0 target=avx512 prefetch-distance=0" | FileCheck %s

// Row-wise quantized tables in the loops kernel: per index, the row's scale
// and bias are read once (the bytes after the codes, bitcast to floats),
// and the row's codes are loaded as bytes, two whole vectors' worth at a
// time, unpacked in the vector (4-bit: low and high nibbles interleaved)
// and converted to f32. A sum
// accumulates scale * code with one FMA per vector and the biases in one
// scalar, added to every column after the loop; max dequantizes each row
// (code * scale + bias, one FMA). Executed:
// test/Integration/EmbBag/rowwise.mlir.

// CHECK-LABEL: func.func @four_bit(
// CHECK-SAME:      %[[T:[a-z0-9_-]+]]: tensor<10x36xui8>
// CHECK:         %[[LOOP:.*]]:5 = scf.for {{.*}} iter_args(%[[A0:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[BSUM:.*]] = %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, f32)
// CHECK:           %[[TAIL:.*]] = vector.transfer_read %[[T]][%{{.*}}, %c32], %{{.*}} {in_bounds = [true]} : tensor<10x36xui8>, vector<4xui8>
// CHECK:           %[[TAILI:.*]] = builtin.unrealized_conversion_cast %[[TAIL]] : vector<4xui8> to vector<4xi8>
// CHECK:           %[[F16:.*]] = vector.bitcast %[[TAILI]] : vector<4xi8> to vector<2xf16>
// CHECK:           %[[S16:.*]] = vector.extract %[[F16]][0]
// CHECK:           %[[B16:.*]] = vector.extract %[[F16]][1]
// CHECK:           %[[S:.*]] = arith.extf %[[S16]] : f16 to f32
// CHECK:           %[[B:.*]] = arith.extf %[[B16]] : f16 to f32
// CHECK:           %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK:           %[[BYTES:.*]] = vector.transfer_read %[[T]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<10x36xui8>, vector<16xui8>
// CHECK:           %[[BYTESI:.*]] = builtin.unrealized_conversion_cast %[[BYTES]] : vector<16xui8> to vector<16xi8>
// CHECK:           %[[HI:.*]] = arith.shrui %[[BYTESI]], %{{.*}} : vector<16xi8>
// CHECK:           %[[LO:.*]] = arith.andi %[[BYTESI]], %{{.*}} : vector<16xi8>
// CHECK:           %[[CODES:.*]] = vector.shuffle %[[LO]], %[[HI]] [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
// CHECK:           %[[FIRST:.*]] = vector.extract_strided_slice %[[CODES]] {offsets = [0], sizes = [16], strides = [1]} : vector<32xi8> to vector<16xi8>
// CHECK:           %[[VALUES:.*]] = arith.uitofp %[[FIRST]] : vector<16xi8> to vector<16xf32>
// CHECK:           %[[SECOND:.*]] = vector.extract_strided_slice %[[CODES]] {offsets = [16], sizes = [16], strides = [1]} : vector<32xi8> to vector<16xi8>
// CHECK:           arith.uitofp %[[SECOND]] : vector<16xi8> to vector<16xf32>
// CHECK:           vector.transfer_read %[[T]][%{{.*}}, %c16{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<10x36xui8>, vector<16xui8>
// CHECK:           vector.fma %[[VALUES]], %[[SV]], %[[A0]] : vector<16xf32>
// CHECK-NOT:       vector.transfer_read %[[T]][%{{.*}}, %c32]
// CHECK:           %[[NEXT:.*]] = arith.addf %[[BSUM]], %[[B]] : f32
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEXT]]
// CHECK:         %[[BIASES:.*]] = vector.broadcast %[[LOOP]]#4 : f32 to vector<16xf32>
// CHECK:         arith.addf %[[LOOP]]#0, %[[BIASES]] : vector<16xf32>
func.func @four_bit(%t: tensor<10x36xui8>, %i: tensor<3x2xi32>) -> tensor<3x64xf32> {
  %r = embbag.packed sum %t[%i] rowwise(i4) : (tensor<10x36xui8>, tensor<3x2xi32>) -> tensor<3x64xf32>
  return %r : tensor<3x64xf32>
}

// -----

// 2-bit codes: four fields of each byte, interleaved in two rounds; max
// takes each dequantized row.
// CHECK-LABEL: func.func @two_bit(
// CHECK:         vector.bitcast %{{.*}} : vector<4xi8> to vector<2xf16>
// CHECK:         %[[READ:.*]] = vector.transfer_read {{.*}} : tensor<10x8xui8>, vector<4xui8>
// CHECK:         %[[BYTES:.*]] = builtin.unrealized_conversion_cast %[[READ]] : vector<4xui8> to vector<4xi8>
// CHECK-DAG:     %[[F0:.*]] = arith.andi %[[BYTES]], %{{.*}} : vector<4xi8>
// CHECK-DAG:     %[[F2:.*]] = arith.andi %{{.*}}, %{{.*}} : vector<4xi8>
// CHECK:         %[[EVEN:.*]] = vector.shuffle %[[F0]], %[[F2]] [0, 4, 1, 5, 2, 6, 3, 7]
// CHECK:         %[[ODD:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 4, 1, 5, 2, 6, 3, 7]
// CHECK:         %[[CODES:.*]] = vector.shuffle %[[EVEN]], %[[ODD]] [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15]
// CHECK:         %[[VALUES:.*]] = arith.uitofp %[[CODES]] : vector<16xi8> to vector<16xf32>
// CHECK:         %[[ROW:.*]] = vector.fma %[[VALUES]], %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK:         arith.maximumf %{{.*}}, %[[ROW]] : vector<16xf32>
func.func @two_bit(%t: tensor<10x8xui8>, %i: tensor<3x2xi32>) -> tensor<3x16xf32> {
  %r = embbag.packed max %t[%i] rowwise(i2) : (tensor<10x8xui8>, tensor<3x2xi32>) -> tensor<3x16xf32>
  return %r : tensor<3x16xf32>
}

// -----

// 8-bit codes and an f16 result: f32 scale and bias, the sum rounded once.
// CHECK-LABEL: func.func @eight_bit_f16(
// CHECK:         vector.bitcast %{{.*}} : vector<8xi8> to vector<2xf32>
// CHECK:         arith.uitofp %{{.*}} : vector<16xi8> to vector<16xf32>
// CHECK:         arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
func.func @eight_bit_f16(%t: tensor<10x24xi8>, %i: tensor<3x2xi32>) -> tensor<3x16xf16> {
  %r = embbag.packed sum %t[%i] rowwise(i8) : (tensor<10x24xi8>, tensor<3x2xi32>) -> tensor<3x16xf16>
  return %r : tensor<3x16xf16>
}
