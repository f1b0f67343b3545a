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
//   (docs/EmbBag/EmbBagOps.md documents the ops)
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/EmbBagBytecode.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagDialect.h"

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
