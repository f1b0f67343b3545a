//===- Passes.td - Every embbag pass, for the C API --------*- tablegen -*-===//
//
// The passes of all three groups (transforms, conversions, the steps of
// embbag-shard-to-llvm) in one record set, so that the C API of every pass
// is generated with the one prefix EmbBag: mlirCreateEmbBag<Pass>() and
// mlirRegisterEmbBag<Pass>() (embbag-c/Passes.h).
//
//===----------------------------------------------------------------------===//

include "embbag/Dialect/EmbBag/Transforms/Passes.td"
include "embbag/Conversion/Passes.td"
include "embbag/Pipelines/Passes.td"
