"""The descriptor of a row-major 2-D memref at `ptr` (a device or host
address), as MLIR's C interface passes it: shared by the GPU tests'
programs (gpu_async.py, gpu_abort.py)."""

import ctypes as c


def descriptor(ptr, shape):
    fields = [("allocated", c.c_uint64), ("aligned", c.c_uint64),
              ("offset", c.c_int64), ("sizes", c.c_int64 * 2),
              ("strides", c.c_int64 * 2)]
    d = type("D", (c.Structure,), {"_fields_": fields})()
    d.allocated = d.aligned = ptr
    d.sizes[0], d.sizes[1] = shape
    d.strides[0], d.strides[1] = shape[1], 1
    return d
