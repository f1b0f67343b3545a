/*===- CudaRuntime.h - embbag's CUDA runtime library --------------*- C -*-===*\
|*                                                                            *|
|* libembbag_cuda_runtime.so runs the host code of `--embbag-to-nvvm` and of  *|
|* `embbag-aot --target=nvptx` libraries: it defines the mgpu* functions the  *|
|* generated code calls and the kernels' status word. It loads the CUDA       *|
|* driver (libcuda.so.1) itself on first use; nothing of CUDA is needed to    *|
|* build or link it. docs/GPU.md, "The runtime", describes the semantics.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef EMBBAG_C_CUDARUNTIME_H
#define EMBBAG_C_CUDARUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the driver, initialises it and checks that there is a device.
 * Returns 0, or non-zero with the reason in embbagCudaLastError(). Optional:
 * every other function initialises on first use (and aborts with a message
 * when it cannot); calling this first turns that into an error return. */
int embbagCudaInit(void);

/* The message of the calling thread's last failure ("" when none). Valid
 * until the thread's next call into this library. */
const char *embbagCudaLastError(void);

/* Launches of the calling thread go on `stream` (a CUstream, e.g. PyTorch's
 * torch.cuda.current_stream().cuda_stream) until embbagCudaResetStream().
 * The stream stays the caller's: the generated code never destroys it, and
 * synchronises it after a launch only with checks (docs/GPU.md,
 * Synchronization): unchecked functions return with their kernels queued
 * on it. */
void embbagCudaSetStream(void *stream);

/* Back to the default: CUDA's legacy default stream (0) of the current
 * context. */
void embbagCudaResetStream(void);

/* The stream launches of the calling thread go on now (NULL: the default). */
void *embbagCudaGetStream(void);

/* The memref<1xi32> descriptor of MLIR's C interface. */
typedef struct EmbBagCudaStatusWordDescriptor {
  int32_t *allocated;
  int32_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} EmbBagCudaStatusWordDescriptor;

/* `embbagCudaStatusWord() -> memref<1xi32>` of the checked kernels: the
 * calling thread's word for the current context, in pinned host memory that
 * the device writes through (cuMemHostAlloc with DEVICEMAP; under CUDA's
 * unified addressing its device address is its host address, which the
 * runtime checks), set to 0 by this call. The kernels OR the bits of the
 * rules they find broken into it; the host reads it after the stream is
 * synchronised. */
void _mlir_ciface_embbagCudaStatusWord(EmbBagCudaStatusWordDescriptor *result);

/* The memref<?xi8> descriptor of MLIR's C interface. */
typedef struct EmbBagCudaScratchDescriptor {
  uint8_t *allocated;
  uint8_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} EmbBagCudaScratchDescriptor;

/* `embbagCudaScratch(bytes : index) -> memref<?xi8>` of the kernels that
 * need device memory of their own (the training ops' gradient rows and
 * winning positions): at least `bytes` bytes of device memory, the calling
 * thread's for the current context (cuMemAlloc, so 256-byte aligned), its
 * contents undefined. Every call returns the same memory until one needs
 * more: that call synchronises the current stream, whose queued kernels may
 * still use the old memory, frees it and allocates the new. The kernels of
 * one call are queued on one stream, so the next call's cannot overlap
 * them. */
void _mlir_ciface_embbagCudaScratch(EmbBagCudaScratchDescriptor *result,
                                    int64_t bytes);

/* The memref<1xi64> descriptor of MLIR's C interface. */
typedef struct EmbBagCudaCountWordDescriptor {
  int64_t *allocated;
  int64_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} EmbBagCudaCountWordDescriptor;

/* `embbagCudaCountWord() -> memref<1xi64>` of a sparse gradient's kernels:
 * the calling thread's count word for the current context, pinned host
 * memory beside its status word (same rules), set to 0 by this call. A
 * kernel leaves the number of the gradient's rows in it; the host reads it
 * after the stream is synchronised, to allocate the results. */
void _mlir_ciface_embbagCudaCountWord(EmbBagCudaCountWordDescriptor *result);

/* `embbagCudaAlloc(bytes : index) -> memref<?xi8>` of results in new
 * device memory (a sparse gradient's rows and gradient rows): `bytes` bytes
 * from cuMemAlloc in the current context (256-byte aligned), NULL for 0
 * bytes. The memory is the caller's: it comes back in the function's result
 * descriptors (their `allocated` pointer), and the caller frees it with
 * embbagCudaFree (or cuMemFree). Aborts with the driver's error when the
 * allocation fails. */
void _mlir_ciface_embbagCudaAlloc(EmbBagCudaScratchDescriptor *result,
                                  int64_t bytes);

/* Frees memory from embbagCudaAlloc (NULL: nothing). Returns 0, or non-zero
 * with the driver's error in embbagCudaLastError(). */
int embbagCudaFree(void *memory);

#ifdef __cplusplus
}
#endif

#endif /* EMBBAG_C_CUDARUNTIME_H */
