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
/// Version 4: the optional operand `padding_idx` of the three ops, which
/// lengthens the operand segment sizes of embbag.offsets and
/// embbag.segments and gives embbag.packed segment sizes of its own.
/// Version 5: the optional property `rowwise` of the three ops (row-wise
/// quantized tables); files of version 4 are read without it.
constexpr uint64_t kEmbBagBytecodeVersion = 5;

/// The first version whose ops have the property `rowwise`.
constexpr uint64_t kEmbBagBytecodeRowwiseVersion = 5;

/// The oldest version this build reads. The bytecode stores an op's
/// properties by position, and each of versions 2 (the static
/// default/num_segments forms), 3 (include_last_offset) and 4 (the operand
/// segments of padding_idx) changed them. From version 4 on, the ops read
/// their properties as the file's version has them (EmbBagBytecode.cpp);
/// the older layouts are refused.
constexpr uint64_t kEmbBagBytecodeMinVersion = 4;

/// Attaches the bytecode interface (dialect version) to the dialect.
void addEmbBagBytecodeInterface(EmbBagDialect *dialect);

} // namespace mlir::embbag

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGBYTECODE_H
