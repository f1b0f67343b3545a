//===- ShardingUtils.cpp - Helpers of the sharding passes -----------------===//

#include "ShardingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value mlir::embbag::zerosLike(OpBuilder &b, Location loc,
                              RankedTensorType type) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

Attribute mlir::embbag::getMPICHImplementationMap(MLIRContext *ctx) {
  Builder b(ctx);
  return MapAttr::get(
      ctx, {DataLayoutEntryAttr::get(b.getStringAttr("MPI:Implementation"),
                                     b.getStringAttr("MPICH"))});
}
