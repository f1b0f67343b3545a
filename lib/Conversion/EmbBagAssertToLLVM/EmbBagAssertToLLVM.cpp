//===- EmbBagAssertToLLVM.cpp - cf.assert to stderr and abort -------------===//
//
// Upstream lowers cf.assert to `puts` (stdout, buffered) followed by
// `abort`: a message going to a pipe dies with the buffer. Here a failed
// runtime check of the embbag lowerings (a cf.assert marked
// `embbag.runtime_check`) writes its message with `write(2, ...)`, which is
// unbuffered, and then aborts. The rewrite uses scf.if, so it is valid inside
// structured loops and runs before scf is lowered to cf. Unmarked asserts
// are the user's: they keep their upstream meaning (convert-cf-to-llvm).
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagAssertToLLVM/EmbBagAssertToLLVM.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_CONVERTEMBBAGASSERTTOLLVM
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

struct ConvertEmbBagAssertToLLVMPass
    : public embbag::impl::ConvertEmbBagAssertToLLVMBase<
          ConvertEmbBagAssertToLLVMPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, cf::ControlFlowDialect, scf::SCFDialect,
                    arith::ArithDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) {
      if (op->hasAttr(
              embbag::EmbBagDialect::RuntimeCheckAttrHelper::getNameStr()))
        asserts.push_back(op);
    });
    if (asserts.empty())
      return;

    MLIRContext *ctx = &getContext();
    OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
    Type i32 = IntegerType::get(ctx, 32);
    Type i64 = IntegerType::get(ctx, 64);
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    FailureOr<LLVM::LLVMFuncOp> writeFn = LLVM::lookupOrCreateFn(
        moduleBuilder, module, "write", {i32, ptr, i64}, i64);
    FailureOr<LLVM::LLVMFuncOp> abortFn = LLVM::lookupOrCreateFn(
        moduleBuilder, module, "abort", {}, LLVM::LLVMVoidType::get(ctx));
    if (failed(writeFn) || failed(abortFn)) {
      module.emitError("'write' or 'abort' is declared with another type");
      return signalPassFailure();
    }

    // One global per distinct message.
    llvm::StringMap<LLVM::GlobalOp> globals;
    auto getMessage = [&](StringRef msg) {
      std::string text = (msg + "\n").str();
      LLVM::GlobalOp &global = globals[text];
      if (!global) {
        auto type =
            LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
        global = LLVM::GlobalOp::create(
            moduleBuilder, module.getLoc(), type, /*isConstant=*/true,
            LLVM::Linkage::Internal,
            ("embbag_assert_msg_" + Twine(globals.size() - 1)).str(),
            moduleBuilder.getStringAttr(text));
        SymbolTable(module).insert(global);
      }
      return std::make_pair(global, static_cast<int64_t>(text.size()));
    };

    for (cf::AssertOp op : asserts) {
      // Named values, not structured bindings: the lambda below captures
      // them.
      auto message = getMessage(op.getMsg());
      LLVM::GlobalOp global = message.first;
      int64_t length = message.second;
      ImplicitLocOpBuilder b(op.getLoc(), op);
      Value failedCond = arith::XOrIOp::create(
          b, op.getArg(), arith::ConstantIntOp::create(b, 1, 1));
      scf::IfOp::create(b, failedCond, [&](OpBuilder &nested, Location loc) {
        Value fd = LLVM::ConstantOp::create(nested, loc, i32,
                                            nested.getI32IntegerAttr(2));
        Value len = LLVM::ConstantOp::create(nested, loc, i64,
                                             nested.getI64IntegerAttr(length));
        Value msg = LLVM::AddressOfOp::create(nested, loc, global);
        LLVM::CallOp::create(nested, loc, *writeFn, ValueRange{fd, msg, len});
        LLVM::CallOp::create(nested, loc, *abortFn, ValueRange{});
        scf::YieldOp::create(nested, loc);
      });
      op.erase();
    }
  }
};

} // namespace
