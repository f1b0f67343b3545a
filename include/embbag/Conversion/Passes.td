//===- Passes.td - EmbBag conversion passes ----------------*- tablegen -*-===//

#ifndef EMBBAG_CONVERSION_PASSES_TD
#define EMBBAG_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

// Options of `pass`, named by their arguments, that a pipeline takes and
// forwards to it: embbag-tblgen -gen-pass-options makes them a PassOptions
// struct named after the record (GEN_PASS_PIPELINE_OPTIONS_<RECORD>), so
// that the pipeline declares none of them again.
class PassOptionSubset<PassBase passDef, list<string> optionArguments> {
  PassBase pass = passDef;
  list<string> arguments = optionArguments;
}

def ConvertEmbBagToLoops : Pass<"convert-embbag-to-loops"> {
  let summary = "Lower embbag ops to scf loops with vector accumulation";
  let description = [{
    Rewrites every `embbag.packed`, `embbag.offsets` and `embbag.segments` op
    into `scf.for` loops on tensors with `vector` ops, in the shape of the
    fastest hand-written CPU kernels:

    ```
    for each bag b:
      for each chunk of `max-vectors` vectors along the (flattened) row:
        acc[0..U) = 0                       // vector iter_args of the loop below
        for j in bag b:                     // one pass over the bag's indices
          acc[u] += w[j] * table[indices[j], chunk + u * VL : +VL]
        empty bag -> default row or zeros; mean -> acc / bag size
        result[b, chunk ...] = acc          // one store per bag and chunk
    ```

    The accumulators stay in registers across the bag; table rows are read
    with contiguous vector transfers; every cache line of the row chunk
    `prefetch-distance` indices ahead is prefetched (`memref.prefetch` on a
    read-only `bufferization.to_buffer` of the table, with a fully dynamic
    layout so that any buffer casts to it; `prefetch-distance=0` keeps the
    output free of buffers), so that a bag of random rows keeps many cache
    misses in flight. Rows of whole cache lines get a second copy of the
    loop over a bag's indices, taken when the table's rows start on cache
    lines (checked once from the buffer's pointer and strides), without the
    prefetch of the row's last element that unaligned rows need. The last
    chunk of a row whose length
    is not a multiple of the vector length uses masked transfers (no scalar
    epilogue). `f16`/`bf16` accumulate in `f32`. Integer types wrap; integer
    means divide the wrapped sum by the true count.

    `embbag.segments` first scans the ids once: sorted ids are used in
    place, each segment's start written where the id grows (no histogram,
    whose increments of one counter would wait on each other); unsorted
    ids are counted per segment (a histogram and its prefix sum give each
    segment's range) and bucketed (a stable counting sort), so that the
    result does not depend on their order.

    With `checks` (the default) the runtime contract of each op is checked
    before its loops run, in a separate pass over the index-like operands,
    never inside the loop over a row: a violation reaches a `cf.assert`
    whose message names the op, its location and the broken rule. Without
    `checks` no check is emitted and invalid inputs are undefined behaviour.

    A row length known only at run time gets one version of the bag loop
    per vector count. When the pass runs on a module, those versions are
    private functions of the module built once per kind of kernel (element,
    index and weight types, reduction and options, kernel shape) and shared
    by every op of that kind: the op computes its bags' bounds and calls the
    kind's dispatcher (docs/DynamicShapes.md); the functions return their
    result argument, which `--drop-equivalent-buffer-results` drops after
    bufferization. On a function alone, and for an op whose result goes
    into a slice, the versions are built into the op's code.

    The training ops (`embbag.*_grad`, `embbag.*_update`) are lowered too,
    through their forward op (its bags and its checks): the positions are
    grouped by table row with a stable counting sort and one loop over the
    unique rows (an `scf.forall` with `parallel`) sums each row's gradient
    in index order, in f32 vectors along the row, then stores it, or
    applies sgd or row-wise Adagrad to the table in destination style.
    The results are the same bits on one thread or many (docs/Kernel.md,
    "Training kernels").

    With `parallel` each op's bag loop is an `scf.forall` over chunks of
    consecutive bags, the greatest power of two of chunks of at least
    `batch-chunk` cache lines of rows, at most one per bag; each chunk runs
    the sequential loop over its bags. A small op is one chunk, a loop the
    canonicalizer folds away when its shape is static. The loop is marked
    `embbag.work_chunks`, for `convert-embbag-work-chunks-to-openmp`
    (docs/Kernel.md, "Multithreading").

    With `batch-tables` (and `parallel`) the independent ops of a block
    become one kernel: one `scf.forall` over chunks of about `batch-chunk`
    cache lines of the work of all of them, each chunk running the kernel
    of every op with bags in it on those bags (docs/Batching.md).

    Only the embbag ops are rewritten: the code around them is not folded,
    erased or moved (the shared functions are added to the module). The
    checks' asserts are marked `embbag.runtime_check`.

    Before anything is rewritten, each option's value is checked (an error
    at the op the pass runs on names the first bad one), and the target
    model is resolved: the named `target`, with the entries of a
    `#dlti.target_device_spec` for device `"CPU"` in the closest
    `dlti.target_system_spec` overriding its vector width, registers and
    cache sizes (docs/Target.md lists the keys; an entry of the wrong type
    is an error at the op holding the spec). The explicit options
    (`vector-bits`, `max-vectors`, `prefetch-distance`,
    `prefetch-locality`) take precedence over the model.

    Example: `embbag-opt --convert-embbag-to-loops="vector-bits=512"`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "The machine the kernels are for (docs/Target.md): host (the "
           "default: the compiling machine, as LLVM reports its features; "
           "a library's kernels then depend on the machine that builds "
           "it), avx512, avx2 or generic (128-bit vectors). It sets "
           "the default vector width, the vector registers the register "
           "blocking counts on (32 with AVX-512, else 16) and whether masks "
           "live in mask registers; the caches are 512 KiB of L2 and 4 MiB "
           "of last level for every name. The entries of a "
           "#dlti.target_device_spec for \"CPU\" in the module's "
           "dlti.target_system_spec override these values">,
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "Width in bits of the vectors the row is accumulated in (0: the "
           "target's, 512 for AVX-512, 256 for AVX2; else a power of two "
           "from 64 to 2048); the vector length is this divided by the "
           "accumulator element width">,
    Option<"maxVectors", "max-vectors", "unsigned", /*default=*/"0",
           "Number of accumulator vectors kept in registers per pass over a "
           "bag (register blocking along the row), at most 64; 0 picks it "
           "from the register file: a static row takes as few passes as the "
           "vector registers left by the weight and the tail mask allow; a "
           "dynamic row gets a version of the kernel per vector count up to "
           "that budget and chunks of it beyond">,
    Option<"prefetchDistance", "prefetch-distance", "int", /*default=*/"-1",
           "Prefetch the row chunk this many indices ahead in the index "
           "list (across bags); -1 decides from the table's size and the "
           "row length against the target's caches, at run time when they "
           "are dynamic: none for a table the L2 holds (512 KiB), 16 "
           "indices ahead for one the last level holds (4 MiB), else 32 "
           "indices for rows of at most two cache lines and about 16 KiB "
           "of rows in flight for longer ones (16 to 128 indices); 0 emits "
           "no prefetch. The training kernels prefetch the rows they "
           "update this many rows ahead (-1: none for a table the L2 "
           "holds, else as far as the forward kernel beyond the last "
           "level)">,
    Option<"prefetchLocality", "prefetch-locality", "int", /*default=*/"-1",
           "Where the prefetched rows go, as memref.prefetch's locality "
           "hint: 3 every cache level (x86 prefetcht0), 2 the L2 cache "
           "and beyond (prefetcht1), 1 the last level (prefetcht2), 0 "
           "non-temporal (prefetchnta); -1 decides from the table's size: "
           "3 for a table the last-level cache holds (4 MiB), else 2, at "
           "run time when the size is dynamic">,
    Option<"unroll", "unroll", "unsigned", /*default=*/"1",
           "Unroll the loop over a bag's indices by this factor, from 1 to "
           "64 (the remainder runs in an epilogue loop)">,
    Option<"checks", "checks", "bool", /*default=*/"true",
           "Check the runtime contract (indices, default, offsets, segment "
           "ids, num_segments) and stop with a message when it is broken">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Make the loop over bags an scf.forall over chunks of "
           "consecutive bags of about batch-chunk cache lines of work each "
           "(each chunk writes its rows of the result through "
           "tensor.parallel_insert_slice), for distribution over threads">,
    Option<"batchTables", "batch-tables", "bool", /*default=*/"false",
           "With parallel: lower the independent embbag.packed, "
           "embbag.offsets and embbag.segments ops of a block (two or more, "
           "none reading another's result before the last of them) as one "
           "scf.forall over chunks of the work of all of them, each chunk "
           "running the kernel of every op with bags in it on those bags "
           "(docs/Batching.md)">,
    Option<"batchChunk", "batch-chunk", "unsigned", /*default=*/"16384",
           "With parallel: the least work of one chunk of the parallel "
           "loop, in cache lines of table rows (an index or a bag of an op "
           "whose row spans L cache lines counts L), at least 1; the OpenMP "
           "team has a thread per chunk at most">,
  ];
}

def ConvertEmbBagToLinalg : Pass<"convert-embbag-to-linalg"> {
  let summary = "Lower embbag.packed to linalg.generic on tensors";
  let description = [{
    Rewrites `embbag.packed` into a `linalg.generic` over
    `(bag, j, column)` with iterator types `[parallel, reduction, parallel]`
    that gathers with `tensor.extract` in its body, so that pipelines can
    tile, fuse and vectorise it with the linalg transformations: with leading
    tile sizes of 1 the row reads become contiguous. A second elementwise
    `linalg.generic` divides by the bag size (`mean`) and rounds `f16`/`bf16`
    (accumulated in `f32`) when needed.

    `embbag.offsets` and `embbag.segments` have bags of varying size, which
    are not a rectangular linalg reduction; they are reported as errors
    (use `--convert-embbag-to-loops`), or left alone with
    `leave-unsupported`, which `--embbag-to-llvm="path=linalg"` uses before
    lowering them with the loops path. So is an `embbag.packed` with
    `padding_idx` (its bags' counts are not rectangular either).

    Only `embbag.packed` ops are rewritten: the code around them is not
    folded, erased or moved. The index check's assert is marked
    `embbag.runtime_check`.

    Example:

    ```mlir
    %0 = embbag.packed sum %table[%indices]
           : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    // becomes
    %z = linalg.fill ins(%c0 : f32) outs(%empty : tensor<3x2xf32>)
    %0 = linalg.generic {iterator_types = ["parallel", "reduction", "parallel"]}
           ins(%indices : tensor<3x2xi32>) outs(%z : tensor<3x2xf32>) {
      // %row = tensor.extract %indices[%b, %j]; %v = tensor.extract %table[%row, %c]
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
  let options = [
    Option<"checks", "checks", "bool", /*default=*/"true",
           "Check that every index lies in [0, num_emb) before the "
           "generic runs, and stop with a message otherwise">,
    Option<"leaveUnsupported", "leave-unsupported", "bool",
           /*default=*/"false",
           "Leave embbag.offsets, embbag.segments and embbag.packed with "
           "padding_idx alone instead of reporting them">,
  ];
}

def ConvertEmbBagToGPU : Pass<"convert-embbag-to-gpu"> {
  let summary = "Lower embbag ops to GPU kernels (gpu.launch) on buffers";
  let description = [{
    Rewrites `embbag.packed`, `embbag.offsets` and `embbag.segments` ops
    on tables of `f32`,
    `f16`, `bf16` or `rowwise(...)` codes into a `gpu.launch` of a kernel that reads the op's
    operands as buffers (`bufferization.to_buffer`) and writes its result
    into a new buffer, or straight into the caller's buffer when the result
    only feeds a `bufferization.materialize_in_destination` into a memref.
    The mapping (docs/GPU.md):
    ```
    block of 256 threads = 256 / L bags, L = lanes per bag (a power of two,
                           up to 32, that covers the row in 16-byte vectors)
    thread (bag, lane):    for each vector column c = lane, lane + L, ...:
                             acc = 0 (max: -inf), in f32
                             for j in bag, `rows-in-flight` indices at once:
                               acc += w[j] * table[indices[j], c]  (16-byte load)
                             empty bag -> default row or zeros; mean, sqrtn
                             result[bag, c] = acc           (16-byte store)
    ```
    A row whose length is not a multiple of the 16-byte vector, or a buffer
    not aligned to 16 bytes (checked once per call), takes the same kernel
    with one element per lane and load.
    With `checks` (the default) the runtime contract is checked: rules on
    scalars and shapes on the host before the launch, as on the CPU; rules
    on the offsets and indices inside the kernel, where each thread reads
    them: a broken one is never used to read (the bag or the row is
    skipped) and sets its bit in a flag word that the host reads after the
    kernel, reaching the same marked `cf.assert`, with the same message,
    as the CPU's checks. The word is the calling thread's, pinned host
    memory the device writes through, from the runtime function
    `embbagCudaStatusWord` (declared with `llvm.emit_c_interface`).
    The launch is asynchronous, on the token of a `gpu.wait async` (the
    runtime's current stream): the host waits for the kernel (`gpu.wait`)
    only before it reads the flag word, so without checks the function
    returns with its kernels queued (docs/GPU.md, "Synchronization").
    With `host-loops` the same kernel body is built inside two nested
    `scf.parallel` loops (blocks, then threads) instead of a `gpu.launch`,
    so that the CPU runs it: the differential tests check the kernels'
    index arithmetic and semantics on machines without a GPU
    (`embbag-to-llvm{path=gpu-loops}`).
    A segment's range is found by binary search of the segment ids, which
    must be sorted: with checks, ids in range that are not sorted stop the
    program with a message (or return the status), like a broken contract.
    A lane of a `rowwise` table loads one word of codes at once (8 codes of
    8 bits in 8 bytes, 8 of 4 or 16 of 2 bits in 4 bytes) and dequantizes
    them with the row's scale and bias.
    With checks the pass declares the runtime function in the module, so it
    runs on a module.
    With `batch-tables` the independent ops of a block (the rule of
    `convert-embbag-to-loops{batch-tables}`: no op before the last reads a
    result of the group) become one launch at the last of them (with
    `host-loops`, one pair of `scf.parallel` loops), each op keeping its
    own kernel (lanes per bag, bags per block, vectors):
    ```
    grid = blocks_0 + ... + blocks_n-1    base_i = blocks_0 + ... + blocks_i-1
    block b: op i = how many of base_1 ... base_n-1 are <= b
             scf.index_switch i: op i's threads on its block b - base_i
    ```
    Their checked rules share the flag word (the runtime has one per
    thread): each rule of each op gets a bit of its own, 31 at most per
    launch (more start another launch), and after the launch each op's
    bits are read back into its rules' and reported with its messages, as
    without batching. An op's materialization into a destination moves to
    the launch: an op in between that touches memory, or names the
    destination, ends the group. A launch's kernel parameters (the
    buffers' descriptors and the sizes the threads read) are bounded by
    `kernel-param-bytes`: 4352 bytes is PTX's limit before ISA 8.1, 32764
    from 8.1 on sm_70 and newer, and a batch that would pass it starts
    another launch. Unsupported ops are not batched
    (docs/GPU.md, "Table batching: one launch").
    The training ops (`embbag.*_grad`, dense or `sparse`, and
    `embbag.*_update`) are lowered too, to deterministic kernels without
    atomics on the gradient: the positions are sorted by row owner (a
    stable counting sort, one thread per chunk of bags), then groups of
    lanes that each own the table rows r with r mod G = group walk their
    own positions in index order and sum their rows; max first finds each
    bag's winning positions; updates step the rows they touched
    (docs/GPU.md, "Training"). The sort, updates, max and f16/bf16
    gradients use scratch memory from the runtime function
    `embbagCudaScratch` (a `memref.alloc` with `host-loops`), which the
    pass declares in the module too.
    Not supported yet, and reported as errors at the op (or left alone with
    `leave-unsupported`): tables of integers or `f64`, and on the GPU
    results without a destination (but a sparse gradient's returned rows).
    Only the embbag ops are rewritten. Example:
    `embbag-opt --convert-embbag-to-gpu --gpu-kernel-outlining`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
  let options = [
    Option<"checks", "checks", "bool", /*default=*/"true",
           "Check the runtime contract, on the host and in the kernels "
           "(through a flag word the host reads after them), and stop "
           "with the CPU's message when it is broken">,
    Option<"hostLoops", "host-loops", "bool", /*default=*/"false",
           "Build the kernel inside scf.parallel loops that run on the "
           "host instead of a gpu.launch (for testing without a GPU)">,
    Option<"rowsInFlight", "rows-in-flight", "unsigned", /*default=*/"8",
           "Table rows each thread loads before it accumulates them, "
           "from 1 to 16">,
    Option<"leaveUnsupported", "leave-unsupported", "bool",
           /*default=*/"false",
           "Leave the ops this lowering does not support alone instead of "
           "reporting them">,
    Option<"batchTables", "batch-tables", "bool", /*default=*/"false",
           "Lower the independent ops of a block together, as one launch "
           "(or one pair of host loops) whose blocks each run one op's "
           "kernel">,
    Option<"kernelParamBytes", "kernel-param-bytes", "unsigned",
           /*default=*/"4352",
           "batch-tables: the most bytes of kernel parameters one launch "
           "may take (PTX's limit: 4352 before ISA 8.1, 32764 from 8.1 on "
           "sm_70 and newer); a larger batch is split into launches">,
    Option<"trainingOwners", "training-owners", "unsigned",
           /*default=*/"1024",
           "Training: the radix of the sort of the positions by row (a "
           "power of two, at most 65536; fewer for a table of fewer rows), "
           "which keeps a count per digit and chunk">,
    Option<"trainingChunkPositions", "training-chunk-positions", "unsigned",
           /*default=*/"256",
           "Training: the positions one thread sorts by row in a pass of "
           "the sort, in whole bags in the first (at least one bag, and at "
           "most 2048 chunks)">,
    Option<"trainingPiecePositions", "training-piece-positions", "unsigned",
           /*default=*/"128",
           "Training: the sorted positions one group of lanes sums; a row "
           "whose positions span pieces is summed piece by piece, then "
           "over the pieces in order">,
  ];
}

// What `embbag-to-nvvm` forwards to convert-embbag-to-gpu; it sets the
// others itself (kernel-param-bytes from its chip and features).
def EmbBagToGPUForwardedOptions
    : PassOptionSubset<ConvertEmbBagToGPU,
                       ["checks", "rows-in-flight", "batch-tables",
                        "training-owners", "training-chunk-positions",
                        "training-piece-positions"]>;

def ConvertEmbBagAssertToLLVM : Pass<"convert-embbag-assert-to-llvm",
                                     "::mlir::ModuleOp"> {
  let summary = "Lower embbag's runtime checks to a message on stderr and "
                "abort()";
  let description = [{
    Upstream's `cf.assert` lowering prints its message with `puts` to stdout,
    which is buffered: when the program then aborts, a message going to a
    pipe is lost. This pass rewrites each `cf.assert` marked
    `embbag.runtime_check` (the runtime checks that `--convert-embbag-to-loops`
    and `--convert-embbag-to-linalg` emit) into an `scf.if` that writes the
    message and a newline to file descriptor 2 with `write` (unbuffered) and
    calls `abort`, so the message survives redirection. Any other
    `cf.assert` is left alone for `convert-cf-to-llvm`. Run it before
    `convert-cf-to-llvm`; `--embbag-to-llvm` does.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def ConvertEmbBagWorkChunksToOpenMP
    : Pass<"convert-embbag-work-chunks-to-openmp", "::mlir::ModuleOp"> {
  let summary = "Lower the kernels' parallel loops over chunks of work to "
                "OpenMP worksharing loops with a balancing schedule";
  let description = [{
    Lowers each `scf.forall` marked `embbag.work_chunks` (the parallel loop
    over chunks of work that `--convert-embbag-to-loops="parallel=1"` makes
    of an op's bags, or of a batch of ops with `batch-tables`) to an
    `omp.parallel` holding one `omp.wsloop` with the schedule
    `omp-schedule` (default `guided`), its body in a `memref.alloca_scope` as
    `convert-scf-to-openmp` makes it. The loop must be on buffers (no
    shared outputs): run it after bufferization and before
    `scf-forall-to-parallel`, which would take the loop to upstream's static
    schedule. `--embbag-to-llvm="parallel=1"` does. Unmarked loops are left
    to `scf-forall-to-parallel` and `convert-scf-to-openmp`, with their
    static schedule.

    Why not static: the chunks are of equal estimated work, but their cost
    is not (a chunk of rows from a table in the cache takes a third of the
    time of one from DRAM), and a woken worker starts its first chunk late
    (a sleeping libomp worker started 10-15 microseconds after the fork in
    a C loop on the 2-core VM). A static schedule makes every thread
    wait for the slowest block. With `guided`, the threads take blocks of
    chunks that shrink as the loop runs out, in order: the calling thread
    works while the others wake, each block is still consecutive chunks,
    and there are a few dispatches per thread, not one per chunk. On the
    26-table forward of `benchmarks/batch_bench.py` (2 threads) it ran
    batches of 512 and 4096 bags 6-16% faster than the static schedule
    (benchmarks/README.md, "Table batching").

    Example:

    ```mlir
    scf.forall (%c) in (%n) {
      ...                                  // chunk %c's bags
    } {embbag.work_chunks}
    ```

    becomes

    ```mlir
    omp.parallel {
      omp.wsloop schedule(guided) {
        omp.loop_nest (%c) : index = (%c0) to (%n) step (%c1) {
          memref.alloca_scope {
            ...
          }
          omp.yield
        }
      }
      omp.terminator
    }
    ```

    and `embbag-limit-omp-threads` then gives the region its team size.
  }];
  let options = [
    Option<"ompSchedule", "omp-schedule", "::mlir::omp::ClauseScheduleKind",
           /*default=*/"::mlir::omp::ClauseScheduleKind::Guided",
           "The OpenMP schedule of the loops over chunks",
           [{::llvm::cl::values(
             clEnumValN(::mlir::omp::ClauseScheduleKind::Guided, "guided",
                        "blocks of chunks that shrink as the loop runs out "
                        "(default)"),
             clEnumValN(::mlir::omp::ClauseScheduleKind::Dynamic, "dynamic",
                        "one chunk at a time"),
             clEnumValN(::mlir::omp::ClauseScheduleKind::Static, "static",
                        "one block of chunks per thread, fixed in advance"))}]>
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect"];
}

// What `embbag-to-llvm` forwards to convert-embbag-work-chunks-to-openmp.
def EmbBagWorkChunksForwardedOptions
    : PassOptionSubset<ConvertEmbBagWorkChunksToOpenMP, ["omp-schedule"]>;

def EmbBagChecksToStatus : Pass<"embbag-checks-to-status",
                                "::mlir::ModuleOp"> {
  let summary = "Report broken runtime contracts as an i32 status instead "
                "of aborting";
  let description = [{
    For kernels that a serving process calls: every public `func.func`
    gets one `i32` result, 0 when every runtime check of the embbag ops
    passed, 1 when one failed, in which case the function returns at that
    check without running what follows it (no row of the table is read for
    an out-of-range index). The checks are the `cf.assert` ops that the
    embbag lowerings emit (marked with the discardable attribute
    `embbag.runtime_check`, or with a message naming an embbag op); other
    asserts are left alone. Heap buffers allocated before a failing check
    are freed on the way out.

    Runs on buffers, after bufferization and the deallocation pipeline and
    before `convert-embbag-assert-to-llvm`; `--embbag-to-llvm="status=1"`
    places it there. Lowers `scf` to `cf` in the functions it rewrites, so
    that a check can leave the function from inside a loop. Public
    functions must not return values (write results into out-arguments,
    e.g. with `bufferization.materialize_in_destination`), and checks
    inside OpenMP regions (`parallel=1`) cannot return a status: both are
    errors.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // EMBBAG_CONVERSION_PASSES_TD
