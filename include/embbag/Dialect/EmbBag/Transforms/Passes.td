//===- Passes.td - EmbBag transformation passes ------------*- tablegen -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_TD
#define EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def EmbBagVerifyConstants : Pass<"embbag-verify-constants"> {
  let summary = "Report constant operands that break an embbag op's contract";
  let description = [{
    The verifiers check shapes and types only. This pass goes further for
    operands defined by constants (`arith.constant dense<...>`) and reports
    an error, at the op's location, for every value that would break the
    op's runtime contract:

    - an index outside `[0, num_emb)` (for `embbag.offsets`, only the indices
      from `offsets[0]` on, the ones a bag reads; with non-constant offsets
      the indices are not checked);
    - offsets that are negative, decrease, or exceed the number of indices;
    - a segment id outside `[0, num_segments)`;
    - a default index (constant or static, `default(%d)` or `default(2)`)
      below -1 or outside the table;
    - a constant `padding_idx` below -1 or outside the table;
    - a negative `num_segments`, or one that disagrees with a static result
      batch.

    The verifiers look at types and attributes only, so that IR stays valid
    whatever other passes learn about its values (a constant may sit in code
    that never runs); this pass is where constant values are judged. A check
    needs the bound it compares against to be static: `num_emb` is dimension
    0 of the table type, `num_segments` a constant or dimension 0 of the
    result type. The pass changes nothing; it fails when it reports an error.
    With `warnings-only` it reports warnings and never fails: that is how
    `--embbag-to-llvm` runs it first (its option `strict-constants` makes
    them errors), since a correct program may hold such an op in a branch it
    never takes, and the checked lowering stops the program if the op does
    run.

    Example:

    ```mlir
    %i = arith.constant dense<[[0, 7]]> : tensor<1x2xi32>
    // error: 'embbag.packed' op index 7 at indices[0, 1] is out of range
    // [0, 5) of the table
    %r = embbag.packed sum %t[%i] : (tensor<5x2xf32>, tensor<1x2xi32>)
           -> tensor<1x2xf32>
    ```
  }];
  let dependentDialects = [];
  let options = [
    Option<"warningsOnly", "warnings-only", "bool", /*default=*/"false",
           "Report warnings instead of errors, and do not fail">,
  ];
}

def EmbBagSetKernelOccupancy
    : Pass<"embbag-set-kernel-occupancy", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Ask the PTX assembler to keep a number of blocks of each "
                "kernel resident per SM (nvvm.minctasm)";
  let description = [{
    Sets `nvvm.minctasm = min-blocks` on every kernel `gpu.func` of the
    module that does not set it itself: LLVM's NVPTX back end writes it as
    `.minnctapersm`, and `ptxas` then keeps the kernel's registers at or
    below 65536 / (min-blocks x threads per block), as CUDA's
    `__launch_bounds__(threads, min-blocks)` does. `min-blocks=0` changes
    nothing.

    `--embbag-to-nvvm` runs it after `gpu-kernel-outlining` with 4: the bag
    kernels (256 threads) are bound by the latency of their row loads, so
    they need their blocks resident more than registers. On an H200, f16
    offsets kernels that `ptxas` gave 66 registers (3 blocks of 256 per SM)
    ran 25-50% slower than at 64 (4 blocks); see docs/GPU.md.

    Example:

    ```mlir
    gpu.func @bag_kernel(...) kernel attributes {nvvm.minctasm = 4 : i32, ...}
    ```
  }];
  let options = [
    Option<"minBlocks", "min-blocks", "unsigned", /*default=*/"4",
           "Blocks of each kernel that should fit an SM at once (0: leave "
           "the kernels alone)">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def EmbBagSetTargetTriple : Pass<"embbag-set-target-triple", "ModuleOp"> {
  let summary = "Name the machine the module's LLVM IR is for, unless the "
                "module already does";
  let description = [{
    Sets the module's `llvm.target_triple` attribute, which `mlir-translate
    --mlir-to-llvmir` writes as the LLVM module's `target triple`, to
    `triple` (default: the triple of the machine that compiles, LLVM's
    `sys::getProcessTriple()`). A module that already names a triple keeps
    it.

    `--embbag-to-llvm` ends with it. Without a triple in the module, `llc`
    and `opt` know no C library for it: `llvm.memcpy` and `llvm.memset` of
    a size known only at run time (`memref.copy`, a zero fill) become a loop
    over single bytes instead of calls to `memcpy` / `memset`, even when
    `llc -mcpu` names the machine (`llc -mtriple` repairs it; this pass
    makes that unnecessary).

    Example (on x86-64 Linux):

    ```mlir
    module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
      ...
    }
    ```
  }];
  let options = [
    Option<"triple", "triple", "std::string", /*default=*/"\"\"",
           "The target triple (empty: the compiling machine's)">,
  ];
}

def EmbBagSetOmpBlocktime : Pass<"embbag-set-omp-blocktime", "ModuleOp"> {
  let summary = "Tell libomp how long the workers of each parallel region "
                "spin before they sleep";
  let description = [{
    Inserts a call to libomp's `kmp_set_blocktime(ms)` before every
    `omp.parallel` of the module, so that the region's workers spin for `ms`
    milliseconds after it ends (libomp's default is 200) and then sleep.

    `--embbag-to-llvm="parallel=1"` runs it with `ms=0` after the bag loops
    became OpenMP regions. An embedding-bag call is short (tenths of a
    millisecond to a few), and the process that makes it usually holds other
    threads: PyTorch's libgomp workers, a serving framework's own. Workers
    that spin after every call take those threads' cores; measured on 2
    cores next to libgomp, the 2-thread kernel was slower than the 1-thread
    one with the default blocktime and 1.6x faster with 0. A worker that
    sleeps costs one wake-up per call instead (docs/Semantics.md,
    "Threads").

    The call sets libomp's blocktime for the regions the calling thread
    forks from then on, the user's own included; `omp-blocktime=-1` in the
    pipeline leaves the runtime's setting (and `KMP_BLOCKTIME`) alone.

    Example (`ms=0`):

    ```mlir
    %c0 = arith.constant 0 : i32
    func.call @kmp_set_blocktime(%c0) : (i32) -> ()
    omp.parallel { ... }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"milliseconds", "ms", "int", /*default=*/"0",
           "How long the workers spin after a region, in milliseconds">,
  ];
}

def EmbBagLimitOmpThreads : Pass<"embbag-limit-omp-threads", "ModuleOp"> {
  let summary = "Fork no more OpenMP threads than a worksharing loop has "
                "iterations";
  let description = [{
    Gives every `omp.parallel` that is one `omp.wsloop` and nothing else (the
    form `convert-scf-to-openmp` makes of an `scf.parallel`) the clause
    `num_threads(clamp(iterations, 1, omp_get_max_threads()))`, computed
    before the region from the loop's bounds. libomp forks the whole team
    whatever the trip count, and each thread costs a wake-up and its share
    of the join even when it gets no iteration: on a 2-core VM, a call of 8
    microseconds took 50-80 on 2 threads.

    Only regions whose team size the program cannot see are changed: the
    region holds the loop alone (no reduction, no private copy, no nested
    wrapper), the loop's bounds come from outside it, and its steps are
    positive constants. A region that has `num_threads` or `if` already is
    left alone.

    `--embbag-to-llvm="parallel=1"` runs it on the bag loops, whose
    iterations are chunks of about `batch-chunk` cache lines of table rows:
    a call with less work than two chunks runs on the calling thread alone
    (a serialized region, a fraction of a microsecond), and one with less
    work than a chunk per thread on fewer threads.

    Example:

    ```mlir
    %n = func.call @omp_get_max_threads() : () -> i32
    ...                      // clamp(ceildiv(%ub - %lb, %step), 1, %n)
    omp.parallel num_threads(%team : i32) {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%lb) to (%ub) step (%step) { ... }
      }
      omp.terminator
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def EmbBagInlineParallelAllocaScopes
    : Pass<"embbag-inline-parallel-alloca-scopes"> {
  let summary = "Inline the memref.alloca_scope around OpenMP loop bodies, "
                "between a stack save and restore when they allocate";
  let description = [{
    `--convert-scf-to-openmp` wraps the body of each loop it creates in a
    `memref.alloca_scope`, so that stack allocations made by an iteration
    are released when it ends. The scope must hold a single block, so it has
    to go before `--convert-scf-to-cf` splits the body into blocks. Upstream
    canonicalization inlines it only when it can prove that nothing inside
    allocates on the stack, and it assumes that any op without memory
    effects it can see, a `func.call` for instance, might. The buffer
    deallocation pipeline puts such calls (`dealloc_helper`) into kernels
    whose buffers have run-time ownership (a tiled `embbag.segments`), and
    the scope then stays and the lowering fails.

    This pass inlines the `memref.alloca_scope` that is the first op of an
    `omp.loop_nest` body. When a `memref.alloca` or `llvm.alloca` inside it
    allocates in its scope (one nested in another automatic allocation
    scope, e.g. an inner `omp.parallel`, does not; a call allocates in the
    callee's frame), the inlined body goes between `llvm.intr.stacksave`
    and `llvm.intr.stackrestore`, as the scope's own lowering to LLVM would
    put it, so that each iteration still frees what it allocates: the flag
    word of a GPU-shaped kernel (`path=gpu-loops`) in an iteration of a
    user's `scf.forall`, for instance. Other scopes are left alone.
    `--embbag-to-llvm` runs it with `parallel=1`.

    Example:

    ```mlir
    omp.loop_nest (%i) : index = (%lb) to (%ub) step (%c1) {
      memref.alloca_scope {
        func.call @dealloc_helper(...) : (...) -> ()
      }
      omp.yield
    }
    // becomes
    omp.loop_nest (%i) : index = (%lb) to (%ub) step (%c1) {
      func.call @dealloc_helper(...) : (...) -> ()
      omp.yield
    }
    // and a scope that allocates
    omp.loop_nest (%i) : index = (%lb) to (%ub) step (%c1) {
      memref.alloca_scope {
        %flag = memref.alloca() : memref<1xi32>
        ...
      }
      omp.yield
    }
    // becomes
    omp.loop_nest (%i) : index = (%lb) to (%ub) step (%c1) {
      %sp = llvm.intr.stacksave : !llvm.ptr
      %flag = memref.alloca() : memref<1xi32>
      ...
      llvm.intr.stackrestore %sp : !llvm.ptr
      omp.yield
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def EmbBagOutlineBatchedKernels
    : Pass<"embbag-outline-batched-kernels", "ModuleOp"> {
  let summary = "Give each op of a batched chunk loop a function of its own";
  let description = [{
    With `batch-tables`, `--convert-embbag-to-loops` lowers the independent
    ops of a block into one loop over chunks of their work (an `scf.forall`
    marked `embbag.work_chunks`), whose body runs each op's kernel on the
    op's bags in the chunk, guarded by an `scf.if` (docs/Batching.md). In
    one function the kernels keep each other's values live: in the 26-table
    DLRM forward of `benchmarks/batch_bench.py`, LLVM's register allocator
    left 157 stack accesses in the kernels' hot loops, against 15 when each
    op had its own parallel region, and the batched forward ran 7% slower
    on one thread.

    On buffers, this pass outlines the then-region of every result-less
    `scf.if` directly in the body of a marked `scf.forall` (one op's part of
    a chunk) into a private function `<kernel>__batched_op_<N>`, with
    internal linkage and LLVM's `noinline` once lowered and the constants it
    uses copied in, called from the `scf.if`: each op's loop nest gets
    registers of its own. Other loops are left alone. `--embbag-to-llvm`
    runs it after bufferization, before
    `--convert-embbag-work-chunks-to-openmp`.

    Example:

    ```mlir
    scf.forall (%c) in (%n) {
      ...
      scf.if %any {
        scf.for %bag = %first to %end step %c1 { ... }   // op 0's kernel
      }
      ...
    } {embbag.work_chunks}
    ```

    becomes

    ```mlir
    scf.forall (%c) in (%n) {
      ...
      scf.if %any {
        func.call @forward__batched_op_0(%first, %end, ...) : (...) -> ()
      }
      ...
    } {embbag.work_chunks}
    func.func private @forward__batched_op_0(...) attributes {
        llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def EmbBagUnswitchRowDispatch
    : Pass<"embbag-unswitch-row-dispatch", "ModuleOp"> {
  let summary = "Hoist the row-length dispatch of embbag's kernels out of "
                "their bag loops, one function per version";
  let description = [{
    For a table whose row length is known only at run time,
    `--convert-embbag-to-loops` run on a function (or on an op whose result
    goes into a slice; on a module, the versions are functions shared by
    the ops, docs/DynamicShapes.md) builds one version of each bag's row per
    vector count and picks it with an `scf.index_switch` inside the loop
    over the bags, marking that loop `embbag.row_dispatch`. On tensors the
    switch must stay inside the loop: hoisted, it would hide the kernel's
    result buffer from `--eliminate-empty-tensors`, and the result would be
    computed in a new buffer and copied. Inside the loop, though, the
    versions share one function's live values, and LLVM's register
    allocator reloads the table, the index list, the row stride and the
    prefetch distance from the stack in every version's hot loop (four to
    five loads per index that the kernel of a static row does not have).

    On buffers the switch can move. This pass rewrites each `scf.for`
    marked `embbag.row_dispatch` that has no results and whose body holds a
    result-less `scf.index_switch` on a key defined outside the loop into a
    switch over copies of the loop, one per case, each with that case's
    version inlined: the dispatch runs once per call instead of once per
    bag. With `outline` (the default) each version then becomes a private
    function `<kernel>__row_version_<N>` (private, with internal linkage
    and LLVM's `noinline` once lowered, with the constants it uses copied
    in), called from the switch: each version's
    loop nest gets registers of its own, as a hand-written kernel that picks
    a function per row length does. Other loops and switches are left
    alone, and the mark is removed. `--embbag-to-llvm` runs it after
    bufferization.

    Example (without `outline`):

    ```mlir
    scf.for %bag = %c0 to %n step %c1 {
      %start = memref.load %offsets[%bag] : memref<?xindex>
      scf.index_switch %key
      case 1 {
        "one.vector"(%start) : (index) -> ()
        scf.yield
      }
      default {
        "long.row"(%start) : (index) -> ()
      }
    } {embbag.row_dispatch}
    // becomes
    scf.index_switch %key
    case 1 {
      scf.for %bag = %c0 to %n step %c1 {
        %start = memref.load %offsets[%bag] : memref<?xindex>
        "one.vector"(%start) : (index) -> ()
      }
      scf.yield
    }
    default {
      scf.for %bag = %c0 to %n step %c1 {
        %start = memref.load %offsets[%bag] : memref<?xindex>
        "long.row"(%start) : (index) -> ()
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"outline", "outline", "bool", /*default=*/"true",
           "Outline each version into a function of its own">,
  ];
}

def EmbBagStridedCopyToLinalg : Pass<"embbag-strided-copy-to-linalg"> {
  let summary = "Rewrite memref.copy between buffers that are not both "
                "contiguous into linalg.copy";
  let description = [{
    `--finalize-memref-to-llvm` lowers a `memref.copy` between contiguous
    buffers to `llvm.intr.memcpy`, and any other copy (a strided view on
    either side) to a call of `memrefCopy`, a function of MLIR's C runner
    library. A module lowered that way cannot be linked without that
    library: a library from `embbag-aot`, which promises to need libc only,
    would have an undefined symbol. Such copies come from bufferization,
    e.g. of a `tensor.concat` of embbag results (each copied into its
    columns of the result).

    This pass rewrites each `memref.copy` of ranked memrefs whose source or
    target is neither of identity layout nor of a static, contiguous
    row-major shape (the cases the memcpy lowering takes) into a
    `linalg.copy` of the same operands, which `--convert-linalg-to-loops`
    makes loops. Other copies are left alone. `--embbag-to-llvm` runs it
    after bufferization and buffer deallocation, before
    `--convert-linalg-to-loops`.

    Example:

    ```mlir
    memref.copy %a, %b : memref<2x2xf32> to memref<2x2xf32, strided<[6, 1], offset: 2>>
    // becomes
    linalg.copy ins(%a : memref<2x2xf32>)
                outs(%b : memref<2x2xf32, strided<[6, 1], offset: 2>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def EmbBagZeroFillToMemset : Pass<"embbag-zero-fill-to-memset"> {
  let summary = "Lower linalg.fill of zero bytes into a contiguous buffer "
                "to llvm.intr.memset";
  let description = [{
    Rewrites each `linalg.fill` on a memref whose layout is the identity
    (its elements contiguous) and whose value is all zero bytes (an integer
    0 or a float +0.0 constant) into one `llvm.intr.memset` of the buffer's
    bytes. Other fills are left alone.

    `--convert-linalg-to-loops` would make such a fill a loop of scalar
    stores, and a module that goes to machine code through `llc` alone
    (no `opt`) keeps them: on a dense table gradient (`embbag.*_grad`
    without `sparse`, a fill of the whole table, 256 MB in the training
    benchmark's c1) the stores cost more than the rest of the kernel, and
    the C library's memset is several times faster (it avoids reading the
    lines it overwrites). `--embbag-to-llvm` runs the pass after
    bufferization, before `--convert-linalg-to-loops`.

    Example:

    ```mlir
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%m : memref<?x64xf32>)
    // becomes
    %p = memref.extract_aligned_pointer_as_index %m : memref<?x64xf32> -> index
    // ... %bytes = dim 0 * 64 * 4, as i64; %ptr = llvm.inttoptr %p
    "llvm.intr.memset"(%ptr, %c0_i8, %bytes) <{isVolatile = false}>
        : (!llvm.ptr, i8, i64) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // EMBBAG_DIALECT_EMBBAG_TRANSFORMS_PASSES_TD
