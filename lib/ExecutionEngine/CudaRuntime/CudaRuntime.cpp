//===- CudaRuntime.cpp - The mgpu* functions of embbag's GPU host code ----===//
//
// libembbag_cuda_runtime.so: what the host code of `--embbag-to-nvvm`
// calls. mlir-translate lowers each gpu.launch_func to the mgpu* functions
// (module load in a global constructor, get function, stream create,
// launch, and with checks synchronize and destroy) and the checked kernels
// get their flag word from embbagCudaStatusWord. docs/GPU.md, "The runtime"
// and "Synchronization", has the semantics; the reasons are in the comments
// here.
//
// Every mgpu* function has no error return in the ABI the generated code
// calls, so a driver error there is printed with its name and description
// and the process aborts: a kernel that did not run must not look like one
// that did. embbagCudaInit is the one entry that returns its errors.
//
//===----------------------------------------------------------------------===//

#include "embbag-c/CudaRuntime.h"

#include "Driver.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#define EMBBAG_CUDA_EXPORT extern "C" __attribute__((visibility("default")))

using namespace embbag::cuda;

namespace {

thread_local std::string lastError;
/// The stream launches of this thread go on; null is CUDA's legacy default
/// stream of the current context.
thread_local CUstream currentStream = nullptr;

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "embbag CUDA runtime: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

/// The driver; aborts with the reason when it cannot be loaded.
const Driver &driver() {
  std::string error;
  const Driver *d = loadDriver(error);
  if (!d)
    fail(error);
  return *d;
}

/// "CALL failed: CUDA_ERROR_NAME (description)".
std::string describe(CUresult result, const std::string &call) {
  const Driver &d = driver();
  const char *name = nullptr;
  const char *text = nullptr;
  if (d.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUresult";
  if (d.cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "no description";
  return call + " failed: " + name + " (" + std::to_string(result) + ": " +
         text + ")";
}

/// Records a failed call as this thread's last error.
bool succeeded(CUresult result, const std::string &call) {
  if (result == CUDA_SUCCESS)
    return true;
  lastError = describe(result, call);
  return false;
}

/// For the calls that cannot return an error: report it and abort.
void require(CUresult result, const std::string &call) {
  if (!succeeded(result, call))
    fail(lastError);
}

/// The primary context of device 0, retained once for the process.
CUcontext primaryContext() {
  static CUcontext context = [] {
    const Driver &d = driver();
    int count = 0;
    require(d.cuDeviceGetCount(&count), "cuDeviceGetCount");
    if (count == 0)
      fail("the CUDA driver reports no device");
    CUdevice device;
    require(d.cuDeviceGet(&device, 0), "cuDeviceGet(0)");
    CUcontext ctx = nullptr;
    require(d.cuDevicePrimaryCtxRetain(&ctx, device),
            "cuDevicePrimaryCtxRetain");
    return ctx;
  }();
  return context;
}

/// The thread's current context. A thread without one (a C program that
/// never touched CUDA) gets device 0's primary context, the one the CUDA
/// runtime and PyTorch use, so memory they allocated is valid in it.
CUcontext currentContext() {
  const Driver &d = driver();
  CUcontext context = nullptr;
  require(d.cuCtxGetCurrent(&context), "cuCtxGetCurrent");
  if (context)
    return context;
  context = primaryContext();
  require(d.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  return context;
}

//===----------------------------------------------------------------------===//
// Modules, loaded lazily
//===----------------------------------------------------------------------===//

/// A kernel image the generated code registered. Its global constructor
/// runs when the library is loaded, possibly before any context exists (or
/// in a process that never launches), so the image is loaded into a
/// context when a kernel of it is first needed there.
struct Module {
  const void *image;
  bool jit;
  int optLevel;
  std::mutex mutex;
  std::vector<std::pair<CUcontext, CUmodule>> loaded;
};

CUmodule loadImage(const Module &module) {
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1),
                    reinterpret_cast<void *>(
                        static_cast<intptr_t>(module.optLevel))};
  // The optimization level is an option of PTX's compilation only.
  unsigned numOptions = module.jit ? 3 : 2;
  CUmodule handle = nullptr;
  CUresult result = driver().cuModuleLoadDataEx(&handle, module.image,
                                                numOptions, options, values);
  if (!succeeded(result, module.jit ? "cuModuleLoadDataEx (PTX)"
                                    : "cuModuleLoadDataEx")) {
    if (log[0])
      lastError += "\n" + std::string(log);
    fail(lastError);
  }
  return handle;
}

/// The module's handle in `context`, loading it there the first time.
CUmodule moduleIn(Module &module, CUcontext context) {
  std::lock_guard<std::mutex> lock(module.mutex);
  for (auto &[ctx, handle] : module.loaded)
    if (ctx == context)
      return handle;
  CUmodule handle = loadImage(module);
  module.loaded.emplace_back(context, handle);
  return handle;
}

unsigned launchDim(intptr_t value, const char *what) {
  if (value < 1 || static_cast<uintmax_t>(value) > UINT_MAX)
    fail("cannot launch a kernel with " + std::to_string(value) + " " + what);
  return static_cast<unsigned>(value);
}

//===----------------------------------------------------------------------===//
// Status words
//===----------------------------------------------------------------------===//

/// The bytes of a thread's pinned words: the status word (int32_t) at 0,
/// the count word (int64_t, a sparse gradient's rows) at 8.
constexpr size_t kHostWordBytes = 16;
constexpr size_t kCountWordOffset = 8;

/// A thread's pinned, device-mapped words, one block per context.
struct StatusWords {
  std::vector<std::pair<CUcontext, int32_t *>> words;

  ~StatusWords() {
    // Errors are ignored: at process exit the driver may have torn itself
    // down already, and the memory goes with the process anyway.
    std::string error;
    if (const Driver *d = loadDriver(error))
      for (auto &entry : words)
        (void)d->cuMemFreeHost(entry.second);
  }

  int32_t *get(CUcontext context) {
    for (auto &[ctx, word] : words)
      if (ctx == context)
        return word;
    int32_t *word = allocate();
    words.emplace_back(context, word);
    return word;
  }

  /// The host writes the word and reads it through one pointer, which the
  /// kernels are passed too: the device address must be the host address,
  /// as it is under CUDA's unified addressing (every 64-bit Linux system).
  static int32_t *allocate() {
    const Driver &d = driver();
    void *host = nullptr;
    require(d.cuMemHostAlloc(&host, kHostWordBytes, CU_MEMHOSTALLOC_DEVICEMAP),
            "cuMemHostAlloc(DEVICEMAP) of the status word");
    CUdeviceptr device = 0;
    require(d.cuMemHostGetDevicePointer(&device, host, 0),
            "cuMemHostGetDevicePointer of the status word");
    if (device != reinterpret_cast<uintptr_t>(host))
      fail("the status word's device address differs from its host address "
           "(no unified addressing): the checked kernels cannot run here");
    return static_cast<int32_t *>(host);
  }
};

thread_local StatusWords statusWords;

//===----------------------------------------------------------------------===//
// Scratch memory
//===----------------------------------------------------------------------===//

/// A thread's device scratch memory, one buffer per context, grown on
/// demand and reused by every call after.
struct Scratch {
  struct Buffer {
    CUcontext context;
    CUdeviceptr pointer;
    size_t bytes;
  };
  std::vector<Buffer> buffers;

  ~Scratch() {
    // As ~StatusWords: errors at process exit are ignored.
    std::string error;
    if (const Driver *d = loadDriver(error))
      for (Buffer &buffer : buffers)
        (void)d->cuMemFree(buffer.pointer);
  }

  CUdeviceptr get(CUcontext context, size_t bytes) {
    Buffer *buffer = nullptr;
    for (Buffer &b : buffers)
      if (b.context == context)
        buffer = &b;
    if (!buffer) {
      buffers.push_back({context, 0, 0});
      buffer = &buffers.back();
    }
    if (buffer->bytes >= bytes && buffer->pointer)
      return buffer->pointer;
    const Driver &d = driver();
    if (buffer->pointer) {
      // Kernels queued on the stream may still use the old buffer.
      require(d.cuStreamSynchronize(currentStream),
              "cuStreamSynchronize before growing the scratch memory");
      require(d.cuMemFree(buffer->pointer), "cuMemFree of the scratch memory");
      buffer->pointer = 0;
      buffer->bytes = 0;
    }
    // At least a page, so that tiny calls do not reallocate one by one.
    size_t size = std::max<size_t>(bytes, 4096);
    require(d.cuMemAlloc(&buffer->pointer, size),
            "cuMemAlloc of " + std::to_string(size) + " bytes of scratch memory");
    buffer->bytes = size;
    return buffer->pointer;
  }
};

thread_local Scratch scratch;

/// Fills `result`, a rank-1 descriptor of MLIR's C interface, with the
/// contiguous memref of `size` elements at `data`.
template <typename Descriptor, typename T>
void describe1D(Descriptor *result, T *data, int64_t size) {
  result->allocated = data;
  result->aligned = data;
  result->offset = 0;
  result->sizes[0] = size;
  result->strides[0] = 1;
}

} // namespace

//===----------------------------------------------------------------------===//
// The embbag API (include/embbag-c/CudaRuntime.h)
//===----------------------------------------------------------------------===//

EMBBAG_CUDA_EXPORT int embbagCudaInit(void) {
  lastError.clear();
  std::string error;
  const Driver *d = loadDriver(error);
  if (!d) {
    lastError = error;
    return 1;
  }
  int count = 0;
  if (!succeeded(d->cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return 1;
  if (count == 0) {
    lastError = "the CUDA driver reports no device";
    return 1;
  }
  return 0;
}

EMBBAG_CUDA_EXPORT const char *embbagCudaLastError(void) {
  return lastError.c_str();
}

EMBBAG_CUDA_EXPORT void embbagCudaSetStream(void *stream) {
  currentStream = static_cast<CUstream>(stream);
}

EMBBAG_CUDA_EXPORT void embbagCudaResetStream(void) {
  currentStream = nullptr;
}

EMBBAG_CUDA_EXPORT void *embbagCudaGetStream(void) { return currentStream; }

EMBBAG_CUDA_EXPORT void
_mlir_ciface_embbagCudaStatusWord(EmbBagCudaStatusWordDescriptor *result) {
  int32_t *word = statusWords.get(currentContext());
  // The generated code clears the word itself before its launches; a word
  // that starts at 0 on every call keeps that true for any other caller too.
  // No kernel writes it now: every checked function reads it after its
  // stream synchronised.
  *word = 0;
  describe1D(result, word, 1);
}

EMBBAG_CUDA_EXPORT void
_mlir_ciface_embbagCudaCountWord(EmbBagCudaCountWordDescriptor *result) {
  auto *word = reinterpret_cast<int64_t *>(
      reinterpret_cast<char *>(statusWords.get(currentContext())) +
      kCountWordOffset);
  *word = 0;
  describe1D(result, word, 1);
}

EMBBAG_CUDA_EXPORT void
_mlir_ciface_embbagCudaAlloc(EmbBagCudaScratchDescriptor *result,
                             int64_t bytes) {
  if (bytes < 0)
    fail("device memory of " + std::to_string(bytes) + " bytes");
  CUdeviceptr memory = 0;
  // cuMemAlloc refuses 0 bytes; an empty result needs no memory.
  if (bytes > 0) {
    currentContext();
    require(driver().cuMemAlloc(&memory, static_cast<size_t>(bytes)),
            "cuMemAlloc of " + std::to_string(bytes) + " bytes for a result");
  }
  describe1D(result, reinterpret_cast<uint8_t *>(memory), bytes);
}

EMBBAG_CUDA_EXPORT int embbagCudaFree(void *memory) {
  lastError.clear();
  if (!memory)
    return 0;
  std::string error;
  const Driver *d = loadDriver(error);
  if (!d) {
    lastError = error;
    return 1;
  }
  return succeeded(d->cuMemFree(reinterpret_cast<CUdeviceptr>(memory)),
                   "cuMemFree")
             ? 0
             : 1;
}

EMBBAG_CUDA_EXPORT void
_mlir_ciface_embbagCudaScratch(EmbBagCudaScratchDescriptor *result,
                               int64_t bytes) {
  if (bytes < 0)
    fail("scratch memory of " + std::to_string(bytes) + " bytes");
  auto *memory = reinterpret_cast<uint8_t *>(
      scratch.get(currentContext(), static_cast<size_t>(bytes)));
  describe1D(result, memory, bytes);
}

//===----------------------------------------------------------------------===//
// The mgpu* functions of mlir-translate's gpu.launch_func lowering
//===----------------------------------------------------------------------===//

EMBBAG_CUDA_EXPORT void *mgpuModuleLoad(void *data, size_t /*size*/) {
  return new Module{data, /*jit=*/false, /*optLevel=*/0, {}, {}};
}

EMBBAG_CUDA_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return new Module{data, /*jit=*/true, optLevel, {}, {}};
}

EMBBAG_CUDA_EXPORT void mgpuModuleUnload(void *handle) {
  auto *module = static_cast<Module *>(handle);
  std::string error;
  const Driver *d = module->loaded.empty() ? nullptr : loadDriver(error);
  for (auto &entry : module->loaded) {
    CUresult result = d->cuModuleUnload(entry.second);
    // A global destructor: the driver or the context may be gone already at
    // process exit, and the module with them.
    if (result != CUDA_ERROR_DEINITIALIZED &&
        result != CUDA_ERROR_CONTEXT_IS_DESTROYED)
      require(result, "cuModuleUnload");
  }
  delete module;
}

EMBBAG_CUDA_EXPORT void *mgpuModuleGetFunction(void *handle,
                                               const char *name) {
  CUmodule module = moduleIn(*static_cast<Module *>(handle), currentContext());
  CUfunction function = nullptr;
  require(driver().cuModuleGetFunction(&function, module, name),
          std::string("cuModuleGetFunction(") + name + ")");
  return function;
}

EMBBAG_CUDA_EXPORT void
mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                 intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                 intptr_t blockZ, int32_t sharedMemory, void *stream,
                 void **params, void **extra, size_t /*paramsCount*/) {
  unsigned grid[] = {launchDim(gridX, "blocks in x"),
                     launchDim(gridY, "blocks in y"),
                     launchDim(gridZ, "blocks in z")};
  unsigned block[] = {launchDim(blockX, "threads in x"),
                      launchDim(blockY, "threads in y"),
                      launchDim(blockZ, "threads in z")};
  require(driver().cuLaunchKernel(
              static_cast<CUfunction>(function), grid[0], grid[1], grid[2],
              block[0], block[1], block[2],
              static_cast<unsigned>(sharedMemory),
              static_cast<CUstream>(stream), params, extra),
          "cuLaunchKernel");
}

/// The generated code asks for a stream per launch, and destroys it after
/// synchronising only with checks; handing out the thread's current stream
/// instead puts the launches on the caller's stream in call order, costs no
/// stream creation, and leaks none when an unchecked launch destroys
/// nothing.
EMBBAG_CUDA_EXPORT void *mgpuStreamCreate(void) {
  currentContext();
  return currentStream;
}

/// Leaves the stream: it is the caller's (or the default stream).
EMBBAG_CUDA_EXPORT void mgpuStreamDestroy(void * /*stream*/) {}

EMBBAG_CUDA_EXPORT void mgpuStreamSynchronize(void *stream) {
  require(driver().cuStreamSynchronize(static_cast<CUstream>(stream)),
          "cuStreamSynchronize");
}
