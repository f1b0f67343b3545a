"""Runs the kernels of Inputs/gpu-kernels.mlir (embbag-aot --target=nvptx
--checks=status) on a real GPU against NumPy: buffers from cuMemAlloc
through ctypes, row lengths on the 16-byte path (64) and off it (3), a
stream of the caller's, and broken contracts (status 1).

    gpu_run.py LIBGPU.SO LIBEMBBAG_CUDA_RUNTIME.SO
"""

import ctypes
import sys

import numpy as np

c = ctypes
cuda = c.CDLL("libcuda.so.1")
runtime = c.CDLL(sys.argv[2])
kernels = c.CDLL(sys.argv[1])


def check(result, what):
    if result != 0:
        sys.exit(f"gpu_run: {what} failed with CUresult {result}")


if runtime.embbagCudaInit() != 0:
    runtime.embbagCudaLastError.restype = c.c_char_p
    sys.exit("gpu_run: " + runtime.embbagCudaLastError().decode())
device, context = c.c_int(), c.c_void_p()
check(cuda.cuDeviceGet(c.byref(device), 0), "cuDeviceGet")
check(cuda.cuDevicePrimaryCtxRetain(c.byref(context), device), "retain")
check(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")


class Buffer:
    """A NumPy array's copy in device memory."""

    def __init__(self, array):
        self.array = np.ascontiguousarray(array)
        self.ptr = c.c_uint64()
        check(cuda.cuMemAlloc_v2(c.byref(self.ptr), max(self.array.nbytes, 1)),
              "cuMemAlloc")
        check(cuda.cuMemcpyHtoD_v2(self.ptr, self.array.ctypes.data_as(c.c_void_p),
                                   c.c_size_t(self.array.nbytes)), "HtoD")

    def read(self):
        out = np.empty_like(self.array)
        check(cuda.cuMemcpyDtoH_v2(out.ctypes.data_as(c.c_void_p), self.ptr,
                                   c.c_size_t(out.nbytes)), "DtoH")
        return out

    def descriptor(self):
        rank = self.array.ndim
        fields = [("allocated", c.c_uint64), ("aligned", c.c_uint64),
                  ("offset", c.c_int64), ("sizes", c.c_int64 * rank),
                  ("strides", c.c_int64 * rank)]
        d = type("D", (c.Structure,), {"_fields_": fields})()
        d.allocated = d.aligned = self.ptr.value
        for k in range(rank):
            d.sizes[k] = self.array.shape[k]
            d.strides[k] = self.array.strides[k] // self.array.itemsize
        self.keep = d
        return c.byref(d)


def call(name, *args):
    fn = getattr(kernels, "_mlir_ciface_" + name)
    fn.restype = c.c_int32
    return fn(*[a.descriptor() if isinstance(a, Buffer) else c.c_int64(a)
                for a in args])


def report(label, status, got, want):
    ok = status == 0 and np.allclose(got, want, rtol=1e-5, atol=1e-5)
    print(f"{label}: status {status}, {'ok' if ok else 'WRONG'}")


rng = np.random.default_rng(7)
for rows, dim in ((1000, 64), (50, 3)):
    table = rng.standard_normal((rows, dim)).astype(np.float32)
    idx = rng.integers(0, rows, (256, 8)).astype(np.int32)
    out = Buffer(np.zeros((256, dim), np.float32))
    status = call("bag_sum", Buffer(table), Buffer(idx), out)
    report(f"bag_sum D{dim}", status, out.read(), table[idx].sum(axis=1))

    ind = rng.integers(0, rows, 40).astype(np.int64)
    offs = np.array([0, 5, 5, 17, 40], np.int64)  # bags 1 and 4 are empty
    want = np.stack([table[ind[a:b]].mean(axis=0) if b > a else table[3]
                     for a, b in zip(offs, list(offs[1:]) + [len(ind)])])
    out = Buffer(np.zeros((len(offs), dim), np.float32))
    status = call("bag_offsets", Buffer(table), Buffer(ind), Buffer(offs), 3,
                  out)
    report(f"bag_offsets D{dim}", status, out.read(), want)

# On a stream of the caller's, which the runtime must not destroy.
stream = c.c_void_p()
check(cuda.cuStreamCreate(c.byref(stream), 0), "cuStreamCreate")
runtime.embbagCudaSetStream(stream)
table = rng.standard_normal((100, 16)).astype(np.float32)
idx = rng.integers(0, 100, (64, 4)).astype(np.int32)
out = Buffer(np.zeros((64, 16), np.float32))
status = call("bag_sum", Buffer(table), Buffer(idx), out)
report("bag_sum on a stream", status, out.read(), table[idx].sum(axis=1))
check(cuda.cuStreamSynchronize(stream), "the stream after the call")
runtime.embbagCudaResetStream()
check(cuda.cuStreamDestroy_v2(stream), "cuStreamDestroy")

# Broken contracts: an index outside the table (the kernel's check), then a
# good call again (the word is cleared for each call).
bad = idx.copy()
bad[5, 2] = 100
print("bad index: status", call("bag_sum", Buffer(table), Buffer(bad), out))
print("good again: status", call("bag_sum", Buffer(table), Buffer(idx), out))
