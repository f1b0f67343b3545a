#!/usr/bin/python3
"""Times torch.nn.functional.embedding_bag on the benchmark cases.

Reads the case list (cases.tsv from gen_kernels.py) and the inputs that
`bench --dump DIR` wrote (the same index sets, offsets and weights the C++
contenders use, and the scalar reference result); builds the same table
values with numpy; checks torch's result against the reference; then times
1 and 2 threads, each call on the next index set, and prints
"name<TAB>threads<TAB>median ms" lines.

torch has no segments op: for segments cases (sorted ids, fixed-length
bags) it runs the equivalent offsets call. torch 1.13's embedding_bag takes
no bf16 table on the CPU: bf16 cases print nothing.

Usage: torch_bench.py CASES.TSV DIR [--quick] [--only S] [--budget SECONDS]
"""
import argparse
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F


def table_values(rows, dim):
    """table[i] = ((i * 2654435761) mod 2^32 >> 8) * 2^-24 - 0.5, as bench.cpp."""
    out = np.empty(rows * dim, dtype=np.float32)
    step = 1 << 24
    for start in range(0, rows * dim, step):
        i = np.arange(start, min(start + step, rows * dim), dtype=np.uint64)
        h = (i * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
        out[start:start + len(i)] = (h >> np.uint64(8)).astype(np.float32) \
            * np.float32(2.0 ** -24) - np.float32(0.5)
    return out.reshape(rows, dim)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("dir")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--budget", type=float, default=None)
    ap.add_argument("--prefetch", default=None)  # the AVX2 kernel's; unused
    args = ap.parse_args()
    budget = args.budget or (0.5 if args.quick else 1.5)

    with open(os.path.join(args.dir, "sets")) as f:
        sets = int(f.read())
    with open(args.cases) as f:
        header = f.readline().rstrip("\n").split("\t")
        cases = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]
    cases = [c for c in cases
             if (not args.quick or c["quick"] == "1") and args.only in c["name"]]

    tables = {}
    for c in cases:
        name, cfg, form, mode = c["name"], c["cfg"], c["form"], c["mode"]
        dtype = c["dtype"]
        if dtype == "bf16":
            print(f"torch_bench: {name}: no bf16 embedding_bag in torch "
                  f"{torch.__version__}", file=sys.stderr)
            continue
        np_dtype = np.float16 if dtype == "f16" else np.float32
        tol = 2.0 ** -10 if dtype == "f16" else 1e-4
        rows, dim, batch, bag = (int(c[k]) for k in ("rows", "dim", "batch", "bag"))
        bits = int(c["bits"])
        n = batch * bag
        itype = np.int32 if bits == 32 else np.int64
        if (rows, dim, dtype) not in tables:
            values = table_values(rows, dim)
            if dtype != "f32":
                values = values.astype(np_dtype)  # rounds to nearest even
            tables[(rows, dim, dtype)] = torch.from_numpy(values)
        table = tables[(rows, dim, dtype)]
        base = os.path.join(args.dir, f"{cfg}_i{bits}")
        idx = np.fromfile(base + ".idx", dtype=itype).reshape(sets, n)
        offsets = torch.from_numpy(np.fromfile(base + ".off", dtype=itype))
        weights = np.fromfile(os.path.join(args.dir, f"{cfg}_{dtype}.w"),
                              dtype=np.float32).reshape(sets, n)
        weights = weights.astype(np_dtype)
        ref = np.fromfile(os.path.join(args.dir, f"{name}.ref"),
                          dtype=np.float32).reshape(batch, dim)

        calls = []
        for s in range(sets):
            ind = torch.from_numpy(idx[s].copy())
            w = torch.from_numpy(weights[s].copy()) if mode == "wsum" else None
            tmode = "mean" if mode == "mean" else "sum"
            if form == "packed":
                ind = ind.view(batch, bag)
                if w is not None:
                    w = w.view(batch, bag)
                off = None
            else:
                off = offsets
            calls.append((ind, off, w, tmode))

        def run(s):
            ind, off, w, tmode = calls[s]
            return F.embedding_bag(ind, table, off, mode=tmode,
                                   per_sample_weights=w)

        with torch.no_grad():
            got = run(0).numpy().astype(np.float32)
            bad = ~(np.abs(got - ref) <= tol * (1 + np.abs(ref)))
            if bad.any():
                b, d = np.argwhere(bad)[0]
                sys.exit(f"torch_bench: MISMATCH: torch on case {name} (index "
                         f"set 0) at [bag {b}, col {d}]: got {got[b, d]!r}, "
                         f"expected {ref[b, d]!r} (scalar reference)")
            for threads in (1, 2):
                torch.set_num_threads(threads)
                counter = 0
                t0 = time.perf_counter()
                for _ in range(3):
                    run(counter % sets)
                    counter += 1
                per_call = (time.perf_counter() - t0) / 3
                reps = max(11, min(401, int(budget / 2 / max(per_call, 1e-6)))) | 1
                times = []
                for _ in range(reps):
                    s = counter % sets
                    counter += 1
                    t0 = time.perf_counter()
                    run(s)
                    times.append(time.perf_counter() - t0)
                times.sort()
                print(f"{name}\t{threads}\t{times[len(times) // 2] * 1e3:.4f}",
                      flush=True)
        print(f"torch_bench: {name} done", file=sys.stderr)


if __name__ == "__main__":
    main()
