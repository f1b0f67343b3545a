//===- StridedCopyToLinalg.cpp - Strided memref.copy as linalg.copy -------===//
//
// A memref.copy that --finalize-memref-to-llvm would lower to a call of
// MLIR's runtime function memrefCopy becomes a linalg.copy, and so loops.
// Why the embbag pipeline wants it is in the pass description (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGSTRIDEDCOPYTOLINALG
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

/// Whether the memcpy lowering of memref.copy takes a buffer of `type`
/// (MemRefToLLVM's test for it).
bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() ||
         memref::isStaticShapeAndContiguousRowMajor(type);
}

struct EmbBagStridedCopyToLinalg
    : public embbag::impl::EmbBagStridedCopyToLinalgBase<
          EmbBagStridedCopyToLinalg> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (source && target && !(isContiguous(source) && isContiguous(target)))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
