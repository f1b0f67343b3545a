//===- EmbBagInterfaces.h - What a bag op is --------------------*- C++ -*-===//
//
// BagOpInterface (EmbBagInterfaces.td) and the values it speaks in: the
// operands of a bag op by role, and the bounds of its bags.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGINTERFACES_H
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGINTERFACES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#include <functional>
#include <optional>

namespace mlir::embbag {

enum class Reduction : uint32_t;

/// How an op groups its indices into bags.
enum class BagForm { Packed, Offsets, Segments };

/// The operands and clauses of a bag op by role; absent ones are null.
/// `numSegments` and `defaultIndex` may be static attributes instead of
/// values (`staticNumSegments`, `staticDefault`).
struct BagOperands {
  Value table;
  Value indices;
  Value bags; // offsets or segment ids; null for packed
  bool includeLastOffset = false;
  Value numSegments;
  IntegerAttr staticNumSegments;
  Value defaultIndex;
  IntegerAttr staticDefault;
  // A row number like `default`: parts of an op that keep whole rows keep
  // it unchanged.
  Value paddingIdx;
  Value weights;
  TypeAttr rowwise; // the code width of a quantized table, or null

  /// These operands with every value replaced by `fn(value)`.
  BagOperands map(function_ref<Value(Value)> fn) const;

  /// The static `num_segments` and `default` as constants of the index
  /// element type, so that callers compute with them like with values.
  void materializeStatics(OpBuilder &b, Location loc);
};

/// The bags of an op as ranges of positions in its flattened index list.
struct BagBounds {
  /// The start or the end of bag `bag` (all `index` values).
  using BoundFn = std::function<Value(OpBuilder &, Location, Value bag)>;
  /// The range [start, end) of bag `bag`.
  using RangeFn =
      std::function<std::pair<Value, Value>(OpBuilder &, Location, Value bag)>;

  Value numBags;    // index
  Value numIndices; // index: the length of the flattened index list
  BoundFn start, end;
  // Where bag `pos` starts for pos in [0, numBags], pos == numBags giving
  // where the bags end: for cutting the index list between bags.
  BoundFn boundary;

  std::pair<Value, Value> range(OpBuilder &b, Location loc, Value bag) const {
    return {start(b, loc, bag), end(b, loc, bag)};
  }
  RangeFn getRangeFn() const {
    return [start = start, end = end](OpBuilder &b, Location loc, Value bag) {
      return std::make_pair(start(b, loc, bag), end(b, loc, bag));
    };
  }

  /// Bag b is [offsets[b], offsets[b + 1]); without `includeLastOffset`
  /// the last bag runs to `numIndices`. With it there are offsets - 1 bags
  /// (none for an empty offsets tensor, a broken contract).
  /// `offsets` is a 1-D tensor, or a buffer in a kernel built on buffers.
  static BagBounds fromOffsets(OpBuilder &b, Location loc, Value offsets,
                               Value numIndices, bool includeLastOffset);
  /// Bag b of a packed op is [b * perBag, (b + 1) * perBag).
  static BagBounds fromPacked(OpBuilder &b, Location loc, Value numBags,
                              Value perBag);
};

/// The operands of an op of `form` restricted to its bags [first, first +
/// count) (BagOpInterface::cloneOnBags), and where the part's indices start
/// in the whole op's: a row of a packed op's indices, a position of an
/// offsets op's, 0 for a segments op (whose part keeps every index).
struct BagsPart {
  BagOperands operands;
  OpFoldResult firstIndex;
};
BagsPart sliceOnBags(OpBuilder &b, Location loc, BagForm form, BagOperands o,
                     OpFoldResult first, OpFoldResult count);

} // namespace mlir::embbag

#include "embbag/Dialect/EmbBag/IR/EmbBagInterfaces.h.inc"

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGINTERFACES_H
