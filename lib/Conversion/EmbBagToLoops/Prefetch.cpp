//===- Prefetch.cpp - Software prefetch of the rows ahead -----------------===//
//
// A bag of random rows is a chain of cache misses the out-of-order window
// cannot cover alone: each pass over a bag prefetches the rows of the index
// list some positions ahead (across bag boundaries, so short bags keep
// misses in flight too). Whether and how far ahead follows the table's size
// and the row length, against the target model's cache sizes and prefetch
// thresholds (TargetModel.h): decided at compile time when they are static,
// once per call (outside the loops) when they are not.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

/// Whether every row of the table buffer starts on a cache line: the first
/// element on one, a row stride of whole lines, unit column stride.
static Value rowsStartOnLines(ImplicitLocOpBuilder &b, Value buffer,
                              int64_t elementBytes, int64_t cacheLineBytes) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, buffer);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, buffer);
  Value bytes = cst(b, elementBytes);
  Value lineBytes = cst(b, cacheLineBytes);
  auto onLine = [&](Value v) -> Value {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                 arith::RemUIOp::create(b, v, lineBytes),
                                 cst(b, 0));
  };
  Value first = arith::AddIOp::create(
      b, base, arith::MulIOp::create(b, metadata.getOffset(), bytes));
  Value rowStride = arith::MulIOp::create(b, metadata.getStrides()[0], bytes);
  Value unitColumns = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq, metadata.getStrides()[1], cst(b, 1));
  return arith::AndIOp::create(
      b, arith::AndIOp::create(b, onLine(first), onLine(rowStride)),
      unitColumns);
}

/// memref.prefetch needs a buffer. The table is only read, so one-shot
/// bufferization resolves this to the table's own buffer, cast to a fully
/// dynamic layout: any buffer the table lives in (a subview of a larger
/// one, say) casts to it, where an identity layout would make
/// bufferization copy the whole table.
static Value asReadOnlyBuffer(ImplicitLocOpBuilder &b, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto anyLayout = StridedLayoutAttr::get(
      b.getContext(), ShapedType::kDynamic,
      SmallVector<int64_t>(type.getRank(), ShapedType::kDynamic));
  return bufferization::ToBufferOp::create(
      b, MemRefType::get(type.getShape(), type.getElementType(), anyLayout),
      tensor, /*read_only=*/true);
}

/// The bytes of an element of the table (a byte of a quantized one).
static int64_t elementBytes(const KernelContext &k) {
  Type element = getElementTypeOrSelf(k.p.table.getType());
  return llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
}

/// The bits a column of a row takes in the table.
static int64_t columnBits(const KernelContext &k) {
  return k.p.rowwiseBits ? k.p.rowwiseBits
                         : k.storageType.getIntOrFloatBitWidth();
}

/// The sizes the prefetch decisions follow (folded to constants when the
/// table's shape is static).
struct TableSize {
  Value rowBytes, tableBytes;
  Value inLastLevel; // i1: the last-level cache holds the table
};

static TableSize tableSize(ImplicitLocOpBuilder &b, const KernelContext &k) {
  TableSize size;
  size.rowBytes = b.createOrFold<arith::MulIOp>(dim(b, k.p.table, 1),
                                                cst(b, elementBytes(k)));
  size.tableBytes =
      b.createOrFold<arith::MulIOp>(dim(b, k.p.table, 0), size.rowBytes);
  size.inLastLevel =
      b.createOrFold<arith::CmpIOp>(arith::CmpIPredicate::ule, size.tableBytes,
                                    cst(b, k.shape.target.lastLevelCacheBytes));
  return size;
}

/// The prefetch distance from the data and whether to prefetch at all:
/// PrefetchPolicy::distanceForRow in IR (folded to a constant when the row
/// is static).
static std::pair<Value, Value> distanceFromData(ImplicitLocOpBuilder &b,
                                                const TargetModel &target,
                                                const TableSize &size) {
  const PrefetchPolicy &policy = target.prefetch;
  Value perRow = b.createOrFold<arith::DivUIOp>(
      cst(b, policy.bytesInFlight),
      b.createOrFold<arith::MaxUIOp>(size.rowBytes, cst(b, 1)));
  Value longRow = b.createOrFold<arith::MinUIOp>(
      b.createOrFold<arith::MaxUIOp>(perRow, cst(b, policy.minDistance)),
      cst(b, policy.maxDistance));
  Value shortRow = b.createOrFold<arith::CmpIOp>(
      arith::CmpIPredicate::ule, size.rowBytes, cst(b, policy.shortRowBytes));
  Value distance = b.createOrFold<arith::SelectOp>(
      shortRow, cst(b, policy.shortRowDistance), longRow);
  distance = b.createOrFold<arith::SelectOp>(
      size.inLastLevel, cst(b, policy.lastLevelDistance), distance);
  Value enabled = b.createOrFold<arith::CmpIOp>(
      arith::CmpIPredicate::ugt, size.tableBytes, cst(b, target.l2CacheBytes));
  return {distance, enabled};
}

/// Where the rows go: a table the last-level cache holds into every level,
/// as its latency is short; any other table into L2 only. A prefetch into
/// L1 holds one of its few miss buffers (24 on Zen 4) until the line
/// arrives from DRAM, so that the misses in flight, and with them the
/// gather's bandwidth, stop at what L1 can track; the L2 tracks more
/// (measured on Zen 4: 8.5 GB/s with prefetcht0, 12.8 with prefetcht1, on
/// 256-byte rows of a 256 MB table). When only the run time knows the
/// table's size, `prefetchIntoL1` picks between two loops (c3, a 2.5 MB
/// table of rows of 64 floats: prefetcht1 costs its kernel 4-8%).
static void planLocality(KernelContext &k,
                         const std::optional<TableSize> &size) {
  if (k.shape.prefetchLocality >= 0) {
    k.prefetchLocality = k.shape.prefetchLocality;
    return;
  }
  Value inLastLevel = size->inLastLevel;
  if (std::optional<int64_t> known = getConstantIntValue(inLastLevel)) {
    k.prefetchLocality = *known ? 3 : 2;
    return;
  }
  k.prefetchLocality = 2;
  k.prefetchIntoL1 = inLastLevel;
}

void mlir::embbag::loops::planPrefetch(ImplicitLocOpBuilder &b,
                                       KernelContext &k) {
  int option = k.shape.prefetchDistance;
  if (option == 0)
    return;
  // Computed once, when a decision follows the data.
  std::optional<TableSize> size;
  if (option < 0 || k.shape.prefetchLocality < 0)
    size = tableSize(b, k);
  Value distance, enabled;
  if (option > 0) {
    distance = cst(b, option);
  } else {
    std::tie(distance, enabled) = distanceFromData(b, k.shape.target, *size);
    std::optional<int64_t> known = getConstantIntValue(enabled);
    if (known && !*known)
      return;
    if (known)
      enabled = {};
  }
  k.prefetchDistance = distance;
  planLocality(k, size);
  k.tableBuffer = asReadOnlyBuffer(b, k.p.table);
  k.indicesBuffer = asReadOnlyBuffer(b, k.p.indices);
  k.lastPosition = arith::SubIOp::create(b, dim(b, k.p.indices, 0), cst(b, 1));
  k.rowsOnLines = rowsStartOnLines(b, k.tableBuffer, elementBytes(k),
                                   k.shape.target.cacheLineBytes);
  k.prefetchEnabled = enabled;
}

SmallVector<Value> mlir::embbag::loops::prefetchColumns(
    ImplicitLocOpBuilder &b, const KernelContext &k, Value col, int64_t inRow,
    Value lastColumn, bool onLines) {
  int64_t perLine =
      std::max<int64_t>(1, k.shape.target.cacheLineBytes * 8 / columnBits(k));
  auto at = [&](int64_t o) -> Value {
    return o == 0 ? col : b.createOrFold<arith::AddIOp>(col, cst(b, o));
  };
  // One element per line the chunk touches. The chunk need not start on a
  // line boundary, hence also its last element, unless `onLines`.
  SmallVector<Value> columns;
  for (int64_t o = 0; o < inRow; o += perLine)
    columns.push_back(at(o));
  if (lastColumn)
    columns.push_back(lastColumn);
  else if (!onLines && (inRow - 1) % perLine != 0)
    columns.push_back(at(inRow - 1));
  if (!k.p.rowwiseBits)
    return columns;
  // A quantized row: the bytes of those columns, and the row's last byte
  // (its bias, after the codes), which every pass reads.
  columns = toByteColumns(b, k, columns);
  columns.push_back(
      b.createOrFold<arith::SubIOp>(dim(b, k.p.table, 1), cst(b, 1)));
  return columns;
}

void mlir::embbag::loops::touchRow(ImplicitLocOpBuilder &b,
                                   const KernelContext &k, Value rowIndex,
                                   Value column) {
  memref::PrefetchOp::create(b, k.tableBuffer, ValueRange{rowIndex, column},
                             b.getBoolAttr(false), b.getI32IntegerAttr(3),
                             b.getBoolAttr(true));
}

void mlir::embbag::loops::prefetchAhead(ImplicitLocOpBuilder &b,
                                        const KernelContext &k, Value j,
                                        ArrayRef<Value> columns) {
  Value ahead = arith::AddIOp::create(b, j, k.prefetchDistance);
  // The index list itself, a few lines further on: the row prefetches fill
  // the miss queues, and the index loads that feed them would otherwise
  // wait there for DRAM (a kernel whose indices are not in the caches).
  Value indexAhead = arith::MinUIOp::create(
      b,
      arith::AddIOp::create(b, ahead,
                            cst(b, k.shape.target.prefetch.indexLead)),
      k.lastPosition);
  memref::PrefetchOp::create(b, k.indicesBuffer, ValueRange{indexAhead},
                             b.getBoolAttr(false), b.getI32IntegerAttr(3),
                             b.getBoolAttr(true));
  ahead = arith::MinUIOp::create(b, ahead, k.lastPosition);
  Value rowIndex = extractIndex(b, k.p.indices, ahead);
  for (Value c : columns)
    memref::PrefetchOp::create(b, k.tableBuffer, ValueRange{rowIndex, c},
                               b.getBoolAttr(false),
                               b.getI32IntegerAttr(k.prefetchLocality),
                               b.getBoolAttr(true));
}
