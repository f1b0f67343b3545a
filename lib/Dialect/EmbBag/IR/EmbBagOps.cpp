//===- EmbBagOps.cpp - EmbBag operations ----------------------------------===//
//
// Verifiers, result type inference and result shape reification of the
// embbag ops. ODS checks the element types of every operand; the rules that
// relate operands to each other live here.
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::embbag;

//===----------------------------------------------------------------------===//
// Helpers shared by the three ops
//===----------------------------------------------------------------------===//

/// The result type of a bag op: `[batch] ++ table.shape[1:]` of the table's
/// element type.
static RankedTensorType getBagResultType(RankedTensorType tableType,
                                         int64_t batch) {
  SmallVector<int64_t> shape{batch};
  llvm::append_range(shape, tableType.getShape().drop_front());
  return RankedTensorType::get(shape, tableType.getElementType());
}

/// The bytes after the codes of a row-wise quantized row: an f32 scale and
/// bias for 8-bit codes, an f16 scale and bias for narrower ones.
static int64_t getRowwiseTailBytes(unsigned bits) { return bits == 8 ? 8 : 4; }

/// The result type of a bag op on a row-wise quantized table of `bits`-bit
/// codes: `[batch, D]` of f32. D follows from the row's bytes for 8-bit
/// codes only (a row of n bytes holds 2n - 1 or 2n 4-bit codes); the
/// declared type gives it otherwise, and may say f16.
static RankedTensorType getRowwiseResultType(RankedTensorType tableType,
                                             unsigned bits, int64_t batch) {
  int64_t columns = ShapedType::kDynamic;
  if (bits == 8 && tableType.getRank() == 2 && !tableType.isDynamicDim(1))
    columns = std::max<int64_t>(tableType.getDimSize(1) - 8, 0);
  return RankedTensorType::get({batch, columns},
                               Float32Type::get(tableType.getContext()));
}

/// The result type inferred from the operands and attributes.
static RankedTensorType inferBagResultType(RankedTensorType tableType,
                                           TypeAttr rowwise, int64_t batch) {
  if (rowwise)
    return getRowwiseResultType(
        tableType, rowwise.getValue().getIntOrFloatBitWidth(), batch);
  return getBagResultType(tableType, batch);
}

static int64_t getDimOrDynamic(Type type, unsigned dim) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || tensorType.getRank() <= dim)
    return ShapedType::kDynamic;
  return tensorType.getDimSize(dim);
}

/// The batch size of a segments op: a static, non-negative `num_segments`,
/// dynamic otherwise. Only the attribute counts: a constant SSA operand is
/// folded into it by canonicalization, never read here.
static int64_t getSegmentsBatch(IntegerAttr staticNumSegments) {
  if (!staticNumSegments || staticNumSegments.getInt() < 0)
    return ShapedType::kDynamic;
  return staticNumSegments.getInt();
}

/// The batch size of an offsets op with `numOffsets` offsets: one bag per
/// offset, or with `include_last_offset` one fewer (the last offset ends the
/// last bag).
static int64_t getOffsetsBatch(int64_t numOffsets, bool includeLastOffset) {
  if (ShapedType::isDynamic(numOffsets) || !includeLastOffset)
    return numOffsets;
  return std::max<int64_t>(numOffsets - 1, 0);
}

static bool areCompatibleBagResultTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto lhs = dyn_cast<RankedTensorType>(inferred.front());
  auto rhs = dyn_cast<RankedTensorType>(actual.front());
  if (!lhs || !rhs || failed(verifyCompatibleShape(lhs, rhs)))
    return false;
  // The f32 inferred for a quantized table may be declared f16; the
  // verifier checks that only quantized tables have a result type other
  // than their element type.
  return lhs.getElementType() == rhs.getElementType() ||
         (lhs.getElementType().isF32() && rhs.getElementType().isF16());
}

static std::string formatDim(int64_t dim) {
  return ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
}

/// Checks that `operand` (named `name`) is a tensor of rank `rank`.
static LogicalResult verifyRank(Operation *op, Value operand, StringRef name,
                                int64_t rank, StringRef shapeDescription) {
  auto type = cast<RankedTensorType>(operand.getType());
  if (type.getRank() == rank)
    return success();
  return op->emitOpError() << name << " must be a " << rank << "-D tensor "
                           << shapeDescription << ", but got " << type;
}

/// Checks that the index-like operand `operand` (named `name`) has the index
/// type T_IND of the op, the element type of `indices`.
static LogicalResult verifyIndexType(Operation *op, Value operand,
                                     StringRef name, Type indexType) {
  if (!operand)
    return success();
  Type type = getElementTypeOrSelf(operand.getType());
  if (type == indexType)
    return success();
  StringRef what =
      isa<ShapedType>(operand.getType()) ? " has element type " : " has type ";
  return op->emitOpError() << name << what << type
                           << " but the indices have element type " << indexType
                           << "; every index-like operand must have the same "
                              "type (i32 or i64)";
}

/// Checks a `default` given both ways or a static one below -1. Whether the
/// default lies in the table is a runtime contract (checked by the lowering,
/// reported for constants by --embbag-verify-constants): the verifier looks
/// at types and attributes only, so that IR stays valid whatever passes
/// learn about the values of its operands.
static LogicalResult verifyDefaultIndex(Operation *op, Value defaultIndex,
                                        IntegerAttr staticDefaultIndex,
                                        Type indexType) {
  if (failed(verifyIndexType(op, defaultIndex, "default", indexType)))
    return failure();
  if (!staticDefaultIndex)
    return success();
  if (defaultIndex)
    return op->emitOpError()
           << "default index given both as a value and as a static "
              "attribute";
  if (staticDefaultIndex.getInt() < -1)
    return op->emitOpError()
           << "static default index must be >= -1 (-1 means no default), "
              "but got "
           << staticDefaultIndex.getInt();
  return success();
}

/// Checks a row-wise quantized table against the result: a 2-D table of
/// bytes, a 2-D result of f32 or f16, and rows of exactly the bytes the
/// result's D codes and the scale and bias take.
static LogicalResult verifyRowwise(Operation *op, TypeAttr rowwise,
                                   RankedTensorType tableType,
                                   RankedTensorType resultType) {
  unsigned bits = rowwise.getValue().getIntOrFloatBitWidth();
  auto byteType = dyn_cast<IntegerType>(tableType.getElementType());
  if (tableType.getRank() != 2 || !byteType || byteType.getWidth() != 8 ||
      byteType.isSigned())
    return op->emitOpError()
           << "a rowwise(i" << bits
           << ") table must be a 2-D tensor of ui8 or i8 bytes, but got "
           << tableType;
  Type resultElement = resultType.getElementType();
  if (resultType.getRank() != 2 ||
      !(resultElement.isF32() || resultElement.isF16()))
    return op->emitOpError()
           << "the result of a rowwise(i" << bits
           << ") table must be a 2-D tensor of f32 or f16, but got "
           << resultType;
  int64_t columns = resultType.getDimSize(1);
  int64_t rowBytes = tableType.getDimSize(1);
  int64_t tail = getRowwiseTailBytes(bits);
  if (bits != 8 && ShapedType::isDynamic(columns))
    return op->emitOpError()
           << "the result of a rowwise(i" << bits
           << ") table needs a static dimension 1: a row of n bytes holds "
              "more than one possible number of "
           << bits << "-bit codes";
  if (ShapedType::isDynamic(rowBytes))
    return success();
  if (ShapedType::isDynamic(columns)) {
    if (rowBytes < tail)
      return op->emitOpError()
             << "a rowwise(i8) table row needs at least 8 bytes (the f32 "
                "scale and bias), but table dimension 1 is "
             << rowBytes;
    return success();
  }
  int64_t expected = llvm::divideCeil(columns * bits, 8) + tail;
  if (rowBytes != expected)
    return op->emitOpError()
           << "a rowwise(i" << bits << ") row of " << columns
           << " columns takes " << expected << " bytes ("
           << llvm::divideCeil(columns * bits, 8) << " of codes, " << tail
           << " of " << (bits == 8 ? "f32" : "f16")
           << " scale and bias), but table dimension 1 is " << rowBytes;
  return success();
}

/// Checks the reduction against the values the bags reduce (`valueType`)
/// and the weights against the reduction and the indices: the rules of
/// every op that reads bags, forward or training.
static LogicalResult verifyReductionAndWeights(
    Operation *op, Reduction reduction, RankedTensorType tableType,
    RankedTensorType indicesType, Value weights, Type valueType, bool rowwise) {
  // A square root of an integer count has no integer result worth having.
  if (reduction == Reduction::sqrtn && !isa<FloatType>(valueType))
    return op->emitOpError()
           << "the 'sqrtn' reduction needs a float element type, but the "
              "table has "
           << tableType.getElementType();
  if (!weights)
    return success();
  // A weighted mean or max has no agreed meaning (PyTorch rejects both);
  // TensorFlow's sqrtn defines its weighted form.
  if (reduction == Reduction::mean || reduction == Reduction::max)
    return op->emitOpError()
           << "weights are only supported with the 'sum' and 'sqrtn' "
              "reductions, not with '"
           << stringifyReduction(reduction) << "'";
  auto weightsType = cast<RankedTensorType>(weights.getType());
  if (weightsType.getElementType() != valueType)
    return op->emitOpError()
           << "weights must have the " << (rowwise ? "result" : "table")
           << " element type " << valueType << ", but got "
           << weightsType.getElementType();
  if (weightsType.getRank() != indicesType.getRank())
    return op->emitOpError() << "weights must have the shape of indices "
                             << indicesType << ", but got " << weightsType;
  for (auto [dim, pair] : llvm::enumerate(
           llvm::zip(weightsType.getShape(), indicesType.getShape()))) {
    auto [w, i] = pair;
    if (!ShapedType::isDynamic(w) && !ShapedType::isDynamic(i) && w != i)
      return op->emitOpError()
             << "weights dimension " << dim << " is " << w
             << " but indices dimension " << dim << " is " << i;
  }
  return success();
}

/// Checks `type`, the rows of the bags (the result of a forward op, the
/// `dy` of a training op; `name` says which), against `inferredType`:
/// `[batch] ++ table.shape[1:]` of the table's element type, its batch
/// from `batchSource`. A quantized table's row length was checked by
/// verifyRowwise.
static LogicalResult verifyBagRowsType(Operation *op, StringRef name,
                                       RankedTensorType type,
                                       RankedTensorType tableType, bool rowwise,
                                       RankedTensorType inferredType,
                                       StringRef batchSource) {
  if (!rowwise && type.getElementType() != tableType.getElementType())
    return op->emitOpError()
           << name << " element type " << type.getElementType()
           << " must be the table element type " << tableType.getElementType();
  if (type.getRank() != inferredType.getRank())
    return op->emitOpError()
           << name << " must have rank " << inferredType.getRank()
           << " (batch followed by the table's row dimensions), but got "
           << type;
  int64_t typeBatch = type.getDimSize(0);
  int64_t batch = inferredType.getDimSize(0);
  if (!ShapedType::isDynamic(typeBatch) && !ShapedType::isDynamic(batch) &&
      typeBatch != batch)
    return op->emitOpError() << name << " dimension 0 is " << typeBatch
                             << " but " << batchSource << " is " << batch;
  for (int64_t dim = 1, e = rowwise ? 1 : type.getRank(); dim < e; ++dim) {
    int64_t r = type.getDimSize(dim);
    int64_t t = tableType.getDimSize(dim);
    if (!ShapedType::isDynamic(r) && !ShapedType::isDynamic(t) && r != t)
      return op->emitOpError()
             << name << " dimension " << dim << " is " << formatDim(r)
             << " but table dimension " << dim << " is " << formatDim(t);
  }
  return success();
}

/// Checks the rules every bag op shares, read through BagOpInterface:
/// weights, reduction and the result type against the type its operands
/// give (`inferredType`; its batch comes from `batchSource`).
static LogicalResult verifyBagOpCommon(BagOpInterface op,
                                       RankedTensorType inferredType,
                                       StringRef batchSource) {
  RankedTensorType tableType = op.getTable().getType();
  RankedTensorType resultType = op.getBagResultType();
  TypeAttr rowwise = op.getRowwiseAttr();
  if (rowwise && failed(verifyRowwise(op, rowwise, tableType, resultType)))
    return failure();
  // The values the bags reduce: the table's, or the dequantized rows'.
  Type valueType =
      rowwise ? resultType.getElementType() : tableType.getElementType();
  if (failed(verifyReductionAndWeights(
          op, op.getReduction(), tableType,
          cast<RankedTensorType>(op.getIndices().getType()), op.getWeights(),
          valueType, static_cast<bool>(rowwise))))
    return failure();
  return verifyBagRowsType(op, "result", resultType, tableType,
                           static_cast<bool>(rowwise), inferredType,
                           batchSource);
}

//===----------------------------------------------------------------------===//
// The clauses of each form
//===----------------------------------------------------------------------===//
//
// The forward op of a form and its training ops have the same clauses under
// the same accessor names; these check them, and say how many bags they
// give (dynamic when not static) and what gives it, for the diagnostics.

namespace {
struct FormBatch {
  int64_t batch;
  StringRef source;
};
} // namespace

template <typename OpT>
static FailureOr<FormBatch> verifyPackedClauses(OpT op) {
  if (failed(verifyRank(op, op.getIndices(), "indices", 2,
                        "[batch, indices_per_bag]")) ||
      failed(verifyIndexType(op, op.getPaddingIdx(), "padding_idx",
                             op.getIndexElementType())))
    return failure();
  return FormBatch{op.getIndicesType().getDimSize(0),
                   "indices dimension 0 (batch)"};
}

template <typename OpT>
static FailureOr<FormBatch> verifyOffsetsClauses(OpT op) {
  Type indexType = op.getIndexElementType();
  if (failed(verifyRank(op, op.getIndices(), "indices", 1, "[num_indices]")) ||
      failed(verifyRank(op, op.getOffsets(), "offsets", 1, "[batch]")) ||
      failed(verifyIndexType(op, op.getOffsets(), "offsets", indexType)) ||
      failed(verifyDefaultIndex(op, op.getDefaultIndex(),
                                op.getStaticDefaultIndexAttr(), indexType)) ||
      failed(verifyIndexType(op, op.getPaddingIdx(), "padding_idx", indexType)))
    return failure();
  int64_t numOffsets =
      cast<RankedTensorType>(op.getOffsets().getType()).getDimSize(0);
  bool includeLastOffset = op.getIncludeLastOffset();
  if (includeLastOffset && numOffsets == 0)
    return op.emitOpError() << "offsets must have at least one entry with "
                               "include_last_offset (it ends the last bag)";
  return FormBatch{getOffsetsBatch(numOffsets, includeLastOffset),
                   includeLastOffset ? "the number of offsets - 1 (batch)"
                                     : "the number of offsets (batch)"};
}

template <typename OpT>
static FailureOr<FormBatch> verifySegmentsClauses(OpT op) {
  Type indexType = op.getIndexElementType();
  if (failed(verifyRank(op, op.getIndices(), "indices", 1, "[num_indices]")) ||
      failed(verifyRank(op, op.getSegmentIds(), "segment_ids", 1,
                        "[num_indices]")) ||
      failed(
          verifyIndexType(op, op.getSegmentIds(), "segment_ids", indexType)) ||
      failed(verifyIndexType(op, op.getNumSegments(), "num_segments",
                             indexType)) ||
      failed(verifyDefaultIndex(op, op.getDefaultIndex(),
                                op.getStaticDefaultIndexAttr(), indexType)) ||
      failed(verifyIndexType(op, op.getPaddingIdx(), "padding_idx", indexType)))
    return failure();
  int64_t numIndices = op.getIndicesType().getDimSize(0);
  int64_t numIds =
      cast<RankedTensorType>(op.getSegmentIds().getType()).getDimSize(0);
  if (!ShapedType::isDynamic(numIndices) && !ShapedType::isDynamic(numIds) &&
      numIndices != numIds)
    return op.emitOpError()
           << "segment_ids must have one id per index: " << numIds
           << " ids for " << numIndices << " indices";
  IntegerAttr staticNumSegments = op.getStaticNumSegmentsAttr();
  if (static_cast<bool>(op.getNumSegments()) ==
      static_cast<bool>(staticNumSegments))
    return op.emitOpError() << "num_segments must be given either as a value "
                               "or as a static attribute, exactly once";
  if (staticNumSegments && staticNumSegments.getInt() < 0)
    return op.emitOpError()
           << "static num_segments must be non-negative, but got "
           << staticNumSegments.getInt();
  return FormBatch{getSegmentsBatch(staticNumSegments),
                   "the static num_segments"};
}

/// Reifies `[batch] ++ table.shape[1:]`; for a quantized table `[batch, D]`,
/// D static (the verifier asks it for 4- and 2-bit codes) or the row's
/// bytes - 8.
static void reifyBagResultShape(OpBuilder &b, Location loc, Value table,
                                OpFoldResult batch, Value result,
                                unsigned rowwiseBits,
                                ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> dims{batch};
  if (rowwiseBits) {
    auto resultType = cast<RankedTensorType>(result.getType());
    if (!resultType.isDynamicDim(1))
      dims.push_back(b.getIndexAttr(resultType.getDimSize(1)));
    else
      dims.push_back(
          arith::SubIOp::create(b, loc, tensor::DimOp::create(b, loc, table, 1),
                                arith::ConstantIndexOp::create(b, loc, 8))
              .getResult());
    shapes.push_back(std::move(dims));
    return;
  }
  auto tableType = cast<RankedTensorType>(table.getType());
  for (int64_t dim = 1, e = tableType.getRank(); dim < e; ++dim)
    dims.push_back(tensor::getMixedSize(b, loc, table, dim));
  shapes.push_back(std::move(dims));
}

/// Parses a keyword naming a case of an ODS enum (`symbolize` reads it);
/// `expected` lists the cases for the error.
template <typename EnumT>
static FailureOr<EnumT>
parseEnumKeyword(OpAsmParser &parser,
                 std::optional<EnumT> (*symbolize)(StringRef),
                 StringRef expected) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> value = symbolize(keyword);
  if (!value)
    return parser.emitError(loc)
           << "expected " << expected << ", but got '" << keyword << "'";
  return *value;
}

/// Parses the reduction keyword of the custom form (`sum`, `mean`, `max`,
/// `sqrtn`). The
/// attribute's own stripped form would print with a second leading space.
static ParseResult parseReduction(OpAsmParser &parser, ReductionAttr &attr) {
  FailureOr<Reduction> reduction = parseEnumKeyword<Reduction>(
      parser, symbolizeReduction, "reduction 'sum', 'mean', 'max' or 'sqrtn'");
  if (failed(reduction))
    return failure();
  attr = ReductionAttr::get(parser.getContext(), *reduction);
  return success();
}

static void printReduction(OpAsmPrinter &printer, Operation *,
                           ReductionAttr attr) {
  printer << stringifyReduction(attr.getValue());
}

/// Parses an index-like scalar given as an SSA value (`%n`) or as a static
/// integer (`3`), the mixed static/dynamic form of `tensor.extract_slice`.
static ParseResult
parseDynamicOrStaticIndex(OpAsmParser &parser,
                          std::optional<OpAsmParser::UnresolvedOperand> &value,
                          IntegerAttr &staticValue) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult parsedOperand = parser.parseOptionalOperand(operand);
  if (parsedOperand.has_value()) {
    if (failed(*parsedOperand))
      return failure();
    value = operand;
    return success();
  }
  int64_t integer = 0;
  if (parser.parseInteger(integer))
    return failure();
  staticValue = parser.getBuilder().getI64IntegerAttr(integer);
  return success();
}

static void printDynamicOrStaticIndex(OpAsmPrinter &printer, Operation *,
                                      Value value, IntegerAttr staticValue) {
  if (value)
    printer << value;
  else
    printer << staticValue.getInt();
}

/// Parses the optional clause `default(%d)` or `default(2)`.
static ParseResult
parseOptionalDefault(OpAsmParser &parser,
                     std::optional<OpAsmParser::UnresolvedOperand> &value,
                     IntegerAttr &staticValue) {
  if (failed(parser.parseOptionalKeyword("default")))
    return success();
  if (parser.parseLParen() ||
      parseDynamicOrStaticIndex(parser, value, staticValue) ||
      parser.parseRParen())
    return failure();
  return success();
}

static void printOptionalDefault(OpAsmPrinter &printer, Operation *op,
                                 Value value, IntegerAttr staticValue) {
  if (!value && !staticValue)
    return;
  // The format suppresses the space before this directive, so that an
  // absent clause leaves no double space.
  printer << " default(";
  printDynamicOrStaticIndex(printer, op, value, staticValue);
  printer << ")";
}

/// Parses the optional clause `rowwise(i8)` (i4, i2): the code width, an
/// integer type.
static ParseResult parseRowwise(OpAsmParser &parser, TypeAttr &rowwise) {
  if (failed(parser.parseOptionalKeyword("rowwise")))
    return success();
  Type type;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLParen() || parser.parseType(type) || parser.parseRParen())
    return failure();
  if (!type.isSignlessInteger(8) && !type.isSignlessInteger(4) &&
      !type.isSignlessInteger(2))
    return parser.emitError(loc)
           << "rowwise(...) takes i8, i4 or i2 (the bits per code), but got "
           << type;
  rowwise = TypeAttr::get(type);
  return success();
}

static void printRowwise(OpAsmPrinter &printer, Operation *, TypeAttr rowwise) {
  if (!rowwise)
    return;
  // The format suppresses the space before this directive, as for default.
  printer << " rowwise(" << rowwise.getValue() << ")";
}

/// Parses the optimizer of an update op and its operands: `sgd(%lr)` or
/// `rowwise_adagrad(%lr, %eps) state(%s)`.
static ParseResult
parseOptimizer(OpAsmParser &parser, OptimizerAttr &attr,
               OpAsmParser::UnresolvedOperand &learningRate,
               std::optional<OpAsmParser::UnresolvedOperand> &epsilon,
               std::optional<OpAsmParser::UnresolvedOperand> &state) {
  FailureOr<Optimizer> optimizer = parseEnumKeyword<Optimizer>(
      parser, symbolizeOptimizer, "optimizer 'sgd' or 'rowwise_adagrad'");
  if (failed(optimizer))
    return failure();
  attr = OptimizerAttr::get(parser.getContext(), *optimizer);
  if (parser.parseLParen() || parser.parseOperand(learningRate))
    return failure();
  if (*optimizer == Optimizer::sgd)
    return parser.parseRParen();
  epsilon.emplace();
  state.emplace();
  return failure(parser.parseComma() || parser.parseOperand(*epsilon) ||
                 parser.parseRParen() || parser.parseKeyword("state") ||
                 parser.parseLParen() || parser.parseOperand(*state) ||
                 parser.parseRParen());
}

static void printOptimizer(OpAsmPrinter &printer, Operation *,
                           OptimizerAttr attr, Value learningRate,
                           Value epsilon, Value state) {
  printer << stringifyOptimizer(attr.getValue()) << "(" << learningRate;
  if (epsilon)
    printer << ", " << epsilon;
  printer << ")";
  if (state)
    printer << " state(" << state << ")";
}

//===----------------------------------------------------------------------===//
// Speculation
//===----------------------------------------------------------------------===//

// The ops have no memory effect but are not speculatable: an invalid index
// is undefined behaviour, which the checked lowering turns into a stop.
// Hoisting an op out of a loop that never runs, or out of a branch not
// taken, would run it on inputs the program never gave it.
Speculation::Speculatability PackedOp::getSpeculatability() {
  return Speculation::NotSpeculatable;
}
Speculation::Speculatability OffsetsOp::getSpeculatability() {
  return Speculation::NotSpeculatable;
}
Speculation::Speculatability SegmentsOp::getSpeculatability() {
  return Speculation::NotSpeculatable;
}

//===----------------------------------------------------------------------===//
// PackedOp
//===----------------------------------------------------------------------===//

LogicalResult PackedOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto tableType = dyn_cast<RankedTensorType>(adaptor.getTable().getType());
  if (!tableType || tableType.getRank() < 1)
    return failure();
  types.push_back(
      inferBagResultType(tableType, adaptor.getRowwiseAttr(),
                         getDimOrDynamic(adaptor.getIndices().getType(), 0)));
  return success();
}

bool PackedOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return areCompatibleBagResultTypes(l, r);
}

LogicalResult PackedOp::verify() {
  FailureOr<FormBatch> form = verifyPackedClauses(*this);
  if (failed(form))
    return failure();
  return verifyBagOpCommon(
      *this, inferBagResultType(getTableType(), getRowwiseAttr(), form->batch),
      form->source);
}

LogicalResult
PackedOp::reifyResultShapes(OpBuilder &b,
                            ReifiedRankedShapedTypeDims &reifiedShapes) {
  reifyBagResultShape(b, getLoc(), getTable(),
                      tensor::getMixedSize(b, getLoc(), getIndices(), 0),
                      getResult(), getRowwiseBits(), reifiedShapes);
  return success();
}

//===----------------------------------------------------------------------===//
// OffsetsOp
//===----------------------------------------------------------------------===//

LogicalResult OffsetsOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  auto tableType = dyn_cast<RankedTensorType>(adaptor.getTable().getType());
  if (!tableType || tableType.getRank() < 1)
    return failure();
  types.push_back(inferBagResultType(
      tableType, adaptor.getRowwiseAttr(),
      getOffsetsBatch(getDimOrDynamic(adaptor.getOffsets().getType(), 0),
                      static_cast<bool>(adaptor.getIncludeLastOffset()))));
  return success();
}

bool OffsetsOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return areCompatibleBagResultTypes(l, r);
}

LogicalResult OffsetsOp::verify() {
  FailureOr<FormBatch> form = verifyOffsetsClauses(*this);
  if (failed(form))
    return failure();
  return verifyBagOpCommon(
      *this, inferBagResultType(getTableType(), getRowwiseAttr(), form->batch),
      form->source);
}

LogicalResult
OffsetsOp::reifyResultShapes(OpBuilder &b,
                             ReifiedRankedShapedTypeDims &reifiedShapes) {
  Location loc = getLoc();
  int64_t numOffsets =
      cast<RankedTensorType>(getOffsets().getType()).getDimSize(0);
  OpFoldResult batch;
  if (!ShapedType::isDynamic(numOffsets)) {
    batch = b.getIndexAttr(getOffsetsBatch(numOffsets, getIncludeLastOffset()));
  } else {
    Value len = tensor::DimOp::create(b, loc, getOffsets(), 0);
    // max(len - 1, 0): a length of 0 breaks the runtime contract (the
    // checked lowering stops), and the shape stays non-negative.
    if (getIncludeLastOffset())
      len = arith::MaxSIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, len,
                                arith::ConstantIndexOp::create(b, loc, 1)),
          arith::ConstantIndexOp::create(b, loc, 0));
    batch = len;
  }
  reifyBagResultShape(b, getLoc(), getTable(), batch, getResult(),
                      getRowwiseBits(), reifiedShapes);
  return success();
}

//===----------------------------------------------------------------------===//
// SegmentsOp
//===----------------------------------------------------------------------===//

LogicalResult SegmentsOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location>,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto tableType = dyn_cast<RankedTensorType>(adaptor.getTable().getType());
  if (!tableType || tableType.getRank() < 1)
    return failure();
  types.push_back(
      inferBagResultType(tableType, adaptor.getRowwiseAttr(),
                         getSegmentsBatch(adaptor.getStaticNumSegmentsAttr())));
  return success();
}

bool SegmentsOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return areCompatibleBagResultTypes(l, r);
}

LogicalResult SegmentsOp::verify() {
  FailureOr<FormBatch> form = verifySegmentsClauses(*this);
  if (failed(form))
    return failure();
  return verifyBagOpCommon(
      *this, inferBagResultType(getTableType(), getRowwiseAttr(), form->batch),
      form->source);
}

LogicalResult
SegmentsOp::reifyResultShapes(OpBuilder &b,
                              ReifiedRankedShapedTypeDims &reifiedShapes) {
  Location loc = getLoc();
  OpFoldResult batch;
  int64_t staticBatch = getResultType().getDimSize(0);
  if (!ShapedType::isDynamic(staticBatch))
    batch = b.getIndexAttr(staticBatch);
  else if (IntegerAttr staticNumSegments = getStaticNumSegmentsAttr())
    batch = b.getIndexAttr(staticNumSegments.getInt());
  else
    batch =
        arith::IndexCastOp::create(b, loc, b.getIndexType(), getNumSegments())
            .getResult();
  reifyBagResultShape(b, loc, getTable(), batch, getResult(), getRowwiseBits(),
                      reifiedShapes);
  return success();
}

//===----------------------------------------------------------------------===//
// Training ops
//===----------------------------------------------------------------------===//

bool mlir::embbag::isTrainingOp(Operation *op) {
  return isa<PackedGradOp, OffsetsGradOp, SegmentsGradOp, PackedUpdateOp,
             OffsetsUpdateOp, SegmentsUpdateOp>(op);
}

/// Checks the rules every training op shares, after its form's clauses
/// (`form`): a table of floats, not quantized, the forward op's reduction
/// and weights rules, and `dy` of the forward op's result type.
template <typename OpT>
static LogicalResult verifyTrainingCommon(OpT op, FailureOr<FormBatch> form) {
  if (failed(form))
    return failure();
  // Updating or differentiating the codes of a quantized row has no
  // meaning; quantization-aware training keeps a float table.
  if (TypeAttr rowwise = op.getRowwiseAttr())
    return op.emitOpError()
           << "cannot train a rowwise(i"
           << rowwise.getValue().getIntOrFloatBitWidth()
           << ") quantized table: the training ops need a table of floats";
  RankedTensorType tableType = op.getTableType();
  Type elementType = tableType.getElementType();
  // ODS allows integers and f16, bf16, f32, f64 only: a float is one of
  // the four.
  if (!isa<FloatType>(elementType))
    return op.emitOpError() << "the training ops need a table of f16, bf16, "
                               "f32 or f64, but the table has "
                            << elementType;
  if (failed(verifyReductionAndWeights(op, op.getReduction(), tableType,
                                       op.getIndicesType(), op.getWeights(),
                                       elementType, /*rowwise=*/false)))
    return failure();
  return verifyBagRowsType(
      op, "dy", cast<RankedTensorType>(op.getDy().getType()), tableType,
      /*rowwise=*/false, getBagResultType(tableType, form->batch),
      form->source);
}

namespace {
/// A result an op must have: its type and what it is, for the diagnostics.
struct ExpectedResult {
  Type type;
  StringRef what;
};
} // namespace

/// Checks that `op` has exactly the results `expected`.
static LogicalResult verifyResults(Operation *op,
                                   ArrayRef<ExpectedResult> expected) {
  if (op->getNumResults() != expected.size()) {
    InFlightDiagnostic diag =
        op->emitOpError() << "must have " << expected.size() << " result(s) (";
    llvm::interleaveComma(expected, diag,
                          [&](const ExpectedResult &e) { diag << e.what; });
    return diag << "), but has " << op->getNumResults();
  }
  for (auto [index, result, want] :
       llvm::enumerate(op->getResultTypes(), expected))
    if (result != want.type)
      return op->emitOpError()
             << "result #" << index << " (" << want.what << ") must be "
             << want.type << ", but got " << result;
  return success();
}

template <typename OpT>
static LogicalResult verifyGradOp(OpT op, FailureOr<FormBatch> form) {
  if (failed(verifyTrainingCommon(op, form)))
    return failure();
  RankedTensorType tableType = op.getTableType();
  SmallVector<ExpectedResult> expected;
  if (op.getSparse()) {
    // Which rows the indices touch is known at run time only.
    expected.push_back({RankedTensorType::get({ShapedType::kDynamic},
                                              op.getIndexElementType()),
                        "the sorted unique rows"});
    expected.push_back({getBagResultType(tableType, ShapedType::kDynamic),
                        "their gradient rows"});
  } else {
    expected.push_back({tableType, "the table gradient"});
  }
  if (Value weights = op.getWeights())
    expected.push_back({weights.getType(), "the weights gradient"});
  return verifyResults(op, expected);
}

/// Checks the optimizer's operands: sgd takes a learning rate only,
/// rowwise_adagrad an epsilon and a state of one float per table row too.
static LogicalResult verifyOptimizer(Operation *op, Optimizer optimizer,
                                     Value epsilon, Value state,
                                     RankedTensorType tableType) {
  bool adagrad = optimizer == Optimizer::rowwise_adagrad;
  if (adagrad != static_cast<bool>(epsilon) ||
      adagrad != static_cast<bool>(state))
    return op->emitOpError()
           << (adagrad ? "rowwise_adagrad needs an epsilon and a state"
                       : "sgd takes no epsilon and no state");
  if (!state)
    return success();
  auto stateType = cast<RankedTensorType>(state.getType());
  if (stateType.getRank() != 1)
    return op->emitOpError() << "the rowwise_adagrad state must be a 1-D "
                                "tensor of one entry per table row, but got "
                             << stateType;
  int64_t entries = stateType.getDimSize(0);
  int64_t rows = tableType.getDimSize(0);
  if (!ShapedType::isDynamic(entries) && !ShapedType::isDynamic(rows) &&
      entries != rows)
    return op->emitOpError()
           << "the rowwise_adagrad state has " << entries
           << " entries but the table has " << rows << " rows";
  return success();
}

template <typename OpT>
static LogicalResult verifyUpdateOp(OpT op, FailureOr<FormBatch> form) {
  if (failed(verifyTrainingCommon(op, form)) ||
      failed(verifyOptimizer(op, op.getOptimizer(), op.getEpsilon(),
                             op.getState(), op.getTableType())))
    return failure();
  SmallVector<ExpectedResult> expected{
      {op.getTableType(), "the updated table"}};
  if (Value state = op.getState())
    expected.push_back({state.getType(), "the updated state"});
  return verifyResults(op, expected);
}

/// The dense gradients' shapes: the table's, then the weights' (each
/// gradient op's reifyResultShapes, defined in EmbBagTrainingOps.td).
template <typename OpT>
static LogicalResult reifyGradShapes(OpT op, OpBuilder &b,
                                     ReifiedRankedShapedTypeDims &shapes) {
  if (op.getSparse())
    return failure();
  shapes.push_back(tensor::getMixedSizes(b, op.getLoc(), op.getTable()));
  if (Value weights = op.getWeights())
    shapes.push_back(tensor::getMixedSizes(b, op.getLoc(), weights));
  return success();
}

/// The shape of result `resultIndex` (each gradient op's
/// reifyShapeOfResult): a sparse gradient's rows and gradient rows have
/// none before the op runs, its weights gradient the weights'.
template <typename OpT>
static FailureOr<SmallVector<OpFoldResult>>
reifyGradShapeOfResult(OpT op, OpBuilder &b, int resultIndex) {
  if (resultIndex < 0 || resultIndex >= int(op->getNumResults()))
    return failure();
  if (op.getSparse() && op->getResult(resultIndex) != op.getWeightsGrad())
    return failure();
  Value shaped = op->getResult(resultIndex) == op.getWeightsGrad()
                     ? op.getWeights()
                     : op.getTable();
  return tensor::getMixedSizes(b, op.getLoc(), shaped);
}

/// The updated table's and state's shapes (each update op's
/// reifyResultShapes, defined in EmbBagTrainingOps.td).
template <typename OpT>
static LogicalResult reifyUpdateShapes(OpT op, OpBuilder &b,
                                       ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(b, op.getLoc(), op.getTable()));
  if (Value state = op.getState())
    shapes.push_back(tensor::getMixedSizes(b, op.getLoc(), state));
  return success();
}

LogicalResult PackedGradOp::verify() {
  return verifyGradOp(*this, verifyPackedClauses(*this));
}
LogicalResult OffsetsGradOp::verify() {
  return verifyGradOp(*this, verifyOffsetsClauses(*this));
}
LogicalResult SegmentsGradOp::verify() {
  return verifyGradOp(*this, verifySegmentsClauses(*this));
}
LogicalResult PackedUpdateOp::verify() {
  return verifyUpdateOp(*this, verifyPackedClauses(*this));
}
LogicalResult OffsetsUpdateOp::verify() {
  return verifyUpdateOp(*this, verifyOffsetsClauses(*this));
}
LogicalResult SegmentsUpdateOp::verify() {
  return verifyUpdateOp(*this, verifySegmentsClauses(*this));
}

#define GET_OP_CLASSES
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.cpp.inc"
