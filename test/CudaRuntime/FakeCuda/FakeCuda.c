/*===- FakeCuda.c - A fake CUDA driver for the runtime's tests ------------===*\
|*                                                                            *|
|* libcuda.so.1 for machines without a GPU: the entry points that            *|
|* libembbag_cuda_runtime.so looks up, on host memory. It runs no kernel; it *|
|* records every call, one line each, so that the tests can check what the   *|
|* runtime asked the driver to do. Loaded instead of the real driver through *|
|* LD_LIBRARY_PATH (lit: %fake_cuda_env). Controlled by the environment:     *|
|*                                                                            *|
|*   EMBBAG_FAKE_CUDA_LOG=FILE     append the call log to FILE (else stderr)  *|
|*   EMBBAG_FAKE_CUDA_FAIL=NAME[=CODE]  entry point NAME returns CODE         *|
|*                                 (default 1, CUDA_ERROR_INVALID_VALUE)      *|
|*   EMBBAG_FAKE_CUDA_DEVICES=N    the device count (default 1)              *|
|*   EMBBAG_FAKE_CUDA_KERNEL_FLAGS=N  each launch ORs N into every mapped    *|
|*                                 host word, as a kernel that finds a broken *|
|*                                 contract sets its bit in the status word   *|
|*   EMBBAG_FAKE_CUDA_KERNEL_COUNT=N  each launch writes N (int64_t) at    *|
|*                                 byte 8 of every mapped block of 16 bytes  *|
|*                                 or more, as a sparse gradient's kernel    *|
|*                                 leaves its row count in the count word    *|
|*   EMBBAG_FAKE_CUDA_NO_UVA=1     mapped host memory gets another address   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;

#define EXPORT __attribute__((visibility("default")))

enum {
  SUCCESS = 0,
  INVALID_VALUE = 1,
  NOT_INITIALIZED = 3,
  INVALID_DEVICE = 101,
  INVALID_IMAGE = 200,
  NOT_FOUND = 500,
};

/*--- The log and the injected failures ------------------------------------*/

static void record(const char *format, ...) {
  const char *path = getenv("EMBBAG_FAKE_CUDA_LOG");
  FILE *out = path ? fopen(path, "a") : stderr;
  if (!out)
    return;
  va_list args;
  va_start(args, format);
  fprintf(out, "fake-cuda: ");
  vfprintf(out, format, args);
  fprintf(out, "\n");
  va_end(args);
  if (out != stderr)
    fclose(out);
}

/* The code NAME is told to fail with, or SUCCESS. */
static CUresult injected(const char *name) {
  const char *fail = getenv("EMBBAG_FAKE_CUDA_FAIL");
  size_t length = strlen(name);
  if (!fail || strncmp(fail, name, length) != 0)
    return SUCCESS;
  if (fail[length] == '=')
    return atoi(fail + length + 1);
  return fail[length] == '\0' ? INVALID_VALUE : SUCCESS;
}

/* Records the call, then returns its injected result. */
#define ENTER(name, ...)                                                       \
  do {                                                                         \
    record(name __VA_ARGS__);                                                  \
    CUresult injectedResult = injected(name);                                  \
    if (injectedResult != SUCCESS)                                             \
      return injectedResult;                                                   \
  } while (0)

static int initialized;

#define REQUIRE_INIT()                                                         \
  do {                                                                         \
    if (!initialized)                                                          \
      return NOT_INITIALIZED;                                                  \
  } while (0)

/*--- Errors, devices, contexts --------------------------------------------*/

static const struct {
  CUresult code;
  const char *name;
  const char *text;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

static int findError(CUresult code) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i)
    if (errors[i].code == code)
      return (int)i;
  return -1;
}

EXPORT CUresult cuGetErrorName(CUresult code, const char **name) {
  int i = findError(code);
  *name = i < 0 ? NULL : errors[i].name;
  return i < 0 ? INVALID_VALUE : SUCCESS;
}

EXPORT CUresult cuGetErrorString(CUresult code, const char **text) {
  int i = findError(code);
  *text = i < 0 ? NULL : errors[i].text;
  return i < 0 ? INVALID_VALUE : SUCCESS;
}

EXPORT CUresult cuInit(unsigned flags) {
  ENTER("cuInit", "(%u)", flags);
  initialized = 1;
  return SUCCESS;
}

static int deviceCount(void) {
  const char *n = getenv("EMBBAG_FAKE_CUDA_DEVICES");
  return n ? atoi(n) : 1;
}

EXPORT CUresult cuDeviceGetCount(int *count) {
  REQUIRE_INIT();
  ENTER("cuDeviceGetCount", "() = %d", deviceCount());
  *count = deviceCount();
  return SUCCESS;
}

EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  REQUIRE_INIT();
  ENTER("cuDeviceGet", "(%d)", ordinal);
  if (ordinal < 0 || ordinal >= deviceCount())
    return INVALID_DEVICE;
  *device = ordinal;
  return SUCCESS;
}

/* One context per device would do; tests use device 0. */
static char primaryContext;
static __thread void *currentContext;

EXPORT CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  REQUIRE_INIT();
  ENTER("cuDevicePrimaryCtxRetain", "(%d)", device);
  *context = &primaryContext;
  return SUCCESS;
}

EXPORT CUresult cuCtxGetCurrent(void **context) {
  REQUIRE_INIT();
  *context = currentContext;
  return SUCCESS;
}

EXPORT CUresult cuCtxSetCurrent(void *context) {
  REQUIRE_INIT();
  ENTER("cuCtxSetCurrent", "(%s)",
        !context ? "none" : context == &primaryContext ? "primary" : "other");
  currentContext = context;
  return SUCCESS;
}

/*--- Modules: PTX text, whose .entry names are the functions --------------*/

typedef struct {
  const char *ptx;
} Module;

typedef struct {
  const Module *module;
  char name[256];
  const char *entry; /* the .entry's parameter list in the PTX */
} Function;

static int countEntries(const char *ptx) {
  int n = 0;
  for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry "))
    ++n;
  return n;
}

/* The option value of CU_JIT_OPTIMIZATION_LEVEL (7), or -1. */
static long optLevel(unsigned numOptions, const int *options, void **values) {
  for (unsigned i = 0; i < numOptions; ++i)
    if (options[i] == 7)
      return (long)(intptr_t)values[i];
  return -1;
}

/* A failing JIT writes its log into CU_JIT_ERROR_LOG_BUFFER (5). */
static void writeErrorLog(unsigned numOptions, const int *options,
                          void **values) {
  for (unsigned i = 0; i < numOptions; ++i)
    if (options[i] == 5)
      strcpy((char *)values[i], "ptxas fatal   : (the fake's JIT log)");
}

EXPORT CUresult cuModuleLoadDataEx(void **module, const void *image,
                                   unsigned numOptions, int *options,
                                   void **values) {
  REQUIRE_INIT();
  if (injected("cuModuleLoadDataEx"))
    writeErrorLog(numOptions, options, values);
  const char *ptx = (const char *)image;
  int isPTX = strstr(ptx, ".version") && strstr(ptx, ".target");
  ENTER("cuModuleLoadDataEx", "(%s, %d entries, %u options, O%ld, context %s)",
        isPTX ? "PTX" : "not PTX", isPTX ? countEntries(ptx) : 0, numOptions,
        optLevel(numOptions, options, values),
        currentContext == &primaryContext ? "primary" : "other");
  if (!currentContext)
    return 201; /* CUDA_ERROR_INVALID_CONTEXT */
  if (!isPTX)
    return INVALID_IMAGE;
  Module *m = malloc(sizeof(Module));
  m->ptx = ptx;
  *module = m;
  return SUCCESS;
}

EXPORT CUresult cuModuleUnload(void *module) {
  ENTER("cuModuleUnload", "()");
  free(module);
  return SUCCESS;
}

EXPORT CUresult cuModuleGetFunction(void **function, void *module,
                                    const char *name) {
  REQUIRE_INIT();
  ENTER("cuModuleGetFunction", "(%s)", name);
  const Module *m = module;
  char pattern[300];
  snprintf(pattern, sizeof(pattern), ".entry %s(", name);
  const char *entry = strstr(m->ptx, pattern);
  if (!entry)
    return NOT_FOUND;
  Function *f = malloc(sizeof(Function));
  f->module = m;
  snprintf(f->name, sizeof(f->name), "%s", name);
  f->entry = entry + strlen(pattern);
  *function = f;
  return SUCCESS;
}

/*--- Launches: the kernel's parameters as the PTX declares them -----------*/

/* Bytes of a PTX parameter type (.u64, .b32, .f32, ...), 0 if unknown. */
static int paramBytes(const char *type) {
  int bits = atoi(type + 2);
  return bits == 8 || bits == 16 || bits == 32 || bits == 64 ? bits / 8 : 0;
}

/* Appends the kernel's parameter values (read as its PTX types) to `out`. */
static void formatParams(const Function *f, void **params, char *out,
                         size_t size) {
  const char *end = strchr(f->entry, ')');
  size_t used = 0;
  out[0] = '\0';
  int i = 0;
  for (const char *p = strstr(f->entry, ".param ."); p && p < end;
       p = strstr(p + 1, ".param ."), ++i) {
    int bytes = paramBytes(p + 7);
    uint64_t value = 0;
    if (bytes)
      memcpy(&value, params[i], (size_t)bytes);
    used += (size_t)snprintf(out + used, size - used, "%s%llx",
                             i ? " " : "", (unsigned long long)value);
    if (used >= size)
      return;
  }
}

static void *mappedWords[64];
static size_t mappedBytes[64];
static int numMappedWords;

EXPORT CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned sharedMemory,
                               void *stream, void **params, void **extra) {
  REQUIRE_INIT();
  const Function *f = function;
  char values[2048];
  formatParams(f, params, values, sizeof(values));
  ENTER("cuLaunchKernel", "(%s, grid %ux%ux%u, block %ux%ux%u, smem %u, "
        "stream %p, extra %p, params [%s])", f->name, gx, gy, gz, bx, by, bz,
        sharedMemory, stream, (void *)extra, values);
  const char *flags = getenv("EMBBAG_FAKE_CUDA_KERNEL_FLAGS");
  for (int i = 0; flags && i < numMappedWords; ++i)
    *(int32_t *)mappedWords[i] |= atoi(flags);
  const char *count = getenv("EMBBAG_FAKE_CUDA_KERNEL_COUNT");
  for (int i = 0; count && i < numMappedWords; ++i)
    if (mappedBytes[i] >= 16)
      *(int64_t *)((char *)mappedWords[i] + 8) = atoll(count);
  return SUCCESS;
}

/*--- Streams -----------------------------------------------------------------*/

EXPORT CUresult cuStreamSynchronize(void *stream) {
  REQUIRE_INIT();
  ENTER("cuStreamSynchronize", "(%p)", stream);
  return SUCCESS;
}

/*--- Pinned host memory, mapped at its own address ------------------------*/

EXPORT CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned flags) {
  REQUIRE_INIT();
  ENTER("cuMemHostAlloc", "(%zu, flags %u)", bytes, flags);
  /* Not zeroed, as the real driver's: the runtime must clear the word. */
  *ptr = malloc(bytes);
  memset(*ptr, 0x5a, bytes);
  if ((flags & 2) && numMappedWords < 64) {
    mappedBytes[numMappedWords] = bytes;
    mappedWords[numMappedWords++] = *ptr;
  }
  return SUCCESS;
}

EXPORT CUresult cuMemFreeHost(void *ptr) {
  ENTER("cuMemFreeHost", "()");
  for (int i = 0; i < numMappedWords; ++i)
    if (mappedWords[i] == ptr) {
      --numMappedWords;
      mappedWords[i] = mappedWords[numMappedWords];
      mappedBytes[i] = mappedBytes[numMappedWords];
    }
  free(ptr);
  return SUCCESS;
}

/*--- Device memory: host memory here, filled with garbage ----------------*/

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  REQUIRE_INIT();
  ENTER("cuMemAlloc", "(%zu)", bytes);
  void *memory = malloc(bytes);
  memset(memory, 0x5a, bytes);
  *ptr = (CUdeviceptr)(uintptr_t)memory;
  return SUCCESS;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr) {
  ENTER("cuMemFree", "()");
  free((void *)(uintptr_t)ptr);
  return SUCCESS;
}

EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *device, void *host,
                                             unsigned flags) {
  ENTER("cuMemHostGetDevicePointer", "()");
  uintptr_t shift = getenv("EMBBAG_FAKE_CUDA_NO_UVA") ? 0x1000 : 0;
  *device = (CUdeviceptr)((uintptr_t)host + shift);
  return SUCCESS;
}
