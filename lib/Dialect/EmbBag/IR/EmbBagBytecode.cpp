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
//   (none)  files written before the dialect was versioned; read as version 1
//   1       embbag.packed, embbag.offsets, embbag.segments as documented in
//           docs/EmbBag/EmbBagOps.md
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
    if (version == 0 || version > kEmbBagBytecodeVersion) {
      reader.emitError() << "embbag dialect bytecode version " << version
                         << " is not supported (this build reads versions "
                            "1 to "
                         << kEmbBagBytecodeVersion << ")";
      return nullptr;
    }
    return std::make_unique<EmbBagDialectVersion>(version);
  }

  LogicalResult
  upgradeFromVersion(Operation *topLevelOp,
                     const DialectVersion &version) const override {
    // Version 1 is the only one so far: nothing to rewrite. A version 2 that
    // changes an op adds the rewrite of version-1 forms here.
    (void)static_cast<const EmbBagDialectVersion &>(version);
    return success();
  }
};

} // namespace

void mlir::embbag::addEmbBagBytecodeInterface(EmbBagDialect *dialect) {
  dialect->addInterfaces<EmbBagBytecodeInterface>();
}
