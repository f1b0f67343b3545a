//===- KernelShape.cpp - Vector length and register blocking --------------===//
//
// How many elements a vector holds and how many accumulator vectors one pass
// over a bag keeps in registers, from the element type, the row length and
// the target model's register file.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::loops;

/// Elements per vector. LLVM packs vectors of integers narrower than a byte
/// or of a width that is not a power of two (i4, i6, i12, i24, ...) bit by
/// bit in memory, while a memref pads each element to whole bytes: such
/// types are read one element at a time, as 1-lane vectors.
static int64_t laneCount(Type element, unsigned vectorBits) {
  if (auto intType = dyn_cast<IntegerType>(element)) {
    unsigned width = intType.getWidth();
    if (width < 8 || !llvm::isPowerOf2_32(width))
      return 1;
  }
  unsigned accBits = element.isF16() || element.isBF16()
                         ? 32
                         : element.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, vectorBits / accBits);
}

/// The product of the row dimensions, or kDynamic.
static int64_t flatRowLength(RankedTensorType tableType) {
  int64_t row = 1;
  for (int64_t d : tableType.getShape().drop_front())
    row = ShapedType::isDynamic(d) || ShapedType::isDynamic(row)
              ? ShapedType::kDynamic
              : row * d;
  return row;
}

/// How many accumulators a pass can keep in registers. Full row vectors are
/// memory operands of the add or FMA and need no register; the broadcast
/// weight takes one, a masked tail one (the loaded vector) and, without
/// mask registers, one more for the mask. (With 16 accumulators and a weight
/// on AVX2, LLVM's allocator shuffles every register on each index: two
/// passes are faster.)
static int64_t registerBudget(const TargetModel &target, bool weighted,
                              bool masked) {
  int64_t tail = masked ? (target.maskRegisters ? 1 : 2) : 0;
  return target.vectorRegisters - (weighted ? 1 : 0) - tail;
}

KernelShape
mlir::embbag::loops::chooseShape(RankedTensorType tableType, bool weighted,
                                 const ConvertEmbBagToLoopsOptions &options,
                                 const TargetModel &target) {
  unsigned vectorBits =
      options.vectorBits ? unsigned(options.vectorBits) : target.vectorBits;
  KernelShape shape;
  shape.lanes = laneCount(tableType.getElementType(), vectorBits);
  shape.rowLength = flatRowLength(tableType);
  shape.prefetchDistance = options.prefetchDistance;
  shape.prefetchLocality = options.prefetchLocality;
  shape.unroll = options.unroll;
  shape.parallel = options.parallel;
  shape.chunkLines = options.batchChunk;
  shape.maskRegisters = target.maskRegisters;
  shape.target = target;
  int64_t row = shape.rowLength;

  if (!ShapedType::isDynamic(row)) {
    if (row < shape.lanes) {
      // A row shorter than one vector is read whole, without a mask.
      shape.lanes = std::max<int64_t>(row, 1);
      shape.maxVectors = shape.maxMaskedVectors = 1;
      return shape;
    }
    // A row that does not fit takes full passes and a thinner last one: the
    // first pass waits on DRAM, which hides its arithmetic, while the later
    // passes re-read the bag's rows from the cache and cost what they
    // compute (c2 wsum, 128 floats: 15 + 1 vectors 0.95x of the AVX2
    // kernel, 12 + 4 0.90x, 8 + 8 0.82x).
    int64_t vectors = llvm::divideCeil(row, shape.lanes);
    int64_t budget = options.maxVectors
                         ? int64_t(options.maxVectors)
                         : registerBudget(target, weighted,
                                          /*masked=*/row % shape.lanes != 0);
    shape.maxVectors = shape.maxMaskedVectors = std::min(budget, vectors);
    return shape;
  }
  // A dynamic row gets one version of the kernel per vector count up to
  // the budget (and a chunked loop beyond): more versions cost code size
  // (each is a whole bag loop) for rows that are rare in practice.
  constexpr int64_t kMaxVersions = 16;
  auto budget = [&](bool masked) {
    if (options.maxVectors)
      return int64_t(options.maxVectors);
    return std::min(kMaxVersions, registerBudget(target, weighted, masked));
  };
  shape.maxVectors = budget(/*masked=*/false);
  shape.maxMaskedVectors = budget(/*masked=*/true);
  return shape;
}
