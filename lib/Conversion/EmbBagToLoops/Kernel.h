//===- Kernel.h - The embbag loop kernel, private to EmbBagToLoops -*- C++
//-*-===//
//
// Every embbag op is brought to one normal form (`BagProblem`): a list of bags
// over a 2-D table [num_emb, row] and a 1-D index list. One kernel lowers it:
// for each bag, for each chunk of the row, one pass over the bag's indices
// accumulating the chunk in vector iter_args, one store per chunk. The
// decisions are taken in one file each:
//
//   NormalForms.cpp, SegmentsNormalForm.cpp   op -> BagProblem (+ checks)
//   KernelShape.cpp      vector length, register budget
//   Prefetch.cpp         whether and how far ahead to prefetch, and the
//                        prefetches of a row
//   RowChunk.cpp         one pass over a bag for a chunk of the row
//   RowPlan.cpp          the passes of a row whose vector count is known at
//                        compile time; the bag loop around them
//   RowLengthDispatch.cpp   a row length known only at run time: one version
//                        of the bag loop per number of vectors, picked by
//                        scf.index_switch, and a chunked loop for long rows
//                        (the versions of an op's own kernel)
//   QuantizedRow.cpp     reading a row of a row-wise quantized table as
//                        dequantized f32 vectors
//   SharedKernels.cpp    in a module, the row-length versions built once
//                        per kind of kernel as functions the ops call
//   TableBatching.cpp    `batch-tables`: the independent ops of a block in
//                        one parallel loop over chunks of their indices
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_KERNEL_H
#define EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_KERNEL_H

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagToLoops/EmbBagToLoops.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"

#include <functional>
#include <memory>

namespace mlir::scf {
class ForallOp;
} // namespace mlir::scf

namespace mlir::embbag::loops {

//===----------------------------------------------------------------------===//
// The normal form
//===----------------------------------------------------------------------===//

/// The range [start, end) of bag `bag` in the index list
/// (BagOpInterface's bounds).
using BagRanges = BagBounds::RangeFn;

/// What the bag loop of a parallel kernel checks of each bag it reads
/// (RuntimeChecks::inKernel): the bits it sets in the flag word, and the
/// values it compares with.
struct BagChecks {
  int32_t offsetsBit = 0, indicesBit = 0; // 0: not checked
  Value numIndices;                       // index: the length of the index list
  Value numEmb; // index: the bound of the indices, with indicesBit
  unsigned vectorBits = 256;
};

/// The normal form of a bag op.
struct BagProblem {
  Operation *op = nullptr;
  Value table;        // tensor<num_emb x row x T>, T as the op has it; a
                      // quantized table: tensor<num_emb x row_bytes x ui8>
  Value indices;      // tensor<num_indices x T_IND>
  Value weights;      // tensor<num_indices x T>, or null
  Value defaultIndex; // index, or null; -1 means none
  // index, or null: the passes skip the indices equal to it (-1: none can
  // be, after the checks). Null keeps the kernel exactly as without it.
  Value paddingIdx;
  Value numBags;      // index
  BagRanges ranges;
  Reduction reduction = Reduction::sum;
  bool isUnsigned = false;
  // The element type of the values the bags reduce and of the result: the
  // table's, or for a quantized table the result's (f32 or f16).
  Type valueType;
  // A row-wise quantized table: the bits per code (8, 4 or 2); 0 for a
  // table of values. The row length is then the result's dimension 1.
  unsigned rowwiseBits = 0;

  // The flag word (memref<1xi32>) of the checks the bag loop makes on each
  // bag it reads (RuntimeChecks::inKernel), or null. With it, `ranges` are
  // `uncheckedRanges` checked by `bagChecks` (checkedRanges).
  Value checkFlag;
  BagRanges uncheckedRanges;
  BagChecks bagChecks;

  // The bags' ranges as the op has them, before any check.
  const BagRanges &getUncheckedRanges() const {
    return checkFlag ? uncheckedRanges : ranges;
  }

  bool isMean() const { return reduction == Reduction::mean; }
  // The element-wise maximum instead of the sum.
  bool isMax() const { return reduction == Reduction::max; }
  // The sum divided by the square root of the count.
  bool isSqrtn() const { return reduction == Reduction::sqrtn; }
};

/// Whether to emit the runtime checks of an op's contract, and the width of
/// the vectors they compare with (the kernel's).
struct RuntimeChecks {
  bool enabled = true;
  unsigned vectorBits = 256;
  // With `enabled`, a parallel kernel's evaluator: the rules on the offsets
  // and indices are checked by each thread on the bags it reads, into a
  // flag word, and reported from it after the kernel; null: every rule is
  // checked before the kernel.
  lowering::FlagWordChecks *inKernel = nullptr;
};

/// NormalForms.cpp: `ranges` checked by `checks` into the flag word `flag`
/// (of `indices`): a bag that breaks the offsets' rule, or holds an index
/// outside the table, is flagged and read as empty, so that a broken
/// contract reads nothing out of bounds before the stop after the kernel.
BagRanges checkedRanges(BagRanges ranges, const BagChecks &checks, Value flag,
                        Value indices);

/// Builds the normal form of `op` (after the table was flattened into
/// `p.table`), emitting the runtime checks of its contract when
/// `checks.enabled`: the bags of the packed and offsets forms are
/// BagOpInterface's bounds (NormalForms.cpp); segments are sorted into
/// bounds first (SegmentsNormalForm.cpp).
LogicalResult normalizeBags(ImplicitLocOpBuilder &b, BagOpInterface op,
                            const RuntimeChecks &checks, BagProblem &p);
LogicalResult normalizeSegments(ImplicitLocOpBuilder &b, BagOpInterface op,
                                const RuntimeChecks &checks, BagProblem &p);

//===----------------------------------------------------------------------===//
// The shape of the kernel (KernelShape.cpp)
//===----------------------------------------------------------------------===//

/// The vectorisation choices for one op.
struct KernelShape {
  int64_t lanes = 1;     // elements per vector
  int64_t rowLength = 0; // the flattened row, or ShapedType::kDynamic
  // Accumulator vectors per pass over a bag: a static row's passes, and for
  // a dynamic row the longest row that gets its own version, without and
  // with a masked last vector.
  int64_t maxVectors = 1;
  int64_t maxMaskedVectors = 1;
  bool maskRegisters = false; // the target masks loads in mask registers
  TargetModel target;         // the machine: caches, prefetch thresholds
  int prefetchDistance = -1;  // the option: -1 from the data, 0 off
  int prefetchLocality = -1;  // the option: -1 from the data
  unsigned unroll = 1;        // of the loop over a bag's indices
  bool parallel = false;
  // With `parallel`: the work of one iteration of the parallel loop, in
  // cache lines of rows (option batch-chunk).
  unsigned chunkLines = 1;
};

/// Picks the vector length and the register blocking of an op whose
/// (unflattened) table is `tableType`.
KernelShape chooseShape(RankedTensorType tableType, bool weighted,
                        const ConvertEmbBagToLoopsOptions &options,
                        const TargetModel &target);

//===----------------------------------------------------------------------===//
// The kernel's state
//===----------------------------------------------------------------------===//

/// Values and types every part of the kernel reads.
struct KernelContext {
  KernelContext(const BagProblem &p, const KernelShape &shape);
  /// `planned`'s context (shape, types and planned values) for `p`, a
  /// problem over the same table and indices (a range of its bags).
  KernelContext(const KernelContext &planned, const BagProblem &p);

  const BagProblem &p;
  KernelShape shape;
  Type storageType, accType; // accType: f32 for f16/bf16, signless ints
  VectorType vecStorageType, vecAccType, maskType;
  bool widensFloat;
  Value row; // the flattened row length (index)
  // With prefetch: the table as a buffer, the last position in the index
  // list, whether the table's rows start on cache lines (i1), and how many
  // indices ahead to prefetch (index). Null without prefetch.
  Value tableBuffer, lastPosition, rowsOnLines, prefetchDistance;
  Value indicesBuffer; // the index list as a buffer, with prefetch
  int prefetchLocality = 3; // memref.prefetch's hint for the rows
  // Whether to prefetch (i1) when only the run time knows; null otherwise.
  Value prefetchEnabled;
  // Whether to prefetch the rows into L1 (locality 3) rather than with
  // `prefetchLocality` (i1), when only the run time knows; null otherwise.
  Value prefetchIntoL1;
  // A quantized table: the byte column of each row's scale (index).
  Value scaleColumn;
  // The result's column of the table's column 0 (index), when the table is
  // a block of a longer row's columns (a shared version); null: 0.
  Value outColumn;
  // The first bag of the bag loop, which ends at `p.numBags` (index): a
  // shared version runs on a group of bags; null: 0.
  Value firstBag;
};

/// One bag of the bag loop, and where its result row goes.
struct BagRef {
  Value bag, start, end, count;
  Value outRow; // the row of the result tensor the bag writes
};

/// One pass over a bag: the vectors of the row chunk it accumulates and the
/// columns of the row ahead it prefetches.
struct ChunkSpec {
  ChunkSpec(Value col, SmallVector<Value> masks)
      : col(col), masks(std::move(masks)) {}

  Value col;                // the chunk's first column
  SmallVector<Value> masks; // one per vector; null: a whole vector
  // The columns prefetched `prefetchDistance` indices ahead; with
  // `onLinesColumns` set too, a second loop prefetching those is taken
  // when the table's rows start on cache lines.
  SmallVector<Value> prefetchColumns;
  std::optional<SmallVector<Value>> onLinesColumns;
};

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

/// Prefetch.cpp: sets the prefetch state of `k` from the option and the
/// table's size: no prefetch for a table the caches hold, 16 rows ahead for
/// one the last-level cache holds, about 16 KiB of rows in flight
/// otherwise; at compile time when the sizes are static, else with
/// `prefetchEnabled` and a distance computed once per call.
void planPrefetch(ImplicitLocOpBuilder &b, KernelContext &k);

/// Prefetch.cpp: the columns to prefetch for a chunk at `col` whose first
/// `inRow` elements lie in the row; `lastColumn` (or, when null, the chunk's
/// element `inRow - 1`) is prefetched too unless `onLines`.
SmallVector<Value> prefetchColumns(ImplicitLocOpBuilder &b,
                                   const KernelContext &k, Value col,
                                   int64_t inRow, Value lastColumn,
                                   bool onLines);

/// Prefetch.cpp: prefetches `columns` of the row of the index
/// `prefetchDistance` positions after `j` in the index list (clamped to the
/// last one).
void prefetchAhead(ImplicitLocOpBuilder &b, const KernelContext &k, Value j,
                   ArrayRef<Value> columns);

/// Prefetch.cpp: prefetches `table[rowIndex, column]` into L1 right before
/// the row is read (a pass that prefetches ahead): the row's first access
/// is then its last line, not its first (RowChunk.cpp, lastVectorFirst).
void touchRow(ImplicitLocOpBuilder &b, const KernelContext &k, Value rowIndex,
              Value column);

/// RowChunk.cpp: one pass over `bag` for `chunk`, then the empty-bag default,
/// the mean and the stores into `out`; returns the updated `out`.
Value buildChunk(ImplicitLocOpBuilder &b, const KernelContext &k,
                 const BagRef &bag, const ChunkSpec &chunk, Value out);

/// Builds the passes of one bag into `out`, returning the updated `out`.
using RowBuilder =
    std::function<Value(ImplicitLocOpBuilder &b, const BagRef &bag, Value out)>;

/// Chunks of work of at least `shape.chunkLines` cache lines of table rows
/// each, an index or a bag counting its row's lines: `budget` indices and
/// bags per chunk, and the `count` of whole chunks in `p`'s work (0 without
/// bags). `rowLines` is that weight (at least 1), `lines` the whole work in
/// lines (0 without bags).
struct WorkChunks {
  Value budget, count; // index
  Value rowLines, lines;
};

/// RowPlan.cpp: `p`'s chunks of work (the parallel loops' iterations).
WorkChunks planWorkChunks(ImplicitLocOpBuilder &b, const BagProblem &p,
                          const KernelShape &shape);

/// RowPlan.cpp: an scf.forall over `numChunks` chunks of work with shared
/// outputs `inits`, marked `embbag.work_chunks`: its chunks cost unevenly
/// (rows from different caches, bags of different lengths), so
/// --convert-embbag-work-chunks-to-openmp gives it a balancing schedule.
scf::ForallOp createChunkLoop(ImplicitLocOpBuilder &b, Value numChunks,
                              ValueRange inits);

/// RowPlan.cpp: the number of chunks of a parallel loop whose work holds
/// `wanted` whole chunks (index): the greatest power of two at most
/// max(wanted, 1), so that a team of 2, 4, 8 or 16 threads gets as many
/// chunks per thread and a thread is woken for at least a chunk's work;
/// and at most `limit`.
Value roundChunkCount(ImplicitLocOpBuilder &b, Value wanted, Value limit);

/// RowPlan.cpp: where chunk `chunk` of `numChunks` equal chunks of `total`
/// (bags, or lines of work) starts: chunk * total / numChunks, without
/// overflowing.
Value chunkStart(ImplicitLocOpBuilder &b, Value chunk, Value total,
                 Value numChunks);

/// RowPlan.cpp: the loop over all bags, each bag's row built by `buildRow`,
/// into `init` ([num_bags, row]): sequential, or with `parallel` an
/// scf.forall over chunks of consecutive bags (planWorkChunks).
Value buildBagLoop(ImplicitLocOpBuilder &b, const KernelContext &k, Value init,
                   const RowBuilder &buildRow);

/// RowPlan.cpp: the passes over a bag of a row of exactly `rowLength`
/// elements (known at compile time): full chunks of `k.shape.maxVectors`
/// vectors and a thinner last one; the first pass prefetches the whole row.
/// The row's elements start at column `firstCol` (null: 0) of the table.
Value buildStaticRow(ImplicitLocOpBuilder &b, const KernelContext &k,
                     const BagRef &bag, Value out, int64_t rowLength,
                     Value firstCol = {});

/// RowPlan.cpp: one pass of `numVectors` vectors at `col`, the last one
/// masked to `end` (null: the row's end `k.row`), for a chunk whose last
/// vector holds at least one column before `end`; prefetches the chunk when
/// `prefetch`.
Value buildMaskedChunk(ImplicitLocOpBuilder &b, const KernelContext &k,
                       const BagRef &bag, Value out, Value col,
                       int64_t numVectors, bool prefetch, Value end = {});

/// RowLengthDispatch.cpp: the whole kernel for a row length known only at
/// run time.
Value buildDispatchedKernel(ImplicitLocOpBuilder &b, const KernelContext &k,
                            Value init);

/// One version of a dynamic row: the passes over a bag for a block of
/// `vectors` vectors, the last one masked when `masked`; `key` is its case
/// of the dispatch.
struct RowVersion {
  int64_t key;
  int64_t vectors;
  bool masked;
};

/// RowLengthDispatch.cpp: the versions `shape` asks for, in key order.
SmallVector<RowVersion> listRowVersions(const KernelShape &shape);

/// RowLengthDispatch.cpp: the key of a block of `width` columns: without
/// mask registers 2 * (width / lanes) + (width % lanes != 0), with them the
/// number of vectors.
Value rowKey(ImplicitLocOpBuilder &b, const KernelShape &shape, Value width);

/// RowLengthDispatch.cpp: `version` for the columns [col, end) of one bag's
/// row (null `col`: 0, null `end`: the row's end).
Value buildRowVersion(ImplicitLocOpBuilder &b, const KernelContext &k,
                      const BagRef &bag, Value out, const RowVersion &version,
                      Value col, Value end);

//===----------------------------------------------------------------------===//
// Row-wise quantized tables (QuantizedRow.cpp)
//===----------------------------------------------------------------------===//

/// The row length (index) of a quantized table's op, from its result type
/// (or for 8-bit codes the row's bytes - 8), and sets `k.scaleColumn`.
Value planQuantizedRow(ImplicitLocOpBuilder &b, KernelContext &k);

/// The scale and bias of row `rowIndex`, as f32 scalars.
std::pair<Value, Value> readScaleAndBias(ImplicitLocOpBuilder &b,
                                         const KernelContext &k,
                                         Value rowIndex);

/// The codes of the row's vectors at `cols` (consecutive: each `lanes`
/// after the previous) as f32 vectors; a vector with a mask (one that ends
/// the row) reads only the codes up to the row's end.
SmallVector<Value> readQuantizedCodes(ImplicitLocOpBuilder &b,
                                      const KernelContext &k, Value rowIndex,
                                      ArrayRef<Value> cols,
                                      ArrayRef<Value> masks);

/// `code * scale + bias` for the row's vectors at `cols`, read as
/// readQuantizedCodes does.
SmallVector<Value> readQuantizedRow(ImplicitLocOpBuilder &b,
                                    const KernelContext &k, Value rowIndex,
                                    Value scale, Value bias,
                                    ArrayRef<Value> cols,
                                    ArrayRef<Value> masks);

/// The byte columns holding the elements `columns` of a quantized row.
SmallVector<Value> toByteColumns(ImplicitLocOpBuilder &b,
                                 const KernelContext &k,
                                 ArrayRef<Value> columns);

//===----------------------------------------------------------------------===//
// Row-length versions shared by the ops of a module (SharedKernels.cpp)
//===----------------------------------------------------------------------===//

/// The row-length versions of a module's ops of dynamic row length, built
/// once per kind of kernel as private functions of the module (a dispatcher
/// and one function per version) that every op of the kind calls.
class SharedKernels {
public:
  /// The versions of a kind, each with its function.
  using VersionSet = SmallVector<std::pair<RowVersion, Operation *>>;

  /// Functions go into `symbolTableOp` (a module), which the pass must own.
  explicit SharedKernels(Operation *symbolTableOp) : symbols(symbolTableOp) {}

  /// The kernel's [num_bags, row] result as a call of its kind's
  /// dispatcher, built first if the module has none; failure, with nothing
  /// built, when the op's kernel cannot be shared (it is then built inline).
  FailureOr<Value> call(ImplicitLocOpBuilder &b, const KernelContext &k);

private:
  /// The versions and the dispatcher of `k`'s kind, whose operands (before
  /// the result) are of `operandTypes`; returns the dispatcher.
  Operation *buildKind(Location loc, const KernelContext &k,
                       TypeRange operandTypes, Type resultType);

  SymbolTable symbols;
  llvm::StringMap<Operation *> dispatchers; // by kind
};

/// RowPlan.cpp: the empty [num_bags, row] tensor the kernel writes.
Value buildEmptyResult(ImplicitLocOpBuilder &b, const KernelContext &k);

/// RowPlan.cpp: the rows of all of `k`'s bags written into `init`
/// ([num_bags, row]), the row planned (`k.row`, the prefetch): the bag loop
/// of a static row, or the versions of a dynamic one.
Value buildBagRows(ImplicitLocOpBuilder &b, const KernelContext &k, Value init);

/// RowPlan.cpp: the [num_bags, row] result of problem `p` with `shape`; a
/// dynamic row's versions are `shared`'s functions when it is given and the
/// op's kernel can be shared.
Value buildKernel(ImplicitLocOpBuilder &b, const BagProblem &p,
                  const KernelShape &shape, SharedKernels *shared = nullptr);

//===----------------------------------------------------------------------===//
// One op, before and after its kernel (EmbBagToLoops.cpp)
//===----------------------------------------------------------------------===//

/// An op brought to its normal form, with the checks that precede its
/// kernel emitted, and the shape of its kernel.
struct PreparedBagOp {
  BagProblem p;
  KernelShape shape;
  // The checks its bag loop makes (a parallel kernel with checks), reported
  // after the kernel by finishBagOp; null otherwise.
  std::unique_ptr<lowering::FlagWordChecks> inKernel;
};

/// The shape of `op`'s kernel, or failure (with an error at the op) when
/// the options cannot lower it.
FailureOr<KernelShape> chooseOpShape(BagOpInterface op,
                                     const ConvertEmbBagToLoopsOptions &options,
                                     const TargetModel &target);

/// Emits at `b` what precedes `op`'s kernel (its table flattened, its
/// normal form, its checks) into `prepared`.
LogicalResult prepareBagOp(ImplicitLocOpBuilder &b, BagOpInterface op,
                           const ConvertEmbBagToLoopsOptions &options,
                           const TargetModel &target, PreparedBagOp &prepared);

/// What follows the kernel's [num_bags, row] `result`: the checks of its
/// bag loop reported, the result in the op's shape (which is returned).
Value finishBagOp(ImplicitLocOpBuilder &b, const PreparedBagOp &prepared,
                  Value result);

/// TableBatching.cpp: with `batch-tables`, lowers each group of two or more
/// independent bag ops of a block of `root` as one scf.forall over chunks
/// of their indices (the ops are replaced); the other ops are left for the
/// patterns.
LogicalResult batchTables(Operation *root,
                          const ConvertEmbBagToLoopsOptions &options,
                          const TargetModel &target);

/// EmbBagToLoops.cpp: the patterns of the pass, sharing the kernels of
/// dynamic rows through `shared` when it is given.
void populateBagOpPatterns(RewritePatternSet &patterns,
                           const ConvertEmbBagToLoopsOptions &options,
                           const TargetModel &target, SharedKernels *shared);

} // namespace mlir::embbag::loops

#endif // EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_KERNEL_H
