//===- ZeroFillToMemset.cpp - Zero fills of whole buffers as memset -------===//
//
// A linalg.fill of zero bytes into a contiguous memref becomes one
// llvm.intr.memset of its bytes. Why the embbag pipeline wants it is in
// the pass description (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGZEROFILLTOMEMSET
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

/// Whether `value` is a constant whose bytes are all zero: an integer 0 or
/// a float +0.0 (not -0.0, whose sign bit is set).
bool isZeroBytes(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isPosZero();
  return false;
}

/// The buffer `fill` writes when a memset can replace it: a memref of
/// identity layout (contiguous, offset 0) of whole-byte elements.
TypedValue<MemRefType> memsetTarget(linalg::FillOp fill) {
  if (!fill.hasPureBufferSemantics() || !isZeroBytes(fill.getInputs()[0]))
    return {};
  auto buffer = dyn_cast<TypedValue<MemRefType>>(fill.getOutputs()[0]);
  if (!buffer || !buffer.getType().getLayout().isIdentity())
    return {};
  Type element = buffer.getType().getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  return buffer;
}

/// The bytes of `buffer` (index).
Value byteSize(ImplicitLocOpBuilder &b, TypedValue<MemRefType> buffer) {
  MemRefType type = buffer.getType();
  Value bytes =
      arith::ConstantIndexOp::create(b, type.getElementTypeBitWidth() / 8);
  for (int64_t d = 0; d < type.getRank(); ++d)
    bytes =
        arith::MulIOp::create(b, bytes, memref::DimOp::create(b, buffer, d));
  return bytes;
}

void replaceWithMemset(linalg::FillOp fill, TypedValue<MemRefType> buffer) {
  ImplicitLocOpBuilder b(fill.getLoc(), fill);
  Type i64 = b.getI64Type();
  Value address = arith::IndexCastUIOp::create(
      b, i64, memref::ExtractAlignedPointerAsIndexOp::create(b, buffer));
  Value pointer = LLVM::IntToPtrOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext()), address);
  Value zero = LLVM::ConstantOp::create(b, b.getI8Type(), 0);
  Value length = arith::IndexCastUIOp::create(b, i64, byteSize(b, buffer));
  LLVM::MemsetOp::create(b, pointer, zero, length, /*isVolatile=*/false);
  fill.erase();
}

struct EmbBagZeroFillToMemset
    : public embbag::impl::EmbBagZeroFillToMemsetBase<EmbBagZeroFillToMemset> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::FillOp, TypedValue<MemRefType>>> fills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (TypedValue<MemRefType> buffer = memsetTarget(fill))
        fills.push_back({fill, buffer});
    });
    for (auto [fill, buffer] : fills)
      replaceWithMemset(fill, buffer);
  }
};

} // namespace
