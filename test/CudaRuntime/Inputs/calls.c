/* Calls libembbag_cuda_runtime.so as the generated host code does (the
 * mgpu* functions, the status word) and as callers do (init, streams,
 * errors); the tests run it against the fake driver and check what it
 * printed and what the driver was asked. `calls MODE`, MODE one of: init,
 * launch, binary, status, scratch, threads, contexts, missing, biggrid. */

#include "embbag-c/CudaRuntime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The mgpu* ABI of mlir-translate's gpu.launch_func lowering. */
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);

static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry first(.param .u64 first_param_0, .param .u32 "
    "first_param_1)\n{ ret; }\n"
    ".visible .entry second(.param .u64 second_param_0)\n{ ret; }\n";

/* One function call of the generated code: get, create, launch, sync,
 * destroy. */
static void callOnce(void *module, const char *name, intptr_t grid) {
  void *function = mgpuModuleGetFunction(module, name);
  void *stream = mgpuStreamCreate();
  printf("%s: stream %p\n", name, stream);
  uint64_t pointer = 0x1234;
  uint32_t count = 7;
  void *params[] = {&pointer, &count};
  mgpuLaunchKernel(function, grid, 1, 1, 256, 1, 1, 0, stream, params, NULL,
                   2);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

static int init(void) {
  int rc = embbagCudaInit();
  printf("init: %d '%s'\n", rc, embbagCudaLastError());
  return 0;
}

static int launch(void) {
  void *module = mgpuModuleLoadJIT((void *)ptx, 2);
  printf("loaded\n");
  callOnce(module, "first", 3);
  callOnce(module, "second", 1);
  embbagCudaSetStream((void *)0x5157);
  printf("set: %p\n", embbagCudaGetStream());
  callOnce(module, "first", 2);
  embbagCudaResetStream();
  printf("reset: %p\n", embbagCudaGetStream());
  callOnce(module, "first", 1);
  mgpuModuleUnload(module);
  return 0;
}

/* The form for cubins and fatbins: no JIT options. */
static int binary(void) {
  void *module = mgpuModuleLoad((void *)ptx, sizeof(ptx));
  callOnce(module, "second", 1);
  mgpuModuleUnload(module);
  return 0;
}

static int32_t *statusWord(void) {
  EmbBagCudaStatusWordDescriptor d;
  memset(&d, 0xff, sizeof(d));
  _mlir_ciface_embbagCudaStatusWord(&d);
  printf("word: %d, same pointers %d, offset %lld, size %lld, stride %lld\n",
         *d.aligned, d.allocated == d.aligned, (long long)d.offset,
         (long long)d.sizes[0], (long long)d.strides[0]);
  return d.aligned;
}

static int status(void) {
  int32_t *word = statusWord();
  *word = 3;
  int32_t *again = statusWord();
  printf("cached: %d\n", word == again);
  void *module = mgpuModuleLoadJIT((void *)ptx, 3);
  callOnce(module, "second", 1);
  printf("after the launch: %d\n", *again);
  mgpuModuleUnload(module);
  return 0;
}

static uint8_t *scratchOf(int64_t bytes) {
  EmbBagCudaScratchDescriptor d;
  memset(&d, 0xff, sizeof(d));
  _mlir_ciface_embbagCudaScratch(&d, bytes);
  printf("scratch: same pointers %d, offset %lld, size %lld, stride %lld\n",
         d.allocated == d.aligned, (long long)d.offset, (long long)d.sizes[0],
         (long long)d.strides[0]);
  return d.aligned;
}

/* Scratch memory: reused while it is large enough; grown after the stream
 * is synchronised. */
static int scratchMemory(void) {
  uint8_t *first = scratchOf(100);
  uint8_t *again = scratchOf(4096);
  printf("reused: %d\n", first == again);
  embbagCudaSetStream((void *)0x5157);
  scratchOf(5000);
  embbagCudaResetStream();
  return 0;
}

/* A sparse gradient's runtime: the count word beside the status word
 * (zeroed, written by the "kernel": the fake stores
 * EMBBAG_FAKE_CUDA_KERNEL_COUNT in it), and result memory the caller frees:
 * none for 0 bytes. */
static int results(void) {
  int32_t *word = statusWord();
  EmbBagCudaCountWordDescriptor count;
  memset(&count, 0xff, sizeof(count));
  _mlir_ciface_embbagCudaCountWord(&count);
  printf("count: %lld, 8 bytes after the status word %d, offset %lld, size "
         "%lld, stride %lld\n",
         (long long)*count.aligned, (char *)count.aligned == (char *)word + 8,
         (long long)count.offset, (long long)count.sizes[0],
         (long long)count.strides[0]);
  void *module = mgpuModuleLoadJIT((void *)ptx, 3);
  callOnce(module, "second", 1);
  printf("after the launch: %lld\n", (long long)*count.aligned);
  mgpuModuleUnload(module);
  EmbBagCudaScratchDescriptor memory;
  _mlir_ciface_embbagCudaAlloc(&memory, 48);
  printf("alloc: memory %d, size %lld\n", memory.allocated != NULL,
         (long long)memory.sizes[0]);
  printf("free: %d\n", embbagCudaFree(memory.allocated));
  _mlir_ciface_embbagCudaAlloc(&memory, 0);
  printf("alloc 0: memory %d, size %lld\n", memory.allocated != NULL,
         (long long)memory.sizes[0]);
  printf("free null: %d\n", embbagCudaFree(memory.allocated));
  _mlir_ciface_embbagCudaAlloc(&memory, 16);
  int failed = embbagCudaFree(memory.allocated);
  printf("free failed: %d, %s\n", failed, embbagCudaLastError());
  return 0;
}

static void *otherThread(void *word) {
  int32_t *mine = statusWord();
  printf("another thread's word: %s\n", mine == word ? "same" : "its own");
  return NULL;
}

static int threads(void) {
  int32_t *word = statusWord();
  pthread_t thread;
  pthread_create(&thread, NULL, otherThread, word);
  pthread_join(thread, NULL);
  return 0;
}

/* A context made current by someone else (PyTorch, the CUDA runtime) is
 * the one the runtime uses; modules and words are per context. */
static int contexts(void) {
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
  int (*cuInit)(unsigned) = (int (*)(unsigned))dlsym(cuda, "cuInit");
  int (*cuCtxSetCurrent)(void *) =
      (int (*)(void *))dlsym(cuda, "cuCtxSetCurrent");
  static char theirs;
  cuInit(0);
  cuCtxSetCurrent(&theirs);
  void *module = mgpuModuleLoadJIT((void *)ptx, 2);
  callOnce(module, "first", 1);
  int32_t *word = statusWord();
  callOnce(module, "second", 1);
  cuCtxSetCurrent(NULL);
  callOnce(module, "first", 1);
  printf("words per context: %s\n", statusWord() == word ? "shared" : "one each");
  mgpuModuleUnload(module);
  return 0;
}

static int missing(void) {
  void *module = mgpuModuleLoadJIT((void *)ptx, 2);
  callOnce(module, "third", 1);
  return 0;
}

static int biggrid(void) {
  void *module = mgpuModuleLoadJIT((void *)ptx, 2);
  callOnce(module, "first", (intptr_t)1 << 32);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  setvbuf(stdout, NULL, _IONBF, 0);
  if (!strcmp(mode, "init"))
    return init();
  if (!strcmp(mode, "launch"))
    return launch();
  if (!strcmp(mode, "binary"))
    return binary();
  if (!strcmp(mode, "status"))
    return status();
  if (!strcmp(mode, "results"))
    return results();
  if (!strcmp(mode, "scratch"))
    return scratchMemory();
  if (!strcmp(mode, "threads"))
    return threads();
  if (!strcmp(mode, "contexts"))
    return contexts();
  if (!strcmp(mode, "missing"))
    return missing();
  if (!strcmp(mode, "biggrid"))
    return biggrid();
  fprintf(stderr, "calls: unknown mode '%s'\n", mode);
  return 2;
}
