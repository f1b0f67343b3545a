//===- ShardToLLVM.cpp - The embbag-shard-to-llvm pipeline ----------------===//
//
// `embbag-shard-to-llvm` (docs/Sharding.md): a module whose kernels carry
// shard.grid / shard.shard annotations, and whose `@main` builds the whole
// inputs, calls the kernels and prints, becomes an SPMD program over MPI:
//
//   embbag-shard-functions            for each function holding shard.shard:
//                                       sharding-propagation, then a copy
//                                       `<name>__shard_local` partitioned by
//                                       shard-partition, and `<name>` itself
//                                       rewritten into a wrapper with the
//                                       original signature
//   embbag-lower-shard-collectives    all_slice (upstream patterns),
//                                       all_gather (all-reduce into zeros)
//   convert-shard-to-mpi
//   embbag-insert-mpi-init-finalize   MPI_Init / MPI_Finalize in @main,
//                                       shard.grid ops erased
//   embbag-convert-mpi-to-llvm        the MPI dialect to MPICH calls
//   embbag-to-llvm
//
// Each step is a pass of its own (include/embbag/Pipelines/Passes.td, one
// file each in this directory), registered by name for tests of each.
//
// Unannotated functions and declarations are left as they are: upstream's
// propagation rejects ops without sharding support (func.call, tensor.cast)
// and declarations, so it only ever sees annotated functions.
//
//===----------------------------------------------------------------------===//

#include "embbag/Pipelines/Passes.h"
#include "embbag/Pipelines/Pipelines.h"

#include "mlir/Conversion/ShardToMPI/ShardToMPI.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::embbag;

void mlir::embbag::buildEmbBagShardToLLVMPipeline(
    OpPassManager &pm, const EmbBagToLLVMOptions &options) {
  pm.addPass(createEmbBagShardFunctions());
  pm.addPass(createEmbBagLowerShardCollectives());
  pm.addPass(createConvertShardToMPIPass());
  pm.addPass(createEmbBagInsertMPIInitFinalize());
  // Before bufferization: the buffer deallocation rejects MPI ops (no
  // memory effects declared); the calls they become take plain pointers.
  pm.addPass(createEmbBagConvertMPIToLLVM());
  buildEmbBagToLLVMPipeline(pm, options);
}

void mlir::embbag::registerEmbBagShardToLLVMPipeline() {
  registerEmbBagToLLVMOptionsPipeline(
      "embbag-shard-to-llvm",
      "Shard the functions annotated with shard.grid/shard.shard over MPI "
      "(propagation, partition, convert-shard-to-mpi, MPI_Init/Finalize in "
      "@main), then lower like embbag-to-llvm; run with mpirun.mpich and "
      "libmpich",
      buildEmbBagShardToLLVMPipeline);
}
