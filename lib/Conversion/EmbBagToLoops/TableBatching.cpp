//===- TableBatching.cpp - Many tables' ops in one parallel loop ----------===//
//
// `batch-tables`: a recommendation model runs one bag op per table, tens to
// hundreds of them, each small. One parallel region per op pays the fork
// and the join of the threads per table, and a table with few bags keeps
// one thread busy while the others wait. The independent ops of a block
// are lowered together instead, as one loop over chunks of their indices
// (docs/Batching.md):
//
//   before the loop, for each op i (its normal form and its checks first):
//     budget_i = batch-chunk / (cache lines of its row)   indices + bags
//     chunks_i = ceil((num_indices_i + num_bags_i) / budget_i)
//     chunk c of op i owns the bags b with key(b) = start(b) + b in
//       [c * budget_i, (c + 1) * budget_i)        (a binary search of key)
//     map[base_i + c] = (i, first bag, end bag)
//   scf.forall chunk in [0, sum of chunks_i) shared_outs(result_i ...):
//     (i, first, end) = map[chunk]
//     slice_j of result_j: rows [first, end) for j = i, none for j != i
//     scf.index_switch i: case i: op i's bag loop (the kernel builders of
//       the per-op lowering) over bags [first, end) into slice_i
//     parallel_insert_slice each slice_j back
//
// Work is split by indices and bags, not by bags alone, so that an op with
// long bags is spread over many chunks and one with few short bags takes
// few; a row of many cache lines weighs more. The chunks are about equal
// work, so OpenMP's static schedule of the loop balances them. They run op
// after op: a thread's block of chunks keeps a table's rows and prefetch
// stream in the cache from chunk to chunk (interleaving the ops' chunks
// measured slower, docs/Batching.md).
//
// The checks: a parallel kernel's threads check the offsets and indices of
// the bags they read into a flag word per op, reported after the loop
// (NormalForms.cpp), so each chunk checks its own share. The map reads the
// bags' starts unchecked: a start out of order or out of range only moves
// a chunk's boundary (kept monotone), never a read.
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
/// One op of a batch: its normal form, its planned kernel and its chunks.
struct BatchedOp {
  PreparedBagOp prepared;
  std::unique_ptr<KernelContext> k;
  WorkChunks chunks; // their budget and count
  Value init;        // the empty [num_bags, row] result
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

/// The first bag of `op` whose key is at least `target`, or num_bags: a
/// binary search (the keys grow with the bag when the op's contract
/// holds; otherwise any bag comes out, which the caller keeps in order).
static Value findFirstBag(ImplicitLocOpBuilder &b, const BatchedOp &op,
                          Value target) {
  return lowerBound(
      b, op.prepared.p.numBags, target,
      [&](ImplicitLocOpBuilder &wb, Value bag) { return bagKey(wb, op, bag); });
}

/// Writes the chunks of op `opIndex` into rows [base, base + chunks) of the
/// [chunks, 3] `map`: (op, first bag, end bag), the bag ranges in order and
/// covering every bag once.
static Value mapChunks(ImplicitLocOpBuilder &b, const BatchedOp &op,
                       int64_t opIndex, Value base, Value map) {
  Value numBags = op.prepared.p.numBags;
  auto loop = scf::ForOp::create(
      b, cst(b, 0), op.chunks.count, cst(b, 1), ValueRange{map, cst(b, 0)},
      [&](OpBuilder &nested, Location loc, Value c, ValueRange iterArgs) {
        ImplicitLocOpBuilder lb(loc, nested);
        Value first = iterArgs[1];
        Value next = arith::AddIOp::create(lb, c, cst(lb, 1));
        Value last = arith::CmpIOp::create(lb, arith::CmpIPredicate::eq, next,
                                           op.chunks.count);
        Value found = findFirstBag(
            lb, op,
            arith::MulIOp::create(lb, next, op.chunks.budget).getResult());
        Value end = arith::SelectOp::create(
            lb, last, numBags, arith::MaxUIOp::create(lb, found, first));
        Value row = arith::AddIOp::create(lb, base, c);
        Value m = iterArgs[0];
        SmallVector<Value> entry{cst(lb, opIndex), first, end};
        for (auto [column, v] : llvm::enumerate(entry))
          m = tensor::InsertOp::create(lb, v, m,
                                       ValueRange{row, cst(lb, column)});
        scf::YieldOp::create(lb, ValueRange{m, end});
      });
  return loop.getResult(0);
}

/// The map of every chunk of `ops`, in op order.
static Value buildChunkMap(ImplicitLocOpBuilder &b, ArrayRef<BatchedOp> ops,
                           Value &numChunks) {
  SmallVector<Value> bases;
  numChunks = cst(b, 0);
  for (const BatchedOp &op : ops) {
    bases.push_back(numChunks);
    numChunks = arith::AddIOp::create(b, numChunks, op.chunks.count);
  }
  Value map = tensor::EmptyOp::create(
      b, ArrayRef<OpFoldResult>{numChunks, b.getIndexAttr(3)},
      b.getIndexType());
  for (auto [i, op] : llvm::enumerate(ops))
    map = mapChunks(b, op, i, bases[i], map);
  return map;
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

/// The body of the loop over chunks: the chunk's rows of its op's result,
/// by its op's kernel, and none of the other results.
static void buildChunk(ImplicitLocOpBuilder &b, scf::ForallOp forall,
                       ArrayRef<BatchedOp> ops, Value map) {
  Value chunk = forall.getInductionVar(0);
  auto entry = [&](int64_t column) {
    return tensor::ExtractOp::create(b, map, ValueRange{chunk, cst(b, column)})
        .getResult();
  };
  Value opIndex = entry(0), first = entry(1), end = entry(2);
  Value count = arith::SubIOp::create(b, end, first);
  SmallVector<SmallVector<OpFoldResult>> offsets, sizes;
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  SmallVector<Value> slices;
  for (auto [i, op] : llvm::enumerate(ops)) {
    Value mine =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, opIndex, cst(b, i));
    offsets.push_back(
        {arith::SelectOp::create(b, mine, first, cst(b, 0)).getResult(),
         b.getIndexAttr(0)});
    sizes.push_back(
        {arith::SelectOp::create(b, mine, count, cst(b, 0)).getResult(),
         getAsOpFoldResult(op.k->row)});
    slices.push_back(
        tensor::ExtractSliceOp::create(b, forall.getRegionIterArgs()[i],
                                       offsets.back(), sizes.back(), strides));
  }
  SmallVector<int64_t> keys =
      llvm::to_vector(llvm::seq<int64_t>(0, static_cast<int64_t>(ops.size())));
  auto switchOp = scf::IndexSwitchOp::create(b, ValueRange(slices).getTypes(),
                                             opIndex, keys, keys.size());
  {
    OpBuilder::InsertionGuard guard(b);
    for (auto [i, region] : llvm::enumerate(switchOp.getCaseRegions())) {
      b.setInsertionPointToStart(&region.emplaceBlock());
      SmallVector<Value> results(slices);
      results[i] = buildBagRange(b, ops[i], first, count, slices[i]);
      scf::YieldOp::create(b, results);
    }
    // Every chunk's op has a case.
    b.setInsertionPointToStart(&switchOp.getDefaultRegion().emplaceBlock());
    scf::YieldOp::create(b, slices);
  }
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [i, result] : llvm::enumerate(switchOp.getResults()))
    tensor::ParallelInsertSliceOp::create(b, result,
                                          forall.getRegionIterArgs()[i],
                                          offsets[i], sizes[i], strides);
}

/// The results of `ops` (their [num_bags, row] forms), from one loop over
/// their chunks.
static ValueRange buildBatchedKernel(ImplicitLocOpBuilder &b,
                                     MutableArrayRef<BatchedOp> ops) {
  for (BatchedOp &op : ops)
    op.chunks = planWorkChunks(b, op.prepared.p, op.prepared.shape);
  Value numChunks;
  Value map = buildChunkMap(b, ops, numChunks);
  SmallVector<Value> inits =
      llvm::map_to_vector(ops, [](const BatchedOp &op) { return op.init; });
  auto forall =
      scf::ForallOp::create(b, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
                            ArrayRef<OpFoldResult>{numChunks},
                            ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, inits,
                            /*mapping=*/std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  buildChunk(b, forall, ops, map);
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
