//===- EmbBagChecksToStatus.cpp - Runtime checks to an i32 status ---------===//
//
// A serving process cannot let a kernel abort it on one bad request. This
// pass turns the embbag runtime checks (cf.assert ops) into an early return
// of a non-zero i32 status from the public function holding them; the
// function returns 0 when every check passed.
//
// It works on the asserts as the lowerings emitted them, after the fact,
// instead of asking every lowering to emit status code: the lowerings keep
// one way of writing a check, and the abort and status modes differ only
// in which pass consumes the asserts (this one or
// convert-embbag-assert-to-llvm).
//
// A check sits inside scf loops and ifs, from which no op can return, so
// the functions holding checks are lowered to cf first; then each check
// becomes
//
//   cf.cond_br %ok, ^continue, ^fail
//   ^fail: (free what is allocated and still live) return %c1_i32
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagChecksToStatus/EmbBagChecksToStatus.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGCHECKSTOSTATUS
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

bool mlir::embbag::isEmbBagRuntimeCheck(cf::AssertOp op) {
  // The mark's one spelling is the dialect's (EmbBagDialect.td).
  if (op->hasAttr(EmbBagDialect::RuntimeCheckAttrHelper::getNameStr()))
    return true;
  StringRef msg = op.getMsg();
  return msg.starts_with("embbag.packed") ||
         msg.starts_with("embbag.offsets") ||
         msg.starts_with("embbag.segments");
}

namespace {

/// The status a function returns when one of its checks failed.
constexpr int32_t kContractViolation = 1;

struct EmbBagChecksToStatusPass
    : public embbag::impl::EmbBagChecksToStatusBase<EmbBagChecksToStatusPass> {
  void runOnOperation() override;

private:
  LogicalResult rewrite(func::FuncOp func);
};

SmallVector<cf::AssertOp> collectChecks(func::FuncOp func) {
  SmallVector<cf::AssertOp> checks;
  func.walk([&](cf::AssertOp op) {
    if (embbag::isEmbBagRuntimeCheck(op))
      checks.push_back(op);
  });
  return checks;
}

/// Lowers the scf ops of `func` to cf, so that a check can branch to a
/// return from any loop depth.
LogicalResult lowerSCF(func::FuncOp func) {
  MLIRContext *ctx = func.getContext();
  ConversionTarget target(*ctx);
  target.addIllegalOp<scf::ForOp, scf::IfOp, scf::IndexSwitchOp,
                      scf::ParallelOp, scf::WhileOp, scf::ExecuteRegionOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet patterns(ctx);
  populateSCFToControlFlowConversionPatterns(patterns);
  return applyPartialConversion(func, target, std::move(patterns));
}

/// The heap buffers that are allocated, and not yet freed, whenever `check`
/// runs: allocated by an op dominating it, with no dealloc dominating it.
SmallVector<Value> liveAllocations(func::FuncOp func, cf::AssertOp check,
                                   DominanceInfo &dominance) {
  SmallVector<Value> live;
  func.walk([&](memref::AllocOp alloc) {
    if (!dominance.properlyDominates(alloc.getOperation(), check))
      return;
    bool freed = llvm::any_of(alloc->getUsers(), [&](Operation *user) {
      return isa<memref::DeallocOp>(user) &&
             dominance.properlyDominates(user, check);
    });
    if (!freed)
      live.push_back(alloc.getResult());
  });
  return live;
}

LogicalResult EmbBagChecksToStatusPass::rewrite(func::FuncOp func) {
  if (func.getNumResults() != 0)
    return func.emitError()
           << "status mode: @" << func.getSymName()
           << " returns values; write its results into out-arguments "
              "(e.g. bufferization.materialize_in_destination) so that the "
              "i32 status is its only result";

  if (!collectChecks(func).empty() && failed(lowerSCF(func)))
    return func.emitError() << "status mode: cannot lower the scf ops of @"
                            << func.getSymName() << " to cf";

  SmallVector<cf::AssertOp> checks = collectChecks(func);
  for (cf::AssertOp check : checks)
    if (check->getParentOp() != func.getOperation())
      return check.emitError()
             << "status mode: a runtime check inside '"
             << check->getParentOp()->getName()
             << "' cannot return a status from the function (parallel "
                "kernels need the abort mode)";

  // Decide what to free before any block is split: splitting changes no
  // dominance between existing ops, but it is cheaper to ask once.
  DominanceInfo dominance(func);
  SmallVector<SmallVector<Value>> toFree;
  for (cf::AssertOp check : checks)
    toFree.push_back(liveAllocations(func, check, dominance));

  MLIRContext *ctx = func.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  func.setType(FunctionType::get(ctx, func.getArgumentTypes(), {i32}));

  OpBuilder b(ctx);
  func.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    Value ok = arith::ConstantIntOp::create(b, ret.getLoc(), 0, 32);
    ret.getOperandsMutable().assign(ok);
  });

  Region &body = func.getBody();
  for (auto [check, live] : llvm::zip(checks, toFree)) {
    Location loc = check.getLoc();
    Block *before = check->getBlock();
    Block *after = before->splitBlock(check->getIterator());

    Block *fail = b.createBlock(&body, body.end());
    for (Value buffer : live)
      memref::DeallocOp::create(b, loc, buffer);
    Value status = arith::ConstantIntOp::create(b, loc, kContractViolation, 32);
    func::ReturnOp::create(b, loc, status);

    b.setInsertionPointToEnd(before);
    cf::CondBranchOp::create(b, loc, check.getArg(), after, ValueRange{}, fail,
                             ValueRange{});
    check.erase();
  }
  return success();
}

void EmbBagChecksToStatusPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<func::FuncOp> publicFuncs;
  bool failedAny = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (func.isPublic()) {
      publicFuncs.push_back(func);
      continue;
    }
    // A private helper cannot hand a status to its caller through the
    // C interface, and returning early would skip the caller's own work.
    for (cf::AssertOp check : collectChecks(func)) {
      check.emitError() << "status mode: a runtime check in the private "
                           "function @"
                        << func.getSymName()
                        << " cannot report a status; inline it into a "
                           "public function";
      failedAny = true;
    }
  }

  llvm::SmallPtrSet<Operation *, 8> rewritten;
  for (func::FuncOp func : publicFuncs) {
    if (failed(rewrite(func)))
      failedAny = true;
    rewritten.insert(func);
  }

  // The rewritten functions changed their results; calls to them inside the
  // module would no longer match.
  module.walk([&](func::CallOp call) {
    Operation *callee =
        SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
    if (callee && rewritten.contains(callee)) {
      call.emitError() << "status mode: @" << call.getCallee()
                       << " returns a status now; call it from outside the "
                          "module only";
      failedAny = true;
    }
  });
  if (failedAny)
    signalPassFailure();
}

} // namespace
