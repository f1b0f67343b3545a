"""The abort mode on a real GPU: bag_sum of Inputs/gpu-kernels.mlir, built
with --checks=abort for the GPU and for the CPU, is called on an index
outside the table; the kernel's flag word makes the GPU library's host code
abort, and it must print the CPU library's message.

    gpu_abort.py LIBGPU.SO LIBCPU.SO LIBEMBBAG_CUDA_RUNTIME.SO

Each library is called in a child process (`gpu_abort.py --child gpu|cpu
LIB RUNTIME`), whose exit status and stderr the parent prints.
"""

import ctypes as c
import subprocess
import sys

import numpy as np
from memref2d import descriptor


def child(where, lib, runtime_path):
    table = np.ones((100, 16), np.float32)
    idx = np.zeros((64, 4), np.int32)
    idx[5, 2] = 100  # one past the table
    out = np.zeros((64, 16), np.float32)
    arrays = [table, idx, out]
    ptrs = [a.ctypes.data for a in arrays]
    if where == "gpu":
        runtime = c.CDLL(runtime_path)
        if runtime.embbagCudaInit() != 0:
            sys.exit("gpu_abort: the CUDA runtime did not initialise")
        cuda = c.CDLL("libcuda.so.1")
        device, context = c.c_int(), c.c_void_p()
        assert cuda.cuDeviceGet(c.byref(device), 0) == 0
        assert cuda.cuDevicePrimaryCtxRetain(c.byref(context), device) == 0
        assert cuda.cuCtxSetCurrent(context) == 0
        ptrs = []
        for a in arrays:
            p = c.c_uint64()
            assert cuda.cuMemAlloc_v2(c.byref(p), c.c_size_t(a.nbytes)) == 0
            assert cuda.cuMemcpyHtoD_v2(p, a.ctypes.data_as(c.c_void_p),
                                        c.c_size_t(a.nbytes)) == 0
            ptrs.append(p.value)
    kernels = c.CDLL(lib)
    args = [descriptor(p, a.shape) for p, a in zip(ptrs, arrays)]
    kernels._mlir_ciface_bag_sum(*[c.byref(d) for d in args])
    print(f"{where}: returned", flush=True)


def main():
    if sys.argv[1] == "--child":
        return child(*sys.argv[2:5])
    gpu_lib, cpu_lib, runtime = sys.argv[1:4]
    messages = {}
    for where, lib in (("gpu", gpu_lib), ("cpu", cpu_lib)):
        run = subprocess.run([sys.executable, __file__, "--child", where, lib,
                              runtime], capture_output=True, text=True)
        messages[where] = run.stderr.strip()
        print(f"{where}: exit {run.returncode}, stdout {run.stdout.strip()!r}")
        print(f"{where}: {messages[where]}")
    same = messages["gpu"] == messages["cpu"] and messages["gpu"]
    print("same message:", "yes" if same else "no")


if __name__ == "__main__":
    main()
