//===- TableBatching.cpp - Many tables' ops in one parallel loop ----------===//
//
// `batch-tables`: a recommendation model runs one bag op per table, tens to
// hundreds of them, each small. One parallel region per op pays the fork
// and the join of the threads per table, and a table with few bags keeps
// one thread busy while the others wait. The independent ops of a block
// are lowered together instead, as one loop over chunks of all their work
// (docs/Batching.md):
//
//   before the loop, for each op i (its normal form and its checks first):
//     lines_i = (num_indices_i + num_bags_i) * (cache lines of its row)
//     base_i  = lines_0 + ... + lines_{i-1}     its part of the batch's work
//   n = the greatest power of two <= max(1, total / batch-chunk), <= all bags
//   scf.forall chunk c in [0, n) shared_outs(result_i ...):
//     lines [c * total / n, (c + 1) * total / n) are the chunk's
//     for each op i: its bags from its first bag at the chunk's first line
//       to its first bag at the next chunk's (a binary search of the key
//       start(b) + b, only where the line falls inside the op's work)
//       scf.if it has any: op i's bag loop (the kernel builders of the
//         per-op lowering) over them, into a slice of result_i
//     parallel_insert_slice each slice back
//
// Work is split by indices and bags, not by bags alone, so that an op with
// long bags is spread over many chunks and one with few short bags shares
// a chunk with others; a row of many cache lines weighs more. The chunks
// are of equal estimated work whatever the number of ops; the loop is
// marked `embbag.work_chunks`, so that the guided schedule of
// convert-embbag-work-chunks-to-openmp evens out what the estimate misses
// (cached rows against rows from DRAM). The loop's trip count (the team's
// size, embbag-limit-omp-threads) follows the batch's work: a small batch
// of many tables is one chunk on one thread. The ops' work runs op after op:
// a thread's block of chunks keeps a table's rows and prefetch stream in
// the cache from chunk to chunk (interleaving the ops' chunks measured
// slower, docs/Batching.md).
//
// The checks: a parallel kernel's threads check the offsets and indices of
// the bags they read into a flag word per op, reported after the loop
// (NormalForms.cpp), so each chunk checks its own share. The searches read
// the bags' starts unchecked: a start out of order or out of range only
// moves a chunk's boundary, never a read, and the boundaries stay in order
// (firstBagAt).
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/BagGroups.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

namespace {
/// One op of a batch: its normal form, its planned kernel and its work.
struct BatchedOp {
  PreparedBagOp prepared;
  std::unique_ptr<KernelContext> k;
  WorkChunks work; // its work in cache lines, and the weight of an index
  Value base;      // the cache lines of work of the ops before it
  Value init;      // the empty [num_bags, row] result
};
} // namespace

//===----------------------------------------------------------------------===//
// The chunks
//===----------------------------------------------------------------------===//

/// The bag's key: its start (clamped to the index list) plus the bags
/// before it, the work done up to it.
static Value bagKey(ImplicitLocOpBuilder &b, const BatchedOp &op, Value bag) {
  Value start = op.prepared.p.getUncheckedRanges()(b, b.getLoc(), bag).first;
  Value numIndices = dim(b, op.prepared.p.indices, 0);
  start = arith::MinSIOp::create(b, arith::MaxSIOp::create(b, start, cst(b, 0)),
                                 numIndices);
  return arith::AddIOp::create(b, start, bag);
}

/// The first bag of `op` at or after line `line` of the batch's work: 0
/// when the line is before the op's work, num_bags when it is after, and
/// otherwise the first bag whose key reaches it (a binary search). The
/// result never decreases as `line` grows, whatever the offsets hold (a
/// bisection is monotone in its target for any keys), so the bag ranges of
/// consecutive chunks never overlap.
static Value firstBagAt(ImplicitLocOpBuilder &b, const BatchedOp &op,
                        Value line) {
  Value own = arith::SubIOp::create(b, line, op.base); // may be negative
  Value before =
      arith::CmpIOp::create(b, arith::CmpIPredicate::sle, own, cst(b, 0));
  Value after =
      arith::CmpIOp::create(b, arith::CmpIPredicate::sge, own, op.work.lines);
  Value numBags = op.prepared.p.numBags;
  auto search = scf::IfOp::create(
      b, arith::OrIOp::create(b, before, after),
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder ib(loc, nested);
        scf::YieldOp::create(
            ib, arith::SelectOp::create(ib, before, cst(ib, 0), numBags)
                    .getResult());
      },
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value key = arith::CeilDivSIOp::create(ib, own, op.work.rowLines);
        scf::YieldOp::create(
            ib, lowerBound(ib, numBags, key,
                           [&](ImplicitLocOpBuilder &wb, Value bag) {
                             return bagKey(wb, op, bag);
                           }));
      });
  return search.getResult(0);
}

//===----------------------------------------------------------------------===//
// The loop over chunks
//===----------------------------------------------------------------------===//

/// Op `op`'s bags [first, first + count) into `out` ([count, row]): its
/// kernel on the problem of those bags.
static Value buildBagRange(ImplicitLocOpBuilder &b, const BatchedOp &op,
                           Value first, Value count, Value out) {
  BagProblem range = op.prepared.p;
  range.numBags = count;
  range.ranges = [ranges = op.prepared.p.ranges,
                  first](OpBuilder &rb, Location loc, Value bag) {
    return ranges(rb, loc, arith::AddIOp::create(rb, loc, bag, first));
  };
  KernelContext k(*op.k, range);
  return buildBagRows(b, k, out);
}

/// The body of the loop over chunks: chunk `c` owns lines [start(c),
/// start(c + 1)) of the batch's work, i.e. of each op the bags from its
/// first bag at start(c) to its first bag at start(c + 1), often none. Each
/// op's range goes through its kernel into a slice of its result.
static void buildChunk(ImplicitLocOpBuilder &b, scf::ForallOp forall,
                       ArrayRef<BatchedOp> ops, Value total, Value numChunks) {
  Value chunk = forall.getInductionVar(0);
  Value from = chunkStart(b, chunk, total, numChunks);
  Value to = chunkStart(b, arith::AddIOp::create(b, chunk, cst(b, 1)), total,
                        numChunks);
  SmallVector<SmallVector<OpFoldResult>> offsets, sizes;
  SmallVector<Value> rows;
  for (auto [i, op] : llvm::enumerate(ops)) {
    Value first = firstBagAt(b, op, from);
    Value end = firstBagAt(b, op, to);
    Value count = arith::SubIOp::create(b, end, first);
    offsets.push_back({first, b.getIndexAttr(0)});
    sizes.push_back({count, getAsOpFoldResult(op.k->row)});
    Value slice = extractSliceOrEmpty(b, forall.getRegionIterArgs()[i],
                                      offsets.back(), sizes.back());
    // Most ops have no bags in a chunk: skip their kernel's set-up.
    Value any = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, first, end);
    auto ifOp = scf::IfOp::create(
        b, any,
        [&](OpBuilder &nested, Location loc) {
          ImplicitLocOpBuilder ib(loc, nested);
          scf::YieldOp::create(ib, buildBagRange(ib, op, first, count, slice));
        },
        [&](OpBuilder &nested, Location loc) {
          scf::YieldOp::create(nested, loc, slice);
        });
    rows.push_back(ifOp.getResult(0));
  }
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [i, result] : llvm::enumerate(rows))
    parallelInsertSliceUnlessEmpty(b, result, forall.getRegionIterArgs()[i],
                                   offsets[i], sizes[i]);
}

/// The results of `ops` (their [num_bags, row] forms), from one loop over
/// chunks of their work: the greatest power of two of chunks of at least
/// `batch-chunk` lines (roundChunkCount), at most one per bag.
static ValueRange buildBatchedKernel(ImplicitLocOpBuilder &b,
                                     MutableArrayRef<BatchedOp> ops) {
  Value total = cst(b, 0), bags = cst(b, 0);
  for (BatchedOp &op : ops) {
    op.work = planWorkChunks(b, op.prepared.p, op.prepared.shape);
    op.base = total;
    total = arith::AddIOp::create(b, total, op.work.lines);
    bags = arith::AddIOp::create(b, bags, op.prepared.p.numBags);
  }
  int64_t chunkLines = ops.front().prepared.shape.chunkLines;
  Value numChunks = roundChunkCount(
      b, arith::DivUIOp::create(b, total, cst(b, chunkLines)), bags);
  SmallVector<Value> inits =
      llvm::map_to_vector(ops, [](const BatchedOp &op) { return op.init; });
  scf::ForallOp forall = createChunkLoop(b, numChunks, inits);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  buildChunk(b, forall, ops, total, numChunks);
  return forall.getResults();
}

/// Lowers `group` as one kernel placed at its last op.
static LogicalResult lowerGroup(ArrayRef<BagOpInterface> group,
                                const ConvertEmbBagToLoopsOptions &options,
                                const TargetModel &target) {
  // Nothing is built for a group one of whose ops the options cannot lower
  // (the op has its error).
  for (BagOpInterface op : group)
    if (failed(chooseOpShape(op, options, target)))
      return failure();
  Operation *last = group.back();
  IRRewriter rewriter(last->getContext());
  rewriter.setInsertionPoint(last);
  ImplicitLocOpBuilder b(last->getLoc(), rewriter);
  SmallVector<BatchedOp, 4> ops(group.size());
  for (auto [i, batched] : llvm::enumerate(ops)) {
    BagOpInterface op = group[i];
    b.setLoc(op.getLoc());
    if (failed(prepareBagOp(b, op, options, target, batched.prepared)))
      return failure();
    // Each chunk runs a sequential bag loop: the chunks are the threads'.
    batched.prepared.shape.parallel = false;
    const BagProblem &p = batched.prepared.p;
    batched.k = std::make_unique<KernelContext>(p, batched.prepared.shape);
    KernelContext &k = *batched.k;
    k.row = p.rowwiseBits ? planQuantizedRow(b, k) : dim(b, p.table, 1);
    planPrefetch(b, k);
    batched.init = buildEmptyResult(b, k);
  }
  SmallVector<Location> locs = llvm::map_to_vector(
      group, [](BagOpInterface op) { return op->getLoc(); });
  b.setLoc(FusedLoc::get(b.getContext(), locs));
  ValueRange results = buildBatchedKernel(b, ops);
  for (auto [i, result] : llvm::enumerate(results)) {
    b.setLoc(group[i]->getLoc());
    rewriter.replaceOp(group[i], finishBagOp(b, ops[i].prepared, result));
  }
  return success();
}

LogicalResult
mlir::embbag::loops::batchTables(Operation *root,
                                 const ConvertEmbBagToLoopsOptions &options,
                                 const TargetModel &target) {
  SmallVector<SmallVector<BagOpInterface>> groups;
  root->walk([&](Block *block) { findIndependentBagOps(*block, groups); });
  for (ArrayRef<BagOpInterface> group : groups)
    if (failed(lowerGroup(group, options, target)))
      return failure();
  return success();
}
