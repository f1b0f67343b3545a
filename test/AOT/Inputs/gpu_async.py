"""Runs bag_sum of Inputs/gpu-kernels.mlir compiled with --checks=off on a
real GPU the way unchecked calls are used (docs/GPU.md, Synchronization):
calls back to back on a stream of the caller's that does not synchronise
with the default stream (CU_STREAM_NON_BLOCKING), each reading the result
of the one before, and one cuStreamSynchronize at the end. The results
agree with NumPy only if the calls ran in order on the stream and the
host waited for the last one before reading.

    gpu_async.py LIBGPU.SO LIBEMBBAG_CUDA_RUNTIME.SO
"""

import ctypes as c
import sys

import numpy as np
from memref2d import descriptor

CU_STREAM_NON_BLOCKING = 1

cuda = c.CDLL("libcuda.so.1")
runtime = c.CDLL(sys.argv[2])
kernels = c.CDLL(sys.argv[1])


def check(result, what):
    if result != 0:
        sys.exit(f"gpu_async: {what} failed with CUresult {result}")


def device_copy(array):
    ptr = c.c_uint64()
    check(cuda.cuMemAlloc_v2(c.byref(ptr), c.c_size_t(array.nbytes)),
          "cuMemAlloc")
    check(cuda.cuMemcpyHtoD_v2(ptr, array.ctypes.data_as(c.c_void_p),
                               c.c_size_t(array.nbytes)), "HtoD")
    return ptr.value


if runtime.embbagCudaInit() != 0:
    runtime.embbagCudaLastError.restype = c.c_char_p
    sys.exit("gpu_async: " + runtime.embbagCudaLastError().decode())
device, context = c.c_int(), c.c_void_p()
check(cuda.cuDeviceGet(c.byref(device), 0), "cuDeviceGet")
check(cuda.cuDevicePrimaryCtxRetain(c.byref(context), device), "retain")
check(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
stream = c.c_void_p()
check(cuda.cuStreamCreate(c.byref(stream), CU_STREAM_NON_BLOCKING),
      "cuStreamCreate")
runtime.embbagCudaSetStream(stream)

# Call k sums bags of the rows call k - 1 wrote: 4096 bags of 64 floats.
rng = np.random.default_rng(21)
bags, dim, calls = 4096, 64, 8
want = rng.standard_normal((bags, dim)).astype(np.float32)
idx = rng.integers(0, bags, (bags, 4)).astype(np.int32)
buffers = [device_copy(want)]
buffers += [device_copy(np.zeros_like(want)) for _ in range(calls)]
indices = descriptor(device_copy(idx), idx.shape)
kernels._mlir_ciface_bag_sum.restype = None
for k in range(calls):
    table = descriptor(buffers[k], want.shape)
    out = descriptor(buffers[k + 1], want.shape)
    kernels._mlir_ciface_bag_sum(c.byref(table), c.byref(indices),
                                 c.byref(out))
    want = want[idx].sum(axis=1)
check(cuda.cuStreamSynchronize(stream), "cuStreamSynchronize")
got = np.empty_like(want)
check(cuda.cuMemcpyDtoH_v2(got.ctypes.data_as(c.c_void_p),
                           c.c_uint64(buffers[-1]), c.c_size_t(got.nbytes)),
      "DtoH")
scale = np.abs(want).max()
ok = np.allclose(got / scale, want / scale, rtol=1e-4, atol=1e-4)
print(f"{calls} unchecked calls on a stream: {'ok' if ok else 'WRONG'}")
runtime.embbagCudaResetStream()
check(cuda.cuStreamDestroy_v2(stream), "cuStreamDestroy")
