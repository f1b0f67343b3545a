//===- RowLengthDispatch.cpp - Versions of the kernel for a dynamic row ---===//
//
// When the row length is known only at run time, each bag's row is built
// once per row class and an scf.index_switch picks the version:
//
//   key = 2 * (row / lanes) + (row % lanes != 0)
//   key 2v      a row of v whole vectors: the static kernel of v * lanes
//   key 2v - 1  a row of v vectors, the last one masked
//   default     longer rows (and the empty one): a loop of chunks of whole
//               vectors, then a switch over the vectors left, masked last
//
// With mask registers (AVX-512) a masked load costs what a whole one does
// (AVX2's vmaskmovps cannot be a memory operand of the add): the key is the
// number of vectors and every version masks its last one.
//
// Every version keeps its accumulators in registers across the bag, as the
// kernel of a static row does. The key is computed once per call and the
// switch taken once per bag (a predictable jump, against a bag's worth of
// rows): a switch around the bag loop would be taken once per call, but
// the empty-tensor elimination does not see through it, and the result
// would be computed in a new buffer and copied. Once on buffers, the
// switch moves out of the loop after all: the loop is marked
// `embbag.row_dispatch`, and --embbag-unswitch-row-dispatch (which
// --embbag-to-llvm runs after bufferization) hoists it, so that each
// version's loop nest has its own live values.
//
// That is the kernel built into an op. On a module, SharedKernels.cpp
// builds the same versions (listRowVersions, buildRowVersion) once per kind
// of kernel, as functions the ops call.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

/// A version built by one case of a switch.
using CaseBuilder = std::function<Value(ImplicitLocOpBuilder &b)>;

/// `scf.index_switch key` over `cases` (key, builder) and `otherwise`, each
/// yielding one value of `type`.
static Value buildSwitch(ImplicitLocOpBuilder &b, Value key, Type type,
                         ArrayRef<std::pair<int64_t, CaseBuilder>> cases,
                         const CaseBuilder &otherwise) {
  SmallVector<int64_t> keys;
  for (const auto &c : cases)
    keys.push_back(c.first);
  auto switchOp =
      scf::IndexSwitchOp::create(b, TypeRange{type}, key, keys, keys.size());
  OpBuilder::InsertionGuard guard(b);
  auto fill = [&](Region &region, const CaseBuilder &build) {
    b.setInsertionPointToStart(&region.emplaceBlock());
    scf::YieldOp::create(b, build(b));
  };
  for (auto [region, c] : llvm::zip_equal(switchOp.getCaseRegions(), cases))
    fill(region, c.second);
  fill(switchOp.getDefaultRegion(), otherwise);
  return switchOp.getResult(0);
}

/// The pair (vectors, masked) as a key: 2 * whole vectors + masked.
static int64_t keyOf(int64_t vectors, bool masked) {
  return 2 * vectors - (masked ? 1 : 0);
}

/// A row longer than the versions: chunks of `maxMaskedVectors` whole
/// vectors in a loop, each prefetching its own part of the rows ahead,
/// then the rest of the row (shorter than a chunk) in one masked pass of as
/// many vectors as it needs, picked by a switch: up to a whole chunk's
/// count when the rest is longer than all but one of its vectors.
static Value buildLongRow(ImplicitLocOpBuilder &b, const KernelContext &k,
                          const BagRef &bag, Value out) {
  int64_t lanes = k.shape.lanes, vectors = k.shape.maxMaskedVectors;
  Value chunkSize = cst(b, lanes * vectors);
  Value mainEnd = arith::MulIOp::create(
      b, arith::DivUIOp::create(b, k.row, chunkSize), chunkSize);
  auto chunkLoop = scf::ForOp::create(
      b, cst(b, 0), mainEnd, chunkSize, ValueRange{out},
      [&](OpBuilder &nested, Location loc, Value col, ValueRange iterArgs) {
        ImplicitLocOpBuilder cb(loc, nested);
        ChunkSpec chunk{col, SmallVector<Value>(vectors)};
        if (k.tableBuffer)
          chunk.prefetchColumns = prefetchColumns(cb, k, col, lanes * vectors,
                                                  Value(), /*onLines=*/false);
        scf::YieldOp::create(cb, buildChunk(cb, k, bag, chunk, iterArgs[0]));
      });
  out = chunkLoop.getResult(0);
  Value rest = arith::SubIOp::create(b, k.row, mainEnd);
  Value restVectors = arith::CeilDivUIOp::create(b, rest, cst(b, lanes));
  SmallVector<std::pair<int64_t, CaseBuilder>> cases;
  for (int64_t v = 1; v <= vectors; ++v)
    cases.emplace_back(v, [&k, &bag, out, mainEnd,
                           v](ImplicitLocOpBuilder &cb) {
      return buildMaskedChunk(cb, k, bag, out, mainEnd, v, /*prefetch=*/true);
    });
  // No rest: the row ended with the last chunk.
  return buildSwitch(b, restVectors, out.getType(), cases,
                     [out](ImplicitLocOpBuilder &) { return out; });
}

Value mlir::embbag::loops::rowKey(ImplicitLocOpBuilder &b,
                                  const KernelShape &shape, Value width) {
  Value lanes = cst(b, shape.lanes);
  if (shape.maskRegisters)
    return arith::CeilDivUIOp::create(b, width, lanes);
  Value whole = arith::DivUIOp::create(b, width, lanes);
  Value partial = arith::IndexCastUIOp::create(
      b, b.getIndexType(),
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                            arith::RemUIOp::create(b, width, lanes),
                            cst(b, 0)));
  return arith::AddIOp::create(b, arith::MulIOp::create(b, whole, cst(b, 2)),
                               partial);
}

SmallVector<RowVersion>
mlir::embbag::loops::listRowVersions(const KernelShape &shape) {
  SmallVector<RowVersion> versions;
  if (shape.maskRegisters) {
    for (int64_t v = 1; v <= shape.maxMaskedVectors; ++v)
      versions.push_back({v, v, /*masked=*/true});
    return versions;
  }
  int64_t most = std::max(shape.maxVectors, shape.maxMaskedVectors);
  for (int64_t v = 1; v <= most; ++v) {
    if (v <= shape.maxMaskedVectors)
      versions.push_back({keyOf(v, /*masked=*/true), v, /*masked=*/true});
    if (v <= shape.maxVectors)
      versions.push_back({keyOf(v, /*masked=*/false), v, /*masked=*/false});
  }
  return versions;
}

Value mlir::embbag::loops::buildRowVersion(ImplicitLocOpBuilder &b,
                                           const KernelContext &k,
                                           const BagRef &bag, Value out,
                                           const RowVersion &version, Value col,
                                           Value end) {
  if (version.masked)
    return buildMaskedChunk(b, k, bag, out, col ? col : cst(b, 0),
                            version.vectors, /*prefetch=*/true, end);
  return buildStaticRow(b, k, bag, out, version.vectors * k.shape.lanes, col);
}

/// The versions of one bag's row, each a pass (or the passes) of a row of
/// a known vector count, and the long-row loop.
static Value buildDispatchedRow(ImplicitLocOpBuilder &b, const KernelContext &k,
                                Value key, const BagRef &bag, Value out) {
  SmallVector<std::pair<int64_t, CaseBuilder>> cases;
  for (const RowVersion &version : listRowVersions(k.shape))
    cases.emplace_back(version.key, [&, version](ImplicitLocOpBuilder &cb) {
      return buildRowVersion(cb, k, bag, out, version, Value(), Value());
    });
  return buildSwitch(
      b, key, out.getType(), cases,
      [&](ImplicitLocOpBuilder &cb) { return buildLongRow(cb, k, bag, out); });
}

Value mlir::embbag::loops::buildDispatchedKernel(ImplicitLocOpBuilder &b,
                                                 const KernelContext &k,
                                                 Value init) {
  Value key = rowKey(b, k.shape, k.row);
  Value result = buildBagLoop(
      b, k, init, [&](ImplicitLocOpBuilder &rb, const BagRef &bag, Value out) {
        return buildDispatchedRow(rb, k, key, bag, out);
      });
  // On buffers, --embbag-unswitch-row-dispatch moves the switch out of the
  // sequential bag loop (see the file comment for why it starts inside).
  if (auto bagLoop = result.getDefiningOp<scf::ForOp>())
    EmbBagDialect::RowDispatchAttrHelper(b.getContext())
        .setAttr(bagLoop, b.getUnitAttr());
  return result;
}
