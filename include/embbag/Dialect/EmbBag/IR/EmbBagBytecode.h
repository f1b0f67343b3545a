//===- EmbBagBytecode.h - Versioned bytecode for embbag ---------*- C++ -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGBYTECODE_H
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGBYTECODE_H

#include <cstdint>

namespace mlir::embbag {
class EmbBagDialect;

/// The embbag dialect version written into bytecode files. Raise it when an
/// op's form or meaning changes, and teach the reader the old form.
/// Version 3: the `max` and `sqrtn` reductions and `include_last_offset`,
/// a new property of embbag.offsets.
constexpr uint64_t kEmbBagBytecodeVersion = 3;

/// The oldest version this build reads. The bytecode stores an op's
/// properties by position, and each of versions 2 (the static
/// default/num_segments forms) and 3 (include_last_offset) added one:
/// reading older files needs version-aware property readers in the ops'
/// ODS.
constexpr uint64_t kEmbBagBytecodeMinVersion = 3;

/// Attaches the bytecode interface (dialect version) to the dialect.
void addEmbBagBytecodeInterface(EmbBagDialect *dialect);

} // namespace mlir::embbag

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGBYTECODE_H
