#!/usr/bin/env python3
"""A/B of GPU kernel libraries: the benchmark's kernels (gen_kernels.py) in
several builds of embbag-aot --target=nvptx, timed on the same operands
after each is checked against PyTorch (benchmarks/README.md, "Indices a
step ahead" and "Blocks per SM" were measured with it).

    python3 benchmarks/gpu/ab.py old=/path/libbench_old.so new=out/libbench.so
    python3 benchmarks/gpu/ab.py --checked a=out/libbench_status.so b=...
    python3 benchmarks/gpu/ab.py --padding a=... b=...   # the _pad kernels

Unchecked libraries are timed back to back on the stream, taking turns
round by round (bench.py's time_stream_ms); --checked libraries
(--checks=status) call by call, each waiting for its kernel (time_ms).
Prints one Markdown row per case, ms per call; a library whose result
differs from PyTorch's is named after the row as WRONG.
"""

import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import (TOLERANCE, Kernels, bench_operands,  # noqa: E402
                   init_cuda_runtime, time_ms, time_stream_ms)

# (rows, D, type): the benchmark's DRAM-bound tables and its cached one.
CONFIGS = [(4 << 20, 16, "f32"), (4 << 20, 32, "f32"), (4 << 20, 64, "f32"),
           (4 << 20, 128, "f32"), (4 << 20, 64, "f16"), (4 << 20, 128, "f16"),
           (4 << 20, 64, "bf16"), (4 << 20, 64, "q8"), (4 << 20, 128, "q8"),
           (100000, 64, "f32")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("libraries", nargs="+", metavar="NAME=PATH")
    parser.add_argument("--checked", action="store_true",
                        help="the libraries were built with --checks=status")
    parser.add_argument("--lib-dir", default=os.path.join(HERE, "out"),
                        help="where libembbag_cuda_runtime.so is")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--padding", action="store_true",
                        help="time the kernels with a padding_idx (the "
                        "offsets form's sum, mean and max: offsets_*_pad) "
                        "instead")
    args = parser.parse_args()
    init_cuda_runtime(args.lib_dir)
    libs = {}
    for spec in args.libraries:
        name, path = spec.split("=", 1)
        libs[name] = Kernels(path, args.checked)
    print("| table | type | form | mode | "
          + " | ".join(f"{n} ms" for n in libs) + " |")
    print("|---|---|---|---|" + "--:|" * len(libs))
    for rows, dim, dtype in CONFIGS:
        for form in ("offsets",) if args.padding else ("offsets", "packed"):
            for mode in ("sum", "mean", "wsum", "max"):
                if dtype == "f32" and dim != 64 and mode in ("wsum", "max"):
                    continue
                if args.padding and mode == "wsum":
                    continue
                case, out, theirs = bench_operands(rows, dim, 16384, 64, dtype,
                                                   form, mode)
                if args.padding:
                    # Row 1 is the padding row: the kernels test each index
                    # against it, and skip the few that read it.
                    for c in {id(case): case, id(theirs): theirs}.values():
                        c.variant, c.padding = "pad", 1
                call_args = case.arguments(out)
                expected = theirs.torch_result().float()
                wrong = []
                for name, lib in libs.items():
                    out.fill_(float("nan"))
                    status = lib(case.name, *call_args)
                    if (status not in (None, 0) or not torch.allclose(
                            out.float(), expected, rtol=TOLERANCE[dtype],
                            atol=TOLERANCE[dtype])):
                        wrong.append(name)
                calls = {n: lib.bind(case.name, *call_args)
                         for n, lib in libs.items()}
                if args.checked:
                    ms = {n: time_ms(fn, args.reps) for n, fn in calls.items()}
                else:
                    ms = time_stream_ms(calls, args.reps)
                print(f"| {rows} x {dim} | {dtype} | {form} | {mode} | "
                      + " | ".join(f"{ms[n]:.4f}" for n in libs) + " |"
                      + (f" WRONG: {', '.join(wrong)}" if wrong else ""),
                      flush=True)
                del case, out, theirs, call_args, expected, calls
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
