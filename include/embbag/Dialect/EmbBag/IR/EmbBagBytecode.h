//===- EmbBagBytecode.h - Versioned bytecode for embbag ---------*- C++ -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGBYTECODE_H
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGBYTECODE_H

#include <cstdint>

namespace mlir::embbag {
class EmbBagDialect;

/// The embbag dialect version written into bytecode files. Raise it when an
/// op's form or meaning changes, and teach the reader the old form.
constexpr uint64_t kEmbBagBytecodeVersion = 2;

/// The oldest version this build reads. Version 1 predates the static
/// default/num_segments forms, which changed the ops' properties; reading
/// those needs version-aware property readers in the ops' ODS.
constexpr uint64_t kEmbBagBytecodeMinVersion = 2;

/// Attaches the bytecode interface (dialect version) to the dialect.
void addEmbBagBytecodeInterface(EmbBagDialect *dialect);

} // namespace mlir::embbag

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGBYTECODE_H
