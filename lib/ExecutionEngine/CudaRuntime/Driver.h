//===- Driver.h - The CUDA driver entry points, loaded at run time -------===//
//
// The few types, constants and entry points of the CUDA driver API that the
// runtime uses, declared here so that building it needs no CUDA header or
// toolkit: libcuda.so.1 is opened with dlopen on first use and its entry
// points looked up with dlsym. The values are the driver API's (stable
// across CUDA versions); entry points whose names the CUDA header maps to a
// versioned symbol (cuMemAlloc -> cuMemAlloc_v2) are looked up by that name.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_EXECUTIONENGINE_CUDARUNTIME_DRIVER_H
#define EMBBAG_LIB_EXECUTIONENGINE_CUDARUNTIME_DRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace embbag::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUjit_option = int;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
constexpr CUresult CUDA_ERROR_CONTEXT_IS_DESTROYED = 709;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_OPTIMIZATION_LEVEL = 7;
constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 0x02;

/// The driver's entry points, as the runtime calls them.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
  CUresult (*cuMemFreeHost)(void *);
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
};

/// The driver, loaded and initialised (cuInit) once per process, or null
/// with the reason in `error`.
const Driver *loadDriver(std::string &error);

} // namespace embbag::cuda

#endif // EMBBAG_LIB_EXECUTIONENGINE_CUDARUNTIME_DRIVER_H
