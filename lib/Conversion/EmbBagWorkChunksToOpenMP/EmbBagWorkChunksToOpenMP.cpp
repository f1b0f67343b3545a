//===- EmbBagWorkChunksToOpenMP.cpp - Chunk loops to OpenMP ---------------===//
//
// The kernels' parallel loops over chunks of work (scf.forall marked
// `embbag.work_chunks`) become OpenMP worksharing loops with a schedule that
// balances chunks of uneven cost, guided by default. Upstream's
// scf-forall-to-parallel drops the mark and convert-scf-to-openmp gives every
// loop the static schedule, which is right for the user's loops of equal
// iterations; the kernels' loops take this path instead, and only they do.
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagWorkChunksToOpenMP/EmbBagWorkChunksToOpenMP.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_CONVERTEMBBAGWORKCHUNKSTOOPENMP
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

/// Replaces `forall` (on buffers) by
///   omp.parallel { omp.wsloop schedule(kind) { omp.loop_nest (ivs) = ... {
///     memref.alloca_scope { body } omp.yield } } omp.terminator }
/// the form convert-scf-to-openmp gives an scf.parallel, with `kind`.
void lowerToOpenMP(RewriterBase &rewriter, scf::ForallOp forall,
                   omp::ClauseScheduleKind kind) {
  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  SmallVector<Value> lbs = forall.getLowerBound(rewriter);
  SmallVector<Value> ubs = forall.getUpperBound(rewriter);
  SmallVector<Value> steps = forall.getStep(rewriter);

  auto region = omp::ParallelOp::create(rewriter, loc);
  rewriter.createBlock(&region.getRegion());
  auto wsloop = omp::WsloopOp::create(rewriter, loc);
  wsloop.setScheduleKind(kind);
  omp::TerminatorOp::create(rewriter, loc);
  rewriter.createBlock(&wsloop.getRegion());
  auto nest =
      omp::LoopNestOp::create(rewriter, loc, forall.getRank(), lbs, ubs, steps,
                              /*loop_inclusive=*/false, /*tile_sizes=*/nullptr);

  // The nest's block: the induction variables, an alloca scope holding the
  // forall's body (a chunk's stack allocations are freed at its end), and
  // omp.yield.
  Block *body = forall.getBody();
  rewriter.eraseOp(body->getTerminator()); // an empty scf.forall.in_parallel
  Block *entry =
      rewriter.createBlock(&nest.getRegion(), {}, body->getArgumentTypes(),
                           SmallVector<Location>(body->getNumArguments(), loc));
  auto scope = memref::AllocaScopeOp::create(rewriter, loc, TypeRange());
  omp::YieldOp::create(rewriter, loc, ValueRange());
  Block *scopeBlock = rewriter.createBlock(&scope.getBodyRegion());
  rewriter.mergeBlocks(body, scopeBlock, entry->getArguments());
  rewriter.setInsertionPointToEnd(scopeBlock);
  memref::AllocaScopeReturnOp::create(rewriter, loc, ValueRange());
  rewriter.eraseOp(forall);
}

struct ConvertEmbBagWorkChunksToOpenMPPass
    : public embbag::impl::ConvertEmbBagWorkChunksToOpenMPBase<
          ConvertEmbBagWorkChunksToOpenMPPass> {
  using Base::Base;

  void runOnOperation() override {
    StringRef mark = embbag::EmbBagDialect::WorkChunksAttrHelper::getNameStr();
    SmallVector<scf::ForallOp> loops;
    WalkResult walk = getOperation().walk([&](scf::ForallOp forall) {
      if (!forall->hasAttr(mark))
        return WalkResult::advance();
      if (!forall.getOutputs().empty()) {
        forall.emitError() << "a loop marked '" << mark
                           << "' must be bufferized before " << getArgument()
                           << " (it has shared outputs)";
        return WalkResult::interrupt();
      }
      loops.push_back(forall);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : loops)
      lowerToOpenMP(rewriter, forall, ompSchedule);
  }
};

} // namespace
