//===- EmbBagBytecode.cpp - Versioned bytecode for the embbag dialect -----===//
//
// Bytecode files carry the embbag dialect version they were written with, so
// that a later embbag that changes the ops can still read today's files: the
// reader learns the writer's version in readVersion and rewrites the old
// forms in upgradeFromVersion. The ops and attributes themselves use the
// generic encoding (properties and the enum attribute as their textual
// form), so only the version is written here.
//
// Versions:
//   (none)  files written before the dialect was versioned
//   1       the first versioned ops
//   2       the static default(N) / num_segments(N) forms: the ops' properties
//           changed, so files of version 1 or none are not readable (their
//           properties are decoded positionally); version 1 is refused with
//           a diagnostic, an unversioned file fails in property decoding
//   3       the `max` and `sqrtn` reductions, include_last_offset (a new
//           property of embbag.offsets): versions 1 and 2 are refused
//   4       the optional operand padding_idx: the operand segment sizes of
//           embbag.offsets and embbag.segments have one more entry, and
//           embbag.packed has segment sizes now, so version 3 is refused
//   5       the optional property `rowwise` (row-wise quantized tables): the
//           ops read it only from files of version 5 on, so files of
//           version 4 still load
//   (docs/EmbBag/EmbBagOps.md documents the ops)
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagBytecode.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "mlir/Bytecode/BytecodeImplementation.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::embbag;

namespace {

struct EmbBagDialectVersion : public DialectVersion {
  explicit EmbBagDialectVersion(uint64_t version) : version(version) {}
  uint64_t version;
};

struct EmbBagBytecodeInterface : public BytecodeDialectInterface {
  explicit EmbBagBytecodeInterface(Dialect *dialect)
      : BytecodeDialectInterface(dialect) {}

  void writeVersion(DialectBytecodeWriter &writer) const override {
    writer.writeVarInt(kEmbBagBytecodeVersion);
  }

  std::unique_ptr<DialectVersion>
  readVersion(DialectBytecodeReader &reader) const override {
    uint64_t version;
    if (failed(reader.readVarInt(version)))
      return nullptr;
    // A newer writer may have changed what the ops mean; reading its file as
    // if it were ours would silently compute something else.
    if (version < kEmbBagBytecodeMinVersion ||
        version > kEmbBagBytecodeVersion) {
      reader.emitError() << "embbag dialect bytecode version " << version
                         << " is not supported (this build reads versions "
                         << kEmbBagBytecodeMinVersion << " to "
                         << kEmbBagBytecodeVersion << ")";
      return nullptr;
    }
    return std::make_unique<EmbBagDialectVersion>(version);
  }

  LogicalResult
  upgradeFromVersion(Operation *topLevelOp,
                     const DialectVersion &version) const override {
    // Every readable version is the current one so far: nothing to rewrite.
    // A version that changes what an op means (not how its properties are
    // stored) rewrites the older form here.
    (void)static_cast<const EmbBagDialectVersion &>(version);
    return success();
  }
};

} // namespace

void mlir::embbag::addEmbBagBytecodeInterface(EmbBagDialect *dialect) {
  dialect->addInterfaces<EmbBagBytecodeInterface>();
}

//===----------------------------------------------------------------------===//
// The ops' properties
//===----------------------------------------------------------------------===//
//
// The layout ODS would generate (the properties in the order of their
// names; the operand segment sizes as an attribute before bytecode version
// 6, as a sparse array at the end from 6 on), except that `rowwise` is read
// only from files of a dialect version that has it.

/// Whether the file's embbag ops carry `rowwise`.
static bool hasRowwise(DialectBytecodeReader &reader) {
  FailureOr<const DialectVersion *> version =
      reader.getDialectVersion<EmbBagDialect>();
  // Without a recorded version the file cannot be one of ours that is older
  // (readVersion refuses those): read the current layout.
  if (failed(version))
    return true;
  return static_cast<const EmbBagDialectVersion *>(*version)->version >=
         kEmbBagBytecodeRowwiseVersion;
}

// Bytecode version 6 stores operand segment sizes natively.
static constexpr int64_t kNativeSegmentSizes = 6;

template <size_t N>
static LogicalResult readSegmentsBefore(DialectBytecodeReader &reader,
                                        std::array<int32_t, N> &sizes) {
  if (reader.getBytecodeVersion() >= kNativeSegmentSizes)
    return success();
  DenseI32ArrayAttr attr;
  if (failed(reader.readAttribute(attr)))
    return failure();
  if (attr.size() > static_cast<int64_t>(N))
    return reader.emitError("size mismatch for operand_segment_sizes");
  llvm::copy(ArrayRef<int32_t>(attr), sizes.begin());
  return success();
}

template <size_t N>
static LogicalResult readSegmentsAfter(DialectBytecodeReader &reader,
                                       std::array<int32_t, N> &sizes) {
  if (reader.getBytecodeVersion() < kNativeSegmentSizes)
    return success();
  return reader.readSparseArray(MutableArrayRef<int32_t>(sizes));
}

template <size_t N>
static void writeSegmentsBefore(DialectBytecodeWriter &writer,
                                MLIRContext *context,
                                const std::array<int32_t, N> &sizes) {
  if (writer.getBytecodeVersion() < kNativeSegmentSizes)
    writer.writeAttribute(DenseI32ArrayAttr::get(context, sizes));
}

template <size_t N>
static void writeSegmentsAfter(DialectBytecodeWriter &writer,
                               const std::array<int32_t, N> &sizes) {
  if (writer.getBytecodeVersion() >= kNativeSegmentSizes)
    writer.writeSparseArray(ArrayRef<int32_t>(sizes));
}

/// `rowwise`, when the file's version has it.
static LogicalResult readRowwise(DialectBytecodeReader &reader,
                                 TypeAttr &rowwise) {
  return hasRowwise(reader) ? reader.readOptionalAttribute(rowwise) : success();
}

LogicalResult PackedOp::readProperties(DialectBytecodeReader &reader,
                                       OperationState &state) {
  Properties &prop = state.getOrAddProperties<Properties>();
  return success(
      succeeded(readSegmentsBefore(reader, prop.operandSegmentSizes)) &&
      succeeded(reader.readAttribute(prop.reduction)) &&
      succeeded(readRowwise(reader, prop.rowwise)) &&
      succeeded(readSegmentsAfter(reader, prop.operandSegmentSizes)));
}

void PackedOp::writeProperties(DialectBytecodeWriter &writer) {
  Properties &prop = getProperties();
  writeSegmentsBefore(writer, getContext(), prop.operandSegmentSizes);
  writer.writeAttribute(prop.reduction);
  writer.writeOptionalAttribute(prop.rowwise);
  writeSegmentsAfter(writer, prop.operandSegmentSizes);
}

LogicalResult OffsetsOp::readProperties(DialectBytecodeReader &reader,
                                        OperationState &state) {
  Properties &prop = state.getOrAddProperties<Properties>();
  return success(
      succeeded(reader.readOptionalAttribute(prop.include_last_offset)) &&
      succeeded(readSegmentsBefore(reader, prop.operandSegmentSizes)) &&
      succeeded(reader.readAttribute(prop.reduction)) &&
      succeeded(readRowwise(reader, prop.rowwise)) &&
      succeeded(reader.readOptionalAttribute(prop.static_default_index)) &&
      succeeded(readSegmentsAfter(reader, prop.operandSegmentSizes)));
}

void OffsetsOp::writeProperties(DialectBytecodeWriter &writer) {
  Properties &prop = getProperties();
  writer.writeOptionalAttribute(prop.include_last_offset);
  writeSegmentsBefore(writer, getContext(), prop.operandSegmentSizes);
  writer.writeAttribute(prop.reduction);
  writer.writeOptionalAttribute(prop.rowwise);
  writer.writeOptionalAttribute(prop.static_default_index);
  writeSegmentsAfter(writer, prop.operandSegmentSizes);
}

LogicalResult SegmentsOp::readProperties(DialectBytecodeReader &reader,
                                         OperationState &state) {
  Properties &prop = state.getOrAddProperties<Properties>();
  return success(
      succeeded(readSegmentsBefore(reader, prop.operandSegmentSizes)) &&
      succeeded(reader.readAttribute(prop.reduction)) &&
      succeeded(readRowwise(reader, prop.rowwise)) &&
      succeeded(reader.readOptionalAttribute(prop.static_default_index)) &&
      succeeded(reader.readOptionalAttribute(prop.static_num_segments)) &&
      succeeded(readSegmentsAfter(reader, prop.operandSegmentSizes)));
}

void SegmentsOp::writeProperties(DialectBytecodeWriter &writer) {
  Properties &prop = getProperties();
  writeSegmentsBefore(writer, getContext(), prop.operandSegmentSizes);
  writer.writeAttribute(prop.reduction);
  writer.writeOptionalAttribute(prop.rowwise);
  writer.writeOptionalAttribute(prop.static_default_index);
  writer.writeOptionalAttribute(prop.static_num_segments);
  writeSegmentsAfter(writer, prop.operandSegmentSizes);
}
