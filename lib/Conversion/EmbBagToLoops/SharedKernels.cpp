//===- SharedKernels.cpp - Row-length versions shared by a module's ops ---===//
//
// A row length known only at run time needs one version of the bag loop per
// vector count (RowLengthDispatch.cpp): 16 to 30 loop nests, each with its
// prefetch variants. Built into every op, they made a module of 20 such ops
// take 32 s to lower and 1.2 MB of machine code. When the pass runs on a
// module, they are built once per kind of kernel instead, as private
// functions that every op of that kind calls, in the manner of IREE's
// microkernels:
//
//   op:  checks, normal form; bounds[b] = (start, end) of each bag b
//        @<kind>__dispatch(buffers..., num_bags, bounds, result)
//   @<kind>__dispatch                  buffers of unit inner stride (a copy
//     for each block of the row:       when a caller's is not); one block
//       switch key(block):             unless the row is longer than every
//         case K: @<kind>__row_version_K(..., col, end, result)
//   @<kind>__row_version_K             the bag loop of version K for the
//                                      columns [col, end) of each row
//
// A kind is what the versions' code depends on: the element, index and
// weight types, the reduction and its options, and the kernel's shape. The
// op's form does not count: each op computes its bags' bounds into a
// [num_bags, 2] tensor (one pass over the bags before the kernel, about a
// nanosecond a bag), which the versions read instead of the form's offsets.
//
// Bufferization. The result is a tensor argument (identity layout) that
// the dispatcher's block loop and each version's bag loop carry: one-shot
// bufferization writes it in the caller's buffer, through the calls, and
// --embbag-to-llvm drops the functions' results afterwards. The inputs go
// to the dispatcher as buffers of any layout (bufferization.to_buffer
// read_only, which casts any buffer in place) and to the versions with
// unit inner stride, what their vector loads need. An op whose result
// goes into a slice keeps its own inline versions (the result argument's
// identity layout would copy the slice), as does every op when the pass
// runs on a function alone (it may not add functions to the module).
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::loops;

// versionKey names every field of the normal form and of the shape that
// the versions' code depends on: a new field must be added there (or ops
// that differ in it would share one kernel), then these sizes updated.
static_assert(sizeof(KernelShape) == 176, "add the new field to versionKey");
static_assert(sizeof(BagProblem) == 184, "add the new field to versionKey");
static_assert(sizeof(TargetModel) == 112, "add the new field to versionKey");

//===----------------------------------------------------------------------===//
// The kind and the arguments
//===----------------------------------------------------------------------===//

/// `v` as the shared functions take it: a tensor of dynamic shape.
static Type dynamicType(Value v) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    return v.getType();
  return RankedTensorType::get(
      SmallVector<int64_t>(tensor.getRank(), ShapedType::kDynamic),
      tensor.getElementType());
}

/// The op's values the kernel reads, in the order of the shared functions'
/// arguments: table, indices, [weights], [default], [padding], [the check
/// flag word, num_emb], num_bags, bounds. (The versions take the block's
/// columns and the result after them, the dispatcher the result.)
static SmallVector<Value> kernelOperands(const BagProblem &p, Value bounds) {
  SmallVector<Value> operands{p.table, p.indices};
  for (Value optional : {p.weights, p.defaultIndex, p.paddingIdx})
    if (optional)
      operands.push_back(optional);
  if (p.checkFlag) {
    operands.push_back(p.checkFlag);
    if (p.bagChecks.indicesBit)
      operands.push_back(p.bagChecks.numEmb);
  }
  llvm::append_values(operands, p.numBags, bounds);
  return operands;
}

/// Everything the versions' code depends on, as a string.
static std::string versionKey(const BagProblem &p, const KernelShape &shape) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << stringifyReduction(p.reduction) << " unsigned=" << p.isUnsigned
     << " values=" << p.valueType << " table=" << dynamicType(p.table)
     << " indices=" << dynamicType(p.indices) << " rowwise=" << p.rowwiseBits
     << " default=" << bool(p.defaultIndex) << " padding=" << bool(p.paddingIdx)
     << " lanes=" << shape.lanes << " row=" << shape.rowLength
     << " vectors=" << shape.maxVectors << "/" << shape.maxMaskedVectors
     << " masks=" << shape.maskRegisters
     << " prefetch=" << shape.prefetchDistance << "/" << shape.prefetchLocality
     << " unroll=" << shape.unroll << " parallel=" << shape.parallel << "/"
     << shape.chunkLines << " checks=" << bool(p.checkFlag) << "/"
     << p.bagChecks.offsetsBit << "/" << p.bagChecks.indicesBit << "/"
     << p.bagChecks.vectorBits;
  // The prefetch decisions taken at run time read the cache model.
  const TargetModel &target = shape.target;
  const PrefetchPolicy &policy = target.prefetch;
  os << " line=" << target.cacheLineBytes << " l2=" << target.l2CacheBytes
     << " llc=" << target.lastLevelCacheBytes
     << " ahead=" << policy.lastLevelDistance << "/" << policy.bytesInFlight
     << "/" << policy.minDistance << "/" << policy.maxDistance << "/"
     << policy.shortRowBytes << "/" << policy.shortRowDistance << "/"
     << policy.indexLead << " weights=";
  if (p.weights)
    os << dynamicType(p.weights);
  // (A quantized table's row length comes from the op's result type, whose
  // row dimension is dynamic in every op that gets here.)
  return key;
}

/// The normal form of a shared function whose first arguments are
/// `kernelOperands`: `problem`'s flags, its values those arguments, each
/// bag's range read from the bounds, and checked as `problem`'s are.
static BagProblem mapProblem(ImplicitLocOpBuilder &b, const BagProblem &problem,
                             ValueRange args) {
  BagProblem p = problem;
  unsigned next = 0;
  p.table = args[next++];
  p.indices = args[next++];
  p.weights = problem.weights ? args[next++] : Value();
  p.defaultIndex = problem.defaultIndex ? args[next++] : Value();
  p.paddingIdx = problem.paddingIdx ? args[next++] : Value();
  if (problem.checkFlag) {
    p.checkFlag = args[next++];
    if (p.bagChecks.indicesBit)
      p.bagChecks.numEmb = args[next++];
    p.bagChecks.numIndices = dim(b, p.indices, 0);
  }
  p.numBags = args[next++];
  Value bounds = args[next];
  p.ranges = [bounds](OpBuilder &b, Location loc, Value bag) {
    auto column = [&](int64_t c) -> Value {
      Value pos = arith::ConstantIndexOp::create(b, loc, c);
      return tensor::ExtractOp::create(b, loc, bounds, ValueRange{bag, pos});
    };
    return std::make_pair(column(0), column(1));
  };
  if (p.checkFlag) {
    p.uncheckedRanges = p.ranges;
    p.ranges = checkedRanges(p.ranges, p.bagChecks, p.checkFlag, p.indices);
  }
  return p;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// The layout the versions' buffers get: unit inner stride (what vector
/// loads need), any outer strides and offset, so that a slice is passed in
/// place.
static StridedLayoutAttr unitInnerStrideLayout(MLIRContext *context,
                                               int64_t rank) {
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  strides.back() = 1;
  return StridedLayoutAttr::get(context, ShapedType::kDynamic, strides);
}

/// The buffer type the dispatcher takes a tensor of `type` as: any layout,
/// so that the caller's buffer is always cast to it in place.
static MemRefType anyLayoutBuffer(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> strides(tensor.getRank(), ShapedType::kDynamic);
  return MemRefType::get(
      tensor.getShape(), tensor.getElementType(),
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, strides));
}

/// A copy of `source` in a new buffer, element by element (a buffer whose
/// inner stride is not 1 is rare: no vectors, and no library call).
static Value copyToNewBuffer(ImplicitLocOpBuilder &b, Value source) {
  auto type = cast<MemRefType>(source.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(memref::DimOp::create(b, source, d));
  Value copy = memref::AllocOp::create(
      b, MemRefType::get(type.getShape(), type.getElementType()), sizes);
  SmallVector<Value> position;
  std::function<void(ImplicitLocOpBuilder &)> copyFrom =
      [&](ImplicitLocOpBuilder &lb) {
        if (position.size() == sizes.size()) {
          Value v = memref::LoadOp::create(lb, source, position);
          memref::StoreOp::create(lb, v, copy, position);
          return;
        }
        scf::ForOp::create(
            lb, cst(lb, 0), sizes[position.size()], cst(lb, 1), ValueRange{},
            [&](OpBuilder &nested, Location loc, Value i, ValueRange) {
              ImplicitLocOpBuilder ib(loc, nested);
              position.push_back(i);
              copyFrom(ib);
              position.pop_back();
              scf::YieldOp::create(ib);
            });
      };
  copyFrom(b);
  return copy;
}

/// `buffer` (any layout) with unit inner stride, the layout the versions
/// take: itself when its inner stride is 1, else a copy.
static Value withUnitInnerStride(ImplicitLocOpBuilder &b, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  auto unitType =
      MemRefType::get(type.getShape(), type.getElementType(),
                      unitInnerStrideLayout(b.getContext(), type.getRank()));
  auto metadata = memref::ExtractStridedMetadataOp::create(b, buffer);
  Value unit = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                     metadata.getStrides().back(), cst(b, 1));
  SmallVector<OpFoldResult> strides =
      getAsOpFoldResult(ValueRange(metadata.getStrides()));
  strides.back() = b.getIndexAttr(1);
  auto ifOp = scf::IfOp::create(
      b, unit,
      [&](OpBuilder &nested, Location loc) {
        Value same = memref::ReinterpretCastOp::create(
            nested, loc, unitType, buffer, metadata.getOffset(),
            getAsOpFoldResult(ValueRange(metadata.getSizes())), strides);
        scf::YieldOp::create(nested, loc, same);
      },
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder eb(loc, nested);
        Value copy = copyToNewBuffer(eb, buffer);
        scf::YieldOp::create(
            eb, memref::CastOp::create(eb, unitType, copy).getResult());
      });
  return ifOp.getResult(0);
}

//===----------------------------------------------------------------------===//
// The functions
//===----------------------------------------------------------------------===//

/// A private function `name` of `types` -> `resultType` in `symbols` (its
/// name made unique), internal and never inlined by LLVM: each version
/// gets its own register allocation, and the dispatcher stays one call.
static func::FuncOp createFunction(SymbolTable &symbols, Location loc,
                                   StringRef name, TypeRange types,
                                   Type resultType) {
  OpBuilder b(loc.getContext());
  auto func =
      func::FuncOp::create(loc, name, b.getFunctionType(types, resultType));
  func.setPrivate();
  func->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
  func->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    b.getContext(), LLVM::Linkage::Internal));
  func.addEntryBlock();
  symbols.insert(func);
  return func;
}

/// The row length of the problem: the table's, or a quantized row's.
static Value rowLength(ImplicitLocOpBuilder &b, KernelContext &k) {
  return k.p.rowwiseBits ? planQuantizedRow(b, k) : dim(b, k.p.table, 1);
}

/// The columns [col, row) of every row of the 2-D `table`.
static Value sliceColumns(ImplicitLocOpBuilder &b, Value table, Value col,
                          Value row) {
  SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), col};
  SmallVector<OpFoldResult> sizes{
      getAsOpFoldResult(dim(b, table, 0)),
      getAsOpFoldResult(arith::SubIOp::create(b, row, col).getResult())};
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, table, offsets, sizes, strides);
}

/// The function of one version: the bag loop of `version` for the columns
/// [col, end) of each bag's row. Its tensors but the result (the last
/// argument) come in buffers of unit inner stride.
static func::FuncOp buildVersion(SymbolTable &symbols, Location loc,
                                 StringRef name, const BagProblem &problem,
                                 const KernelShape &shape, TypeRange types,
                                 const RowVersion &version) {
  func::FuncOp func = createFunction(symbols, loc, name, types, types.back());
  for (auto [i, type] : llvm::enumerate(types.drop_back()))
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      func.setArgAttr(
          i, bufferization::BufferizationDialect::kBufferLayoutAttrName,
          unitInnerStrideLayout(loc.getContext(), tensor.getRank()));
  OpBuilder builder = OpBuilder::atBlockBegin(&func.front());
  ImplicitLocOpBuilder b(loc, builder);
  ValueRange args = func.getArguments();
  BagProblem p = mapProblem(b, problem, args);
  Value firstBag = args[args.size() - 4];
  Value col = args[args.size() - 3], end = args[args.size() - 2];
  Value row, outColumn;
  if (!p.rowwiseBits) {
    // The version reads the table from column `col` on, a view whose start
    // is computed once: the hot loop's addresses are then a row's start
    // plus constants. With `col` in each address LLVM kept one register per
    // vector's column, and with AVX2's 16 registers spilled them to the
    // stack in the loop over the indices.
    row = dim(b, p.table, 1);
    p.table = sliceColumns(b, p.table, col, row);
    end = arith::SubIOp::create(b, end, col);
    outColumn = col;
    col = cst(b, 0);
  }
  KernelContext k(p, shape);
  // The whole row: a parallel bag loop slices the result's rows with it.
  k.row = row ? row : rowLength(b, k);
  k.outColumn = outColumn;
  k.firstBag = firstBag;
  planPrefetch(b, k);
  Value result =
      buildBagLoop(b, k, args.back(),
                   [&](ImplicitLocOpBuilder &rb, const BagRef &bag, Value out) {
                     return buildRowVersion(rb, k, bag, out, version, col, end);
                   });
  func::ReturnOp::create(b, result);
  return func;
}

/// How many columns a call of a version covers: the whole row when one
/// version fits it, else blocks of the long rows' width (those of
/// `maxMaskedVectors` vectors, which every target has a version of), the
/// last block narrower.
static Value blockWidth(ImplicitLocOpBuilder &b, const KernelShape &shape,
                        Value row) {
  Value lanes = cst(b, shape.lanes);
  Value vectors = arith::CeilDivUIOp::create(b, row, lanes);
  Value fits = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, vectors,
                                     cst(b, shape.maxMaskedVectors));
  if (!shape.maskRegisters) {
    // Rows of whole vectors have versions up to maxVectors.
    Value whole =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                              arith::RemUIOp::create(b, row, lanes), cst(b, 0));
    Value wholeFits = arith::CmpIOp::create(b, arith::CmpIPredicate::ule,
                                            vectors, cst(b, shape.maxVectors));
    fits = arith::SelectOp::create(b, whole, wholeFits, fits);
  }
  Value oneBlock = arith::MaxUIOp::create(b, row, cst(b, 1));
  return arith::SelectOp::create(b, fits, oneBlock,
                                 cst(b, shape.maxMaskedVectors * shape.lanes));
}

/// The calls of `versions` in the cases of a switch on `key`, each on the
/// bags from `firstBag` to the `operands`' num_bags and the columns
/// [col, end) of `out`.
static Value switchVersions(ImplicitLocOpBuilder &b, Value key,
                            ValueRange operands, Value firstBag, Value col,
                            Value end, Value out,
                            const SharedKernels::VersionSet &set) {
  SmallVector<int64_t> keys = llvm::map_to_vector(
      set, [](const auto &version) { return version.first.key; });
  auto switchOp = scf::IndexSwitchOp::create(b, TypeRange{out.getType()}, key,
                                             keys, keys.size());
  SmallVector<Value> args(operands);
  llvm::append_values(args, firstBag, col, end, out);
  OpBuilder::InsertionGuard guard(b);
  for (auto [region, version] :
       llvm::zip_equal(switchOp.getCaseRegions(), set)) {
    b.setInsertionPointToStart(&region.emplaceBlock());
    auto call =
        func::CallOp::create(b, cast<func::FuncOp>(version.second), args);
    scf::YieldOp::create(b, call.getResult(0));
  }
  // Every block's key has a version.
  b.setInsertionPointToStart(&switchOp.getDefaultRegion().emplaceBlock());
  scf::YieldOp::create(b, out);
  return switchOp.getResult(0);
}

/// How many bags the dispatcher gives each round of versions. A row of one
/// block: all of them. A row of several blocks is read once per block:
/// rounds of as many bags as about half of L2 holds the rows of, so that
/// the later blocks find their bags' rows in the cache (as the passes of a
/// static row over one bag do), not in memory. A parallel kernel takes all
/// bags at once: each round would be a parallel region.
static Value bagsPerRound(ImplicitLocOpBuilder &b, const KernelContext &k,
                          Value row, Value width, Value numBags) {
  Value all = arith::MaxUIOp::create(b, numBags, cst(b, 1));
  if (k.shape.parallel)
    return all;
  auto tableType = cast<ShapedType>(k.p.table.getType());
  int64_t bits = tableType.getElementTypeBitWidth();
  Value rowBytes = arith::CeilDivUIOp::create(
      b, arith::MulIOp::create(b, dim(b, k.p.table, 1), cst(b, bits)),
      cst(b, 8));
  Value indicesPerBag =
      arith::CeilDivUIOp::create(b, dim(b, k.p.indices, 0), all);
  Value bagBytes = arith::MaxUIOp::create(
      b, arith::MulIOp::create(b, indicesPerBag, rowBytes), cst(b, 1));
  Value round = arith::MaxUIOp::create(
      b,
      arith::DivUIOp::create(b, cst(b, k.shape.target.l2CacheBytes / 2),
                             bagBytes),
      cst(b, 1));
  Value oneBlock =
      arith::CmpIOp::create(b, arith::CmpIPredicate::uge, width, row);
  return arith::SelectOp::create(b, oneBlock, all, round);
}

/// The dispatcher's body: for each round of bags, the row's blocks, each
/// by the version of its key. The switch sits in loops so that the result
/// is their iter_arg: bufferization then sees the result's buffer pass
/// through.
static Value dispatchBlocks(ImplicitLocOpBuilder &b, const KernelContext &k,
                            Value row, ValueRange operands, Value init,
                            const SharedKernels::VersionSet &set) {
  const KernelShape &shape = k.shape;
  Value width = blockWidth(b, shape, row);
  // kernelOperands: num_bags is the last but one.
  size_t numBagsPosition = operands.size() - 2;
  Value numBags = operands[numBagsPosition];
  Value round = bagsPerRound(b, k, row, width, numBags);
  auto roundLoop = scf::ForOp::create(
      b, cst(b, 0), numBags, round, ValueRange{init},
      [&](OpBuilder &nested, Location loc, Value firstBag,
          ValueRange roundArgs) {
        ImplicitLocOpBuilder rb(loc, nested);
        SmallVector<Value> roundOperands(operands);
        roundOperands[numBagsPosition] = arith::MinUIOp::create(
            rb, numBags, arith::AddIOp::create(rb, firstBag, round));
        auto blockLoop = scf::ForOp::create(
            rb, cst(rb, 0), row, width, ValueRange{roundArgs[0]},
            [&](OpBuilder &inner, Location innerLoc, Value col,
                ValueRange iterArgs) {
              ImplicitLocOpBuilder lb(innerLoc, inner);
              Value end = arith::MinUIOp::create(
                  lb, row, arith::AddIOp::create(lb, col, width));
              Value key =
                  rowKey(lb, shape, arith::SubIOp::create(lb, end, col));
              scf::YieldOp::create(lb, switchVersions(lb, key, roundOperands,
                                                      firstBag, col, end,
                                                      iterArgs[0], set));
            });
        scf::YieldOp::create(rb, blockLoop.getResult(0));
      });
  return roundLoop.getResult(0);
}

/// The dispatcher of a kind: its buffers given unit inner stride, as
/// tensors again, the row's blocks.
static func::FuncOp buildDispatcher(SymbolTable &symbols, Location loc,
                                    StringRef name, const KernelContext &k,
                                    TypeRange operandTypes, Type resultType,
                                    const SharedKernels::VersionSet &set) {
  SmallVector<Type> types;
  for (Type type : operandTypes)
    types.push_back(isa<RankedTensorType>(type) ? anyLayoutBuffer(type) : type);
  types.push_back(resultType);
  func::FuncOp func = createFunction(symbols, loc, name, types, resultType);
  OpBuilder builder = OpBuilder::atBlockBegin(&func.front());
  ImplicitLocOpBuilder b(loc, builder);
  SmallVector<Value> operands;
  for (auto [arg, type] :
       llvm::zip_equal(func.getArguments().drop_back(), operandTypes)) {
    // (The check flag word is a buffer in the op's function too.)
    if (!isa<RankedTensorType>(type)) {
      operands.push_back(arg);
      continue;
    }
    operands.push_back(bufferization::ToTensorOp::create(
        b, type, withUnitInnerStride(b, arg), /*restrict=*/b.getUnitAttr()));
  }
  BagProblem p = mapProblem(b, k.p, operands);
  KernelContext dk(p, k.shape);
  Value result = dispatchBlocks(b, dk, rowLength(b, dk), operands,
                                func.getArguments().back(), set);
  func::ReturnOp::create(b, result);
  return func;
}

/// A name `base[_N]` whose version functions are not yet in `symbols`.
static std::string uniquePrefix(SymbolTable &symbols, StringRef base,
                                int64_t firstKey) {
  for (unsigned n = 0;; ++n) {
    std::string prefix = n ? (base + "_" + Twine(n)).str() : base.str();
    if (!symbols.lookup(prefix + "__row_version_" + std::to_string(firstKey)))
      return prefix;
  }
}

Operation *SharedKernels::buildKind(Location loc, const KernelContext &k,
                                    TypeRange operandTypes, Type resultType) {
  std::string base = ("__embbag_rows_" + stringifyReduction(k.p.reduction) +
                      (k.p.weights ? "_weighted_" : "_"))
                         .str();
  llvm::raw_string_ostream(base) << k.p.valueType;
  SmallVector<RowVersion> versions = listRowVersions(k.shape);
  std::string prefix = uniquePrefix(symbols, base, versions.front().key);
  SmallVector<Type> versionTypes(operandTypes);
  Type index = IndexType::get(loc.getContext());
  llvm::append_values(versionTypes, index, index, index, resultType);
  VersionSet set;
  for (const RowVersion &version : versions) {
    std::string name = prefix + "__row_version_" + std::to_string(version.key);
    set.emplace_back(version, buildVersion(symbols, loc, name, k.p, k.shape,
                                           versionTypes, version));
  }
  return buildDispatcher(symbols, loc, prefix + "__dispatch", k, operandTypes,
                         resultType, set);
}

//===----------------------------------------------------------------------===//
// The op's side
//===----------------------------------------------------------------------===//

/// Whether the op's result may end in a slice of another buffer: then a
/// call, whose result argument has an identity layout, would make
/// bufferization copy it.
static bool mayGoIntoSlice(Value result) {
  SmallVector<Value> worklist{result};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<tensor::CastOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
              user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (isa<tensor::InsertSliceOp, tensor::ParallelInsertSliceOp>(user))
        return true;
      if (auto materialize =
              dyn_cast<bufferization::MaterializeInDestinationOp>(user)) {
        auto dest = dyn_cast<MemRefType>(materialize.getDest().getType());
        if (!dest || !dest.getLayout().isIdentity())
          return true;
      }
    }
  }
  return false;
}

/// The [num_bags, 2] tensor of each bag's (start, end) in the indices.
static Value computeBounds(ImplicitLocOpBuilder &b, const BagProblem &p) {
  Value bounds = tensor::EmptyOp::create(
      b,
      ArrayRef<OpFoldResult>{getAsOpFoldResult(p.numBags), b.getIndexAttr(2)},
      b.getIndexType());
  auto loop = scf::ForOp::create(
      b, cst(b, 0), p.numBags, cst(b, 1), ValueRange{bounds},
      [&](OpBuilder &nested, Location loc, Value bag, ValueRange iterArgs) {
        ImplicitLocOpBuilder lb(loc, nested);
        // A checked kernel's versions check the bags as they read them.
        auto [start, end] = p.getUncheckedRanges()(lb, lb.getLoc(), bag);
        Value t = tensor::InsertOp::create(lb, start, iterArgs[0],
                                           ValueRange{bag, cst(lb, 0)});
        t = tensor::InsertOp::create(lb, end, t, ValueRange{bag, cst(lb, 1)});
        scf::YieldOp::create(lb, t);
      });
  return loop.getResult(0);
}

/// `v` cast to `type` when it is not of it.
static Value castTensor(ImplicitLocOpBuilder &b, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return tensor::CastOp::create(b, type, v);
}

FailureOr<Value> SharedKernels::call(ImplicitLocOpBuilder &b,
                                     const KernelContext &k) {
  const BagProblem &p = k.p;
  if (SymbolTable::getNearestSymbolTable(p.op->getParentOp()) !=
          symbols.getOp() ||
      mayGoIntoSlice(p.op->getResult(0)))
    return failure();
  SmallVector<Value> operands = kernelOperands(p, computeBounds(b, p));
  SmallVector<Type> types = llvm::map_to_vector(operands, dynamicType);
  Value init = buildEmptyResult(b, k);
  Type resultType = dynamicType(init);
  Operation *&dispatcher = dispatchers[versionKey(p, k.shape)];
  if (!dispatcher)
    dispatcher = buildKind(b.getLoc(), k, types, resultType);
  // The op's tensors as their buffers, whatever their layouts: they are
  // only read.
  SmallVector<Value> args;
  for (auto [value, type] : llvm::zip_equal(operands, types)) {
    Value v = castTensor(b, value, type);
    if (isa<RankedTensorType>(type))
      v = bufferization::ToBufferOp::create(b, anyLayoutBuffer(type), v,
                                            /*read_only=*/true);
    args.push_back(v);
  }
  args.push_back(castTensor(b, init, resultType));
  auto call = func::CallOp::create(b, cast<func::FuncOp>(dispatcher), args);
  return castTensor(b, call.getResult(0), init.getType());
}
