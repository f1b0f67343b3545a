#!/usr/bin/env python3
"""Table batching on the GPU (issue 23): the 26 tables of gen_kernels.py's
TABLES (a DLRM-like model: rows scaled from Criteo's, rows of 64 values,
f32 with some f16 and bf16, offsets sum, 1 to 20 indices per bag) in one
function, built by benchmarks/gpu/build.sh four ways:

  libtables.so            embbag-aot --target=nvptx with batch-tables: one
                          launch for the 26 ops (checks off)
  libtables_status.so     the same with --checks=status (the flag word's
                          bits split the batch into two launches)
  libtables_unbatched.so  one launch per op (checks off)
  *_cpu.so                the same through the GPU kernels' host loops
                          (--device=cpu: the harness checked without a GPU)

Every library's results are compared with F.embedding_bag per table (f32
reference); a broken offset in one table must make the checked library
return status 1. With --device=cuda the three are then timed against a
loop of F.embedding_bag over the tables, back to back on the stream
(bench.py's time_stream_ms), for a batch of 2048 and of 128 bags: ms per
call, and launches per call.

    python3 benchmarks/gpu/tables.py [--device cpu|cuda] [--reps N]
        [--libomp /usr/lib/llvm-22/lib/libomp.so]   # --device=cpu
"""

import argparse
import ctypes
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import (DTYPES, Kernels, add_library_arguments,  # noqa: E402
                   init_cuda_runtime, time_stream_ms)
from gen_kernels import TABLE_DIM, TABLES  # noqa: E402

TOLERANCE = {"f32": 1e-4, "f16": 1e-2, "bf16": 5e-2}


def operands(batch, device, seed=7):
    """Per table (table, indices, offsets, destination)."""
    gen = torch.Generator(device=device).manual_seed(seed)
    tables = []
    for rows, per_bag, t in TABLES:
        table = torch.randn(rows, TABLE_DIM, device=device,
                            generator=gen).to(DTYPES[t])
        indices = torch.randint(0, rows, (batch * per_bag,), device=device,
                                generator=gen)
        offsets = torch.arange(0, batch * per_bag, per_bag, device=device)
        out = torch.full((batch, TABLE_DIM), float("nan"), dtype=DTYPES[t],
                         device=device)
        tables.append((table, indices, offsets, out))
    return tables


def arguments(tables):
    args = [x for table, indices, offsets, _ in tables
            for x in (table, indices, offsets)]
    return args + [out for *_, out in tables]


def torch_loop(tables):
    return [F.embedding_bag(indices, table, offsets, mode="sum")
            for table, indices, offsets, _ in tables]


def check(name, kernels, tables):
    """Runs `kernels` once and compares every table's result."""
    for *_, out in tables:
        out.fill_(float("nan"))
    status = kernels("tables", *arguments(tables))
    if kernels.status and status != 0:
        print(f"FAIL {name}: status {status} on valid operands")
        return False
    ok = True
    for k, ((table, indices, offsets, out), (_, _, t)) in enumerate(
            zip(tables, TABLES)):
        want = F.embedding_bag(indices, table.float(), offsets, mode="sum")
        tol = TOLERANCE[t]
        if not torch.allclose(out.float(), want, rtol=tol, atol=tol):
            err = (out.float() - want).abs().max().item()
            print(f"FAIL {name}: table {k} ({t}), max |error| {err:.3g}")
            ok = False
    return ok


def check_broken(name, kernels, tables):
    """An offset past the end of table 17's indices: status 1."""
    offsets = tables[17][2]
    saved = offsets[5].item()
    offsets[5] = tables[17][1].numel() + 1
    status = kernels("tables", *arguments(tables))
    offsets[5] = saved
    if status != 1:
        print(f"FAIL {name}: status {status} for a broken offset, not 1")
        return False
    return True


def run_checks(libs, device):
    tables = operands(64, device)
    ok = all(check(name, k, tables) for name, k in libs.items())
    ok = check_broken("status", libs["status"], tables) and ok
    print(f"tables: {len(TABLES)} tables, {len(libs)} libraries: "
          f"{'passed' if ok else 'FAILED'}")
    return ok


def run_timing(libs, reps):
    print("| batch | batched ms (1 launch) | unbatched ms (26 launches) | "
          "torch loop ms | batched / unbatched | torch / batched | "
          "checked batched ms |")
    print("|--:|--:|--:|--:|--:|--:|--:|")
    for batch in (2048, 128):
        tables = operands(batch, "cuda")
        args = arguments(tables)
        ms = time_stream_ms({
            "batched": libs["batched"].bind("tables", *args),
            "unbatched": libs["unbatched"].bind("tables", *args),
            "checked": libs["status"].bind("tables", *args),
            "torch": lambda: torch_loop(tables)}, reps)
        print(f"| {batch} | {ms['batched']:.4f} | {ms['unbatched']:.4f} | "
              f"{ms['torch']:.4f} | {ms['unbatched'] / ms['batched']:.2f}x | "
              f"{ms['torch'] / ms['batched']:.2f}x | {ms['checked']:.4f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lib-dir", default=os.path.join(HERE, "out"))
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--libomp", help="the OpenMP runtime the batched "
                        "host libraries (parallel=1) need, loaded first")
    args = parser.parse_args()
    if args.libomp:
        ctypes.CDLL(args.libomp, mode=ctypes.RTLD_GLOBAL)
    suffix = "_cpu" if args.device == "cpu" else ""

    def lib(name, status):
        return Kernels(os.path.join(args.lib_dir, f"lib{name}{suffix}.so"),
                       status)

    if args.device == "cuda":
        init_cuda_runtime(args.lib_dir)
    libs = {"batched": lib("tables", False),
            "status": lib("tables_status", True),
            "unbatched": lib("tables_unbatched", False)}
    ok = run_checks(libs, args.device)
    if ok and args.device == "cuda":
        run_timing(libs, args.reps)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
