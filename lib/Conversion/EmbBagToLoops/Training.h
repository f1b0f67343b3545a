//===- Training.h - The training kernels, private to EmbBagToLoops -*- C++ -*-//
//
// The gradients (`embbag.*_grad`) and fused updates (`embbag.*_update`) of
// issue 22 share one normal form (`TrainProblem`) and one kernel shape
// (docs/Kernel.md, "Training kernels"):
//
//   TrainingNormalForm.cpp   op -> TrainProblem: the contract checks (of
//                            the forward op, reported as the training op),
//                            each position's bag, the bags' scales, max's
//                            winning positions
//   TrainingGrouping.cpp     the positions grouped by table row: a stable
//                            counting sort for tables of few rows per
//                            position, else a stable radix sort
//   TrainingKernels.cpp      one loop over the unique rows, each
//                            accumulating its gradient in index order:
//                            the dense or sparse gradient, the weights'
//                            gradient, sgd and row-wise Adagrad; the
//                            sequential dense gradient's scatter-add
//   TrainingPatterns.cpp     the patterns
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_TRAINING_H
#define EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_TRAINING_H

#include "ScratchArena.h"

#include "embbag/Conversion/EmbBagToLoops/EmbBagToLoops.h"
#include "embbag/Conversion/EmbBagToLoops/TargetModel.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::embbag::loops {

/// The normal form of a training op: positions over a 2-D table.
struct TrainProblem {
  Operation *op = nullptr; // the training op
  Reduction reduction = Reduction::sum;
  Value table;   // tensor<num_emb x row x T>, flattened
  Value dy;      // tensor<num_bags x row x T>, flattened
  Value indices; // tensor<n x T_IND>, flattened
  Value weights; // tensor<n x T>, flattened, or null
  // tensor<n x index>: the bag that reads position j; -1 when none does
  // (before offsets[0], after the last offset) or when it is padding. For
  // the kernels that visit positions out of index order (grouped by row);
  // the loops in index order walk the bags instead (buildReadPositionLoop),
  // so a kernel made of those only never materializes it.
  Value bagOf;
  // How buildReadPositionLoop finds the bags: their ranges (packed,
  // offsets), or the segment ids (tensor<n x T_IND>, segments).
  std::optional<BagBounds> bagRanges;
  Value segmentIds;
  Value paddingIdx; // index, or null
  // tensor<num_bags x acc>: what a bag multiplies each row by apart from
  // its weight (1 / count for mean, 1 / sqrt(count or sum w^2) for sqrtn);
  // null for sum and max.
  Value scale;
  // tensor<num_bags x row x i64>: for max, the position whose row gave
  // each element's maximum (the first on ties), -1 for an empty bag.
  Value argmax;
  Value numEmb, row, numBags, numPositions; // index
  Type storageType, accType;                // accType: f32 for f16/bf16
  // Where the kernel's scratch tensors come from (not its results).
  ScratchArena *scratch = nullptr;
  int64_t lanes = 8;     // accumulator elements per vector
  bool parallel = false; // the loop over unique rows as scf.forall
  // How many unique rows ahead the row loop prefetches the rows it
  // updates; 0: no prefetch (a table the caches hold).
  int64_t prefetchRows = 0;
  // The target's last-level cache (TargetModel): a `parallel` dense
  // gradient that fits it is the sequential scatter-add.
  int64_t lastLevelCacheBytes = 0;

  bool isMax() const { return reduction == Reduction::max; }
  /// Whether a position's share needs the position itself (its weight, or
  /// max's winners), not only its bag.
  bool sharesNeedPositions() const { return weights || isMax(); }
  bool isSqrtn() const { return reduction == Reduction::sqrtn; }
};

/// TrainingKernels.cpp: `v` (a float scalar or vector) converted to the
/// element type `type` (extended or truncated).
Value convertFloat(ImplicitLocOpBuilder &b, Value v, Type type);

/// TrainingKernels.cpp: a 1-D tensor of `size` elements, all `value`.
Value splat1D(ImplicitLocOpBuilder &b, Value value, Value size);

/// TrainingKernels.cpp: the mask of the vector at column `col` of a row
/// of `p.row` elements (all lanes but past the row's end).
Value chunkMask(ImplicitLocOpBuilder &b, const TrainProblem &p, Value col);

/// TrainingKernels.cpp: `tensor[row, col : col + lanes]` of a 2-D float
/// tensor, masked by `mask` (masked lanes 0), as an accumulator vector.
Value readAccVector(ImplicitLocOpBuilder &b, const TrainProblem &p,
                    Value tensor, Value row, Value col, Value mask);

/// TrainingKernels.cpp: the loop over the vectors of a row: `body` gets
/// the column and mask of each and the iter_args, and returns their next
/// values.
using ChunkBody = function_ref<SmallVector<Value>(
    ImplicitLocOpBuilder &b, Value col, Value mask, ValueRange iterArgs)>;
SmallVector<Value> forEachChunk(ImplicitLocOpBuilder &b, const TrainProblem &p,
                                ValueRange inits, ChunkBody body);

/// TrainingKernels.cpp: a pass over a block of a row's vectors: `body`
/// gets the block's first column, one mask per vector (null: a whole
/// vector) and the iter_args, and returns their next values.
using PassBody = function_ref<SmallVector<Value>(
    ImplicitLocOpBuilder &b, Value col, ArrayRef<Value> masks,
    ValueRange iterArgs)>;

/// TrainingNormalForm.cpp: the normal form of the training op `op`, whose
/// forward op (same operands and clauses, result of `dy`'s type) is
/// `forward`; emits the forward op's contract checks, reported as `op`'s,
/// when `checks` holds. Its scratch tensors come from `scratch`.
TrainProblem normalizeTraining(ImplicitLocOpBuilder &b, Operation *op,
                               BagOpInterface forward, Value dy,
                               ScratchArena &scratch, bool checks,
                               unsigned vectorBits, bool parallel);

/// The table rows the positions touch, and the positions grouped by row.
struct RowGroups {
  // tensor<m x index>: the read positions grouped by row, ascending rows,
  // each row's positions in index order; when the shares need no position
  // (!sharesNeedPositions()), their bags instead: the row loop then reads
  // each bag in order rather than through a position (one dependent,
  // scattered load less per position).
  Value perm;
  // tensor<n + 2 x index>: the positions of the u-th unique row are
  // perm[starts[u] : starts[u + 1]], for u < numUnique.
  Value starts;
  Value uniqueRows; // tensor<n + 1 x T_IND>: the first numUnique sorted rows
  Value numUnique;  // index
};

/// TrainingGrouping.cpp: groups `p`'s positions by the row they read.
/// `uniqueRowsEscape`: the unique rows are part of a result (a sparse
/// gradient's), so they are not scratch.
RowGroups groupByRow(ImplicitLocOpBuilder &b, const TrainProblem &p,
                     bool uniqueRowsEscape);

/// TrainingKernels.cpp: the table gradient, dense ([num_emb, row]) or with
/// `sparse` the unique rows and their gradient rows ([numUnique, row]). A
/// dense gradient is accumulated into `denseInit` (zeros) when given.
SmallVector<Value> buildTableGrad(ImplicitLocOpBuilder &b,
                                  const TrainProblem &p, const RowGroups &g,
                                  bool sparse, Value denseInit = nullptr);

/// TrainingNormalForm.cpp: an scf.if on `cond` whose then branch yields
/// `then`'s values and whose else branch yields `otherwise` unchanged.
ValueRange
ifThenElseKeep(ImplicitLocOpBuilder &b, Value cond, ValueRange otherwise,
               function_ref<SmallVector<Value>(ImplicitLocOpBuilder &)> then);

/// TrainingNormalForm.cpp: `then`'s values, unless position `j` is
/// padding, when `iter` is kept.
SmallVector<Value>
skipPadding(ImplicitLocOpBuilder &b, const TrainProblem &p, Value j,
            ValueRange iter,
            function_ref<SmallVector<Value>(ImplicitLocOpBuilder &)> then);

/// A loop over the positions in index order carrying `inits`: for each
/// position a bag reads (not padding), `body` gives the new values; a
/// position no bag reads leaves them as they are. Contiguous bags are
/// walked bag by bag (the positions before the first bag and after the
/// last are never visited), segments position by position.
/// `everyPosition`, when given, runs first at every position visited,
/// padding included.
ValueRange buildReadPositionLoop(
    ImplicitLocOpBuilder &b, const TrainProblem &p, ValueRange inits,
    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value j, Value bag,
                                    ValueRange iter)>
        body,
    function_ref<void(ImplicitLocOpBuilder &, Value j)> everyPosition =
        nullptr);

/// TrainingKernels.cpp: the dense table gradient ([num_emb, row]). A
/// sequential kernel of a table whose elements are the accumulator type
/// (f32, f64) scatter-adds each read position's share into zeros in index
/// order, the grouped kernel's order per row (the same bits as with
/// `parallel`); so does a `parallel` one when the zero fill dominates
/// (short rows, 8 table rows per position or more); any other groups the
/// positions by row (buildTableGrad).
Value buildDenseGrad(ImplicitLocOpBuilder &b, const TrainProblem &p);

/// TrainingKernels.cpp: the weights' gradient (tensor<n x T>).
Value buildWeightsGrad(ImplicitLocOpBuilder &b, const TrainProblem &p);

/// TrainingKernels.cpp: the flattened table after one sgd step (`epsilon`
/// and `state` null) or row-wise Adagrad step, written into `p.table`
/// (destination style), then the state after it.
SmallVector<Value> buildUpdate(ImplicitLocOpBuilder &b, const TrainProblem &p,
                               const RowGroups &g, Value learningRate,
                               Value epsilon, Value state);

/// TrainingPatterns.cpp: the patterns of the six training ops.
void populateTrainingOpPatterns(RewritePatternSet &patterns,
                                const ConvertEmbBagToLoopsOptions &options,
                                const TargetModel &target);

} // namespace mlir::embbag::loops

#endif // EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_TRAINING_H
