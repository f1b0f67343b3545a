//===- LimitOmpThreads.cpp - No more threads than loop iterations ---------===//
//
// A parallel region that is one worksharing loop gets
// `num_threads(clamp(iterations, 1, omp_get_max_threads()))`: libomp forks
// the whole team whatever the loop's trip count, and a thread without an
// iteration still costs its wake-up and the join. The embbag kernels' loops
// run over chunks of about `batch-chunk` cache lines of rows, so a small call
// runs on one thread (a serialized region) and a large one on all of them.
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "OmpRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGLIMITOMPTHREADS
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kMaxThreads = "omp_get_max_threads";

/// The loop nest of `region` when the region is that worksharing loop and
/// nothing else, has no thread count yet, and its bounds come from outside
/// it with constant positive steps; null otherwise. Only then is the team's
/// size invisible to the program: each iteration runs once, on any thread.
omp::LoopNestOp getLimitableLoop(omp::ParallelOp region) {
  if (region.getNumThreads() || region.getIfExpr() ||
      !region.getRegion().hasOneBlock())
    return nullptr;
  Block &body = region.getRegion().front();
  auto wsloop = dyn_cast<omp::WsloopOp>(body.front());
  if (!wsloop || &body.back() != wsloop->getNextNode() ||
      !wsloop.getReductionVars().empty() || !wsloop.getPrivateVars().empty() ||
      wsloop.getNestedWrapper())
    return nullptr;
  auto nest = dyn_cast<omp::LoopNestOp>(wsloop.getWrappedLoop());
  if (!nest)
    return nullptr;
  for (Value v : nest.getOperands())
    if (region->isAncestor(v.getParentBlock()->getParentOp()))
      return nullptr;
  Type type = nest.getLoopLowerBounds().front().getType();
  if (!type.isIndex() && type.getIntOrFloatBitWidth() > 64)
    return nullptr;
  for (Value step : nest.getLoopSteps()) {
    std::optional<int64_t> constant = getConstantIntValue(step);
    if (!constant || *constant <= 0)
      return nullptr;
  }
  return nest;
}

/// `v`, a non-negative index or integer of at most 64 bits, as an i64.
Value toI64(OpBuilder &b, Location loc, Value v) {
  Type i64 = b.getI64Type();
  if (v.getType().isIndex())
    return b.createOrFold<arith::IndexCastUIOp>(loc, i64, v);
  if (v.getType() != i64)
    return b.createOrFold<arith::ExtUIOp>(loc, i64, v);
  return v;
}

/// The iterations of `nest` (i64; folded where the bounds are constants).
Value buildTripCount(OpBuilder &b, Location loc, omp::LoopNestOp nest) {
  Type type = nest.getLoopLowerBounds().front().getType();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
  };
  Value trips;
  for (auto [lb, ub, step] :
       llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                 nest.getLoopSteps())) {
    Value span = b.createOrFold<arith::SubIOp>(loc, ub, lb);
    if (nest.getLoopInclusive())
      span = b.createOrFold<arith::AddIOp>(loc, span, constant(1));
    // Signed bounds: a loop whose upper bound is below its lower one runs
    // no iteration.
    span = b.createOrFold<arith::MaxSIOp>(loc, span, constant(0));
    Value count =
        toI64(b, loc, b.createOrFold<arith::CeilDivUIOp>(loc, span, step));
    trips = trips ? b.createOrFold<arith::MulIOp>(loc, trips, count) : count;
  }
  return trips;
}

/// `clamp(trips, 1, omp_get_max_threads())` as the i32 libomp takes.
Value buildTeamSize(OpBuilder &b, Location loc, Value trips,
                    func::FuncOp maxThreadsFn) {
  Type i64 = b.getI64Type();
  Value maxThreads =
      func::CallOp::create(b, loc, maxThreadsFn, ValueRange{}).getResult(0);
  Value team = arith::MinSIOp::create(
      b, loc, trips, arith::ExtSIOp::create(b, loc, i64, maxThreads));
  team = arith::MaxSIOp::create(b, loc, team,
                                arith::ConstantIntOp::create(b, loc, i64, 1));
  return arith::TruncIOp::create(b, loc, b.getI32Type(), team);
}

struct EmbBagLimitOmpThreads
    : public embbag::impl::EmbBagLimitOmpThreadsBase<EmbBagLimitOmpThreads> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<omp::ParallelOp, omp::LoopNestOp>> regions;
    module.walk([&](omp::ParallelOp region) {
      if (omp::LoopNestOp nest = getLimitableLoop(region))
        regions.emplace_back(region, nest);
    });
    if (regions.empty())
      return;
    OpBuilder builder(module.getContext());
    FailureOr<func::FuncOp> maxThreads = embbag::getOrDeclareOmpFunction(
        module, kMaxThreads,
        builder.getFunctionType({}, {builder.getI32Type()}), getArgument());
    if (failed(maxThreads))
      return signalPassFailure();
    for (auto [region, nest] : regions) {
      builder.setInsertionPoint(region);
      Location loc = region.getLoc();
      Value trips = buildTripCount(builder, loc, nest);
      region.getNumThreadsMutable().assign(
          buildTeamSize(builder, loc, trips, *maxThreads));
    }
  }
};

} // namespace
