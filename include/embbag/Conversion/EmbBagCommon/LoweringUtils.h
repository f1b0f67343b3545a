//===- LoweringUtils.h - Helpers shared by the embbag lowerings -*- C++ -*-===//
//
// Building blocks of both lowerings (loops and linalg): reshaping tables to
// [num_emb, row] and results back, signless views of si/ui tensors, and the
// vectorised predicates that ContractChecks.h evaluates the runtime
// contract's rules with.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_CONVERSION_EMBBAGCOMMON_LOWERINGUTILS_H
#define EMBBAG_CONVERSION_EMBBAGCOMMON_LOWERINGUTILS_H

#include "embbag/Dialect/EmbBag/IR/EmbBagInterfaces.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace mlir::embbag::lowering {

/// An index constant.
Value cst(ImplicitLocOpBuilder &b, int64_t v);

/// `index_cast` of an i32/i64 value to index.
Value toIndex(ImplicitLocOpBuilder &b, Value v);

/// A static attribute or an SSA integer as an `index` value.
Value toIndex(ImplicitLocOpBuilder &b, OpFoldResult v);

/// Extracts the i32/i64 element at `pos` of `tensor` as an index.
Value extractIndex(ImplicitLocOpBuilder &b, Value tensor, ValueRange pos);

/// The size of dimension `d` of `tensor` (a constant when static).
Value dim(ImplicitLocOpBuilder &b, Value tensor, int64_t d);

/// The type of `type` (a scalar, vector or tensor type) with a signed or
/// unsigned integer element type replaced by the signless one of the same
/// width, since arith works on signless integers only.
Type getSignlessType(Type type);

/// Reinterprets `v` as `type` of the same bits (an
/// `unrealized_conversion_cast`, which folds away once both sides are LLVM
/// types); returns `v` when it already has `type`.
Value castTo(ImplicitLocOpBuilder &b, Value v, Type type);

/// `castTo(b, v, getSignlessType(v.getType()))`.
Value castToSignless(ImplicitLocOpBuilder &b, Value v);

/// Emits `cf.assert ok` with a message naming `op`, its location and `what`,
/// marked `embbag.runtime_check`.
void emitAssert(ImplicitLocOpBuilder &b, Operation *op, Value ok,
                StringRef what);

/// Whether the 1-D `offsets` are non-negative, non-decreasing and at most
/// `bound` (i1), compared a vector of `vectorBits` bits at a time.
Value offsetsAreValid(ImplicitLocOpBuilder &b, Value offsets, Value bound,
                      unsigned vectorBits);

/// Whether the i32/i64 values at positions [lb, ub) of the 1-D tensor
/// `values` lie in [0, bound) (i1), a vector of `vectorBits` bits at a time.
Value allBelow(ImplicitLocOpBuilder &b, Value values, Value lb, Value ub,
               Value bound, unsigned vectorBits);

/// Whether `row` (an index) is -1 or lies in [0, numEmb) (i1).
Value isRowOrNone(ImplicitLocOpBuilder &b, Value row, Value numEmb);

/// Flattens the table's row dimensions: [num_emb, d1, ..., dk] becomes
/// [num_emb, d1 * ... * dk] (a rank-1 table gets a row of one element).
Value flattenTable(ImplicitLocOpBuilder &b, Value table);

/// Flattens packed indices or weights [batch, per_bag] to [batch * per_bag].
Value flattenBags(ImplicitLocOpBuilder &b, Value packed);

/// Turns a [num_bags, row] result into `resultType` (row dims, static dims).
Value unflattenResult(ImplicitLocOpBuilder &b, Value result,
                      RankedTensorType resultType, Value originalTable,
                      Value numBags);

/// The flat [num_indices] weights gradient `flat` in the shape of
/// `weights` (packed: [batch, per_bag]).
Value unflattenWeights(ImplicitLocOpBuilder &b, Value flat, Value weights);

/// The type a bag of `storageType` elements accumulates in: f32 for f16 and
/// bf16 (rounded once when stored), the signless integer of the same width
/// for integers, the type itself otherwise.
Type getAccumulatorType(Type storageType);

/// The mean's divisor of a bag of `count` (index) elements: max(count, 1) as
/// i64, so that an empty bag keeps its default row or zeros.
Value countDivisor(ImplicitLocOpBuilder &b, Value count);

/// Divides `acc`, a scalar or vector of an accumulator type, by the i64
/// `divisor`. Integers divide the wrapped sum by the true count in 64 bits,
/// truncating toward zero; unsigned types divide unsigned.
Value divideByCount(ImplicitLocOpBuilder &b, Value acc, Value divisor,
                    bool isUnsigned);

/// The sqrtn divisor of a bag whose weight norm is `sumOfSquares` (a scalar
/// of the float accumulator type; unweighted: the count): its square root,
/// or 1 for an empty bag (`count` == 0, index), whose default row or zeros
/// stay undivided.
/// `sqrt` builds the square root (default: math.sqrt).
Value sqrtnDivisor(
    ImplicitLocOpBuilder &b, Value sumOfSquares, Value count,
    function_ref<Value(ImplicitLocOpBuilder &, Value)> sqrt = nullptr);

/// `acc` (a float scalar or vector) divided by the scalar `divisor`.
Value divideBy(ImplicitLocOpBuilder &b, Value acc, Value divisor);

/// Whether `type` has an unsigned integer element type.
bool isUnsignedElement(RankedTensorType type);

/// The identity of `max` in the accumulator type `accType`: -inf for floats,
/// the lowest value of T for integers (0 when `isUnsigned`).
TypedAttr maxIdentity(Builder &b, Type accType, bool isUnsigned);

/// `max(lhs, rhs)` of scalars or vectors of an accumulator type, in the
/// signedness of T; floats propagate NaN, as PyTorch's max does.
Value maximum(ImplicitLocOpBuilder &b, Value lhs, Value rhs, bool isUnsigned);

/// The first position p in [0, n) whose `key(p)` (an index, non-decreasing
/// in p) is not below `target` (signed comparison), or n: a binary search in
/// an scf.while, whose probes stay inside [0, n) whatever the keys hold.
Value lowerBound(ImplicitLocOpBuilder &b, Value n, Value target,
                 function_ref<Value(ImplicitLocOpBuilder &, Value)> key);

/// Whether a slice of these sizes surely holds no element (one of them is
/// a constant 0): reading it is making an empty tensor, writing it back is
/// nothing.
bool isSurelyEmpty(ArrayRef<OpFoldResult> sizes);

/// `source`[offsets][sizes] with unit strides, as `type` (null: the
/// inferred type; a rank-reduced `type` drops unit sizes, first to last).
/// A slice that surely holds nothing is a tensor.empty instead: upstream's
/// verifier rejects any static offset into a dimension of static size 0,
/// and the rows of a table of no columns all start at column 0 of one.
Value extractSliceOrEmpty(ImplicitLocOpBuilder &b, Value source,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes,
                          RankedTensorType type = {});

/// `slice` inserted into `dest` at `offsets` with unit strides, or `dest`
/// when the slice surely holds nothing (see extractSliceOrEmpty).
Value insertSliceUnlessEmpty(ImplicitLocOpBuilder &b, Value slice, Value dest,
                             ArrayRef<OpFoldResult> offsets,
                             ArrayRef<OpFoldResult> sizes);

/// The same in an scf.forall's terminator: no tensor.parallel_insert_slice
/// when the slice surely holds nothing (the shared output stays as it is).
void parallelInsertSliceUnlessEmpty(ImplicitLocOpBuilder &b, Value slice,
                                    Value dest, ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> sizes);

/// Applies `patterns` once to each op nested in `root` for which `filter`
/// holds, and touches nothing else: unlike the greedy driver, no other op is
/// folded, erased or moved. Ops no pattern rewrites are left in place.
void rewriteEach(Operation *root, function_ref<bool(Operation *)> filter,
                 const FrozenRewritePatternSet &patterns);

/// Reports every training op (`embbag.*_grad`, `embbag.*_update`) nested in
/// `root` with the error `why` (what the calling lowering does not do with
/// them), and fails if there is one: a lowering that rewrites the forward
/// ops only would otherwise leave a training op in place, to fail much
/// later, or not at all, far from its location. convert-embbag-to-loops
/// lowers them.
LogicalResult refuseTrainingOps(Operation *root, StringRef why);

/// The forward op of the training op `trainingOp` (`embbag.*_grad` or
/// `embbag.*_update`): the bag op of the same form, reduction, operands and
/// clauses, whose result has `dy`'s type, built at `b`'s point. The
/// training lowerings read its bags and its runtime contract, then erase
/// it.
BagOpInterface buildForwardOp(ImplicitLocOpBuilder &b, Operation *trainingOp);

} // namespace mlir::embbag::lowering

#endif // EMBBAG_CONVERSION_EMBBAGCOMMON_LOWERINGUTILS_H
