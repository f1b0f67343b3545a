//===- ScratchArena.h - One allocation for a kernel's scratch ---*- C++ -*-===//
//
// A training kernel needs several scratch tensors per call (each position's
// bag, the grouping by row, the bags' scales). Bufferized one by one they
// are as many malloc/free pairs per call, and glibc gives the memory of a
// few freed buffers of some hundred KiB back to the system at every call
// (its trim threshold follows the largest buffer): the next call faults
// every page in again, which took half the time of a small table's
// gradient (benchmarks/README.md, "c3 again"). The arena carves them out
// of one allocation instead: a `memref.alloc` of bytes in front of the op,
// a `memref.view` per tensor and `bufferization.to_tensor restrict
// writable` over it, which one-shot bufferization writes in place. The
// deallocation pipeline frees it like any buffer.
//
// A tensor is carved only when its size can be computed in front of the
// allocation (pure ops of values defined there) and its request runs at
// most once per call: no loop between the op and the request. A request in
// a branch of an scf.if whose condition can be computed there counts only
// when the branch is taken. Anything else gets its own tensor.empty.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_SCRATCHARENA_H
#define EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_SCRATCHARENA_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::embbag::loops {

class ScratchArena {
public:
  /// An arena whose allocation goes in front of `b`'s insertion point.
  explicit ScratchArena(ImplicitLocOpBuilder &b);

  /// A tensor of `sizes` (one per dimension, all dynamic) of `elementType`,
  /// its contents undefined, built at `b`'s insertion point.
  Value empty(ImplicitLocOpBuilder &b, ValueRange sizes, Type elementType);

  /// A tensor of `sizes` filled with `value`.
  Value splat(ImplicitLocOpBuilder &b, Value value, ValueRange sizes);

  /// Gives the allocation its size, or erases it when nothing was carved.
  void finish(RewriterBase &rewriter);

private:
  /// `v` computed in front of the allocation: itself when it is defined
  /// there, else a clone of its pure, region-free defining ops (at most
  /// `depth` deep); null when that cannot be done.
  Value hoist(Value v, unsigned depth);
  /// Whether `v` is defined in front of the allocation.
  bool isAvailable(Value v);
  /// Whether hoist(v, depth) would succeed; builds nothing.
  bool isHoistable(Value v, unsigned depth);
  /// A branch of an scf.if between a request and the allocation.
  struct Branch {
    scf::IfOp ifOp;
    bool isElse;
  };
  /// The branches between `b`'s insertion point and the allocation,
  /// innermost first; failure when another op (a loop) lies between, which
  /// could run the request more than once per call.
  FailureOr<SmallVector<Branch>> branchesAbove(ImplicitLocOpBuilder &b);
  /// The i1, in front of the allocation, that says whether a request in
  /// `branches` runs (null: always); their conditions must be hoistable.
  Value takenCondition(ArrayRef<Branch> branches);

  memref::AllocOp alloc;
  Value end; // the bytes carved so far, in front of the allocation
};

} // namespace mlir::embbag::loops

#endif // EMBBAG_LIB_CONVERSION_EMBBAGTOLOOPS_SCRATCHARENA_H
