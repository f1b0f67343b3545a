//===- BagKernel.cpp - One thread of the GPU kernel of a bag op -----------===//
//
// A thread is lane `thread % L` of bag `block * (256 / L) + thread / L`.
// For each of its columns (vectors c = lane, lane + L, ...) it runs one
// pass over the bag's indices, `rowsInFlight` at a time: first their
// indices, then their rows (independent loads the memory system overlaps),
// then the accumulation in f32, so that a warp keeps many rows in flight.
// A row read is guarded only when an index can be skipped (padding_idx) or
// must be checked: then a skipped index loads nothing and leaves the
// accumulator as it was. The end of a bag (default row, mean, sqrtn) is
// the CPU kernel's (LoweringUtils.h), so both give the same results.
//
//===----------------------------------------------------------------------===//

#include "BagKernel.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagCommon/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::embbag;
using namespace mlir::embbag::lowering;
using namespace mlir::embbag::gpu_lowering;

namespace {

/// The values one pass over a bag carries from index to index.
struct PassState {
  Value acc;        // vector<E x f32 (or the table's float type)>
  Value count;      // index: indices taken; null when it is the bag's size
  Value sumSquares; // the weights' squares (weighted sqrtn), or null
  // A sum of rowwise rows: their biases (times their weights), f32, added
  // to every column at the end; `acc` sums codes times scales. Else null.
  Value biasSum;

  SmallVector<Value> toValues() const {
    SmallVector<Value> values{acc};
    for (Value v : {count, sumSquares, biasSum})
      if (v)
        values.push_back(v);
    return values;
  }
  PassState withValues(ValueRange values) const {
    PassState next = *this;
    unsigned i = 0;
    next.acc = values[i++];
    for (Value *v : {&next.count, &next.sumSquares, &next.biasSum})
      if (*v)
        *v = values[i++];
    return next;
  }
};

/// One lane's view of the kernel: the vector length of its loads.
struct Lane {
  const BagKernel &k;
  int64_t length;   // elements per load: a 16-byte vector, or 1
  Type storageType; // T, or ui8 for rowwise codes
  Type resultType;  // T, or the rowwise result's f32 / f16
  Type accType;     // f32 for f16 / bf16 / codes, else T
  VectorType storageVector, resultVector, accVector;

  Lane(const BagKernel &k, int64_t length)
      : k(k), length(length),
        storageType(cast<MemRefType>(k.table.getType()).getElementType()),
        resultType(k.resultType), accType(getAccumulatorType(resultType)),
        storageVector(VectorType::get({length}, storageType)),
        resultVector(VectorType::get({length}, resultType)),
        accVector(VectorType::get({length}, accType)) {}

  bool isMax() const { return k.reduction == Reduction::max; }
  bool countsTaken() const { return static_cast<bool>(k.paddingIdx); }
  bool sumsSquares() const {
    return k.reduction == Reduction::sqrtn && k.weights;
  }
  /// Whether the pass sums a rowwise row's biases apart from its codes
  /// times its scale: one fused multiply-add per code instead of two
  /// operations (sums only: max needs each value).
  bool sumsBiases() const { return k.rowwiseBits && !isMax(); }
  llvm::MaybeAlign alignment() const {
    return llvm::Align(length * storageType.getIntOrFloatBitWidth() / 8);
  }
};

} // namespace

static Value splat(ImplicitLocOpBuilder &b, VectorType type, TypedAttr value) {
  return arith::ConstantOp::create(b, type,
                                   DenseElementsAttr::get(type, value));
}

/// The identity of the reduction: zeros, or -inf for max.
static Value identity(ImplicitLocOpBuilder &b, const Lane &l) {
  return splat(b, l.accVector,
               l.isMax() ? maxIdentity(b, l.accType, /*isUnsigned=*/false)
                         : b.getZeroAttr(l.accType));
}

/// What a lane loads of a table row before it converts it: the row's
/// columns in the table's storage (a vector of T, or the bytes of its
/// codes), and for a rowwise row the bytes of its scale and bias. All rows
/// in flight are loaded before any is converted, so that the loads stay
/// together in the PTX and overlap in the memory system.
struct RawRow {
  Value data;
  Value scaleBias; // null for a table of floats
};

/// The bytes a lane loads of a row's codes: a code word, or the one byte
/// that holds a one-code lane's code.
static int64_t codeBytes(const Lane &l) {
  if (l.k.rowwiseBits == 8)
    return l.length;
  return l.length == 1 ? 1 : codeWordBits(l.k.rowwiseBits) / 8;
}

/// The bytes of a rowwise row's scale and bias: two f32 after 8-bit codes,
/// two f16 after 4- and 2-bit codes.
static int64_t scaleBiasBytes(const Lane &l) {
  return l.k.rowwiseBits == 8 ? 8 : 4;
}

static Value loadBytes(ImplicitLocOpBuilder &b, const Lane &l, Value row,
                       Value byteCol, int64_t bytes, int64_t alignment) {
  return vector::LoadOp::create(b, VectorType::get({bytes}, l.storageType),
                                l.k.table, ValueRange{row, byteCol},
                                /*nontemporal=*/false, llvm::Align(alignment));
}

/// Loads columns [col, col + length) of table row `row`, unconverted.
static RawRow loadRaw(ImplicitLocOpBuilder &b, const Lane &l, Value row,
                      Value col) {
  if (!l.k.rowwiseBits)
    return {vector::LoadOp::create(b, l.storageVector, l.k.table,
                                   ValueRange{row, col},
                                   /*nontemporal=*/false, l.alignment()),
            Value()};
  int64_t perByte = 8 / l.k.rowwiseBits;
  Value byteCol = b.createOrFold<arith::DivUIOp>(col, cst(b, perByte));
  // A vector lane's rows are aligned to its code word (the host checks
  // it), and the scale column is a whole number of words.
  int64_t wordAlign = l.length == 1 ? 1 : codeBytes(l);
  return {loadBytes(b, l, row, byteCol, codeBytes(l), wordAlign),
          loadBytes(b, l, row, l.k.scaleColumn, scaleBiasBytes(l), wordAlign)};
}

/// What a row that is not taken yields: values of the raw row's types,
/// which the pass's selects discard, made from the row's index rather than
/// constants. From constant zeros LLVM folds each row's conversion (f16 to
/// f32, codes to floats) into the branch that loads the row, between its
/// load and the next row's, and a thread then waits for each load before
/// it issues the next: on an H200 a checked 8-bit kernel needed 128
/// registers, and spilled 556 bytes when bound to 64 (docs/GPU.md).
static RawRow skippedRaw(ImplicitLocOpBuilder &b, const Lane &l, Value row) {
  Value bits64 = arith::IndexCastUIOp::create(b, b.getI64Type(), row);
  auto fill = [&](VectorType type) -> Value {
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    Value bits = bits64;
    if (width < 64)
      bits = arith::TruncIOp::create(b, b.getIntegerType(width), bits);
    Type element = type.getElementType();
    Value scalar = isa<FloatType>(element)
                       ? arith::BitcastOp::create(b, element, bits).getResult()
                       : bits;
    auto signless = VectorType::get(type.getShape(), scalar.getType());
    return castTo(b, vector::BroadcastOp::create(b, signless, scalar), type);
  };
  auto bytes = [&](int64_t n) {
    return fill(VectorType::get({n}, l.storageType));
  };
  if (!l.k.rowwiseBits)
    return {fill(l.storageVector), Value()};
  return {bytes(codeBytes(l)), bytes(scaleBiasBytes(l))};
}

/// The scale and bias of a rowwise row in f32 from their bytes, little
/// endian as NVIDIA GPUs and x86 are.
static std::pair<Value, Value> scaleAndBias(ImplicitLocOpBuilder &b,
                                            const Lane &l, Value raw) {
  Type floatType =
      l.k.rowwiseBits == 8 ? Type(b.getF32Type()) : Type(b.getF16Type());
  Value floats = vector::BitCastOp::create(b, VectorType::get({2}, floatType),
                                           castToSignless(b, raw));
  auto element = [&](int64_t i) -> Value {
    Value v = vector::ExtractOp::create(b, floats, ArrayRef<int64_t>{i});
    return floatType.isF32() ? v : arith::ExtFOp::create(b, b.getF32Type(), v);
  };
  return {element(0), element(1)};
}

/// The codes [col, col + length) of a row of 4- or 2-bit codes, as i32,
/// from their bytes: a code c lies in bits [c * bits, (c + 1) * bits) of
/// the row (lowest bits first). A vector lane has them in one 4-byte word
/// and shifts each code out of it; a one-code lane has the code's byte.
static Value subByteCodes(ImplicitLocOpBuilder &b, const Lane &l, Value raw,
                          Value col) {
  unsigned bits = l.k.rowwiseBits;
  int64_t perByte = 8 / bits;
  Type i32 = b.getI32Type();
  auto i32Vector = VectorType::get({l.length}, i32);
  Value word, shifts;
  if (l.length == 1) {
    word = arith::ExtUIOp::create(b, i32Vector, castToSignless(b, raw));
    Value shift = arith::MulIOp::create(
        b, arith::RemUIOp::create(b, col, cst(b, perByte)), cst(b, bits));
    shifts = vector::BroadcastOp::create(
        b, i32Vector, arith::IndexCastUIOp::create(b, i32, shift));
  } else {
    Value packed = vector::ExtractOp::create(
        b,
        vector::BitCastOp::create(b, VectorType::get({1}, i32),
                                  castToSignless(b, raw)),
        ArrayRef<int64_t>{0});
    word = vector::BroadcastOp::create(b, i32Vector, packed);
    SmallVector<int32_t> steps;
    for (int64_t c = 0; c < l.length; ++c)
      steps.push_back(static_cast<int32_t>(c * bits));
    shifts = arith::ConstantOp::create(
        b, i32Vector, DenseElementsAttr::get(i32Vector, ArrayRef(steps)));
  }
  Value mask = splat(b, i32Vector, b.getI32IntegerAttr((1 << bits) - 1));
  return arith::AndIOp::create(b, arith::ShRUIOp::create(b, word, shifts),
                               mask);
}

/// Codes (unsigned integers below 2^8) as f32, exactly: each code goes into
/// the mantissa of 2^23 (the bits 0x4B000000 | code are the float 2^23 +
/// code), from which 2^23 is subtracted without rounding. On NVIDIA GPUs
/// this is integer and full-rate float work per code, where cvt.rn.f32.u32
/// runs at a quarter of the rate. On an H200 it did not change the 8-bit
/// kernel's speed (benchmarks/README.md, "GPU benchmark"): the conversions
/// are not what bounds it. The host loops (path=gpu-loops) do the same, so
/// the CPU's tests check it.
static Value codesToFloat(ImplicitLocOpBuilder &b, const Lane &l, Value codes) {
  auto i32Vector = VectorType::get({l.length}, b.getI32Type());
  if (cast<VectorType>(codes.getType()).getElementType() != b.getI32Type())
    codes = arith::ExtUIOp::create(b, i32Vector, codes);
  Value biased = arith::OrIOp::create(
      b, codes, splat(b, i32Vector, b.getI32IntegerAttr(0x4B000000)));
  return arith::SubFOp::create(
      b, arith::BitcastOp::create(b, l.accVector, biased),
      splat(b, l.accVector, b.getF32FloatAttr(8388608.0f)));
}

/// The codes [col, col + length) of a raw rowwise row, as f32.
static Value rowCodes(ImplicitLocOpBuilder &b, const Lane &l, const RawRow &raw,
                      Value col) {
  Value codes = l.k.rowwiseBits == 8 ? castToSignless(b, raw.data)
                                     : subByteCodes(b, l, raw.data, col);
  return codesToFloat(b, l, codes);
}

/// A raw row in the accumulator type: a float row widened, a rowwise row's
/// codes (unsigned) times its scale plus its bias.
static Value convertRow(ImplicitLocOpBuilder &b, const Lane &l,
                        const RawRow &raw, Value col) {
  if (!l.k.rowwiseBits)
    return l.accType == l.storageType
               ? raw.data
               : arith::ExtFOp::create(b, l.accVector, raw.data).getResult();
  auto [scale, bias] = scaleAndBias(b, l, raw.scaleBias);
  return vector::FMAOp::create(
      b, rowCodes(b, l, raw, col),
      vector::BroadcastOp::create(b, l.accVector, scale),
      vector::BroadcastOp::create(b, l.accVector, bias));
}

/// Columns [col, col + length) of table row `row`, in the accumulator type.
static Value loadRow(ImplicitLocOpBuilder &b, const Lane &l, Value row,
                     Value col) {
  return convertRow(b, l, loadRaw(b, l, row, col), col);
}

/// Sets `bit` of the flag word unless `ok`: a broken rule of the contract,
/// which the host reports after the kernel.
static void flagUnless(ImplicitLocOpBuilder &b, const BagKernel &k, Value ok,
                       int32_t bit) {
  lowering::flagUnless(b, k.flag, ok, bit);
}

/// Whether the index `row` read at some position is taken (i1), or null
/// when every index is: not padding, and with checks inside the table
/// (flagging it otherwise).
static Value isTaken(ImplicitLocOpBuilder &b, const BagKernel &k, Value row) {
  Value taken;
  if (k.indicesBit) {
    Value inTable = arith::AndIOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::sge, row, cst(b, 0)),
        arith::CmpIOp::create(b, arith::CmpIPredicate::slt, row, k.numEmb));
    flagUnless(b, k, inTable, k.indicesBit);
    taken = inTable;
  }
  if (k.paddingIdx) {
    Value notPadding =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, row, k.paddingIdx);
    taken = taken ? arith::AndIOp::create(b, taken, notPadding).getResult()
                  : notPadding;
  }
  return taken;
}

/// The row's raw columns when `taken` (null: always), else skippedRaw's
/// values; a row not taken is not read.
static RawRow loadRawIfTaken(ImplicitLocOpBuilder &b, const Lane &l,
                             Value taken, Value row, Value col) {
  if (!taken)
    return loadRaw(b, l, row, col);
  auto yieldRaw = [](ImplicitLocOpBuilder &tb, const RawRow &raw) {
    SmallVector<Value> values{raw.data};
    if (raw.scaleBias)
      values.push_back(raw.scaleBias);
    scf::YieldOp::create(tb, values);
  };
  auto ifOp = scf::IfOp::create(
      b, taken,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        yieldRaw(tb, loadRaw(tb, l, row, col));
      },
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        yieldRaw(tb, skippedRaw(tb, l, row));
      });
  RawRow raw{ifOp.getResult(0)};
  if (ifOp.getNumResults() > 1)
    raw.scaleBias = ifOp.getResult(1);
  return raw;
}

Value mlir::embbag::gpu_lowering::sqrtF32(ImplicitLocOpBuilder &b,
                                          const BagKernel &k, Value x) {
  if (!k.onDevice)
    return math::SqrtOp::create(b, x);
  return LLVM::CallIntrinsicOp::create(
             b, x.getType(), b.getStringAttr("llvm.sqrt.f32"), ValueRange{x})
      .getResult(0);
}

Value mlir::embbag::gpu_lowering::loadElement(ImplicitLocOpBuilder &b,
                                              Value buffer,
                                              ValueRange indices) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  return memref::LoadOp::create(
      b, buffer, indices, /*nontemporal=*/false,
      llvm::Align(element.getIntOrFloatBitWidth() / 8));
}

void mlir::embbag::gpu_lowering::storeElement(ImplicitLocOpBuilder &b,
                                              Value value, Value buffer,
                                              ValueRange indices) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  memref::StoreOp::create(b, value, buffer, indices, /*nontemporal=*/false,
                          llvm::Align(element.getIntOrFloatBitWidth() / 8));
}

Value mlir::embbag::gpu_lowering::wholeStepsEnd(ImplicitLocOpBuilder &b,
                                                Value lo, Value hi,
                                                Value step) {
  Value steps =
      arith::DivUIOp::create(b, arith::SubIOp::create(b, hi, lo), step);
  return arith::AddIOp::create(b, lo, arith::MulIOp::create(b, steps, step));
}

static Value loadWeight(ImplicitLocOpBuilder &b, const Lane &l, Value pos) {
  Value w = loadElement(b, l.k.weights, pos);
  if (w.getType() != l.accType)
    w = arith::ExtFOp::create(b, l.accType, w);
  return w;
}

/// The indices at `positions`, as index values.
static SmallVector<Value> loadIndices(ImplicitLocOpBuilder &b, const Lane &l,
                                      ValueRange positions) {
  return llvm::map_to_vector(positions, [&](Value pos) -> Value {
    return arith::IndexCastOp::create(b, b.getIndexType(),
                                      loadElement(b, l.k.indices, pos));
  });
}

/// Bit i of an i32 word: whether rows[i] is taken (isTaken), or null when
/// every index is. A step has at most 16 rows (rows-in-flight's bound).
static Value takenMask(ImplicitLocOpBuilder &b, const BagKernel &k,
                       ValueRange rows) {
  Value mask;
  for (auto [i, row] : llvm::enumerate(rows)) {
    Value taken = isTaken(b, k, row);
    if (!taken)
      return Value();
    Value bit = arith::ExtUIOp::create(b, b.getI32Type(), taken);
    if (i)
      bit = arith::ShLIOp::create(
          b, bit, arith::ConstantOp::create(b, b.getI32IntegerAttr(i)));
    mask = mask ? arith::OrIOp::create(b, mask, bit).getResult() : bit;
  }
  return mask;
}

/// Whether each of `n` rows is taken, from their takenMask.
static SmallVector<Value> takenFromMask(ImplicitLocOpBuilder &b, Value mask,
                                        unsigned n) {
  SmallVector<Value> taken;
  Value zero = arith::ConstantOp::create(b, b.getI32IntegerAttr(0));
  for (unsigned i = 0; i < n; ++i)
    taken.push_back(arith::CmpIOp::create(
        b, arith::CmpIPredicate::ne,
        arith::AndIOp::create(
            b, mask, arith::ConstantOp::create(b, b.getI32IntegerAttr(1 << i))),
        zero));
  return taken;
}

/// Adds the positions `positions` of the bag, whose indices are `rows`, to
/// the pass: their rows, then the accumulation in position order. `mask`,
/// when not null, is the rows' takenMask, computed before.
static PassState accumulate(ImplicitLocOpBuilder &b, const Lane &l,
                            ValueRange positions, ValueRange rows, Value col,
                            PassState s, Value mask = Value()) {
  SmallVector<Value> taken, values;
  if (mask)
    taken = takenFromMask(b, mask, rows.size());
  else
    for (Value row : rows)
      taken.push_back(isTaken(b, l.k, row));
  SmallVector<RawRow> raws;
  for (auto [row, t] : llvm::zip_equal(rows, taken))
    raws.push_back(loadRawIfTaken(b, l, t, row, col));
  for (const RawRow &raw : raws)
    values.push_back(l.sumsBiases() ? rowCodes(b, l, raw, col)
                                    : convertRow(b, l, raw, col));
  for (auto [pos, t, v, raw] :
       llvm::zip_equal(positions, taken, values, raws)) {
    Value w = l.k.weights ? loadWeight(b, l, pos) : Value();
    Value next;
    if (l.sumsBiases()) {
      // acc += codes * (scale * w); biases += bias * w.
      auto [scale, bias] = scaleAndBias(b, l, raw.scaleBias);
      if (w)
        scale = arith::MulFOp::create(b, scale, w);
      next = vector::FMAOp::create(
          b, v, vector::BroadcastOp::create(b, l.accVector, scale), s.acc);
      Value biases = w ? math::FmaOp::create(b, bias, w, s.biasSum).getResult()
                       : arith::AddFOp::create(b, s.biasSum, bias).getResult();
      s.biasSum =
          t ? arith::SelectOp::create(b, t, biases, s.biasSum).getResult()
            : biases;
    } else if (l.isMax()) {
      next = maximum(b, s.acc, v, /*isUnsigned=*/false);
    } else if (w) {
      next = vector::FMAOp::create(
          b, v, vector::BroadcastOp::create(b, l.accVector, w), s.acc);
    } else {
      next = arith::AddFOp::create(b, s.acc, v);
    }
    // A skipped index leaves the sums as they were, whatever its weight.
    s.acc = t ? arith::SelectOp::create(b, t, next, s.acc).getResult() : next;
    if (s.count)
      s.count = arith::AddIOp::create(
          b, s.count,
          t ? arith::IndexCastUIOp::create(b, b.getIndexType(), t).getResult()
            : cst(b, 1));
    if (s.sumSquares) {
      Value sq = math::FmaOp::create(b, w, w, s.sumSquares);
      s.sumSquares =
          t ? arith::SelectOp::create(b, t, sq, s.sumSquares).getResult() : sq;
    }
  }
  return s;
}

/// Positions [pos, pos + step).
static SmallVector<Value> positionsFrom(ImplicitLocOpBuilder &b, Value pos,
                                        unsigned step) {
  SmallVector<Value> positions{pos};
  for (unsigned u = 1; u < step; ++u)
    positions.push_back(arith::AddIOp::create(b, pos, cst(b, u)));
  return positions;
}

/// Whether the pipelined loop carries its rows' takenMask: an unchecked
/// kernel that counts the rows a padding_idx leaves (every reduction but
/// sum). Measured with ptxas at 64 registers, the mask took those kernels
/// from 112-336 to 20-122 bytes of spills, and gave spills to the sums
/// (which count nothing) and to the checked kernels (whose tests also set
/// the flag word): they test each row where they use it.
static bool carriesTakenMask(const BagKernel &k) {
  return k.paddingIdx && !k.indicesBit && k.reduction != Reduction::sum;
}

/// The indices at positions [pos, pos + step) when `pos < hi`, else zeros
/// (nothing is read past the positions of the loop), then, when the loop
/// carries it, their takenMask (0 past the loop).
static SmallVector<Value> loadIndicesBelow(ImplicitLocOpBuilder &b,
                                           const Lane &l, Value pos, Value hi,
                                           unsigned step) {
  Value any = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, pos, hi);
  bool masked = carriesTakenMask(l.k);
  auto ifOp = scf::IfOp::create(
      b, any,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        SmallVector<Value> values =
            loadIndices(tb, l, positionsFrom(tb, pos, step));
        if (masked)
          values.push_back(takenMask(tb, l.k, values));
        scf::YieldOp::create(tb, values);
      },
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        SmallVector<Value> values(step, cst(tb, 0));
        if (masked)
          values.push_back(
              arith::ConstantOp::create(tb, tb.getI32IntegerAttr(0)));
        scf::YieldOp::create(tb, values);
      });
  return SmallVector<Value>(ifOp.getResults());
}

/// A loop over positions [lo, hi) of the bag, one at a time.
static PassState buildSingleLoop(ImplicitLocOpBuilder &b, const Lane &l,
                                 Value lo, Value hi, Value col,
                                 const PassState &init) {
  auto loop = scf::ForOp::create(
      b, lo, hi, cst(b, 1), init.toValues(),
      [&](OpBuilder &nested, Location loc, Value pos, ValueRange iterArgs) {
        ImplicitLocOpBuilder lb(loc, nested);
        PassState next = accumulate(lb, l, pos, loadIndices(lb, l, pos), col,
                                    init.withValues(iterArgs));
        scf::YieldOp::create(lb, next.toValues());
      });
  return init.withValues(loop.getResults());
}

/// A loop over positions [lo, hi) of the bag, `step` at a time (hi - lo a
/// multiple of it), software-pipelined: each iteration loads the next
/// iteration's indices before its own rows, so that a lane waits for an
/// index load only once per bag, not once per iteration (the row loads
/// wait for their indices; on a GPU that doubled each iteration's wait).
/// A kernel that counts the rows a padding_idx leaves tests the next
/// indices there too, and carries the results as one word: tested where
/// they are used, after the row loads, the tests kept the step's indices
/// live across the loads (LLVM sinks each compare to its use).
static PassState buildPipelinedLoop(ImplicitLocOpBuilder &b, const Lane &l,
                                    Value lo, Value hi, unsigned step,
                                    Value col, const PassState &init) {
  SmallVector<Value> inits = init.toValues();
  size_t numState = inits.size();
  llvm::append_range(inits, loadIndicesBelow(b, l, lo, hi, step));
  auto loop = scf::ForOp::create(
      b, lo, hi, cst(b, step), inits,
      [&](OpBuilder &nested, Location loc, Value pos, ValueRange iterArgs) {
        ImplicitLocOpBuilder lb(loc, nested);
        Value nextPos = arith::AddIOp::create(lb, pos, cst(lb, step));
        SmallVector<Value> nextRows =
            loadIndicesBelow(lb, l, nextPos, hi, step);
        ValueRange rows = iterArgs.drop_front(numState).take_front(step);
        Value mask = carriesTakenMask(l.k) ? iterArgs.back() : Value();
        PassState next =
            accumulate(lb, l, positionsFrom(lb, pos, step), rows, col,
                       init.withValues(iterArgs.take_front(numState)), mask);
        SmallVector<Value> yields = next.toValues();
        llvm::append_range(yields, nextRows);
        scf::YieldOp::create(lb, yields);
      });
  return init.withValues(loop.getResults().take_front(numState));
}

/// The end of a bag: the default row or zeros for an empty one, then the
/// mean's or sqrtn's divisor (the CPU kernel's rules, LoweringUtils.h).
static Value finishBag(ImplicitLocOpBuilder &b, const Lane &l,
                       const PassState &s, Value count, Value col) {
  Value acc = s.acc;
  if (s.biasSum)
    acc = arith::AddFOp::create(
        b, acc, vector::BroadcastOp::create(b, l.accVector, s.biasSum));
  Value isEmpty =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, count, cst(b, 0));
  if (l.isMax())
    acc = arith::SelectOp::create(
        b, isEmpty, splat(b, l.accVector, b.getZeroAttr(l.accType)), acc);
  if (l.k.defaultIndex) {
    Value useDefault = arith::AndIOp::create(
        b, isEmpty,
        arith::CmpIOp::create(b, arith::CmpIPredicate::sge, l.k.defaultIndex,
                              cst(b, 0)));
    auto ifOp = scf::IfOp::create(
        b, useDefault,
        [&](OpBuilder &nested, Location loc) {
          ImplicitLocOpBuilder tb(loc, nested);
          scf::YieldOp::create(tb, loadRow(tb, l, l.k.defaultIndex, col));
        },
        [&](OpBuilder &nested, Location loc) {
          scf::YieldOp::create(nested, loc, acc);
        });
    acc = ifOp.getResult(0);
  }
  if (l.k.reduction == Reduction::mean)
    acc = divideByCount(b, acc, countDivisor(b, count), /*isUnsigned=*/false);
  if (l.k.reduction == Reduction::sqrtn) {
    Value norm = s.sumSquares
                     ? s.sumSquares
                     : arith::UIToFPOp::create(b, l.accType,
                                               arith::IndexCastUIOp::create(
                                                   b, b.getI64Type(), count));
    auto sqrt = [&](ImplicitLocOpBuilder &ib, Value x) {
      return sqrtF32(ib, l.k, x);
    };
    acc = divideBy(b, acc, sqrtnDivisor(b, norm, count, sqrt));
  }
  return acc;
}

/// Columns [col, col + length) of bag `bag` of positions [start, end).
static void buildColumn(ImplicitLocOpBuilder &b, const Lane &l, Value bag,
                        Value start, Value end, Value col) {
  PassState init{
      identity(b, l), l.countsTaken() ? cst(b, 0) : Value(),
      l.sumsSquares()
          ? arith::ConstantOp::create(b, b.getZeroAttr(l.accType)).getResult()
          : Value(),
      l.sumsBiases()
          ? arith::ConstantOp::create(b, b.getZeroAttr(l.accType)).getResult()
          : Value()};
  // `rowsInFlight` positions per iteration, then the rest one by one.
  unsigned unroll = std::max(1u, l.k.rowsInFlight);
  Value size = arith::SubIOp::create(b, end, start);
  Value mainEnd = wholeStepsEnd(b, start, end, cst(b, unroll));
  PassState s = init;
  if (unroll > 1)
    s = buildPipelinedLoop(b, l, start, mainEnd, unroll, col, s);
  s = buildSingleLoop(b, l, unroll > 1 ? mainEnd : start, end, col, s);
  Value acc = finishBag(b, l, s, s.count ? s.count : size, col);
  if (l.accType != l.resultType)
    acc = arith::TruncFOp::create(b, l.resultVector, acc);
  // The host checks the destination's rows for 16 bytes: a lane of 8
  // codes stores 32 bytes, as two 16-byte stores.
  vector::StoreOp::create(
      b, acc, l.k.out, ValueRange{bag, col}, /*nontemporal=*/false,
      llvm::Align(std::min<int64_t>(
          kVectorBytes, l.length * l.resultType.getIntOrFloatBitWidth() / 8)));
}

/// The lane's columns of bag `bag`, loading `length` elements at a time.
static void buildLane(ImplicitLocOpBuilder &b, const BagKernel &k,
                      int64_t length, Value bag, Value lane, Value start,
                      Value end) {
  Lane l(k, length);
  Value first = arith::MulIOp::create(b, lane, cst(b, length));
  Value step = arith::MulIOp::create(b, k.lanesPerBag, cst(b, length));
  scf::ForOp::create(
      b, first, k.rowLength, step, ValueRange{},
      [&](OpBuilder &nested, Location loc, Value col, ValueRange) {
        ImplicitLocOpBuilder lb(loc, nested);
        buildColumn(lb, l, bag, start, end, col);
        scf::YieldOp::create(lb);
      });
}

std::pair<Value, Value>
mlir::embbag::gpu_lowering::getCheckedRange(ImplicitLocOpBuilder &b,
                                            const BagKernel &k, Value bag) {
  auto [start, end] = k.bounds.range(b, b.getLoc(), bag);
  if (!k.offsetsBit)
    return {start, end};
  auto le = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::sle, x, y);
  };
  Value ok = arith::AndIOp::create(
      b, arith::AndIOp::create(b, le(cst(b, 0), start), le(start, end)),
      le(end, k.bounds.numIndices));
  flagUnless(b, k, ok, k.offsetsBit);
  start = arith::SelectOp::create(b, ok, start, cst(b, 0));
  end = arith::SelectOp::create(b, ok, end, cst(b, 0));
  return {start, end};
}

/// The first position in [0, n) whose id is not below `target`, or n.
static Value firstIdNotBelow(OpBuilder &builder, Location loc, Value ids,
                             Value n, Value target) {
  ImplicitLocOpBuilder b(loc, builder);
  return lowering::lowerBound(
      b, n, target, [&](ImplicitLocOpBuilder &wb, Value pos) -> Value {
        return arith::IndexCastOp::create(wb, wb.getIndexType(),
                                          loadElement(wb, ids, pos));
      });
}

BagBounds
mlir::embbag::gpu_lowering::sortedSegmentBounds(ImplicitLocOpBuilder &b,
                                                Value ids, Value numSegments) {
  Value n = b.createOrFold<memref::DimOp>(ids, 0);
  BagBounds::BoundFn start = [ids, n](OpBuilder &ib, Location l, Value s) {
    return firstIdNotBelow(ib, l, ids, n, s);
  };
  BagBounds::BoundFn end = [start](OpBuilder &ib, Location l, Value s) {
    Value one = arith::ConstantIndexOp::create(ib, l, 1);
    return start(ib, l, arith::AddIOp::create(ib, l, s, one));
  };
  return BagBounds{numSegments, n, start, end, start};
}

/// Flags the segment ids at positions [lo, hi) that lane `lane` checks
/// (every lanesPerBag-th): those other than `expected`, or all when it is
/// null. A stray id in [0, num_segments) means the ids are not sorted;
/// one outside breaks the contract.
static void flagStrayIds(ImplicitLocOpBuilder &b, const BagKernel &k,
                         Value lane, Value lo, Value hi, Value expected) {
  scf::ForOp::create(
      b, arith::AddIOp::create(b, lo, lane), hi, k.lanesPerBag, ValueRange{},
      [&](OpBuilder &nested, Location loc, Value pos, ValueRange) {
        ImplicitLocOpBuilder lb(loc, nested);
        Value id = arith::IndexCastOp::create(
            lb, lb.getIndexType(), loadElement(lb, k.segmentIds, pos));
        Value inRange = arith::AndIOp::create(
            lb,
            arith::CmpIOp::create(lb, arith::CmpIPredicate::sge, id,
                                  cst(lb, 0)),
            arith::CmpIOp::create(lb, arith::CmpIPredicate::slt, id,
                                  k.bounds.numBags));
        Value stray = expected
                          ? arith::CmpIOp::create(lb, arith::CmpIPredicate::ne,
                                                  id, expected)
                                .getResult()
                          : arith::ConstantOp::create(lb, lb.getBoolAttr(true))
                                .getResult();
        Value notTrue = arith::ConstantOp::create(lb, lb.getBoolAttr(true));
        auto isNot = [&](Value v) {
          return arith::XOrIOp::create(lb, v, notTrue).getResult();
        };
        flagUnless(lb, k, isNot(arith::AndIOp::create(lb, stray, inRange)),
                   k.unsortedBit);
        flagUnless(lb, k,
                   isNot(arith::AndIOp::create(lb, stray, isNot(inRange))),
                   k.segmentIdsBit);
        scf::YieldOp::create(lb);
      });
}

void mlir::embbag::gpu_lowering::buildIf(
    ImplicitLocOpBuilder &b, Value condition,
    function_ref<void(ImplicitLocOpBuilder &)> body) {
  scf::IfOp::create(b, condition, [&](OpBuilder &nested, Location loc) {
    ImplicitLocOpBuilder tb(loc, nested);
    body(tb);
    scf::YieldOp::create(tb);
  });
}

void mlir::embbag::gpu_lowering::checkSegment(ImplicitLocOpBuilder &b,
                                              const BagKernel &k, Value bag,
                                              Value lane, Value start,
                                              Value end) {
  flagStrayIds(b, k, lane, start, end, bag);
  Value isFirst =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, bag, cst(b, 0));
  buildIf(b, isFirst, [&](ImplicitLocOpBuilder &tb) {
    flagStrayIds(tb, k, lane, cst(tb, 0), start, Value());
  });
  Value last = arith::SubIOp::create(b, k.bounds.numBags, cst(b, 1));
  Value isLast = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, bag, last);
  buildIf(b, isLast, [&](ImplicitLocOpBuilder &tb) {
    flagStrayIds(tb, k, lane, end, k.bounds.numIndices, Value());
  });
}

static void buildBag(ImplicitLocOpBuilder &b, const BagKernel &k, Value bag,
                     Value lane) {
  auto [start, end] = getCheckedRange(b, k, bag);
  if (k.segmentIdsBit)
    checkSegment(b, k, bag, lane, start, end);
  if (!k.useVectors) {
    buildLane(b, k, 1, bag, lane, start, end);
    return;
  }
  // Uniform across the kernel: the branch costs nothing per bag.
  scf::IfOp::create(
      b, k.useVectors,
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        buildLane(tb, k, k.vectorLength, bag, lane, start, end);
        scf::YieldOp::create(tb);
      },
      [&](OpBuilder &nested, Location loc) {
        ImplicitLocOpBuilder tb(loc, nested);
        buildLane(tb, k, 1, bag, lane, start, end);
        scf::YieldOp::create(tb);
      });
}

void mlir::embbag::gpu_lowering::buildBagThread(ImplicitLocOpBuilder &b,
                                                const BagKernel &k, Value block,
                                                Value thread) {
  Value lane = arith::RemUIOp::create(b, thread, k.lanesPerBag);
  Value bag =
      arith::AddIOp::create(b, arith::MulIOp::create(b, block, k.bagsPerBlock),
                            arith::DivUIOp::create(b, thread, k.lanesPerBag));
  Value inBatch = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, bag,
                                        k.bounds.numBags);
  scf::IfOp::create(b, inBatch, [&](OpBuilder &nested, Location loc) {
    ImplicitLocOpBuilder tb(loc, nested);
    buildBag(tb, k, bag, lane);
    scf::YieldOp::create(tb);
  });
}
