//===- BagKernel.h - The GPU kernel of a bag op, private to EmbBagToGPU ---===//
//
// One thread of the kernel of an embbag op on buffers: a bag's lanes split
// its row into vectors of 16 bytes (or single elements), each lane
// accumulating its columns over the bag's indices with several table rows
// in flight. EmbBagToGPU.cpp builds the operands on the host and wraps the
// thread's code in a gpu.launch, or in scf.parallel loops for the host.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_BAGKERNEL_H
#define EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_BAGKERNEL_H

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::embbag::gpu_lowering {

/// Threads per block.
constexpr int64_t kBlockSize = 256;
/// The largest number of lanes that share a bag's row.
constexpr int64_t kMaxLanesPerBag = 32;
/// Bytes a lane loads at once from a row.
constexpr int64_t kVectorBytes = 16;
/// Bits a lane loads at once from a rowwise row's codes: 8 codes of 8 bits
/// (an 8-bit row of D codes is D + 8 bytes, 8-byte aligned when D is a
/// multiple of 8), or 8 and 16 codes of 4 and 2 bits in a 4-byte word.
inline int64_t codeWordBits(unsigned rowwiseBits) {
  return rowwiseBits == 8 ? 64 : 32;
}

/// What the threads of an op's kernel read. Every value is defined on the
/// host, before the launch.
struct BagKernel {
  Reduction reduction = Reduction::sum;
  Value table;      // memref<num_emb x row x T>, unit stride along the row;
                    // rowwise: memref<num_emb x row_bytes x ui8>
  Value indices;    // memref<num_indices x T_IND>
  Value weights;    // memref<num_indices x T>, or null
  Value out;        // memref<num_bags x row x T>, unit stride along the row
  BagBounds bounds; // bags of the buffers
  Value defaultIndex, paddingIdx;  // index, or null
  Value numEmb, rowLength;         // index
  Value lanesPerBag, bagsPerBlock; // index
  // Whether the lanes load 16-byte vectors (i1; null: never): the row's
  // bytes and the buffers' rows are 16-byte aligned.
  Value useVectors;
  int64_t vectorLength = 1; // the elements of T in 16 bytes, or the codes
                            // of a rowwise row in a code word
                            // (codeWordBits): its rows are not 16-byte
                            // aligned unless the row's bytes are a
                            // multiple of 16
  // rowwise: the byte column of each row's scale and bias (f32 for 8-bit
  // codes, f16 for 4 and 2 bits); null for a table of floats.
  Value scaleColumn;
  unsigned rowwiseBits = 0; // 8, 4 or 2; 0 for a table of floats
  Type resultType;          // the result's element type (T, or f32 / f16)
  unsigned rowsInFlight = 8;
  // Whether the code runs on the device (a gpu.launch) rather than in host
  // loops: the square root is then LLVM's intrinsic, which NVPTX compiles
  // to sqrt.rn (math.sqrt would become a call into libdevice, which only
  // the CUDA toolkit ships).
  bool onDevice = true;
  // The checks: the flag word (memref<1xi32>) whose bits the kernel sets,
  // and the bits of the rules it checks (0: not checked).
  Value flag;
  int32_t offsetsBit = 0, indicesBit = 0;
  // embbag.segments: the segment ids (memref<num_indices x T_IND>), the
  // bit of their range rule, and the bit the kernel sets for ids that are
  // in range but not sorted (0: not checked).
  Value segmentIds;
  int32_t segmentIdsBit = 0, unsortedBit = 0;
};

/// The bags of sorted segment ids `ids` (a buffer): segment s is the
/// positions [lowerBound(s), lowerBound(s + 1)), found by binary search in
/// the thread that needs them. The bounds stay inside [0, num_indices]
/// whatever the ids hold.
BagBounds sortedSegmentBounds(ImplicitLocOpBuilder &b, Value ids,
                              Value numSegments);

/// The square root of the f32 `x`: math.sqrt in host loops, LLVM's
/// intrinsic on the device (math.sqrt would become a libdevice call).
Value sqrtF32(ImplicitLocOpBuilder &b, const BagKernel &k, Value x);

/// `buffer[indices]`, at its natural alignment: without a data layout, the
/// kernel module's LLVM IR would assume 4 bytes for an i64 and NVPTX would
/// split the load in two.
Value loadElement(ImplicitLocOpBuilder &b, Value buffer, ValueRange indices);

/// Stores `value` at `buffer[indices]`, at its natural alignment (as
/// loadElement: an i64 store would otherwise be two 4-byte stores).
void storeElement(ImplicitLocOpBuilder &b, Value value, Value buffer,
                  ValueRange indices);

/// The end of the whole steps of `step` from `lo` below `hi` (index): lo +
/// (hi - lo) / step * step, where an unrolled loop hands over to its
/// remainder.
Value wholeStepsEnd(ImplicitLocOpBuilder &b, Value lo, Value hi, Value step);

/// Runs `body` when `condition` (i1) holds: an scf.if without results.
void buildIf(ImplicitLocOpBuilder &b, Value condition,
             function_ref<void(ImplicitLocOpBuilder &)> body);

/// The bounds of bag `bag`; with checks, bounds that break the offsets'
/// rule are flagged and make the bag empty, so that nothing is read
/// through them.
std::pair<Value, Value> getCheckedRange(ImplicitLocOpBuilder &b,
                                        const BagKernel &k, Value bag);

/// Checks the ids of segment `bag`, positions [start, end), that lane
/// `lane` of `k.lanesPerBag` reads: all equal to `bag`; the first segment
/// also checks the positions before it, the last those after it, so that
/// every id is checked once.
void checkSegment(ImplicitLocOpBuilder &b, const BagKernel &k, Value bag,
                  Value lane, Value start, Value end);

/// The code of thread `thread` of block `block` (index values).
void buildBagThread(ImplicitLocOpBuilder &b, const BagKernel &k, Value block,
                    Value thread);

} // namespace mlir::embbag::gpu_lowering

#endif // EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_BAGKERNEL_H
