//===- TrainingLowering.cpp - The training ops' launches ------------------===//
//
// The host side of the training ops' kernels (TrainingKernel.h): the
// forward op's runtime contract (its host checks before the launches, its
// device rules flagged by the kernels), the results' buffers, the scratch
// memory, and the launches, in stream order:
//
//   [max]      winners         a group of lanes per bag
//   [a loop]   the sort by row, one pass per digit of the rows:
//              count           one thread per chunk (of bags in the first
//                              pass, of slots in the later ones)
//              scan owners     one thread per digit
//              place owners    one thread
//              fill            one thread per chunk
//              zero rows       groups of lanes, each walking rows
//              pieces          a group of lanes per piece of sorted slots
//              runs            the same groups: rows that span pieces
//   [finish]   finish rows     the groups of `zero rows`
//   [weights]  zero, weights   one thread per position, then per bag
//
// docs/GPU.md, "Training", says why this mapping and what it costs.
//
//===----------------------------------------------------------------------===//

#include "Host.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::gpu_lowering;

/// The runtime functions (embbag-c/CudaRuntime.h): the scratch memory; a
/// sparse gradient's results and the host-visible word of its row count.
static constexpr StringLiteral kScratchFunction = "embbagCudaScratch";
static constexpr StringLiteral kAllocFunction = "embbagCudaAlloc";
static constexpr StringLiteral kCountWordFunction = "embbagCudaCountWord";
/// The most threads of the kernels that walk the table's rows: 2^21, about
/// eight times an H200's resident threads, so that every SM has warps to
/// switch to while one waits for its row.
static constexpr int64_t kMaxRowWalkerThreads = int64_t(1) << 21;

namespace {

/// What this lowering reads of a training op.
struct TrainingOpView {
  Operation *op = nullptr;
  Reduction reduction = Reduction::sum;
  bool sparse = false; // a gradient op's `sparse`
  bool isUpdate = false;
  Value dy, table, weights;
  Value learningRate, epsilon, state; // an update's optimizer
};

} // namespace

/// What every training op has.
template <typename OpT> static TrainingOpView viewOperands(OpT op) {
  TrainingOpView v;
  v.op = op;
  v.reduction = op.getReduction();
  v.dy = op.getDy();
  v.table = op.getTable();
  v.weights = op.getWeights();
  return v;
}

static std::optional<TrainingOpView> viewTrainingOp(Operation *op) {
  return TypeSwitch<Operation *, std::optional<TrainingOpView>>(op)
      .Case<PackedGradOp, OffsetsGradOp, SegmentsGradOp>([](auto grad) {
        TrainingOpView v = viewOperands(grad);
        v.sparse = grad.getSparse();
        return v;
      })
      .Case<PackedUpdateOp, OffsetsUpdateOp, SegmentsUpdateOp>([](auto update) {
        TrainingOpView v = viewOperands(update);
        v.isUpdate = true;
        v.learningRate = update.getLearningRate();
        v.epsilon = update.getEpsilon();
        v.state = update.getState();
        return v;
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether `type` is f32, f16 or bf16: what the kernels compute in f32.
static bool isNarrowFloat(Type type) {
  return type.isF32() || type.isF16() || type.isBF16();
}

/// Whether each of a sparse gradient's first two results (its rows and
/// their gradient rows) is used, and only by the function's return.
static bool isReturnedOnly(Operation *op) {
  return llvm::all_of(op->getResults().take_front(2), [](Value result) {
    return !result.use_empty() &&
           llvm::all_of(result.getUsers(), llvm::IsaPred<func::ReturnOp>);
  });
}

std::optional<StringRef>
gpu_lowering::getTrainingUnsupportedReason(Operation *op, bool hostLoops) {
  std::optional<TrainingOpView> view = viewTrainingOp(op);
  if (!view)
    return StringRef("not a training op");
  if (view->sparse && !hostLoops && !isReturnedOnly(op))
    return StringRef(
        "a sparse gradient's rows and gradient rows are new device buffers "
        "that the caller owns (embbagCudaAlloc): the function must return "
        "them, and nothing else may use them, since the lowering frees no "
        "device memory");
  if (!isNarrowFloat(getElementTypeOrSelf(view->table.getType())))
    return StringRef("only f32, f16 and bf16 tables are supported on the GPU");
  if (view->state && !isNarrowFloat(getElementTypeOrSelf(view->state)))
    return StringRef(
        "only f32, f16 and bf16 row-wise Adagrad states are supported on "
        "the GPU");
  // A sparse gradient's rows and gradient rows are returned (above).
  ValueRange destinationResults =
      op->getResults().drop_front(view->sparse ? 2 : 0);
  if (!hostLoops && llvm::any_of(destinationResults, [&](Value result) {
        return !findDestination(result, op);
      }))
    return StringRef(
        "its results must go into destination buffers (each a "
        "bufferization.materialize_in_destination into a memref that "
        "dominates the op, as in embbag-aot's kernels); results in new "
        "device buffers are not supported yet");
  return std::nullopt;
}

/// Whether the row owners accumulate in f32 scratch rows rather than in
/// the result: an update steps the table after the walk; an f16 or bf16
/// gradient is rounded once, at the end.
static bool needsRowGrads(const TrainingOpView &view) {
  return view.isUpdate || view.sparse ||
         !getElementTypeOrSelf(view.table.getType()).isF32();
}

bool gpu_lowering::needsScratch(Operation *op) {
  // Every training op sorts its positions by owner in scratch memory.
  return viewTrainingOp(op).has_value();
}

bool gpu_lowering::allocatesResults(Operation *op) {
  std::optional<TrainingOpView> view = viewTrainingOp(op);
  return view && view->sparse;
}

/// Declares the runtime function `name` in `module` unless it is: called
/// through its C interface (a descriptor written by the callee).
static void declareRuntimeFunction(ModuleOp module, StringRef name,
                                   FunctionType type) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  f->setAttr("llvm.emit_c_interface", b.getUnitAttr());
}

void gpu_lowering::declareScratchFunction(ModuleOp module) {
  Builder b(module.getContext());
  auto bytes = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  declareRuntimeFunction(module, kScratchFunction,
                         b.getFunctionType({b.getIndexType()}, {bytes}));
}

void gpu_lowering::declareResultFunctions(ModuleOp module) {
  Builder b(module.getContext());
  auto bytes = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  declareRuntimeFunction(module, kAllocFunction,
                         b.getFunctionType({b.getIndexType()}, {bytes}));
  declareRuntimeFunction(
      module, kCountWordFunction,
      b.getFunctionType({}, {MemRefType::get({1}, b.getI64Type())}));
}

/// The blocks of a launch of one thread per item of `threads` items.
static Value blocksOf(ImplicitLocOpBuilder &b, Value threads) {
  return arith::CeilDivUIOp::create(b, threads, cst(b, kBlockSize));
}

namespace {

/// A result of a training op and the buffer its kernel writes.
struct ResultBuffer {
  Value result;
  bufferization::MaterializeInDestinationOp dest;
  Value buffer; // the kernel's view: [rows, row] or one dimension
};

/// The lowering of a training op into its launches.
class TrainingLowering {
public:
  explicit TrainingLowering(const ConvertEmbBagToGPUOptions &options)
      : options(options) {}

  void lower(ImplicitLocOpBuilder &b, RewriterBase &rewriter,
             const TrainingOpView &view) const {
    Operation *op = view.op;
    BagOpInterface forward = buildForwardOp(b, op);
    KernelChecks checks(b, op, kHostCheckVectorBits);
    if (options.checks) {
      (void)checks.evaluate(contract::getContract(forward));
      emitDestinationChecks(b, op, kHostCheckVectorBits);
    }
    TrainingKernel k;
    k.bags = buildBagKernel(b, forward, checks, options);
    rewriter.eraseOp(forward);
    k.dy = readBuffer(b, flattenTable(b, view.dy));
    SmallVector<ResultBuffer> results = buildResults(b, view, k);
    chooseOwners(b, k, options.trainingOwners);
    Value walkerBlocks = chooseRowWalkers(b, k);
    chooseBagChunks(b, k, options.trainingChunkPositions);
    k.positionsPerPiece = cst(b, options.trainingPiecePositions);
    if (view.isUpdate)
      setOptimizer(b, view, k);
    allocateScratch(b, view, k);
    bool checked = checks.hasKernelClauses();
    if (checked) {
      k.bags.flag = allocateFlag(b, options.hostLoops);
      if (k.bags.segmentIdsBit)
        flagIdsWithoutSegments(b, k.bags);
    }
    launch(b, k, walkerBlocks, checked);
    if (checked)
      reportFlags(
          b, op, checks, k.bags,
          memref::LoadOp::create(b, k.bags.flag, ValueRange{cst(b, 0)}));
    if (view.sparse)
      listTouchedRows(b, view, k, results);
    replaceResults(b, rewriter, view, k, results);
  }

private:
  /// The buffers of `view`'s results, set in `k`: a destination's, or a
  /// new tensor's.
  SmallVector<ResultBuffer> buildResults(ImplicitLocOpBuilder &b,
                                         const TrainingOpView &view,
                                         TrainingKernel &k) const {
    auto tableType = cast<MemRefType>(k.bags.table.getType());
    SmallVector<ResultBuffer> results;
    for (Value result : view.op->getResults()) {
      ResultBuffer r{result, findDestination(result, view.op), {}};
      // A sparse gradient's rows and gradient rows: once their count is
      // known (listTouchedRows).
      if (view.sparse && results.size() < 2) {
        r.dest = {};
        results.push_back(r);
        continue;
      }
      // The table-shaped results, then the weights gradient or the state.
      bool tableShaped = results.empty();
      Type element = getElementTypeOrSelf(result.getType());
      if (r.dest) {
        r.buffer = tableShaped ? collapseDestination(b, r.dest.getDest())
                               : flattenDestination(b, r.dest.getDest());
      } else if (tableShaped) {
        r.buffer = newBuffer(b, tableType.getShape(), element,
                             {k.bags.numEmb, k.bags.rowLength});
      } else {
        Value size = view.isUpdate ? k.bags.numEmb : k.bags.bounds.numIndices;
        r.buffer = newBuffer(b, {ShapedType::kDynamic}, element, {size});
      }
      results.push_back(r);
    }
    if (view.isUpdate) {
      k.updatedTable = results[0].buffer;
      if (view.state)
        k.updatedState = results[1].buffer;
    } else {
      k.tableGrad = results[0].buffer;
      k.sparse = view.sparse;
      if (view.weights)
        k.weightsGrad = results[view.sparse ? 2 : 1].buffer;
    }
    return results;
  }

  /// A new buffer of `shape` (its dynamic sizes among `sizes`): a
  /// memref.alloc, not the buffer of a tensor.empty, which CSE would merge
  /// with another op's (EmbBagToGPU.cpp, buildResultBuffer).
  static Value newBuffer(ImplicitLocOpBuilder &b, ArrayRef<int64_t> shape,
                         Type element, ArrayRef<Value> sizes) {
    SmallVector<Value> dynamic;
    for (auto [size, value] : llvm::zip(shape, sizes))
      if (ShapedType::isDynamic(size))
        dynamic.push_back(value);
    return memref::AllocOp::create(b, MemRefType::get(shape, element), dynamic);
  }

  /// Sets the groups' lanes per row and groups per block, and the sort's
  /// radix: a power of two of groups, a group per row up to `maxOwners` (a
  /// power of two), and at least a block's.
  static void chooseOwners(ImplicitLocOpBuilder &b, TrainingKernel &k,
                           int64_t maxOwners) {
    BagKernel &bags = k.bags;
    setLanes(b, bags, lanesFor(b, bags.rowLength));
    // The power of two covering the rows (a row's owner is then its low
    // bits), at most maxOwners.
    Value owners = cst(b, maxOwners);
    for (int64_t p = maxOwners / 2; p >= 1; p /= 2)
      owners = arith::SelectOp::create(
          b,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ule, bags.numEmb,
                                cst(b, p)),
          cst(b, p), owners);
    Value blocks = arith::CeilDivUIOp::create(b, owners, bags.bagsPerBlock);
    k.numOwners = arith::MulIOp::create(b, blocks, bags.bagsPerBlock);
  }

  /// Sets the lanes of a group (per row) and the groups of a block.
  static void setLanes(ImplicitLocOpBuilder &b, BagKernel &bags, Value lanes) {
    bags.lanesPerBag = lanes;
    bags.bagsPerBlock = arith::DivUIOp::create(b, cst(b, kBlockSize), lanes);
  }

  /// The kernel that steps row-wise Adagrad's rows: one lane per row, since
  /// the state's mean of squares sums the whole row and a lane reads the
  /// state it writes (lanes of one row would race on it in place); its
  /// blocks in `blocks`. The zero, pieces and runs kernels keep their
  /// groups of lanes: every lane of a group marks a row it adds to, so
  /// lane 0's touched bit tells the stepping lane.
  static TrainingKernel oneLaneStepper(ImplicitLocOpBuilder &b,
                                       const TrainingKernel &k, Value &blocks) {
    TrainingKernel stepper = k;
    setLanes(b, stepper.bags, cst(b, 1));
    blocks = chooseRowWalkers(b, stepper);
    return stepper;
  }

  /// Sets the groups that walk the table's rows (zero and finish them) and
  /// returns their blocks: a group per row, up to kMaxRowWalkerThreads
  /// threads, at least one block. The rows' walks are chains of dependent
  /// loads, so their length sets those kernels' time: with the sort's
  /// radix as their count (1024 groups), row-wise Adagrad's one-lane
  /// groups walked 4M rows in 108 ms on an H200.
  static Value chooseRowWalkers(ImplicitLocOpBuilder &b, TrainingKernel &k) {
    BagKernel &bags = k.bags;
    Value most = arith::DivUIOp::create(b, cst(b, kMaxRowWalkerThreads),
                                        bags.lanesPerBag);
    Value groups = arith::MaxUIOp::create(
        b, arith::MinUIOp::create(b, bags.numEmb, most), cst(b, 1));
    Value blocks = arith::CeilDivUIOp::create(b, groups, bags.bagsPerBlock);
    k.numRowWalkers = arith::MulIOp::create(b, blocks, bags.bagsPerBlock);
    return blocks;
  }

  /// Sets the chunks of bags of the owners' buckets: about `positions`
  /// positions each (by the average bag), at most kMaxBagChunks chunks.
  static void chooseBagChunks(ImplicitLocOpBuilder &b, TrainingKernel &k,
                              int64_t positions) {
    Value one = cst(b, 1);
    Value numBags = k.bags.bounds.numBags;
    Value bagLength = arith::CeilDivUIOp::create(
        b, arith::MaxUIOp::create(b, k.bags.bounds.numIndices, one),
        arith::MaxUIOp::create(b, numBags, one));
    Value perChunk = arith::MaxUIOp::create(
        b, arith::DivUIOp::create(b, cst(b, positions), bagLength),
        arith::CeilDivUIOp::create(b, numBags, cst(b, kMaxBagChunks)));
    k.bagsPerChunk = arith::MaxUIOp::create(b, perChunk, one);
    k.numBagChunks = arith::CeilDivUIOp::create(b, numBags, k.bagsPerChunk);
    // The later passes: as many chunks, of slots.
    k.slotsPerChunk = arith::CeilDivUIOp::create(
        b, k.bags.bounds.numIndices,
        arith::MaxUIOp::create(b, k.numBagChunks, one));
    k.digitShift = cst(b, 0);
  }

  /// The pieces of positionsPerPiece slots that cover the positions.
  static Value numPieces(ImplicitLocOpBuilder &b, const TrainingKernel &k) {
    return arith::CeilDivUIOp::create(b, k.bags.bounds.numIndices,
                                      k.positionsPerPiece);
  }

  /// The optimizer's operands in `k`, and whether the results are their
  /// operands' memory.
  static void setOptimizer(ImplicitLocOpBuilder &b, const TrainingOpView &view,
                           TrainingKernel &k) {
    auto toF32 = [&](Value v) -> Value {
      if (v.getType().getIntOrFloatBitWidth() > 32)
        return arith::TruncFOp::create(b, b.getF32Type(), v);
      if (!v.getType().isF32())
        return arith::ExtFOp::create(b, b.getF32Type(), v);
      return v;
    };
    auto same = [&](Value x, Value y) -> Value {
      return arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                   firstElementAddress(b, x),
                                   firstElementAddress(b, y));
    };
    k.learningRate = toF32(view.learningRate);
    k.tableInPlace = same(k.bags.table, k.updatedTable);
    if (!view.state)
      return;
    k.epsilon = toF32(view.epsilon);
    k.state = readBuffer(b, view.state);
    k.stateInPlace = same(k.state, k.updatedState);
  }

  /// The scratch memory of `k`'s kernels, one region after another, each
  /// 16-byte aligned: the runtime's on the GPU, a new buffer for host
  /// loops.
  void allocateScratch(ImplicitLocOpBuilder &b, const TrainingOpView &view,
                       TrainingKernel &k) const {
    Value rows = k.bags.numEmb, row = k.bags.rowLength;
    Value bags = k.bags.bounds.numBags, positions = k.bags.bounds.numIndices;
    Value chunksOfBags = k.numBagChunks;
    Value bytes = cst(b, 0);
    auto region = [&](ArrayRef<Value> sizes, int64_t elementBytes) {
      Value offset = bytes;
      Value size = cst(b, elementBytes);
      for (Value s : sizes)
        size = arith::MulIOp::create(b, size, s);
      Value end = arith::AddIOp::create(b, offset, size);
      bytes = arith::MulIOp::create(
          b, arith::CeilDivUIOp::create(b, end, cst(b, 16)), cst(b, 16));
      return offset;
    };
    Value rowGradsAt, touchedAt, winnersAt, countsAt, startsAt;
    if (needsRowGrads(view))
      rowGradsAt = region({rows, row}, 4);
    if (view.isUpdate || view.sparse)
      touchedAt = region({rows}, 4);
    if (view.reduction == Reduction::max)
      winnersAt = region({bags, row}, 8);
    Value bucketCountsAt = region({chunksOfBags, k.numOwners}, 8);
    Value ownerTotalsAt = region({k.numOwners}, 8);
    Value ownerBasesAt =
        region({arith::AddIOp::create(b, k.numOwners, cst(b, 1))}, 8);
    // Two sets of slots: a pass of the sort reads one and writes the other.
    SmallVector<Value, 6> slotsAt;
    for (int i = 0; i < 6; ++i)
      slotsAt.push_back(region({positions}, 8));
    Value partialsAt =
        region({arith::MulIOp::create(b, numPieces(b, k), cst(b, 2)), row}, 4);
    Value bagScalesAt;
    if (view.reduction == Reduction::mean || view.reduction == Reduction::sqrtn)
      bagScalesAt = region({bags}, 4);
    Value chunks, groups, groupCountsAt, groupStartsAt;
    if (view.sparse) {
      chunks = numRowChunks(b, rows);
      groups = numChunkGroups(b, rows);
      countsAt = region({chunks}, 8);
      startsAt = region({chunks}, 8);
      groupCountsAt = region({groups}, 8);
      groupStartsAt = region({groups}, 8);
    }
    auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    Value scratch =
        options.hostLoops
            ? memref::AllocOp::create(b, bytesType, ValueRange{bytes})
                  .getResult()
            : func::CallOp::create(b, kScratchFunction, TypeRange{bytesType},
                                   ValueRange{bytes})
                  .getResult(0);
    auto view2D = [&](Value at, Value size0, Value size1, Type element) {
      return memref::ViewOp::create(
          b,
          MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                          element),
          scratch, at, ValueRange{size0, size1});
    };
    if (rowGradsAt)
      k.rowGrads = view2D(rowGradsAt, rows, row, b.getF32Type());
    if (touchedAt)
      k.touched = memref::ViewOp::create(
          b, MemRefType::get({ShapedType::kDynamic}, b.getI32Type()), scratch,
          touchedAt, ValueRange{rows});
    if (winnersAt)
      k.winners = view2D(winnersAt, bags, row, b.getI64Type());
    auto view1D = [&](Value at, Value size, Type element) {
      return memref::ViewOp::create(
          b, MemRefType::get({ShapedType::kDynamic}, element), scratch, at,
          ValueRange{size});
    };
    Type i64 = b.getI64Type();
    k.bucketCounts = view2D(bucketCountsAt, chunksOfBags, k.numOwners, i64);
    k.ownerTotals = view1D(ownerTotalsAt, k.numOwners, i64);
    k.ownerBases = view1D(
        ownerBasesAt, arith::AddIOp::create(b, k.numOwners, cst(b, 1)), i64);
    k.slotPositions = view1D(slotsAt[0], positions, i64);
    k.slotBags = view1D(slotsAt[1], positions, i64);
    k.slotRows = view1D(slotsAt[2], positions, i64);
    k.sourcePositions = view1D(slotsAt[3], positions, i64);
    k.sourceBags = view1D(slotsAt[4], positions, i64);
    k.sourceRows = view1D(slotsAt[5], positions, i64);
    k.partials =
        view2D(partialsAt, arith::MulIOp::create(b, numPieces(b, k), cst(b, 2)),
               row, b.getF32Type());
    if (bagScalesAt)
      k.bagScales = view1D(bagScalesAt, bags, b.getF32Type());
    if (!view.sparse)
      return;
    k.chunkCounts = view1D(countsAt, chunks, i64);
    k.chunkStarts = view1D(startsAt, chunks, i64);
    k.groupCounts = view1D(groupCountsAt, groups, i64);
    k.groupStarts = view1D(groupStartsAt, groups, i64);
    auto wordType = MemRefType::get({1}, b.getI64Type());
    k.numUnique = options.hostLoops
                      ? memref::AllocaOp::create(b, wordType).getResult()
                      : func::CallOp::create(b, kCountWordFunction,
                                             TypeRange{wordType}, ValueRange{})
                            .getResult(0);
  }

  /// The launches, in stream order; the host waits for the last one when
  /// `checked` (it reads the flag word next).
  void launch(ImplicitLocOpBuilder &b, TrainingKernel &k, Value walkerBlocks,
              bool checked) const {
    auto blocksFor = [&](Value threads) { return blocksOf(b, threads); };
    // The blocks of `groups` groups of lanes (bagsPerBlock to a block).
    auto blocksForGroups = [&](Value groups) -> Value {
      return arith::CeilDivUIOp::create(b, groups, k.bags.bagsPerBlock);
    };
    // A sparse gradient's host reads the count of its rows next.
    bool hostWaits = checked || k.sparse;
    auto run = [&](const TrainingKernel &kernel, Value blocks, bool last,
                   auto thread) {
      // The host waits for the stream through the last launch, which must
      // then happen even with nothing to do (no positions, no table rows):
      // a launch of no blocks is skipped, and the host would read the flag
      // and count words while the kernels before it still run. Every
      // thread checks its range, so an extra block does nothing.
      if (last && hostWaits)
        blocks = arith::MaxUIOp::create(b, blocks, cst(b, 1));
      buildLaunch(
          b,
          [&](ImplicitLocOpBuilder &tb, Value block, Value id) {
            thread(tb, kernel, block, id);
          },
          blocks, options.hostLoops, last && hostWaits);
    };
    if (k.winners)
      run(k, blocksForGroups(k.bags.bounds.numBags), false, buildWinnersThread);
    Value chunkBlocks = blocksFor(k.numBagChunks);
    // The first pass reads the bags, the later ones the slots.
    auto firstOrLater = [&](Value first, const TrainingKernel &pass,
                            auto firstThread, auto laterThread) {
      auto ifOp = scf::IfOp::create(b, first, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenYield());
      run(pass, chunkBlocks, false, firstThread);
      b.setInsertionPoint(ifOp.elseYield());
      run(pass, chunkBlocks, false, laterThread);
    };
    sortByRow(b, k, [&](const TrainingKernel &pass, Value first) {
      firstOrLater(first, pass, buildCountBucketsThread, buildCountSlotsThread);
      run(pass, blocksFor(pass.numOwners), false, buildScanOwnersThread);
      run(pass, cst(b, 1), false, buildPlaceOwnersThread);
      firstOrLater(first, pass, buildFillBucketsThread, buildFillSlotsThread);
    });
    bool finishes = k.isUpdate() || (k.rowGrads && !k.sparse);
    bool lastSum = !finishes && !k.weightsGrad && !k.sparse;
    Value pieceBlocks = blocksForGroups(numPieces(b, k));
    run(k, walkerBlocks, false, buildZeroRowsThread);
    run(k, pieceBlocks, false, buildPiecesThread);
    run(k, pieceBlocks, lastSum, buildRunsThread);
    if (finishes && k.state) {
      Value stepperBlocks;
      TrainingKernel stepper = oneLaneStepper(b, k, stepperBlocks);
      run(stepper, stepperBlocks, !k.weightsGrad, buildFinishRowsThread);
    } else if (finishes) {
      run(k, walkerBlocks, !k.weightsGrad && !k.sparse, buildFinishRowsThread);
    }
    if (k.weightsGrad) {
      run(k, blocksFor(k.bags.bounds.numIndices), false,
          buildZeroWeightsGradThread);
      run(k, blocksFor(k.bags.bounds.numBags), !k.sparse,
          buildWeightsGradThread);
    }
    if (!k.sparse)
      return;
    Value groups = blocksFor(numChunkGroups(b, k.bags.numEmb));
    run(k, blocksFor(numRowChunks(b, k.bags.numEmb)), false,
        buildCountTouchedThread);
    run(k, groups, false, buildSumGroupsThread);
    run(k, cst(b, 1), false, buildRankGroupsThread);
    run(k, groups, true, buildRankChunksThread);
  }

  /// The sort's passes, one per digit of log2(numOwners) bits that a row
  /// of the table may have (at least one): a host loop whose body
  /// `launchPass` launches a pass's kernels, given whether it is the first
  /// (i1), which reads the bags; each later pass reads the slots the one
  /// before wrote. Leaves the last pass's slots in `k`.
  static void sortByRow(
      ImplicitLocOpBuilder &b, TrainingKernel &k,
      function_ref<void(const TrainingKernel &, Value first)> launchPass) {
    Type i64 = b.getI64Type();
    auto bitLength = [&](Value v) -> Value { // of an i64 v, 64 - ctlz(v)
      return arith::SubIOp::create(
          b, arith::ConstantOp::create(b, b.getI64IntegerAttr(64)),
          math::CountLeadingZerosOp::create(b, v));
    };
    Value one = arith::ConstantOp::create(b, b.getI64IntegerAttr(1));
    // numOwners is a power of two of at least 8 groups (a block's).
    Value digitBits = arith::SubIOp::create(
        b, bitLength(arith::IndexCastOp::create(b, i64, k.numOwners)), one);
    Value maxRow = arith::SubIOp::create(
        b, arith::IndexCastOp::create(b, i64, k.bags.numEmb), one);
    Value rowBits = arith::SelectOp::create(
        b,
        arith::CmpIOp::create(
            b, arith::CmpIPredicate::sle, maxRow,
            arith::ConstantOp::create(b, b.getI64IntegerAttr(0))),
        arith::ConstantOp::create(b, b.getI64IntegerAttr(0)),
        bitLength(maxRow));
    Value passes = arith::IndexCastOp::create(
        b, b.getIndexType(),
        arith::MaxUIOp::create(
            b, arith::CeilDivUIOp::create(b, rowBits, digitBits), one));
    Value shiftStep =
        arith::IndexCastOp::create(b, b.getIndexType(), digitBits);
    // The first pass writes k's slots, the second k's sources, and so on.
    auto loop = scf::ForOp::create(
        b, cst(b, 0), passes, cst(b, 1),
        ValueRange{k.sourcePositions, k.sourceBags, k.sourceRows,
                   k.slotPositions, k.slotBags, k.slotRows},
        [&](OpBuilder &nested, Location loc, Value, ValueRange slots) {
          // The slots written become the next pass's source.
          scf::YieldOp::create(nested, loc,
                               ValueRange{slots[3], slots[4], slots[5],
                                          slots[0], slots[1], slots[2]});
        });
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    ValueRange slots = loop.getRegionIterArgs();
    TrainingKernel pass = k;
    pass.sourcePositions = slots[0];
    pass.sourceBags = slots[1];
    pass.sourceRows = slots[2];
    pass.slotPositions = slots[3];
    pass.slotBags = slots[4];
    pass.slotRows = slots[5];
    pass.digitShift =
        arith::MulIOp::create(b, loop.getInductionVar(), shiftStep);
    launchPass(pass, arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                           loop.getInductionVar(), cst(b, 0)));
    k.slotPositions = loop.getResult(0);
    k.slotBags = loop.getResult(1);
    k.slotRows = loop.getResult(2);
  }

  /// A sparse gradient's results, once the kernels counted its rows: new
  /// buffers of that many rows (device memory the caller owns), filled by
  /// the list and copy kernels, in stream order.
  void listTouchedRows(ImplicitLocOpBuilder &b, const TrainingOpView &view,
                       TrainingKernel &k,
                       MutableArrayRef<ResultBuffer> results) const {
    Value count = arith::IndexCastOp::create(
        b, b.getIndexType(),
        memref::LoadOp::create(b, k.numUnique, ValueRange{cst(b, 0)}));
    Type rowType = getElementTypeOrSelf(results[0].result.getType());
    Type valueType = getElementTypeOrSelf(results[1].result.getType());
    constexpr int64_t dyn = ShapedType::kDynamic;
    int64_t row = cast<MemRefType>(k.bags.table.getType()).getDimSize(1);
    k.uniqueRows = newResultBuffer(b, {dyn}, rowType, {count});
    k.rowValues =
        newResultBuffer(b, {dyn, row}, valueType, {count, k.bags.rowLength});
    results[0].buffer = k.uniqueRows;
    results[1].buffer = k.rowValues;
    auto run = [&](Value blocks, auto thread) {
      buildLaunch(
          b,
          [&](ImplicitLocOpBuilder &tb, Value block, Value id) {
            thread(tb, k, block, id);
          },
          blocks, options.hostLoops, /*hostWaits=*/false);
    };
    run(blocksOf(b, numRowChunks(b, k.bags.numEmb)), buildListTouchedThread);
    run(arith::CeilDivUIOp::create(b, count, k.bags.bagsPerBlock),
        buildCopyRowValuesThread);
  }

  /// A new buffer of `shape` (its dynamic sizes among `sizes`) for a
  /// result: device memory from the runtime, which the caller frees, or a
  /// new buffer (newBuffer) with host loops.
  Value newResultBuffer(ImplicitLocOpBuilder &b, ArrayRef<int64_t> shape,
                        Type element, ArrayRef<Value> sizes) const {
    if (options.hostLoops)
      return newBuffer(b, shape, element, sizes);
    Value bytes = cst(b, element.getIntOrFloatBitWidth() / 8);
    for (Value size : sizes)
      bytes = arith::MulIOp::create(b, bytes, size);
    auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    Value memory = func::CallOp::create(b, kAllocFunction, TypeRange{bytesType},
                                        ValueRange{bytes})
                       .getResult(0);
    SmallVector<Value> dynamic;
    for (auto [size, value] : llvm::zip(shape, sizes))
      if (ShapedType::isDynamic(size))
        dynamic.push_back(value);
    return memref::ViewOp::create(b, MemRefType::get(shape, element), memory,
                                  cst(b, 0), dynamic);
  }

  /// Replaces the op's results by the buffers the kernels wrote; a
  /// destination's materialization goes with the op.
  static void replaceResults(ImplicitLocOpBuilder &b, RewriterBase &rewriter,
                             const TrainingOpView &view,
                             const TrainingKernel &k,
                             ArrayRef<ResultBuffer> results) {
    for (auto [i, r] : llvm::enumerate(results)) {
      if (r.dest) {
        rewriter.eraseOp(r.dest);
        continue;
      }
      auto bufferType = cast<MemRefType>(r.buffer.getType());
      Value flat = bufferization::ToTensorOp::create(
          b,
          RankedTensorType::get(bufferType.getShape(),
                                bufferType.getElementType()),
          r.buffer, b.getUnitAttr(), b.getUnitAttr());
      auto type = cast<RankedTensorType>(r.result.getType());
      Value value;
      if (view.sparse && i == 0)
        value = tensor::CastOp::create(b, type, flat);
      else if (view.sparse && i == 1)
        value = unflattenResult(b, flat, type, view.table,
                                memref::DimOp::create(b, r.buffer, 0));
      else if (i == 0)
        value = unflattenResult(b, flat, type, view.table, k.bags.numEmb);
      else if (view.isUpdate)
        value = tensor::CastOp::create(b, type, flat);
      else
        value = unflattenWeights(b, flat, view.weights);
      rewriter.replaceAllUsesWith(r.result, value);
    }
    rewriter.eraseOp(view.op);
  }

  ConvertEmbBagToGPUOptions options;
};

/// Lowers the training ops this lowering takes.
struct TrainingOpToGPU : public RewritePattern {
  TrainingOpToGPU(MLIRContext *ctx, const ConvertEmbBagToGPUOptions &options)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        options(options) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    std::optional<TrainingOpView> view = viewTrainingOp(op);
    if (!view)
      return failure();
    if (std::optional<StringRef> reason =
            getTrainingUnsupportedReason(op, options.hostLoops))
      return rewriter.notifyMatchFailure(op, *reason);
    ImplicitLocOpBuilder b(op->getLoc(), rewriter);
    TrainingLowering(options).lower(b, rewriter, *view);
    return success();
  }

private:
  ConvertEmbBagToGPUOptions options;
};

} // namespace

void gpu_lowering::populateTrainingOpToGPUPatterns(
    RewritePatternSet &patterns, const ConvertEmbBagToGPUOptions &options) {
  patterns.add<TrainingOpToGPU>(patterns.getContext(), options);
}
