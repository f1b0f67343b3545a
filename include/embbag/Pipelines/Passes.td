//===- Passes.td - The steps of embbag-shard-to-llvm -------*- tablegen -*-===//
//
// The passes `--embbag-shard-to-llvm` runs before it lowers the module like
// `--embbag-to-llvm` (docs/Sharding.md), registered by name so that each
// step can be run and tested alone.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_PIPELINES_PASSES_TD
#define EMBBAG_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def EmbBagShardFunctions : Pass<"embbag-shard-functions", "::mlir::ModuleOp"> {
  let summary = "Propagate and partition the functions holding shard.shard "
                "ops, behind wrappers keeping their signatures";
  let description = [{
    For each function of the module that holds a `shard.shard` op: runs
    `sharding-propagation` on it, then makes a copy `<name>__shard_local`
    (same visibility: a caller that holds only this process's shards calls
    it directly) partitioned by `shard-partition`, and rewrites `<name>`
    itself into a wrapper with the original signature. The wrapper slices
    this process's shard of each sharded argument, runs the copy's body on
    the slices (inlined: a call would bufferize to a copy of each slice,
    i.e. of this process's whole shard of the table on every call), and
    rebuilds each split result whole: every process writes its shard into
    zeros and an all-reduce sums them (a split result must have a static
    shape).

    Functions without `shard.shard` and declarations are left as they are:
    upstream's propagation rejects ops without sharding support
    (`func.call`, `tensor.cast`) and declarations.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::embbag::EmbBagDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def EmbBagLowerShardCollectives
    : Pass<"embbag-lower-shard-collectives", "::mlir::ModuleOp"> {
  let summary = "Lower shard.all_slice and shard.all_gather to ops that "
                "convert-shard-to-mpi handles";
  let description = [{
    MLIR 22.1's `convert-shard-to-mpi` lowers neither `shard.all_slice` nor
    `shard.all_gather`. `shard.all_slice` takes upstream's lowering (a slice
    of the local tensor); `shard.all_gather` of static tensors over one grid
    axis becomes an all-reduce: each process writes its part into zeros at
    its offset along the gather axis and `shard.all_reduce` sums them (the
    partitioner emits all-gathers of even splits only). `shard.send` and
    `shard.recv` over one grid axis with a static peer (table-wise
    sharding's exchange) become a blocking `mpi.send` of a contiguous copy
    of the tensor and a blocking `mpi.recv` into a new buffer, in
    `MPI_COMM_WORLD` with the peer's rank linearised row-major from the
    grid. Before that, each exchange of table-wise sharding (an `scf.if`
    whose else branch holds a `shard.recv`) moves down to the first op of
    its block that uses it, so that every rank computes all the tables it
    owns before it waits for the other ranks' bags. Any other of these collectives (dynamic shapes, several grid
    axes, a dynamic peer) is an error.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::mpi::MPIDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def EmbBagInsertMPIInitFinalize
    : Pass<"embbag-insert-mpi-init-finalize", "::mlir::ModuleOp"> {
  let summary = "MPI_Init at the start of @main, MPI_Finalize before its "
                "returns; erase the shard.grid ops";
  let description = [{
    Makes the module an MPI program: `mpi.init` at the start of `@main`
    (when the module defines one) and `mpi.finalize` before each of its
    returns. The `shard.grid` ops are erased (nothing refers to them after
    `convert-shard-to-mpi`, and a grid left in the module stops
    `mlir-translate` and `mlir-runner`). A module without a `dlti.map`
    gets one naming MPICH as the MPI implementation, which the MPI
    lowering asks for (it picks MPICH after an error message otherwise);
    `embbag-convert-mpi-to-llvm` removes it again.
  }];
  let dependentDialects = ["::mlir::DLTIDialect", "::mlir::mpi::MPIDialect"];
}

def EmbBagConvertMPIToLLVM
    : Pass<"embbag-convert-mpi-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Convert the MPI dialect to calls of the MPI library "
                "(MPICH)";
  let description = [{
    Applies upstream's MPI-to-LLVM patterns to the whole module, every other
    op being legal, so that it can run before bufferization: the buffer
    deallocation rejects MPI ops (they declare no memory effects), while the
    calls they become take plain pointers. Removes the `dlti.map` that
    `embbag-insert-mpi-init-finalize` added, which `mlir-runner` cannot
    load.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def EmbBagDropSharding : Pass<"embbag-drop-sharding", "::mlir::ModuleOp"> {
  let summary = "Erase shard.shard, shard.sharding and shard.grid ops: the "
                "module as one process runs it";
  let description = [{
    The one-process reference of a sharded module: every `shard.shard` is
    replaced by its operand, and the `shard.sharding` and `shard.grid` ops
    left without users are erased. Tests compare a sharded program's output
    with this module's.
  }];
}

#endif // EMBBAG_PIPELINES_PASSES_TD
