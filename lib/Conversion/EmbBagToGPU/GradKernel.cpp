//===- GradKernel.cpp - The GPU kernels of the gradient ops ---------------===//
//
// The threads' code of a dense `embbag.*_grad` op's kernels (GradKernel.h).
// Lanes split a row element by element: a group of lanes reads a row's
// consecutive elements, so that its loads and stores coalesce.
//
//===----------------------------------------------------------------------===//

#include "GradKernel.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::gpu_lowering;

/// `buffer[indices]` at its natural alignment (BagKernel.cpp's loadElement:
/// NVPTX splits an i64 load whose alignment it does not know).
static Value load(ImplicitLocOpBuilder &b, Value buffer, ValueRange indices) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  return memref::LoadOp::create(b, buffer, indices, /*nontemporal=*/false,
                                llvm::Align(element.getIntOrFloatBitWidth() /
                                            8));
}

/// The value `v` of float type as `type`.
static Value convert(ImplicitLocOpBuilder &b, Value v, Type type) {
  unsigned from = v.getType().getIntOrFloatBitWidth();
  if (v.getType() == type)
    return v;
  if (from < type.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, type, v);
  return arith::TruncFOp::create(b, type, v);
}

static Value f32(ImplicitLocOpBuilder &b, double v) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(v));
}

static Value cmp(ImplicitLocOpBuilder &b, arith::CmpIPredicate predicate,
                 Value x, Value y) {
  return arith::CmpIOp::create(b, predicate, x, y);
}

/// The index read at position `pos`, as an index.
static Value loadRow(ImplicitLocOpBuilder &b, const BagKernel &k, Value pos) {
  return arith::IndexCastOp::create(b, b.getIndexType(),
                                    load(b, k.indices, pos));
}

/// Whether `row` is a row of the table (i1).
static Value isInTable(ImplicitLocOpBuilder &b, const BagKernel &k,
                       Value row) {
  return arith::AndIOp::create(
      b, cmp(b, arith::CmpIPredicate::sge, row, cst(b, 0)),
      cmp(b, arith::CmpIPredicate::slt, row, k.numEmb));
}

/// Whether `row`, in the table, is read (i1): not the padding row.
static Value isTaken(ImplicitLocOpBuilder &b, const BagKernel &k, Value row,
                     Value inTable) {
  if (!k.paddingIdx)
    return inTable;
  return arith::AndIOp::create(
      b, inTable, cmp(b, arith::CmpIPredicate::ne, row, k.paddingIdx));
}

/// The weight of position `pos` in f32.
static Value loadWeight(ImplicitLocOpBuilder &b, const BagKernel &k,
                        Value pos) {
  return convert(b, load(b, k.weights, pos), b.getF32Type());
}

static void buildIf(ImplicitLocOpBuilder &b, Value condition,
                    function_ref<void(ImplicitLocOpBuilder &)> body) {
  scf::IfOp::create(b, condition, [&](OpBuilder &nested, Location loc) {
    ImplicitLocOpBuilder tb(loc, nested);
    body(tb);
    scf::YieldOp::create(tb);
  });
}

/// A loop over [lo, hi) by `step` carrying `inits`; `body` returns the
/// next values.
static ValueRange
buildLoop(ImplicitLocOpBuilder &b, Value lo, Value hi, Value step,
          ValueRange inits,
          function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value,
                                          ValueRange)>
              body) {
  auto loop = scf::ForOp::create(
      b, lo, hi, step, inits,
      [&](OpBuilder &nested, Location loc, Value i, ValueRange iter) {
        ImplicitLocOpBuilder lb(loc, nested);
        scf::YieldOp::create(lb, body(lb, i, iter));
      });
  return loop.getResults();
}

/// 1 / sqrt(x) for sqrtn, 1 / x for mean, and 0 when `x` is 0 (a bag
/// that reads no row: no position takes its scale). On the device the
/// square root is LLVM's intrinsic (BagKernel.h, `onDevice`).
static Value reciprocalScale(ImplicitLocOpBuilder &b, const BagKernel &k,
                             Value x) {
  Value divisor = x;
  if (k.reduction == Reduction::sqrtn)
    divisor = k.onDevice ? LLVM::CallIntrinsicOp::create(
                               b, x.getType(), b.getStringAttr("llvm.sqrt.f32"),
                               ValueRange{x})
                               .getResult(0)
                         : math::SqrtOp::create(b, x).getResult();
  Value isZero = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, x,
                                       f32(b, 0.0));
  return arith::SelectOp::create(
      b, isZero, f32(b, 0.0), arith::DivFOp::create(b, f32(b, 1.0), divisor));
}

//===----------------------------------------------------------------------===//
// The table gradient
//===----------------------------------------------------------------------===//

namespace {

/// A group of lanes of the table gradient's kernel.
struct Owner {
  const GradKernel &k;
  Value group, lane;
  const BagKernel &bags() const { return k.bags; }
  bool scaled() const {
    return bags().reduction == Reduction::mean ||
           bags().reduction == Reduction::sqrtn;
  }
};

} // namespace

/// Runs `body` for the lane's columns of a row: lane, lane + lanes, ...
static void forEachColumn(ImplicitLocOpBuilder &b, const Owner &o,
                          function_ref<void(ImplicitLocOpBuilder &, Value)> body) {
  buildLoop(b, o.lane, o.bags().rowLength, o.bags().lanesPerBag, ValueRange{},
            [&](ImplicitLocOpBuilder &lb, Value col, ValueRange) {
              body(lb, col);
              return SmallVector<Value>{};
            });
}

/// Whether the group owns `row`, a taken row of the table (i1).
static Value isOwned(ImplicitLocOpBuilder &b, const Owner &o, Value row) {
  return cmp(b, arith::CmpIPredicate::eq,
             arith::RemUIOp::create(b, row, o.k.numOwners), o.group);
}

/// The group's rows, zeroed.
static void zeroOwnedRows(ImplicitLocOpBuilder &b, const Owner &o) {
  Value zero = convert(b, f32(b, 0.0),
                       cast<MemRefType>(o.k.tableGrad.getType())
                           .getElementType());
  buildLoop(b, o.group, o.bags().numEmb, o.k.numOwners, ValueRange{},
            [&](ImplicitLocOpBuilder &lb, Value row, ValueRange) {
              forEachColumn(lb, o, [&](ImplicitLocOpBuilder &cb, Value col) {
                memref::StoreOp::create(cb, zero, o.k.tableGrad,
                                        ValueRange{row, col});
              });
              return SmallVector<Value>{};
            });
}

/// mean's and sqrtn's scale of the bag of positions [start, end) (the CPU's
/// `scale`: 1 / count, 1 / sqrt(count), weighted 1 / sqrt(sum w^2), over
/// the taken positions), and whether it reads a row the group owns.
static std::pair<Value, Value> scanBag(ImplicitLocOpBuilder &b,
                                       const Owner &o, Value start,
                                       Value end) {
  const BagKernel &k = o.bags();
  bool squares = k.reduction == Reduction::sqrtn && k.weights;
  Value no = arith::ConstantOp::create(b, b.getBoolAttr(false));
  ValueRange sums = buildLoop(
      b, start, end, cst(b, 1), ValueRange{f32(b, 0.0), no},
      [&](ImplicitLocOpBuilder &lb, Value pos, ValueRange iter) {
        Value row = loadRow(lb, k, pos);
        Value taken = isTaken(lb, k, row, isInTable(lb, k, row));
        Value add = f32(lb, 1.0);
        if (squares) {
          Value w = loadWeight(lb, k, pos);
          add = arith::MulFOp::create(lb, w, w);
        }
        Value norm = arith::AddFOp::create(
            lb, iter[0], arith::SelectOp::create(lb, taken, add, f32(lb, 0.0)));
        Value mine = arith::AndIOp::create(lb, taken, isOwned(lb, o, row));
        return SmallVector<Value>{norm,
                                  arith::OrIOp::create(lb, iter[1], mine)};
      });
  return {reciprocalScale(b, k, sums[0]), sums[1]};
}

/// Adds the shares of bag `bag`'s positions [start, end) to the rows the
/// group owns, in index order. When `isChecker` (i1) holds, the group also
/// flags the indices outside the table (one group, not every group).
static void addBag(ImplicitLocOpBuilder &b, const Owner &o, Value bag,
                   Value start, Value end, Value scale, Value isChecker) {
  const BagKernel &k = o.bags();
  Type gradType = cast<MemRefType>(o.k.tableGrad.getType()).getElementType();
  buildLoop(
      b, start, end, cst(b, 1), ValueRange{},
      [&](ImplicitLocOpBuilder &lb, Value pos, ValueRange) {
        Value row = loadRow(lb, k, pos);
        Value inTable = isInTable(lb, k, row);
        if (k.indicesBit)
          flagUnless(lb, k.flag,
                     arith::OrIOp::create(
                         lb, inTable,
                         arith::XOrIOp::create(
                             lb, isChecker,
                             arith::ConstantOp::create(lb, lb.getBoolAttr(true)))),
                     k.indicesBit);
        Value mine = arith::AndIOp::create(lb, isTaken(lb, k, row, inTable),
                                           isOwned(lb, o, row));
        buildIf(lb, mine, [&](ImplicitLocOpBuilder &tb) {
          Value coefficient = scale;
          if (k.weights) {
            Value w = loadWeight(tb, k, pos);
            coefficient = scale ? arith::MulFOp::create(tb, w, scale) : w;
          }
          forEachColumn(tb, o, [&](ImplicitLocOpBuilder &cb, Value col) {
            Value dy = convert(cb, load(cb, o.k.dy, ValueRange{bag, col}),
                               cb.getF32Type());
            Value share =
                coefficient ? arith::MulFOp::create(cb, dy, coefficient) : dy;
            Value old = convert(
                cb, load(cb, o.k.tableGrad, ValueRange{row, col}),
                cb.getF32Type());
            Value sum = arith::AddFOp::create(cb, old, share);
            memref::StoreOp::create(cb, convert(cb, sum, gradType),
                                    o.k.tableGrad, ValueRange{row, col});
          });
        });
        return SmallVector<Value>{};
      });
}

void mlir::embbag::gpu_lowering::buildTableGradThread(ImplicitLocOpBuilder &b,
                                                      const GradKernel &k,
                                                      Value block,
                                                      Value thread) {
  const BagKernel &bags = k.bags;
  Value lane = arith::RemUIOp::create(b, thread, bags.lanesPerBag);
  Value group = arith::AddIOp::create(
      b, arith::MulIOp::create(b, block, bags.bagsPerBlock),
      arith::DivUIOp::create(b, thread, bags.lanesPerBag));
  Owner o{k, group, lane};
  zeroOwnedRows(b, o);
  // Group 0 checks the indices and segment ids: every group reads them all.
  Value isChecker = cmp(b, arith::CmpIPredicate::eq, group, cst(b, 0));
  buildLoop(
      b, cst(b, 0), bags.bounds.numBags, cst(b, 1), ValueRange{},
      [&](ImplicitLocOpBuilder &lb, Value bag, ValueRange) {
        auto [start, end] = getCheckedRange(lb, bags, bag);
        if (bags.segmentIdsBit)
          buildIf(lb, isChecker, [&](ImplicitLocOpBuilder &tb) {
            checkSegment(tb, bags, bag, lane, start, end);
          });
        if (!o.scaled()) {
          addBag(lb, o, bag, start, end, Value(), isChecker);
          return SmallVector<Value>{};
        }
        // A second walk only for a bag that reads an owned row (or to
        // check its indices).
        auto [scale, owned] = scanBag(lb, o, start, end);
        buildIf(lb, arith::OrIOp::create(lb, owned, isChecker),
                [&](ImplicitLocOpBuilder &tb) {
                  addBag(tb, o, bag, start, end, scale, isChecker);
                });
        return SmallVector<Value>{};
      });
}

//===----------------------------------------------------------------------===//
// The weights gradient
//===----------------------------------------------------------------------===//

/// The position's thread id: block * kBlockSize + thread.
static Value globalId(ImplicitLocOpBuilder &b, Value block, Value thread) {
  return arith::AddIOp::create(
      b, arith::MulIOp::create(b, block, cst(b, kBlockSize)), thread);
}

void mlir::embbag::gpu_lowering::buildZeroWeightsGradThread(
    ImplicitLocOpBuilder &b, const GradKernel &k, Value block, Value thread) {
  Value pos = globalId(b, block, thread);
  Type type = cast<MemRefType>(k.weightsGrad.getType()).getElementType();
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, pos, k.bags.bounds.numIndices),
          [&](ImplicitLocOpBuilder &tb) {
            memref::StoreOp::create(tb, convert(tb, f32(tb, 0.0), type),
                                    k.weightsGrad, ValueRange{pos});
          });
}

/// dy[bag] . table[row], in f32, column by column.
static Value dotWithDy(ImplicitLocOpBuilder &b, const GradKernel &k, Value bag,
                       Value row) {
  return buildLoop(
      b, cst(b, 0), k.bags.rowLength, cst(b, 1), ValueRange{f32(b, 0.0)},
      [&](ImplicitLocOpBuilder &lb, Value col, ValueRange iter) {
        Value dy = convert(lb, load(lb, k.dy, ValueRange{bag, col}),
                           lb.getF32Type());
        Value x = convert(lb, load(lb, k.bags.table, ValueRange{row, col}),
                          lb.getF32Type());
        return SmallVector<Value>{arith::AddFOp::create(
            lb, iter[0], arith::MulFOp::create(lb, dy, x))};
      })[0];
}

/// Runs `body` for each taken position of [start, end), with its row,
/// carrying `inits`.
static ValueRange forEachTaken(
    ImplicitLocOpBuilder &b, const BagKernel &k, Value start, Value end,
    ValueRange inits,
    function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value pos,
                                    Value row, ValueRange)>
        body) {
  return buildLoop(
      b, start, end, cst(b, 1), inits,
      [&](ImplicitLocOpBuilder &lb, Value pos, ValueRange iter) {
        Value row = loadRow(lb, k, pos);
        Value taken = isTaken(lb, k, row, isInTable(lb, k, row));
        auto ifOp = scf::IfOp::create(
            lb, taken,
            [&](OpBuilder &nested, Location loc) {
              ImplicitLocOpBuilder tb(loc, nested);
              scf::YieldOp::create(tb, body(tb, pos, row, iter));
            },
            [&](OpBuilder &nested, Location loc) {
              scf::YieldOp::create(nested, loc, iter);
            });
        return SmallVector<Value>(ifOp.getResults());
      });
}

void mlir::embbag::gpu_lowering::buildWeightsGradThread(
    ImplicitLocOpBuilder &b, const GradKernel &k, Value block, Value thread) {
  const BagKernel &bags = k.bags;
  Value bag = globalId(b, block, thread);
  Type type = cast<MemRefType>(k.weightsGrad.getType()).getElementType();
  buildIf(b, cmp(b, arith::CmpIPredicate::ult, bag, bags.bounds.numBags),
          [&](ImplicitLocOpBuilder &tb) {
    auto [start, end] = getCheckedRange(tb, bags, bag);
    // sqrtn: y = S / sqrt(Q), S = sum w_j x_j, Q = sum w_j^2, so with
    // s = 1 / sqrt(Q) and D = sum_j w_j (dy . x_j):
    // dL/dw_j = s (dy . x_j) - w_j D s^3 (the CPU kernel's formula).
    Value s, bigD;
    if (bags.reduction == Reduction::sqrtn) {
      ValueRange sums = forEachTaken(
          tb, bags, start, end, ValueRange{f32(tb, 0.0), f32(tb, 0.0)},
          [&](ImplicitLocOpBuilder &ib, Value pos, Value row,
              ValueRange iter) {
            Value w = loadWeight(ib, bags, pos);
            Value d = dotWithDy(ib, k, bag, row);
            return SmallVector<Value>{
                arith::AddFOp::create(ib, iter[0],
                                      arith::MulFOp::create(ib, w, w)),
                arith::AddFOp::create(ib, iter[1],
                                      arith::MulFOp::create(ib, w, d))};
          });
      s = reciprocalScale(tb, bags, sums[0]);
      bigD = sums[1];
    }
    forEachTaken(
        tb, bags, start, end, ValueRange{},
        [&](ImplicitLocOpBuilder &ib, Value pos, Value row, ValueRange) {
          Value grad = dotWithDy(ib, k, bag, row);
          if (s) {
            Value w = loadWeight(ib, bags, pos);
            Value s3 = arith::MulFOp::create(
                ib, arith::MulFOp::create(ib, s, s), s);
            Value minus = arith::MulFOp::create(
                ib, arith::MulFOp::create(ib, w, bigD), s3);
            grad = arith::SubFOp::create(
                ib, arith::MulFOp::create(ib, s, grad), minus);
          }
          memref::StoreOp::create(ib, convert(ib, grad, type), k.weightsGrad,
                                  ValueRange{pos});
          return SmallVector<Value>{};
        });
  });
}
