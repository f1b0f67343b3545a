//===- QuantizedRow.cpp - Rows of row-wise quantized tables ---------------===//
//
// A row-wise quantized table (PyTorch's and FBGEMM's layout) holds each row
// as bytes: the codes, then the row's scale and bias (f32 for 8-bit codes,
// f16 for 4- and 2-bit ones). The kernel reads a row's scale and bias once,
// and its codes as bytes, two whole vectors' worth per load for narrow
// codes, unpacked inside the vector registers (shifts and masks, then
// interleaving shuffles: the codes of a byte are consecutive columns,
// lowest bits first) and converted to f32. Sums use the codes and the
// scale as they are and add the biases once per bag (RowChunk.cpp); every
// other use takes `code * scale + bias` and sees f32 vectors as for a table
// of floats.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

/// The bytes after a row's codes: an f32 scale and bias, or f16 ones.
static int64_t tailBytes(unsigned bits) { return bits == 8 ? 8 : 4; }

Value mlir::embbag::loops::planQuantizedRow(ImplicitLocOpBuilder &b,
                                            KernelContext &k) {
  unsigned bits = k.p.rowwiseBits;
  Value rowBytes = dim(b, k.p.table, 1);
  k.scaleColumn =
      b.createOrFold<arith::SubIOp>(rowBytes, cst(b, tailBytes(bits)));
  auto resultType = cast<RankedTensorType>(k.p.op->getResult(0).getType());
  if (!resultType.isDynamicDim(1))
    return cst(b, resultType.getDimSize(1));
  // Only 8-bit codes may leave the row length to the table (the verifier).
  return k.scaleColumn;
}

/// `numBytes` bytes of row `rowIndex` from byte column `byteCol` (masked
/// when `mask` is set), as a vector of i8.
static Value readBytes(ImplicitLocOpBuilder &b, const KernelContext &k,
                       Value rowIndex, Value byteCol, int64_t numBytes,
                       Value mask) {
  Type byteType = getElementTypeOrSelf(k.p.table.getType());
  auto map = AffineMap::getMinorIdentityMap(2, 1, b.getContext());
  Value pad = castTo(
      b, arith::ConstantOp::create(b, b.getZeroAttr(getSignlessType(byteType))),
      byteType);
  Value bytes = vector::TransferReadOp::create(
      b, VectorType::get({numBytes}, byteType), k.p.table,
      ValueRange{rowIndex, byteCol}, AffineMapAttr::get(map), pad, mask,
      b.getBoolArrayAttr({true}));
  return castToSignless(b, bytes);
}

std::pair<Value, Value>
mlir::embbag::loops::readScaleAndBias(ImplicitLocOpBuilder &b,
                                      const KernelContext &k, Value rowIndex) {
  unsigned bits = k.p.rowwiseBits;
  Value bytes = readBytes(b, k, rowIndex, k.scaleColumn, tailBytes(bits),
                          /*mask=*/Value());
  Type floatType = bits == 8 ? Type(b.getF32Type()) : Type(b.getF16Type());
  // Little endian, as x86 and AArch64 are: the bytes are the floats.
  Value floats =
      vector::BitCastOp::create(b, VectorType::get({2}, floatType), bytes);
  Value scale = vector::ExtractOp::create(b, floats, ArrayRef<int64_t>{0});
  Value bias = vector::ExtractOp::create(b, floats, ArrayRef<int64_t>{1});
  if (bits != 8) {
    scale = arith::ExtFOp::create(b, b.getF32Type(), scale);
    bias = arith::ExtFOp::create(b, b.getF32Type(), bias);
  }
  return {scale, bias};
}

/// `(bytes >> shift) & mask`, per byte.
static Value extractField(ImplicitLocOpBuilder &b, Value bytes, unsigned shift,
                          unsigned bits) {
  auto type = cast<VectorType>(bytes.getType());
  auto splat = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(
        b, type, DenseElementsAttr::get(type, b.getI8IntegerAttr(v)));
  };
  Value field = shift
                    ? arith::ShRUIOp::create(b, bytes, splat(shift)).getResult()
                    : bytes;
  if (shift + bits < 8)
    field = arith::AndIOp::create(b, field, splat((1 << bits) - 1));
  return field;
}

/// [a0, b0, a1, b1, ...] of two vectors of one length.
static Value interleave(ImplicitLocOpBuilder &b, Value lo, Value hi) {
  int64_t n = cast<VectorType>(lo.getType()).getNumElements();
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < n; ++i) {
    mask.push_back(i);
    mask.push_back(n + i);
  }
  return vector::ShuffleOp::create(b, lo, hi, mask);
}

/// The codes of `bytes` (i8), one per element, in column order: code c of
/// a byte holds bits [c * bits, (c + 1) * bits).
static Value unpackCodes(ImplicitLocOpBuilder &b, Value bytes, unsigned bits) {
  if (bits == 8)
    return bytes;
  if (bits == 4)
    return interleave(b, extractField(b, bytes, 0, 4),
                      extractField(b, bytes, 4, 4));
  // 2-bit codes: fields 0 and 2, 1 and 3 interleaved, then the two pairs.
  Value even =
      interleave(b, extractField(b, bytes, 0, 2), extractField(b, bytes, 4, 2));
  Value odd =
      interleave(b, extractField(b, bytes, 2, 2), extractField(b, bytes, 6, 2));
  return interleave(b, even, odd);
}

/// The codes of `count` consecutive vectors of the row from column `col`,
/// read with one load, as f32 vectors; with `mask` (one vector that ends
/// the row) only the codes up to the row's end are read.
static SmallVector<Value> readCodeGroup(ImplicitLocOpBuilder &b,
                                        const KernelContext &k, Value rowIndex,
                                        Value col, Value mask, int64_t count) {
  unsigned bits = k.p.rowwiseBits;
  int64_t lanes = k.shape.lanes;
  int64_t numBytes = llvm::divideCeil(count * lanes * bits, 8);
  // A vector starts on a byte: lanes * bits is a multiple of 8, or the row
  // is one vector starting at column 0 (the pattern checks it).
  Value byteCol =
      bits == 8 ? col : b.createOrFold<arith::DivUIOp>(col, cst(b, 8 / bits));
  Value byteMask;
  if (mask) {
    // The row's codes from `col` on, rounded up to whole bytes.
    Value codes = arith::SubIOp::create(b, k.row, col);
    Value bytesLeft =
        bits == 8 ? codes
                  : arith::CeilDivUIOp::create(b, codes, cst(b, 8 / bits))
                        .getResult();
    byteMask = vector::CreateMaskOp::create(
        b, VectorType::get({numBytes}, b.getI1Type()), ValueRange{bytesLeft});
  }
  Value codes = unpackCodes(
      b, readBytes(b, k, rowIndex, byteCol, numBytes, byteMask), bits);
  SmallVector<Value> vectors;
  for (int64_t v = 0; v < count; ++v) {
    Value part = codes;
    if (cast<VectorType>(codes.getType()).getNumElements() != lanes)
      part = vector::ExtractStridedSliceOp::create(
          b, codes, ArrayRef<int64_t>{v * lanes}, ArrayRef<int64_t>{lanes},
          ArrayRef<int64_t>{1});
    // The codes are unsigned whatever the byte type.
    vectors.push_back(arith::UIToFPOp::create(b, k.vecAccType, part));
  }
  return vectors;
}

SmallVector<Value> mlir::embbag::loops::readQuantizedCodes(
    ImplicitLocOpBuilder &b, const KernelContext &k, Value rowIndex,
    ArrayRef<Value> cols, ArrayRef<Value> masks) {
  // Narrow codes are unpacked two vectors at a time where two whole
  // vectors follow each other: one load and one round of shifts and
  // interleaves for both. (8-bit codes are widened straight from memory.)
  SmallVector<Value> vectors;
  for (size_t u = 0; u < cols.size();) {
    bool pair = k.p.rowwiseBits < 8 && u + 1 < cols.size() && !masks[u] &&
                !masks[u + 1];
    int64_t count = pair ? 2 : 1;
    llvm::append_range(vectors,
                       readCodeGroup(b, k, rowIndex, cols[u], masks[u], count));
    u += count;
  }
  return vectors;
}

SmallVector<Value> mlir::embbag::loops::readQuantizedRow(
    ImplicitLocOpBuilder &b, const KernelContext &k, Value rowIndex,
    Value scale, Value bias, ArrayRef<Value> cols, ArrayRef<Value> masks) {
  Value scales = vector::BroadcastOp::create(b, k.vecAccType, scale);
  Value biases = vector::BroadcastOp::create(b, k.vecAccType, bias);
  SmallVector<Value> values = readQuantizedCodes(b, k, rowIndex, cols, masks);
  for (Value &v : values)
    v = vector::FMAOp::create(b, v, scales, biases);
  return values;
}

SmallVector<Value> mlir::embbag::loops::toByteColumns(ImplicitLocOpBuilder &b,
                                                      const KernelContext &k,
                                                      ArrayRef<Value> columns) {
  unsigned bits = k.p.rowwiseBits;
  SmallVector<Value> bytes;
  for (Value col : columns)
    bytes.push_back(
        bits == 8 ? col
                  : b.createOrFold<arith::DivUIOp>(col, cst(b, 8 / bits)));
  return bytes;
}
