#!/usr/bin/python3
"""Times torch.nn.functional.embedding_bag on the benchmark cases.

Reads the case list (cases.tsv from gen_kernels.py) and the inputs that
`bench --dump DIR` wrote (the same index sets, offsets and weights the C++
contenders use, and the scalar reference result); builds the same table
values with numpy; checks torch's result against the reference; then times
1 and 2 threads, each call on the next index set, and prints
"name<TAB>threads<TAB>median ms<TAB>embbag median ms<TAB>par median ms"
lines.

With --kernels LIB (a shared library of the checked embbag kernels), the
embbag kernel is called through its C interface on the same memory torch
reads (numpy's table, index sets, weights), alternating call by call with
torch, and checked against the reference too: its median in the same run
is the fourth column, from which bench computes embbag/torch. Without it
the column is "-" and bench divides by its own embbag time.

With --par-kernels LIB (the `parallel=1` kernels as a shared library linked
with LLVM's libomp), the parallel embbag kernel is called too, on 1 and 2
OpenMP threads (libomp's omp_set_num_threads, outside the timed call),
alternating with torch's calls of the same thread count: libgomp (torch's
OpenMP) and libomp then live in one process, as in a PyTorch serving process
that calls an embbag kernel. Its median is the fifth column ("-" without).

torch has no segments op: for segments cases (sorted ids, fixed-length
bags) it runs the equivalent offsets call. torch 1.13's embedding_bag takes
no bf16 table on the CPU: bf16 cases print nothing.

Row-wise quantized tables (dtype q8, q4; the same bytes as bench.cpp's,
built with numpy) run torch's own quantized ops,
torch.ops.quantized.embedding_bag_byte_rowwise_offsets and
embedding_bag_4bit_rowwise_offsets, on the same table, indices, offsets
and f32 weights. Where torch's result is not the op's (Debian's torch 1.13,
built without FBGEMM, ignores `mode` and sums: max), the case's lines say
"n/a" instead of a time.

Usage: torch_bench.py CASES.TSV DIR [--kernels LIB] [--par-kernels LIB]
                      [--libomp LIBOMP.SO] [--quick] [--only S] [--budget SECONDS]
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F


def aligned_empty(count, dtype, alignment=2 << 20):
    """An uninitialised 1-D array whose data starts on `alignment` bytes, as
    bench.cpp allocates its tables: numpy alone gives 16-byte alignment, and
    rows that straddle cache lines cost every contender reading them about a
    line more per row (25% more lines for rows of 256 bytes)."""
    itemsize = np.dtype(dtype).itemsize
    raw = np.empty(count * itemsize + alignment, dtype=np.uint8)
    start = -raw.ctypes.data % alignment
    return raw[start:start + count * itemsize].view(dtype)


def table_values(rows, dim, dtype=np.float32):
    """table[i] = ((i * 2654435761) mod 2^32 >> 8) * 2^-24 - 0.5, as bench.cpp,
    rounded to `dtype` (to nearest even), in a 2 MiB-aligned array."""
    out = aligned_empty(rows * dim, dtype)
    step = 1 << 24
    for start in range(0, rows * dim, step):
        i = np.arange(start, min(start + step, rows * dim), dtype=np.uint64)
        h = (i * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
        out[start:start + len(i)] = (h >> np.uint64(8)).astype(np.float32) \
            * np.float32(2.0 ** -24) - np.float32(0.5)
    return out.reshape(rows, dim)


def hash_bytes(pos):
    """bench.cpp's hashByte: the top byte of (pos * 2654435761) mod 2^32."""
    return ((pos * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)) \
        >> np.uint64(24)


def quantized_table(rows, dim, dtype):
    """bench.cpp's fillQuantized: a row-wise quantized table in PyTorch's
    layout (q8: dim codes, f32 scale, f32 bias; q4: the codes two to a byte,
    lower nibble first, f16 scale, f16 bias), 2 MiB aligned, as uint8."""
    codes = dim if dtype == "q8" else (dim + 1) // 2
    cols = codes + (8 if dtype == "q8" else 4)
    out = aligned_empty(rows * cols, np.uint8).reshape(rows, cols)
    step = 1 << 16
    for r0 in range(0, rows, step):
        r = np.arange(r0, min(r0 + step, rows), dtype=np.uint64)
        base = r * np.uint64(cols)
        pos = base[:, None] + np.arange(codes, dtype=np.uint64)[None, :]
        block = out[r0:r0 + len(r)]
        block[:, :codes] = hash_bytes(pos).astype(np.uint8)
        steps = (np.uint64(256) + hash_bytes(base + np.uint64(codes))) \
            .astype(np.float32)
        bias = -hash_bytes(base + np.uint64(codes + 1)).astype(np.float32) \
            * np.float32(2.0 ** -9)
        if dtype == "q8":
            scale = steps * np.float32(2.0 ** -18)
            block[:, codes:codes + 4] = scale.view(np.uint8).reshape(-1, 4)
            block[:, codes + 4:] = bias.view(np.uint8).reshape(-1, 4)
        else:
            scale = (steps * np.float32(2.0 ** -14)).astype(np.float16)
            block[:, codes:codes + 2] = scale.view(np.uint8).reshape(-1, 2)
            block[:, codes + 2:] = bias.astype(np.float16) \
                .view(np.uint8).reshape(-1, 2)
    return out


def descriptor(array):
    """A memref descriptor of `array` (C-contiguous), as _mlir_ciface_ takes
    it by pointer; the array must outlive it."""
    rank = array.ndim

    class Descriptor(ctypes.Structure):
        _fields_ = [("allocated", ctypes.c_void_p),
                    ("aligned", ctypes.c_void_p),
                    ("offset", ctypes.c_int64),
                    ("sizes", ctypes.c_int64 * rank),
                    ("strides", ctypes.c_int64 * rank)]

    assert array.flags["C_CONTIGUOUS"]
    d = Descriptor()
    d.allocated = d.aligned = array.ctypes.data
    d.offset = 0
    d.sizes[:] = array.shape
    d.strides[:] = [st // array.itemsize for st in array.strides]
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("dir")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--budget", type=float, default=None)
    ap.add_argument("--prefetch", default=None)  # the AVX2 kernel's; unused
    ap.add_argument("--kernels", default=None)
    ap.add_argument("--par-kernels", default=None)
    ap.add_argument("--libomp", default="/usr/lib/llvm-22/lib/libomp.so")
    args = ap.parse_args()
    kernels = ctypes.CDLL(args.kernels) if args.kernels else None
    par_kernels = ctypes.CDLL(args.par_kernels) if args.par_kernels else None
    # omp_set_num_threads of the libomp the parallel kernels link, not of
    # torch's libgomp (both define it).
    libomp_set_threads = None
    if par_kernels is not None:
        libomp = ctypes.CDLL(args.libomp, mode=ctypes.RTLD_LOCAL)
        libomp_set_threads = libomp.omp_set_num_threads
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
        quantized = dtype in ("q8", "q4")
        # The weights' and the result's type (quantized tables: f32).
        vtype = "f32" if quantized else dtype
        np_dtype = np.float16 if dtype == "f16" else np.float32
        tol = 2.0 ** -10 if dtype == "f16" else 1e-4
        rows, dim, batch, bag = (int(c[k]) for k in ("rows", "dim", "batch", "bag"))
        bits = int(c["bits"])
        n = batch * bag
        itype = np.int32 if bits == 32 else np.int64
        if (rows, dim, dtype) not in tables:
            tables[(rows, dim, dtype)] = torch.from_numpy(
                quantized_table(rows, dim, dtype) if quantized
                else table_values(rows, dim, np_dtype))
        table = tables[(rows, dim, dtype)]
        base = os.path.join(args.dir, f"{cfg}_i{bits}")
        idx = np.fromfile(base + ".idx", dtype=itype).reshape(sets, n)
        offsets = torch.from_numpy(np.fromfile(base + ".off", dtype=itype))
        weights = np.fromfile(os.path.join(args.dir, f"{cfg}_{vtype}.w"),
                              dtype=np.float32).reshape(sets, n)
        weights = weights.astype(np_dtype)
        ref = np.fromfile(os.path.join(args.dir, f"{name}.ref"),
                          dtype=np.float32).reshape(batch, dim)

        calls = []
        embbag_calls = []  # (arrays, descriptors, pointers) per index set
        numpy_table = table.numpy()
        embbag_out = np.empty((batch, dim), dtype=np_dtype)
        segment_ids = (np.arange(n) // bag).astype(itype)
        offsets_np = offsets.numpy()
        for s in range(sets):
            ind_np = idx[s].copy()
            w_np = weights[s].copy()
            ind = torch.from_numpy(ind_np)
            w = torch.from_numpy(w_np) if mode == "wsum" else None
            if kernels is not None or par_kernels is not None:
                # table, indices, offsets or segment ids, weights, out.
                arrays = [numpy_table,
                          ind_np.reshape(batch, bag) if form == "packed"
                          else ind_np]
                if form == "offsets":
                    arrays.append(offsets_np)
                elif form == "segments":
                    arrays.append(segment_ids)
                if mode == "wsum":
                    arrays.append(w_np.reshape(batch, bag)
                                  if form == "packed" else w_np)
                arrays.append(embbag_out)
                descs = [descriptor(a) for a in arrays]
                embbag_calls.append(
                    (arrays, descs, [ctypes.byref(d) for d in descs]))
            tmode = "sum" if mode == "wsum" else mode
            if form == "packed":
                ind = ind.view(batch, bag)
                if w is not None:
                    w = w.view(batch, bag)
                off = None
            else:
                off = offsets
            calls.append((ind, off, w, tmode))

        quantized_op = {
            "q8": torch.ops.quantized.embedding_bag_byte_rowwise_offsets,
            "q4": torch.ops.quantized.embedding_bag_4bit_rowwise_offsets,
        }.get(dtype)
        mode_number = {"sum": 0, "mean": 1, "max": 2}

        def run(s):
            ind, off, w, tmode = calls[s]
            if quantized_op is not None:
                # weight, indices, offsets, scale_grad_by_freq, mode,
                # pruned_weights, per_sample_weights,
                # compressed_indices_mapping, include_last_offset
                return quantized_op(table, ind, off, False,
                                    mode_number[tmode], False, w, None, False)
            return F.embedding_bag(ind, table, off, mode=tmode,
                                   per_sample_weights=w)

        def kernel(library, variant):
            """The case's embbag kernel of `variant` in `library` (None
            without it) and a function calling it on index set s."""
            if library is None:
                return None, None
            fn = getattr(library, f"_mlir_ciface_{name}_{variant}")
            fn.restype = None

            def call(s):
                fn(*embbag_calls[s][2])
                return embbag_out
            return fn, call

        embbag_fn, run_embbag = kernel(kernels, "chk")
        par_fn, run_par = kernel(par_kernels, "par")

        def mismatch(who, got):
            """None when `got` is the reference, else the first difference."""
            got = got.astype(np.float32)
            bad = ~(np.abs(got - ref) <= tol * (1 + np.abs(ref)))
            if not bad.any():
                return None
            b, d = np.argwhere(bad)[0]
            return (f"{who} on case {name} (index set 0) at [bag {b}, col "
                    f"{d}]: got {got[b, d]!r}, expected {ref[b, d]!r} "
                    f"(scalar reference)")

        def check(who, got):
            error = mismatch(who, got)
            if error:
                sys.exit(f"torch_bench: MISMATCH: {error}")

        def median(times):
            return sorted(times)[len(times) // 2] * 1e3

        with torch.no_grad():
            if quantized_op is not None and mode != "sum" and mode != "wsum":
                # torch 1.13 without FBGEMM ignores `mode` (sums): no time.
                error = mismatch(f"torch's quantized op (mode {mode})",
                                 run(0).numpy())
                if error:
                    print(f"torch_bench: {name}: n/a, torch "
                          f"{torch.__version__} does not compute it: {error}",
                          file=sys.stderr)
                    for threads in (1, 2):
                        print(f"{name}\t{threads}\tn/a\t-\t-", flush=True)
                    continue
            check("torch", run(0).numpy())
            if embbag_fn:
                check("embbag (through ctypes)", run_embbag(0))
            if par_fn:
                libomp_set_threads(2)
                check("embbag parallel=1 (through ctypes)", run_par(0))
            for threads in (1, 2):
                torch.set_num_threads(threads)
                if par_fn:
                    libomp_set_threads(threads)
                # One index-set counter for both: no call finds the rows of
                # the call before it in the caches.
                counter = 0
                t0 = time.perf_counter()
                for _ in range(3):
                    run(counter % sets)
                    counter += 1
                per_call = (time.perf_counter() - t0) / 3
                reps = max(11, min(401, int(budget / 2 / max(per_call, 1e-6)))) | 1
                times, embbag_times, par_times = [], [], []
                for _ in range(reps):
                    t0 = time.perf_counter()
                    run(counter % sets)
                    times.append(time.perf_counter() - t0)
                    counter += 1
                    if embbag_fn:
                        t0 = time.perf_counter()
                        run_embbag(counter % sets)
                        embbag_times.append(time.perf_counter() - t0)
                        counter += 1
                    if par_fn:
                        t0 = time.perf_counter()
                        run_par(counter % sets)
                        par_times.append(time.perf_counter() - t0)
                        counter += 1
                embbag_ms = (f"{median(embbag_times):.4f}" if embbag_times
                             else "-")
                par_ms = f"{median(par_times):.4f}" if par_times else "-"
                print(f"{name}\t{threads}\t{median(times):.4f}\t{embbag_ms}"
                      f"\t{par_ms}", flush=True)
        print(f"torch_bench: {name} done", file=sys.stderr)


if __name__ == "__main__":
    main()
