//===- EmbBagToGPU.cpp - Lower embbag ops to GPU kernels ------------------===//
//
// The host side of an op's kernel: its tensors as buffers, the result's
// buffer, the launch configuration, and the runtime contract split between
// the host (rules on scalars and shapes, checked before the launch as on
// the CPU) and the device (rules on offsets and indices, checked where the
// threads read them, each setting its bit of a flag word that the host
// turns into the CPU's marked check after the kernel). The threads' code
// is BagKernel.cpp. With batch-tables, one launch runs the kernels of the
// independent ops of a block, each block one op's (docs/GPU.md, "Table
// batching: one launch").
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagToGPU/EmbBagToGPU.h"

#include "Host.h"

#include "embbag/Conversion/EmbBagCommon/BagGroups.h"
#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"

#include <array>

namespace mlir::embbag {
#define GEN_PASS_DEF_CONVERTEMBBAGTOGPU
#include "embbag/Conversion/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::gpu_lowering;
using contract::Clause;

static bufferization::MaterializeInDestinationOp
findDestination(BagOpInterface op);

/// The bits per code of a rowwise table; 0 for a table of values.
static unsigned rowwiseBits(BagOpInterface op) {
  TypeAttr attr = op.getRowwiseAttr();
  return attr ? attr.getValue().getIntOrFloatBitWidth() : 0;
}

/// Why this lowering does not take `op`, or nothing when it does. A kernel
/// launched from the host writes device memory, which the host code
/// allocates none of yet: its result must go into a caller's buffer.
static std::optional<StringRef> getUnsupportedReason(BagOpInterface op,
                                                     bool hostLoops) {
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (!element.isF32() && !element.isF16() && !element.isBF16())
    return StringRef("only f32, f16 and bf16 tables are supported on the GPU");
  if (!hostLoops && !findDestination(op))
    return StringRef(
        "its result must go into a destination buffer (a "
        "bufferization.materialize_in_destination into a memref that "
        "dominates the op, as in embbag-aot's kernels); results in new "
        "device buffers are not supported yet");
  return std::nullopt;
}

/// `tensor` as a read-only buffer whose layout any buffer casts to, with
/// unit stride along the last dimension (what vector loads need).
Value gpu_lowering::readBuffer(ImplicitLocOpBuilder &b, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  strides.back() = 1;
  auto layout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides);
  auto bufferType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  Value buffer =
      bufferization::ToBufferOp::create(b, bufferType, tensor, b.getUnitAttr());
  // Through the assumption, not the to_buffer op: canonicalization would
  // turn a memref.load of a to_buffer into a tensor.extract, which
  // bufferizes back into a load without its alignment (and NVPTX splits an
  // i64 load whose alignment it does not know).
  return memref::AssumeAlignmentOp::create(b, buffer,
                                           type.getElementTypeBitWidth() / 8);
}

/// The memref that `result`, of `op`, is only materialized in, when it
/// dominates `op` and has the result's rank: the kernel writes there
/// directly.
bufferization::MaterializeInDestinationOp
gpu_lowering::findDestination(Value result, Operation *op) {
  if (!result.hasOneUse())
    return {};
  auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(
      *result.getUsers().begin());
  if (!m || !isa<MemRefType>(m.getDest().getType()))
    return {};
  auto destType = cast<MemRefType>(m.getDest().getType());
  if (!destType.getLayout().isIdentity() ||
      destType.getRank() != cast<ShapedType>(result.getType()).getRank())
    return {};
  DominanceInfo dominance(op->getParentOfType<FunctionOpInterface>());
  if (!dominance.properlyDominates(m.getDest(), op))
    return {};
  return m;
}

/// The destination of a bag op's result, which collapses to [num_bags, row].
static bufferization::MaterializeInDestinationOp
findDestination(BagOpInterface op) {
  return findDestination(op->getResult(0), op);
}

/// `dest` (an identity-layout memref) collapsed by `groups`. Each
/// collapsed dim is dynamic when a dim of its group is: the type
/// memref.collapse_shape infers has a static 0 for a group of a 0 and a
/// dynamic dim (rows of nothing), which its verifier rejects.
static Value collapse(ImplicitLocOpBuilder &b, Value dest,
                      ArrayRef<ReassociationIndices> groups) {
  auto type = cast<MemRefType>(dest.getType());
  SmallVector<int64_t> shape;
  for (const ReassociationIndices &group : groups) {
    int64_t size = 1;
    for (int64_t d : group)
      size = ShapedType::isDynamic(size) || type.isDynamicDim(d)
                 ? ShapedType::kDynamic
                 : size * type.getDimSize(d);
    shape.push_back(size);
  }
  return memref::CollapseShapeOp::create(
      b, MemRefType::get(shape, type.getElementType()), dest, groups);
}

/// The destination as [num_bags, row].
Value gpu_lowering::collapseDestination(ImplicitLocOpBuilder &b, Value dest) {
  auto type = cast<MemRefType>(dest.getType());
  if (type.getRank() == 2)
    return dest;
  if (type.getRank() == 1) {
    SmallVector<int64_t> shape{type.getDimSize(0), 1};
    return memref::ExpandShapeOp::create(
        b, MemRefType::get(shape, type.getElementType()), dest,
        ArrayRef<ReassociationIndices>{{0, 1}},
        ArrayRef<OpFoldResult>{memref::getMixedSize(b, b.getLoc(), dest, 0),
                               b.getIndexAttr(1)});
  }
  ReassociationIndices rows;
  for (int64_t d = 1; d < type.getRank(); ++d)
    rows.push_back(d);
  return collapse(b, dest, {{0}, rows});
}

/// The destination of a weights gradient as [num_indices].
Value gpu_lowering::flattenDestination(ImplicitLocOpBuilder &b, Value dest) {
  auto type = cast<MemRefType>(dest.getType());
  if (type.getRank() == 1)
    return dest;
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return collapse(b, dest, {all});
}

Value gpu_lowering::firstElementAddress(ImplicitLocOpBuilder &b, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  auto meta = memref::ExtractStridedMetadataOp::create(b, buffer);
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, buffer);
  return arith::AddIOp::create(
      b, pointer, arith::MulIOp::create(b, meta.getOffset(), cst(b, bytes)));
}

/// Whether `buffer`'s rows start on `alignment`-byte boundaries (i1): its
/// first element and its row stride.
static Value rowsAligned(ImplicitLocOpBuilder &b, Value buffer,
                         int64_t alignment) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  auto meta = memref::ExtractStridedMetadataOp::create(b, buffer);
  Value first = firstElementAddress(b, buffer);
  Value rowBytes =
      arith::MulIOp::create(b, meta.getStrides()[0], cst(b, bytes));
  auto aligned = [&](Value v) {
    return arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, v, cst(b, alignment)), cst(b, 0));
  };
  return arith::AndIOp::create(b, aligned(first), aligned(rowBytes));
}

/// Whether the lanes load 16-byte vectors: the row is a whole number of
/// them and both buffers' rows are aligned. Null when it cannot be.
static Value chooseVectors(ImplicitLocOpBuilder &b, const BagKernel &k) {
  if (k.vectorLength == 1)
    return Value();
  std::optional<int64_t> row = getConstantIntValue(k.rowLength);
  if (row && *row % k.vectorLength != 0)
    return Value();
  // A vector of codes is one code word.
  int64_t tableAlignment =
      k.rowwiseBits ? codeWordBits(k.rowwiseBits) / 8 : kVectorBytes;
  Value wholeVectors = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, k.rowLength, cst(b, k.vectorLength)),
      cst(b, 0));
  return arith::AndIOp::create(
      b, wholeVectors,
      arith::AndIOp::create(b, rowsAligned(b, k.table, tableAlignment),
                            rowsAligned(b, k.out, kVectorBytes)));
}

/// The lanes per bag: the power of two from 1 to 32 that covers the
/// row's loads (`loadsPerRow`), or 32.
Value gpu_lowering::lanesFor(ImplicitLocOpBuilder &b, Value loadsPerRow) {
  Value lanes = cst(b, kMaxLanesPerBag);
  for (int64_t p = kMaxLanesPerBag / 2; p >= 1; p /= 2)
    lanes = arith::SelectOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ule, loadsPerRow,
                              cst(b, p)),
        cst(b, p), lanes);
  return lanes;
}

/// Sets the launch configuration of `k`: lanes per bag and bags per block.
static void chooseLanes(ImplicitLocOpBuilder &b, BagKernel &k) {
  Value elementsPerLoad =
      k.useVectors ? arith::SelectOp::create(b, k.useVectors,
                                             cst(b, k.vectorLength), cst(b, 1))
                         .getResult()
                   : cst(b, 1);
  Value loadsPerRow =
      arith::CeilDivUIOp::create(b, k.rowLength, elementsPerLoad);
  k.lanesPerBag = lanesFor(b, loadsPerRow);
  k.bagsPerBlock = arith::DivUIOp::create(b, cst(b, kBlockSize), k.lanesPerBag);
}

/// A gpu.launch of the threads' code over `numBlocks` blocks, stream-ordered
/// and asynchronous: its stream is a `gpu.wait async`, which the runtime
/// makes the thread's current stream (docs/GPU.md). The host waits for the
/// kernel only if `hostWaits`, when it reads the flag word next; else the
/// caller orders its work after the kernel on that stream, as with
/// PyTorch's operators, and no launch pays a synchronization.
static void buildAsyncLaunch(ImplicitLocOpBuilder &b, ThreadBuilder thread,
                             Value numBlocks, bool hostWaits) {
  Value one = cst(b, 1), threads = cst(b, kBlockSize);
  Type tokenType = b.getType<gpu::AsyncTokenType>();
  Value stream =
      gpu::WaitOp::create(b, tokenType, ValueRange{}).getAsyncToken();
  auto launch = gpu::LaunchOp::create(b, numBlocks, one, one, threads, one, one,
                                      /*dynamicSharedMemorySize=*/nullptr,
                                      tokenType, ValueRange{stream});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&launch.getBody().front());
    thread(b, launch.getBlockIds().x, launch.getThreadIds().x);
    gpu::TerminatorOp::create(b);
  }
  if (hostWaits)
    gpu::WaitOp::create(b, Type(), ValueRange{launch.getAsyncToken()});
}

/// Runs the threads' code over `numBlocks` blocks: a gpu.launch, or two
/// nested scf.parallel loops on the host.
void gpu_lowering::buildLaunch(ImplicitLocOpBuilder &b, ThreadBuilder thread,
                               Value numBlocks, bool hostLoops,
                               bool hostWaits) {
  Value zero = cst(b, 0);
  if (hostLoops) {
    Value one = cst(b, 1), threads = cst(b, kBlockSize);
    scf::ParallelOp::create(
        b, ValueRange{zero}, ValueRange{numBlocks}, ValueRange{one},
        [&](OpBuilder &nested, Location loc, ValueRange blocks) {
          scf::ParallelOp::create(
              nested, loc, ValueRange{zero}, ValueRange{threads},
              ValueRange{one},
              [&](OpBuilder &inner, Location l, ValueRange ids) {
                ImplicitLocOpBuilder tb(l, inner);
                thread(tb, blocks[0], ids[0]);
              });
        });
    return;
  }
  // A grid of no blocks is an error for the driver: no bags, no launch.
  Value any =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, numBlocks, zero);
  scf::IfOp::create(b, any, [&](OpBuilder &nested, Location loc) {
    ImplicitLocOpBuilder tb(loc, nested);
    buildAsyncLaunch(tb, thread, numBlocks, hostWaits);
    scf::YieldOp::create(tb);
  });
}

/// The runtime function that returns the calling thread's flag word:
/// pinned host memory the device writes through (docs/GPU.md).
static constexpr StringLiteral kStatusWordFunction = "embbagCudaStatusWord";

/// Declares kStatusWordFunction in `module` unless it is: called through
/// its C interface (a descriptor written by the callee).
static void declareStatusWordFunction(ModuleOp module) {
  if (module.lookupSymbol(kStatusWordFunction))
    return;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto type = MemRefType::get({1}, b.getI32Type());
  auto f = func::FuncOp::create(b, module.getLoc(), kStatusWordFunction,
                                b.getFunctionType({}, {type}));
  f.setPrivate();
  f->setAttr("llvm.emit_c_interface", b.getUnitAttr());
}

/// The flag word the kernel's checks set, zeroed: the runtime's word on
/// the GPU, or a stack slot for host loops.
Value gpu_lowering::allocateFlag(ImplicitLocOpBuilder &b, bool hostLoops) {
  auto type = MemRefType::get({1}, b.getI32Type());
  Value flag = hostLoops ? memref::AllocaOp::create(b, type).getResult()
                         : func::CallOp::create(b, kStatusWordFunction,
                                                TypeRange{type}, ValueRange{})
                               .getResult(0);
  memref::StoreOp::create(b,
                          arith::ConstantOp::create(b, b.getI32IntegerAttr(0)),
                          flag, ValueRange{cst(b, 0)});
  return flag;
}

/// The bits of the flag word that the kernels of one launch share out: an
/// int32_t's, but the sign bit, which `int32_t(1) << 31` does not reach in
/// C++17.
static constexpr int kFlagWordBits = 31;

namespace {

/// An op's kernel as the host prepares it for a launch.
struct HostKernel {
  BagOpInterface op;
  std::unique_ptr<KernelChecks> checks;
  BagKernel k;
  bufferization::MaterializeInDestinationOp dest;
  RankedTensorType outType; // the type of `k.out` as a tensor, when there is
                            // no destination (a new buffer)
  Value numBlocks; // index
  // When the kernels of a launch share its flag word: each rule's bit in
  // the word, paired with the bit its report reads. Empty: the same bits.
  SmallVector<std::pair<int32_t, int32_t>> sharedBits;
};

} // namespace

/// Bytes of kernel parameters that a buffer of `rank` takes once outlined:
/// its descriptor (allocated and aligned pointers, offset, sizes, strides).
static int64_t descriptorParamBytes(int64_t rank) { return (3 + 2 * rank) * 8; }

/// The index values (sizes, lanes, bounds, its first block) that a
/// kernel's threads may read besides its buffers, as parameters: more
/// than any kernel reads.
constexpr int64_t kScalarParamBytesBound = 16 * 8;

/// An upper bound on the kernel parameter bytes that `hk` adds to a
/// launch: its op's operands as buffers or scalars, its result buffer and
/// its scalars (the flag word, shared, is counted by the launch).
static int64_t paramBytesBound(const HostKernel &hk) {
  int64_t bytes = descriptorParamBytes(2) + kScalarParamBytesBound;
  for (Value operand : hk.op->getOperands()) {
    auto shaped = dyn_cast<ShapedType>(operand.getType());
    bytes += shaped ? descriptorParamBytes(shaped.getRank()) : 8;
  }
  return bytes;
}

/// The fields of `k` that hold the bits its threads set.
static std::array<int32_t *, 4> flagFields(BagKernel &k) {
  return {&k.offsetsBit, &k.indicesBit, &k.segmentIdsBit, &k.unsortedBit};
}

/// The bits of the flag word that `k`'s threads set.
static int countFlagBits(BagKernel &k) {
  return llvm::count_if(flagFields(k), [](int32_t *bit) { return *bit != 0; });
}

/// Gives every rule of `kernels`, which share one flag word (the runtime
/// has one per thread), a bit of its own, from bit 0 up.
static void shareFlagWord(MutableArrayRef<HostKernel> kernels) {
  int next = 0;
  for (HostKernel &hk : kernels) {
    for (int32_t *bit : flagFields(hk.k)) {
      if (!*bit)
        continue;
      int32_t own = int32_t(1) << next++;
      hk.sharedBits.push_back({own, *bit});
      *bit = own;
    }
  }
  assert(next <= kFlagWordBits && "more rules than bits in the flag word");
}

/// One kernel's flags, in the bits its reports read, from the `word` that
/// the kernels of its launch share.
static Value unshareFlags(ImplicitLocOpBuilder &b, Value word,
                          ArrayRef<std::pair<int32_t, int32_t>> sharedBits) {
  if (sharedBits.empty())
    return word;
  auto i32 = [&](int32_t v) -> Value {
    return arith::ConstantOp::create(b, b.getI32IntegerAttr(v));
  };
  Value flags = i32(0);
  for (auto [own, bit] : sharedBits) {
    Value set =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                              arith::AndIOp::create(b, word, i32(own)), i32(0));
    flags = arith::OrIOp::create(
        b, flags, arith::SelectOp::create(b, set, i32(bit), i32(0)));
  }
  return flags;
}

/// The threads' code of one launch of `kernels`, whose blocks follow one
/// another from `bases` on (the first kernel's at 0, its base unused): a
/// block runs the kernel whose blocks hold it, on its own block number.
static void buildBatchThread(ImplicitLocOpBuilder &b,
                             ArrayRef<HostKernel> kernels,
                             ArrayRef<Value> bases, Value block, Value thread) {
  if (kernels.size() == 1) {
    buildBagThread(b, kernels.front().k, block, thread);
    return;
  }
  // The kernel's number: how many of the other bases the block reaches. An
  // empty kernel's base is its successor's, so no block gets its number.
  Value which = cst(b, 0);
  for (Value base : bases.drop_front()) {
    Value reached =
        arith::CmpIOp::create(b, arith::CmpIPredicate::uge, block, base);
    which = arith::AddIOp::create(
        b, which, arith::SelectOp::create(b, reached, cst(b, 1), cst(b, 0)));
  }
  SmallVector<int64_t> cases = llvm::to_vector(
      llvm::seq<int64_t>(0, static_cast<int64_t>(kernels.size())));
  auto switchOp =
      scf::IndexSwitchOp::create(b, TypeRange{}, which, cases, cases.size());
  OpBuilder::InsertionGuard guard(b);
  for (auto [i, region] : llvm::enumerate(switchOp.getCaseRegions())) {
    b.setInsertionPointToStart(&region.emplaceBlock());
    Value own = i == 0 ? block : arith::SubIOp::create(b, block, bases[i]);
    buildBagThread(b, kernels[i].k, own, thread);
    scf::YieldOp::create(b);
  }
  // Every block has a kernel.
  b.setInsertionPointToStart(&switchOp.getDefaultRegion().emplaceBlock());
  scf::YieldOp::create(b);
}

/// The bags of a packed or offsets op.
static BagBounds getBounds(ImplicitLocOpBuilder &b, BagOpInterface op) {
  Value rows = dim(b, op.getIndices(), 0);
  if (op.getBagForm() == BagForm::Packed)
    return BagBounds::fromPacked(b, b.getLoc(), rows,
                                 dim(b, op.getIndices(), 1));
  return BagBounds::fromOffsets(b, b.getLoc(), readBuffer(b, op.getBags()),
                                rows, op.getIncludeLastOffset());
}

/// num_segments as an index, none when negative (a broken contract that
/// the host's checks stop on).
static Value numSegments(ImplicitLocOpBuilder &b, BagOpInterface op) {
  return arith::MaxSIOp::create(b, toIndex(b, op.getMixedNumSegments()),
                                cst(b, 0));
}

BagKernel
gpu_lowering::buildBagKernel(ImplicitLocOpBuilder &b, BagOpInterface op,
                             const KernelChecks &checks,
                             const ConvertEmbBagToGPUOptions &options) {
  bool packed = op.getBagForm() == BagForm::Packed;
  auto flatten = [&](Value v) { return packed ? flattenBags(b, v) : v; };
  Value table = flattenTable(b, op.getTable());
  BagKernel k;
  k.reduction = op.getReduction();
  k.table = readBuffer(b, table);
  k.indices = readBuffer(b, flatten(op.getIndices()));
  if (op.getWeights())
    k.weights = readBuffer(b, flatten(op.getWeights()));
  if (std::optional<OpFoldResult> d = op.getMixedDefaultIndex())
    k.defaultIndex = toIndex(b, *d);
  if (Value padding = op.getPaddingIdx())
    k.paddingIdx = toIndex(b, padding);
  k.numEmb = dim(b, table, 0);
  k.resultType = getElementTypeOrSelf(op->getResult(0).getType());
  k.rowLength = dim(b, table, 1);
  k.rowwiseBits = rowwiseBits(op);
  if (k.rowwiseBits) {
    // A row's bytes: the codes, then an f32 scale and bias (8-bit codes)
    // or f16 ones. Only 8-bit codes may leave the row length to the
    // table (the verifier).
    int64_t tailBytes = k.rowwiseBits == 8 ? 8 : 4;
    k.scaleColumn =
        b.createOrFold<arith::SubIOp>(k.rowLength, cst(b, tailBytes));
    auto resultType = cast<ShapedType>(op->getResult(0).getType());
    k.rowLength = resultType.isDynamicDim(1) ? k.scaleColumn
                                             : cst(b, resultType.getDimSize(1));
  }
  if (op.getBagForm() == BagForm::Segments) {
    k.segmentIds = readBuffer(b, op.getBags());
    k.bounds = sortedSegmentBounds(b, k.segmentIds, numSegments(b, op));
    k.segmentIdsBit = checks.getBit(contract::Rule::SegmentIdsInRange);
    if (k.segmentIdsBit)
      k.unsortedBit = kUnsortedBit;
  } else {
    k.bounds = getBounds(b, op);
  }
  Type element = getElementTypeOrSelf(table.getType());
  k.vectorLength = k.rowwiseBits
                       ? codeWordBits(k.rowwiseBits) / k.rowwiseBits
                       : kVectorBytes * 8 / element.getIntOrFloatBitWidth();
  k.rowsInFlight = options.rowsInFlight;
  k.onDevice = !options.hostLoops;
  k.offsetsBit = checks.getBit(contract::Rule::OffsetsInIndices);
  k.indicesBit = checks.getBit(contract::Rule::IndicesInTable);
  return k;
}

/// Before the launch: with no segments, every id breaks the range rule,
/// and no thread runs to flag it. Or'ed into the word, which the other
/// kernels of a launch may share.
void gpu_lowering::flagIdsWithoutSegments(ImplicitLocOpBuilder &b,
                                          const BagKernel &k) {
  auto eq = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, y);
  };
  Value broken = arith::AndIOp::create(
      b, eq(k.bounds.numBags, cst(b, 0)),
      arith::XOrIOp::create(b, eq(k.bounds.numIndices, cst(b, 0)),
                            arith::ConstantOp::create(b, b.getBoolAttr(true))));
  Value i32 = arith::ExtUIOp::create(b, b.getI32Type(), broken);
  Value bits = arith::MulIOp::create(
      b, i32,
      arith::ConstantOp::create(b, b.getI32IntegerAttr(k.segmentIdsBit)));
  Value word = memref::LoadOp::create(b, k.flag, ValueRange{cst(b, 0)});
  memref::StoreOp::create(b, arith::OrIOp::create(b, word, bits), k.flag,
                          ValueRange{cst(b, 0)});
}

void gpu_lowering::reportFlags(ImplicitLocOpBuilder &b, Operation *op,
                               KernelChecks &checks, const BagKernel &k,
                               Value flags) {
  checks.reportFlags(flags);
  if (!k.unsortedBit)
    return;
  Value bit = arith::ConstantOp::create(b, b.getI32IntegerAttr(kUnsortedBit));
  Value sorted = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq, arith::AndIOp::create(b, flags, bit),
      arith::ConstantOp::create(b, b.getI32IntegerAttr(0)));
  emitAssert(b, op, sorted,
             "segment ids not sorted: embbag.segments on the GPU needs "
             "sorted segment ids");
}

namespace {

/// The lowering of bag ops into launches: of one op, or of a batch of them
/// (batch-tables), each with its own kernel.
class KernelLowering {
public:
  explicit KernelLowering(const ConvertEmbBagToGPUOptions &options)
      : options(options) {}

  /// Checks `op`'s contract on the host and builds its kernel's operands,
  /// result buffer and launch configuration, at `b`'s point.
  HostKernel prepare(ImplicitLocOpBuilder &b, BagOpInterface op) const {
    HostKernel hk;
    hk.op = op;
    hk.checks = std::make_unique<KernelChecks>(b, op, kHostCheckVectorBits);
    if (options.checks) {
      (void)hk.checks->evaluate(contract::getContract(op));
      emitDestinationChecks(b, op, kHostCheckVectorBits);
    }
    BagKernel &k = hk.k;
    k = buildBagKernel(b, op, *hk.checks, options);
    hk.dest = findDestination(op);
    if (hk.dest)
      k.out = collapseDestination(b, hk.dest.getDest());
    else
      hk.outType = buildResultBuffer(b, op, k);
    k.useVectors = chooseVectors(b, k);
    chooseLanes(b, k);
    hk.numBlocks =
        arith::CeilDivUIOp::create(b, k.bounds.numBags, k.bagsPerBlock);
    return hk;
  }

  /// One launch of `kernels`' threads (the first's blocks, then the
  /// second's, ...), then each kernel's flags reported in turn.
  void launch(ImplicitLocOpBuilder &b,
              MutableArrayRef<HostKernel> kernels) const {
    bool checked = llvm::any_of(kernels, [](const HostKernel &hk) {
      return hk.checks->hasKernelClauses();
    });
    Value flag = checked ? allocateFlag(b, options.hostLoops) : Value();
    if (kernels.size() > 1)
      shareFlagWord(kernels);
    for (HostKernel &hk : kernels) {
      if (!hk.checks->hasKernelClauses())
        continue;
      hk.k.flag = flag;
      if (hk.k.segmentIdsBit)
        flagIdsWithoutSegments(b, hk.k);
    }
    SmallVector<Value> bases{Value()};
    Value numBlocks = kernels.front().numBlocks;
    for (HostKernel &hk : kernels.drop_front()) {
      bases.push_back(numBlocks);
      numBlocks = arith::AddIOp::create(b, numBlocks, hk.numBlocks);
    }
    auto thread = [&](ImplicitLocOpBuilder &tb, Value block, Value id) {
      buildBatchThread(tb, kernels, bases, block, id);
    };
    buildLaunch(b, thread, numBlocks, options.hostLoops, /*hostWaits=*/checked);
    if (!flag)
      return;
    Value word = memref::LoadOp::create(b, flag, ValueRange{cst(b, 0)});
    for (HostKernel &hk : kernels) {
      if (!hk.k.flag)
        continue;
      b.setLoc(hk.op.getLoc());
      reportFlags(b, hk, unshareFlags(b, word, hk.sharedBits));
    }
  }

  /// Replaces the kernel's op by its result, or erases it and its
  /// materialization when the kernel wrote the destination.
  static void finish(ImplicitLocOpBuilder &b, RewriterBase &rewriter,
                     HostKernel &hk) {
    if (hk.dest) {
      rewriter.eraseOp(hk.dest);
      rewriter.eraseOp(hk.op);
      return;
    }
    Value result = bufferization::ToTensorOp::create(
        b, hk.outType, hk.k.out, b.getUnitAttr(), b.getUnitAttr());
    rewriter.replaceOp(hk.op,
                       unflattenResult(b, result, hk.op.getBagResultType(),
                                       hk.op.getTable(), hk.k.bounds.numBags));
  }

private:
  /// A new [num_bags, row] buffer for the result, `k.out`; returns its
  /// type as a tensor. A memref.alloc, not the buffer of a tensor.empty:
  /// CSE merges equal tensor.empty ops, and the kernels of two ops then
  /// wrote one buffer (the second reading the first's result as its table
  /// overwrote it as it read it).
  static RankedTensorType buildResultBuffer(ImplicitLocOpBuilder &b,
                                            BagOpInterface op, BagKernel &k) {
    RankedTensorType resultType = op.getBagResultType();
    int64_t row = k.scaleColumn
                      ? ShapedType::kDynamic
                      : cast<MemRefType>(k.table.getType()).getDimSize(1);
    if (auto constant = getConstantIntValue(k.rowLength))
      row = *constant;
    auto type =
        RankedTensorType::get({resultType.getDimSize(0), row}, k.resultType);
    SmallVector<Value> sizes;
    for (auto [d, size] :
         llvm::enumerate(SmallVector<Value>{k.bounds.numBags, k.rowLength}))
      if (type.isDynamicDim(d))
        sizes.push_back(size);
    k.out = memref::AllocOp::create(
        b, MemRefType::get(type.getShape(), type.getElementType()), sizes);
    return type;
  }

  /// Reports the device's rules from the kernel's `flags` (in the bits the
  /// checks read), then ids that are in range but not sorted.
  static void reportFlags(ImplicitLocOpBuilder &b, HostKernel &hk,
                          Value flags) {
    gpu_lowering::reportFlags(b, hk.op, *hk.checks, hk.k, flags);
  }

  ConvertEmbBagToGPUOptions options;
};

struct BagOpToGPU : public OpInterfaceRewritePattern<BagOpInterface> {
  BagOpToGPU(MLIRContext *ctx, const ConvertEmbBagToGPUOptions &options)
      : OpInterfaceRewritePattern<BagOpInterface>(ctx), options(options) {}

  LogicalResult matchAndRewrite(BagOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<StringRef> reason =
            getUnsupportedReason(op, options.hostLoops))
      return rewriter.notifyMatchFailure(op, *reason);
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelLowering lowering(options);
    HostKernel hk = lowering.prepare(b, op);
    lowering.launch(b, hk);
    KernelLowering::finish(b, rewriter, hk);
    return success();
  }

private:
  ConvertEmbBagToGPUOptions options;
};

} // namespace

/// Lowers `group` at its last op: launches of as many of its kernels as
/// their rules' bits let share a flag word and their parameters fit
/// `options.kernelParamBytes`, in the group's order (one launch unless
/// there are more rules than kFlagWordBits or more parameters).
static void lowerGroup(ArrayRef<BagOpInterface> group,
                       const ConvertEmbBagToGPUOptions &options) {
  Operation *last = group.back();
  IRRewriter rewriter(last->getContext());
  rewriter.setInsertionPoint(last);
  ImplicitLocOpBuilder b(last->getLoc(), rewriter);
  SmallVector<Location> locs = llvm::map_to_vector(
      group, [](BagOpInterface op) { return op->getLoc(); });
  Location fused = FusedLoc::get(b.getContext(), locs);
  KernelLowering lowering(options);
  SmallVector<HostKernel, 4> batch;
  int bits = 0;
  // The flag word's descriptor.
  const int64_t launchParamBytes = descriptorParamBytes(1);
  int64_t paramBytes = launchParamBytes;
  auto flush = [&] {
    b.setLoc(fused);
    lowering.launch(b, batch);
    for (HostKernel &hk : batch) {
      b.setLoc(hk.op.getLoc());
      KernelLowering::finish(b, rewriter, hk);
    }
    batch.clear();
    bits = 0;
    paramBytes = launchParamBytes;
  };
  for (BagOpInterface op : group) {
    b.setLoc(op.getLoc());
    HostKernel hk = lowering.prepare(b, op);
    int opBits = countFlagBits(hk.k);
    int64_t opParamBytes = paramBytesBound(hk);
    if (!batch.empty() &&
        (bits + opBits > kFlagWordBits ||
         (!options.hostLoops &&
          paramBytes + opParamBytes > options.kernelParamBytes)))
      flush();
    bits += opBits;
    paramBytes += opParamBytes;
    batch.push_back(std::move(hk));
  }
  flush();
}

/// batch-tables: lowers the groups of independent ops that this lowering
/// takes (docs/GPU.md, "Table batching: one launch"); an op's
/// materialization into a destination goes with it.
static void batchTables(Operation *root,
                        const ConvertEmbBagToGPUOptions &options) {
  BagGroupRules rules;
  rules.takes = [&](BagOpInterface op) {
    return !getUnsupportedReason(op, options.hostLoops);
  };
  rules.absorbedUser = [](BagOpInterface op) -> Operation * {
    return findDestination(op);
  };
  SmallVector<SmallVector<BagOpInterface>> groups;
  root->walk(
      [&](Block *block) { findIndependentBagOps(*block, groups, rules); });
  for (ArrayRef<BagOpInterface> group : groups)
    lowerGroup(group, options);
}

namespace {

struct ConvertEmbBagToGPUPass
    : public embbag::impl::ConvertEmbBagToGPUBase<ConvertEmbBagToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(verifyOptions()))
      return signalPassFailure();
    if (!leaveUnsupported && failed(refuseUnsupported()))
      return signalPassFailure();
    if (!hostLoops && failed(declareRuntime()))
      return signalPassFailure();
    ConvertEmbBagToGPUOptions options{checks,
                                      hostLoops,
                                      rowsInFlight,
                                      leaveUnsupported,
                                      batchTables,
                                      kernelParamBytes,
                                      trainingOwners,
                                      trainingChunkPositions,
                                      trainingPiecePositions};
    if (batchTables)
      ::batchTables(getOperation(), options);
    RewritePatternSet patterns(&getContext());
    patterns.add<BagOpToGPU>(&getContext(), options);
    populateTrainingOpToGPUPatterns(patterns, options);
    lowering::rewriteEach(
        getOperation(),
        [](Operation *op) {
          return isa<BagOpInterface>(op) || isTrainingOp(op);
        },
        std::move(patterns));
  }

  /// Reports the options out of their range.
  LogicalResult verifyOptions() {
    Location loc = getOperation()->getLoc();
    if (rowsInFlight < 1 || rowsInFlight > 16)
      return emitError(loc) << "rows-in-flight must lie in [1, 16], not "
                            << rowsInFlight.getValue();
    // The sort keeps a word per digit and chunk (up to 2048 chunks).
    if (!llvm::isPowerOf2_32(trainingOwners) || trainingOwners > 65536)
      return emitError(loc)
             << "training-owners must be a power of two from 1 to 65536, not "
             << trainingOwners.getValue();
    if (trainingChunkPositions < 1)
      return emitError(loc) << "training-chunk-positions must be at least 1";
    if (trainingPiecePositions < 1)
      return emitError(loc) << "training-piece-positions must be at least 1";
    return success();
  }

  /// Declares the runtime functions the kernels call: the status word of
  /// the checked ones, the scratch memory of the training ops that need
  /// it. In the module the pass runs on, since a pass on a function must
  /// not add to its parent.
  LogicalResult declareRuntime() {
    bool anyKernel = false, anyScratch = false, anyAllocation = false;
    getOperation()->walk([&](Operation *op) {
      bool training = isTrainingOp(op) &&
                      !getTrainingUnsupportedReason(op, /*hostLoops=*/false);
      anyKernel |= isa<BagOpInterface>(op) || training;
      anyScratch |= training && needsScratch(op);
      anyAllocation |= training && allocatesResults(op);
    });
    bool status = checks && anyKernel;
    if (!status && !anyScratch)
      return success();
    auto module = dyn_cast<ModuleOp>(getOperation());
    if (!module)
      return emitError(getOperation()->getLoc())
             << "convert-embbag-to-gpu must run on a module here: it "
                "declares the runtime function "
             << (status ? StringRef(kStatusWordFunction)
                        : StringRef("embbagCudaScratch"))
             << " there";
    if (status)
      declareStatusWordFunction(module);
    if (anyScratch)
      declareScratchFunction(module);
    if (anyAllocation)
      declareResultFunctions(module);
    return success();
  }

  /// Reports every op this lowering does not take, before anything is
  /// rewritten.
  LogicalResult refuseUnsupported() {
    bool refused = false;
    getOperation()->walk([&](Operation *op) {
      std::optional<StringRef> reason;
      if (auto bag = dyn_cast<BagOpInterface>(op))
        reason = getUnsupportedReason(bag, hostLoops);
      else if (isTrainingOp(op))
        reason = getTrainingUnsupportedReason(op, hostLoops);
      if (reason) {
        op->emitOpError("cannot be lowered to the GPU: ") << *reason;
        refused = true;
      }
    });
    return failure(refused);
  }
};

} // namespace
