//===- TargetModel.h - What the loop kernels assume of the machine -*- C++ -*-//
//
// Every fact about the machine that shapes the kernels of
// --convert-embbag-to-loops, in one object: the vector width, the vector
// registers the register blocking counts on, where masks live, the cache
// sizes and the thresholds of the row prefetch. It is resolved once per
// pass run, from the `target` option and the module's DLTI target
// description (docs/Target.md lists the keys).
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_CONVERSION_EMBBAGTOLOOPS_TARGETMODEL_H
#define EMBBAG_CONVERSION_EMBBAGTOLOOPS_TARGETMODEL_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>

namespace mlir {
class Operation;

namespace embbag {

/// How far ahead the rows of a table that no cache holds are prefetched
/// (Prefetch.cpp); which tables those are follows the cache sizes.
struct PrefetchPolicy {
  /// Indices ahead for a table the last-level cache holds: its latency is
  /// short, and further ahead only keeps more lines waiting in L1 (c3,
  /// 2.5 MB: 16 ahead is 10-20% faster than 64).
  int64_t lastLevelDistance = 16;
  /// Elsewhere, enough rows in flight to cover the DRAM latency: about this
  /// many bytes of rows, within [minDistance, maxDistance] indices ahead.
  int64_t bytesInFlight = 16 << 10;
  int64_t minDistance = 16;
  int64_t maxDistance = 128;
  /// Rows of at most `shortRowBytes` (two lines) go `shortRowDistance`
  /// indices ahead instead. Such a row likely costs its page's translation
  /// more than its bytes, and prefetched further ahead its translation is
  /// gone again when the row is read (4 KiB pages: every random row is a
  /// page of its own). On Zen 4, f32 rows of 16 from a 256 MB table took
  /// 8.1 ms at 32 ahead against 12.2 at 128 (rows of 32: 10.6 against
  /// 14.2; f16 rows of 64: 9.6 against 10.8), while rows of 64 floats took
  /// 22.3 ms at 32 against 19.1 at 64 (benchmarks/README.md, "Prefetch
  /// distance of short rows").
  int64_t shortRowBytes = 128;
  int64_t shortRowDistance = 32;
  /// The distance for rows of `rowBytes` of a table no cache holds; the
  /// forward kernels build the same rule in IR when the row is dynamic
  /// (Prefetch.cpp).
  int64_t distanceForRow(int64_t rowBytes) const {
    if (rowBytes <= shortRowBytes)
      return shortRowDistance;
    return std::clamp(bytesInFlight / rowBytes, minDistance, maxDistance);
  }
  /// How many positions beyond the prefetched row's index the index list
  /// itself is prefetched.
  int64_t indexLead = 64;
};

/// The machine the kernels are for.
struct TargetModel {
  /// The natural vector width in bits: the default of `vector-bits`.
  unsigned vectorBits = 128;
  /// The vector registers the register blocking counts on.
  int64_t vectorRegisters = 16;
  /// Whether masked loads take a mask register (AVX-512's k registers)
  /// rather than a vector register for the mask (AVX2's vmaskmovps).
  bool maskRegisters = false;
  int64_t cacheLineBytes = 64;
  /// L1 data cache. No decision reads it yet; it is part of the model so
  /// that a DLTI description is checked and documented in one place.
  int64_t l1CacheBytes = 32 << 10;
  /// A table of at most this many bytes stays in the L2 cache once warm
  /// (512 KiB on Zen 3, 1 MiB on Zen 4, 2 MiB on Sapphire Rapids): its rows
  /// are not prefetched, which would only spend load-port uops.
  int64_t l2CacheBytes = 512 << 10;
  /// A table of at most this many bytes lives in the last-level cache: its
  /// rows are prefetched `prefetch.lastLevelDistance` ahead into every
  /// level. Less than a whole L3: other cores and data share it.
  int64_t lastLevelCacheBytes = 4 << 20;
  PrefetchPolicy prefetch;
};

/// Whether `name` is a value of the `target` option: host, avx512, avx2 or
/// generic.
bool isKnownTarget(StringRef name);

/// Whether the model and `vector-bits` accept a vector width of `bits`: a
/// power of two from 64 to 2048 (the widest vectors a CPU has, SVE's).
bool isSupportedVectorWidth(int64_t bits);

/// The model of the named target; `host` is avx512, avx2 or generic after
/// the features LLVM reports for the compiling machine. `name` must be
/// known.
TargetModel getNamedTargetModel(StringRef name);

/// The model for the kernels in `op`: the named target's, with the entries
/// of the `#dlti.target_device_spec` of device "CPU" in the closest
/// `dlti.target_system_spec` on `op` or an ancestor overriding its values.
/// An entry of the wrong type or value is an error at the op holding the
/// spec.
FailureOr<TargetModel> resolveTargetModel(Operation *op, StringRef name);

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_CONVERSION_EMBBAGTOLOOPS_TARGETMODEL_H
