//===- Options.cpp - The values convert-embbag-to-loops accepts -----------===//
//
// Every option is checked here, once, before anything is rewritten: by the
// pass at the start of each run, and by the pipelines that forward the
// options when they are parsed. The bounds are in Passes.td's descriptions.
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagToLoops/EmbBagToLoops.h"
#include "embbag/Conversion/EmbBagToLoops/TargetModel.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

using namespace mlir;
using namespace mlir::embbag;

// More accumulators than twice the largest vector register file only spill,
// and a more unrolled index loop only grows: both bound code size too (a
// dynamic row gets one kernel version per vector count).
static constexpr unsigned kMaxMaxVectors = 64;
static constexpr unsigned kMaxUnroll = 64;

static llvm::Error badOption(const Twine &message) {
  return llvm::createStringError(message);
}

llvm::Error mlir::embbag::verifyConvertEmbBagToLoopsOptions(
    const ConvertEmbBagToLoopsOptions &options) {
  if (!isKnownTarget(options.target))
    return badOption("unknown target '" + options.target +
                     "' (host, avx512, avx2 or generic)");
  if (options.vectorBits != 0 && !isSupportedVectorWidth(options.vectorBits))
    return badOption("vector-bits must be 0 (the target's) or a power of two "
                     "from 64 to 2048, not " +
                     Twine(options.vectorBits));
  if (options.maxVectors > kMaxMaxVectors)
    return badOption("max-vectors must be at most " + Twine(kMaxMaxVectors) +
                     ", not " + Twine(options.maxVectors));
  if (options.prefetchDistance < -1)
    return badOption("prefetch-distance must be -1 (from the table's size), "
                     "0 (none) or a distance, not " +
                     Twine(options.prefetchDistance));
  if (options.prefetchLocality < -1 || options.prefetchLocality > 3)
    return badOption("prefetch-locality must be -1 (from the table's size), "
                     "0, 1, 2 or 3, not " +
                     Twine(options.prefetchLocality));
  if (options.unroll < 1 || options.unroll > kMaxUnroll)
    return badOption("unroll must be from 1 to " + Twine(kMaxUnroll) +
                     ", not " + Twine(options.unroll));
  if (options.batchTables && !options.parallel)
    return badOption("batch-tables needs parallel=1 (the batched ops share "
                     "one parallel loop)");
  if (options.batchChunk < 1)
    return badOption("batch-chunk must be at least 1, not 0");
  return llvm::Error::success();
}
