//===- TrainingKernel.h - The GPU kernels of the training ops ---*- C++ -*-===//
//
// The threads of the kernels of the dense gradients (`embbag.*_grad`) and
// the fused updates (`embbag.*_update`) (docs/GPU.md, "Training"), private
// to EmbBagToGPU:
//
//   winners           max only, first: one thread per bag finds, for each
//                     column, the position whose row gives the maximum
//                     (the first on ties), from the table before any step.
//   sort              the positions sorted by row, stably (an LSD radix
//                     sort, without atomics): each pass sorts by a digit
//                     of log2(numOwners) bits of the row, from the lowest.
//                     One thread per chunk counts the digits of its
//                     positions (the first pass reads the bags: it also
//                     checks the indices and, for mean and sqrtn, stores
//                     each bag's scale), one thread per digit scans its
//                     counts over the chunks, one thread the digits'
//                     totals, then each chunk's thread writes its
//                     positions, with their bags and rows, into their
//                     digits' slots. After the last pass each row's
//                     positions are together, in index order.
//   rows              groups of lanes zero the rows' accumulators (group
//                     g the rows r with r mod numRowWalkers = g).
//   pieces            a group per piece of positionsPerPiece sorted slots
//                     adds the share of each to its row; a row whose
//                     positions go on in the piece before or after goes
//                     into the piece's head or tail partial row instead.
//   runs              the group of each piece where such a row starts
//                     sums the piece's tail partial and the head partials
//                     of the pieces its row goes on in, in order, into the
//                     row: no two groups write a row, so there are no
//                     atomics on the gradient, and each sum has the same
//                     order every run.
//   finish            the groups of `rows` round an f16/bf16 gradient, or
//                     take the optimizer's step on the rows touched.
//   weights gradient  one thread per bag: each position's dot product of
//                     the bag's `dy` row and its table row, after a kernel
//                     of one thread per position zeroes every position.
//   sparse gradient   the pieces and runs sum into f32 rows and mark the
//                     rows they touch; then one thread per chunk of
//                     kRowsPerChunk rows counts its touched rows; the counts
//                     become each chunk's first rank and the total (which the
//                     host reads, to allocate the results) in three
//                     kernels: one thread per group of kChunksPerGroup
//                     chunks sums them, one thread ranks the groups, one
//                     thread per group ranks its chunks; then one
//                     thread per chunk lists its touched rows at their
//                     ranks, and a group of lanes per listed row rounds
//                     its gradient row into the result. The rows come out
//                     sorted because the chunks are ranges of rows.
//
// The threads need no barrier and no shared memory, so that the same code
// runs in host loops (path=gpu-loops), where the CPU's tests check it.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_TRAININGKERNEL_H
#define EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_TRAININGKERNEL_H

#include "BagKernel.h"

namespace mlir::embbag::gpu_lowering {

/// The most chunks of bags of the owners' buckets (the pass option
/// `training-chunk-positions` sets their positions): the bucket counts hold
/// a word per chunk and owner, and each owner's scan reads one per chunk.
constexpr int64_t kMaxBagChunks = 2048;

/// Rows per thread of a sparse gradient's count and list kernels.
constexpr int64_t kRowsPerChunk = 256;

/// The chunks of kRowsPerChunk rows of a table of `numEmb` rows (index).
Value numRowChunks(ImplicitLocOpBuilder &b, Value numEmb);

/// Chunks per thread of the kernels that rank the chunks: no thread walks
/// more than this many counts (a 4M-row table has 16k chunks, in 64
/// groups).
constexpr int64_t kChunksPerGroup = 256;

/// The groups of kChunksPerGroup chunks of a table of `numEmb` rows.
Value numChunkGroups(ImplicitLocOpBuilder &b, Value numEmb);

/// What the threads of a training op's kernels read.
struct TrainingKernel {
  // The forward op's buffers, bags, clauses and checks (`out` unused;
  // lanesPerBag and bagsPerBlock are the row owners' lanes per row and
  // groups per block).
  BagKernel bags;
  Value dy;          // memref<num_bags x row x T>
  Value tableGrad;   // memref<num_emb x row x T>: a gradient op's; else null
  Value weightsGrad; // memref<num_indices x T>, or null
  Value numOwners;   // index: a power of two, the sort's radix (its
                     // digits have log2(numOwners) bits)
  Value numRowWalkers; // index: the groups of lanes of the row kernels;
                       // group g zeroes and finishes the rows r with
                       // r mod numRowWalkers = g

  // The sort (scratch memory): the first pass reads the bags in chunks of
  // bagsPerChunk (index; numBagChunks of them), the later ones the slots
  // in as many chunks of slotsPerChunk. Per chunk and digit the number of
  // the chunk's positions with that digit, which the scan turns into their
  // first slot among the digit's and the filling thread into their end
  // (memref<num_chunks x num_owners x i64>); per digit the number of its
  // positions (memref<num_owners x i64>) and its first slot, and the
  // number of slots at the end (memref<num_owners + 1 x i64>); per slot a
  // position, its bag and its row (memref<num_indices x i64> each). A pass
  // reads the slots of the one before from `source*`. The digit is the
  // log2(numOwners) bits of the row from bit digitShift (index).
  Value bagsPerChunk, numBagChunks, slotsPerChunk, digitShift;
  Value bucketCounts, ownerTotals, ownerBases;
  Value slotPositions, slotBags, slotRows;
  Value sourcePositions, sourceBags, sourceRows;
  // mean and sqrtn: each bag's scale (memref<num_bags x f32>).
  Value bagScales;
  // The pieces of positionsPerPiece sorted slots (index), and the head
  // (2 p) and tail (2 p + 1) partial rows of piece p
  // (memref<2 num_pieces x row x f32>).
  Value positionsPerPiece, partials;

  // Scratch memory (null when not needed):
  // the rows' gradients in f32, when the owners cannot accumulate in the
  // result (f16 and bf16 gradients, the updates): memref<num_emb x row x f32>
  Value rowGrads;
  // the updates' rows touched: bit `lane` of touched[r] is set when lane
  // `lane` of r's owner added to it (each lane reads only its own bit, which
  // it wrote): memref<num_emb x i32>
  Value touched;
  // max: the position of each element's maximum, -1 for none:
  // memref<num_bags x row x i64>
  Value winners;
  // A sparse gradient: the touched rows of each chunk of kRowsPerChunk
  // rows, then the rank of the chunk's first one (memref<num_chunks x
  // i64> each); the same for each group of kChunksPerGroup chunks
  // (memref<num_groups x i64> each); and the number of touched rows
  // (memref<1 x i64>, which the host reads).
  Value chunkCounts, chunkStarts, groupCounts, groupStarts, numUnique;
  // Its results, allocated once numUnique is known: the touched rows in
  // ascending order (memref<num_unique x T_IND>) and their gradient rows
  // (memref<num_unique x row x T>).
  Value uniqueRows, rowValues;
  bool sparse = false;

  // The updates: the table after the step (memref<num_emb x row x T>),
  // the learning rate (f32), and row-wise Adagrad's epsilon (f32), state
  // (memref<num_emb x S>) and state after the step; whether each result is
  // its operand's memory (i1: then the rows not touched are not copied).
  Value updatedTable, learningRate, epsilon, state, updatedState;
  Value tableInPlace, stateInPlace;

  bool isUpdate() const { return updatedTable != nullptr; }
};

/// Thread `thread` of block `block` of the winners' kernel: a group of
/// lanes per bag, a lane per column.
void buildWinnersThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                        Value block, Value thread);

/// Thread `thread` of block `block` of the first pass's kernel that counts
/// the digits of the positions, one chunk of bags per thread; it also
/// checks the indices and segment ids, and stores mean's and sqrtn's scales.
void buildCountBucketsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                             Value block, Value thread);

/// Thread `thread` of block `block` of a later pass's kernel that counts
/// the digits of the slots, one chunk of slots per thread.
void buildCountSlotsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                           Value block, Value thread);

/// Thread `thread` of block `block` of the kernel that turns each digit's
/// counts into the first slot of its positions from each chunk, and their
/// total, one digit per thread.
void buildScanOwnersThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                           Value block, Value thread);

/// The one thread of the kernel that gives each digit its first slot.
void buildPlaceOwnersThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                            Value block, Value thread);

/// Thread `thread` of block `block` of the first pass's kernel that writes
/// each chunk's positions into their digits' slots, one chunk of bags per
/// thread.
void buildFillBucketsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                            Value block, Value thread);

/// Thread `thread` of block `block` of a later pass's kernel that writes
/// each chunk's slots into their digits' slots, one chunk of slots per
/// thread.
void buildFillSlotsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                          Value block, Value thread);

/// Thread `thread` of block `block` of the kernel that zeroes the rows'
/// accumulators, a group of lanes per numRowWalkers-th row.
void buildZeroRowsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                         Value block, Value thread);

/// Thread `thread` of block `block` of the kernel that adds the sorted
/// slots' shares, a group of lanes per piece.
void buildPiecesThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                       Value block, Value thread);

/// Thread `thread` of block `block` of the kernel that sums the partial
/// rows of the rows whose positions span pieces, a group of lanes per
/// piece.
void buildRunsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                     Value block, Value thread);

/// Thread `thread` of block `block` of the kernel that rounds an f16/bf16
/// gradient into the result, or takes an update's step, a group of lanes
/// per numRowWalkers-th row.
void buildFinishRowsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                           Value block, Value thread);

/// Thread `thread` of block `block` of a sparse gradient's kernel that
/// counts the touched rows, one chunk of rows per thread.
void buildCountTouchedThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                             Value block, Value thread);

/// Thread `thread` of block `block` of a sparse gradient's kernel that sums
/// the counts of a group of chunks, one group per thread.
void buildSumGroupsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                          Value block, Value thread);

/// The one thread of a sparse gradient's kernel that turns the groups'
/// counts into their first ranks and the total.
void buildRankGroupsThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                           Value block, Value thread);

/// Thread `thread` of block `block` of a sparse gradient's kernel that
/// turns a group's chunk counts into the chunks' first ranks, one group per
/// thread.
void buildRankChunksThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                           Value block, Value thread);

/// Thread `thread` of block `block` of a sparse gradient's kernel that
/// lists the touched rows at their ranks, one chunk of rows per thread.
void buildListTouchedThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                            Value block, Value thread);

/// Thread `thread` of block `block` of a sparse gradient's kernel that
/// rounds the listed rows' gradients into the result, a group of lanes per
/// listed row.
void buildCopyRowValuesThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                              Value block, Value thread);

/// Thread `thread` of block `block` of the kernel that zeroes the weights
/// gradient, one position per thread.
void buildZeroWeightsGradThread(ImplicitLocOpBuilder &b,
                                const TrainingKernel &k, Value block,
                                Value thread);

/// Thread `thread` of block `block` of the weights gradient's kernel, one
/// bag per thread.
void buildWeightsGradThread(ImplicitLocOpBuilder &b, const TrainingKernel &k,
                            Value block, Value thread);

} // namespace mlir::embbag::gpu_lowering

#endif // EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_TRAININGKERNEL_H
