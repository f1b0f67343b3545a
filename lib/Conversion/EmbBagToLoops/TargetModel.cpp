//===- TargetModel.cpp - The machine the loop kernels are for -------------===//
//
// The named targets, and the DLTI entries that override their values: a
// module that says `#dlti.target_system_spec<"CPU" =
// #dlti.target_device_spec<"L2_cache_size_in_bytes" = 2097152 : i64>>`
// gets the prefetch decisions of a machine with a 2 MiB L2.
//
//===----------------------------------------------------------------------===//

#include "embbag/Conversion/EmbBagToLoops/TargetModel.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::embbag;

bool mlir::embbag::isKnownTarget(StringRef name) {
  return llvm::is_contained({"host", "avx512", "avx2", "generic"}, name);
}

bool mlir::embbag::isSupportedVectorWidth(int64_t bits) {
  return bits >= 64 && bits <= 2048 && llvm::isPowerOf2_64(bits);
}

/// The named target `host` is on the compiling machine.
static StringRef hostTargetName() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f") && features.lookup("avx512vl"))
    return "avx512";
  if (features.lookup("avx2") && features.lookup("fma"))
    return "avx2";
  return "generic";
}

TargetModel mlir::embbag::getNamedTargetModel(StringRef name) {
  if (name == "host")
    name = hostTargetName();
  // The caches are the same baseline for every name: LLVM does not report
  // the host's, and the thresholds were measured with these (DLTI entries
  // give a machine's own).
  TargetModel model;
  if (name == "avx512") {
    // 32 vector registers, masks in k registers.
    model.vectorBits = 512;
    model.vectorRegisters = 32;
    model.maskRegisters = true;
  } else if (name == "avx2") {
    // 16 registers; vmaskmovps takes a vector register for the mask.
    model.vectorBits = 256;
    model.vectorRegisters = 16;
  } else {
    model.vectorBits = 128;
    model.vectorRegisters = 16;
  }
  return model;
}

namespace {

/// Reads the entries of the "CPU" device of a `dlti.target_system_spec`,
/// reporting a bad one at the op that holds the spec.
class DeviceSpecReader {
public:
  DeviceSpecReader(Operation *holder, TargetDeviceSpecInterface device)
      : holder(holder), device(device) {}

  /// Sets `field` from the integer entry `key`, if there is one, when
  /// `isValid` accepts it; `expected` says what it must be.
  template <typename T>
  LogicalResult readInteger(StringRef key, T &field, StringRef expected,
                            function_ref<bool(int64_t)> isValid) {
    Attribute value = lookup(key);
    if (!value)
      return success();
    auto integer = dyn_cast<IntegerAttr>(value);
    if (!integer || integer.getType().isInteger(1) ||
        !isValid(integer.getValue().getSExtValue()))
      return reportBad(key, expected, value);
    field = integer.getValue().getSExtValue();
    return success();
  }

  /// Sets `field` from the boolean entry `key`, if there is one.
  LogicalResult readBool(StringRef key, bool &field) {
    Attribute value = lookup(key);
    if (!value)
      return success();
    auto boolean = dyn_cast<BoolAttr>(value);
    if (!boolean)
      return reportBad(key, "true or false", value);
    field = boolean.getValue();
    return success();
  }

private:
  Attribute lookup(StringRef key) {
    DataLayoutEntryInterface entry =
        device.getSpecForIdentifier(StringAttr::get(holder->getContext(), key));
    return entry ? entry.getValue() : Attribute();
  }

  LogicalResult reportBad(StringRef key, StringRef expected, Attribute value) {
    return holder->emitError() << "'" << key << "' of device \"CPU\" in "
                               << DLTIDialect::kTargetSystemDescAttrName
                               << " must be " << expected << ", not " << value;
  }

  Operation *holder;
  TargetDeviceSpecInterface device;
};

} // namespace

/// The closest op, `op` or an ancestor, holding a target system spec.
static Operation *findSpecHolder(Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->getAttrOfType<TargetSystemSpecInterface>(
            DLTIDialect::kTargetSystemDescAttrName))
      return op;
  return nullptr;
}

/// Overrides the values of `model` with the entries `reader` finds.
static LogicalResult readDeviceSpec(DeviceSpecReader &reader,
                                    TargetModel &model) {
  auto positive = [](int64_t v) { return v > 0; };
  // Register blocking keeps at least one accumulator besides the weight
  // and a masked tail's two registers.
  auto enoughRegisters = [](int64_t v) { return v >= 4; };
  StringRef size = "a positive integer";
  return success(
      succeeded(reader.readInteger("max_vector_op_width", model.vectorBits,
                                   "a power of two from 64 to 2048",
                                   isSupportedVectorWidth)) &&
      succeeded(reader.readInteger("vector_register_count",
                                   model.vectorRegisters, "an integer >= 4",
                                   enoughRegisters)) &&
      succeeded(reader.readBool("has_mask_registers", model.maskRegisters)) &&
      succeeded(reader.readInteger("L1_cache_size_in_bytes", model.l1CacheBytes,
                                   size, positive)) &&
      succeeded(reader.readInteger("L2_cache_size_in_bytes", model.l2CacheBytes,
                                   size, positive)) &&
      succeeded(reader.readInteger("L3_cache_size_in_bytes",
                                   model.lastLevelCacheBytes, size, positive)));
}

FailureOr<TargetModel> mlir::embbag::resolveTargetModel(Operation *op,
                                                        StringRef name) {
  TargetModel model = getNamedTargetModel(name);
  Operation *holder = findSpecHolder(op);
  if (!holder)
    return model;
  auto system = holder->getAttrOfType<TargetSystemSpecInterface>(
      DLTIDialect::kTargetSystemDescAttrName);
  std::optional<TargetDeviceSpecInterface> cpu =
      system.getDeviceSpecForDeviceID(StringAttr::get(op->getContext(), "CPU"));
  if (!cpu)
    return model;
  DeviceSpecReader reader(holder, *cpu);
  if (failed(readDeviceSpec(reader, model)))
    return failure();
  return model;
}
