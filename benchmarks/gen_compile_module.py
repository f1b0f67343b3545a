#!/usr/bin/python3
"""Writes a module of N kernels, one embbag op each, for compile_time.sh.

Usage: benchmarks/gen_compile_module.py static|dynamic [N] > module.mlir

The kernels cycle through the forms (packed, offsets, segments) and the
reductions (sum, mean, max, sqrtn, each weighted where the op allows it:
sum and sqrtn): 18 kinds of kernel, with i32 indices, as
benchmarks/gen_kernels.py writes them (its `kernel`): a public func.func with {llvm.emit_c_interface} that runs the
op and materializes its result into the caller's %out. `static`: rows of 64
f32, every size known; `dynamic`: every size `?` (tensor<?x?xf32>).
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_kernels import kernel  # noqa: E402  (one writer of kernels)

FORMS = ["packed", "offsets", "segments"]
MODES = ["sum", "wsum", "mean", "max", "sqrtn", "wsqrtn"]
# rows, dim, batch, bag
SHAPE = (1000, 64, 256, 16)


def main():
    dynamic = sys.argv[1] == "dynamic"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    kinds = itertools.cycle(itertools.product(MODES, FORMS))
    print(f"// {count} kernels written by benchmarks/gen_compile_module.py\n")
    for i, (mode, form) in zip(range(count), kinds):
        print(kernel(f"k{i}_{form}_{mode}", SHAPE, form, mode, 32, "f32",
                     dynamic))


if __name__ == "__main__":
    main()
