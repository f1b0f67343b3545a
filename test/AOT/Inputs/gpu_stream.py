"""Calls a GPU library of embbag-aot from Python as benchmarks/gpu/bench.py
does with PyTorch: the runtime loaded first by path (a copy, as in
benchmarks/gpu/out), a stream set, the library loaded, a call, the stream
reset, a call. With the fake driver, host memory stands for device memory.

    gpu_stream.py LIBGPU.SO LIBEMBBAG_CUDA_RUNTIME.SO
"""

import ctypes as c
import sys

import numpy as np

runtime = c.CDLL(sys.argv[2])
print("init:", runtime.embbagCudaInit())
runtime.embbagCudaSetStream(c.c_void_p(0x5157))
kernels = c.CDLL(sys.argv[1])


def descriptor(a):
    rank = a.ndim
    fields = [("allocated", c.c_void_p), ("aligned", c.c_void_p),
              ("offset", c.c_int64), ("sizes", c.c_int64 * rank),
              ("strides", c.c_int64 * rank)]
    d = type("D", (c.Structure,), {"_fields_": fields})()
    d.allocated = d.aligned = a.ctypes.data
    for k in range(rank):
        d.sizes[k] = a.shape[k]
        d.strides[k] = a.strides[k] // a.itemsize
    return d


table = np.zeros((8, 4), np.float32)
idx = np.zeros((3, 2), np.int32)
out = np.zeros((3, 4), np.float32)
args = [descriptor(a) for a in (table, idx, out)]
kernels._mlir_ciface_bag_sum.restype = c.c_int32
print("on the stream:", kernels._mlir_ciface_bag_sum(*map(c.byref, args)))
runtime.embbagCudaResetStream()
print("on the default:", kernels._mlir_ciface_bag_sum(*map(c.byref, args)))
