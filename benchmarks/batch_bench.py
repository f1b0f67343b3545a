#!/usr/bin/env python3
"""Table batching against one parallel region per op (README.md, "Table
batching"), in one run.

A DLRM-style forward of 26 embbag.offsets sum ops over tables of mixed
sizes (Criteo's relative cardinalities, rows = clamp(n ** 0.75, 10, 2e5)),
mixed row lengths (32, 64 and 128 floats) and mixed pooling factors (mean
bag sizes from 1 to 64), batches of 64, 512 and 4096 bags, is compiled by embbag-aot three ways:

  serial      parallel=0, op after op
  per-op      parallel=1, one OpenMP region per op
  batched G   parallel=1 batch-tables=1 batch-chunk=G, one region in all

and each is timed on 1 and 2 OpenMP threads (omp_set_num_threads in this
process), calls interleaved round by round. Prints a Markdown table: the
median and the fastest call in ms, and the ratios per-op / batched (above
1: batching is faster).

    /usr/bin/python3 benchmarks/batch_bench.py [--rounds 40] [--batches 64,512,4096]
        [--chunks 512,2048,8192,32768] [--checks abort|off] [--baseline-aot AOT]

--baseline-aot adds the batched variants compiled by another embbag-aot
(an older build, "batched G base"), timed in the same rounds: an A/B test
of a change to the batched kernel.

Needs build/bin/embbag-aot (BUILD_DIR), numpy, torch (for the importer's
runner), about 250 MB of memory.
"""

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "utils", "torch_import"))
import runner  # noqa: E402

CRITEO_CARDINALITIES = [
    1460, 583, 10131227, 2202608, 305, 24, 12517, 633, 3, 93145, 5683,
    8351593, 3194, 27, 14992, 5461306, 10, 5652, 2173, 4, 7046547, 18, 15,
    286181, 105, 142572,
]
DIMS = [32, 64, 128]
POOLING = [1, 2, 4, 8, 16, 32, 64]


def make_tables(rng):
    """The 26 tables."""
    tables = []
    for k, n in enumerate(CRITEO_CARDINALITIES):
        rows = int(min(200000, max(10, round(n ** 0.75))))
        dim = DIMS[k % len(DIMS)]
        tables.append(rng.standard_normal((rows, dim), dtype=np.float32))
    return tables


def make_bags(tables, batch, rng):
    """[(table, indices, offsets)] of the 26 features: bag sizes uniform in
    [0, 2 L] for the feature's pooling factor L, ids uniform in the table."""
    features = []
    for k, table in enumerate(tables):
        pooling = POOLING[(k * 5) % len(POOLING)]
        lengths = rng.integers(0, 2 * pooling + 1, batch)
        offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        indices = rng.integers(0, table.shape[0],
                               int(lengths.sum())).astype(np.int64)
        features.append((table, indices, offsets))
    return features


def module_text(tables, batch):
    """@forward in the importer's form: tables, indices and offsets of every
    feature as arguments, one result per feature."""
    args, types, ops, results = [], [], [], []
    for k, (table, indices, offsets) in enumerate(tables):
        tt = "tensor<%dx%dxf32>" % table.shape
        it = "tensor<%dxi64>" % len(indices)
        ot = "tensor<%dxi64>" % len(offsets)
        rt = "tensor<%dx%dxf32>" % (batch, table.shape[1])
        args += ["%%t%d: %s" % (k, tt), "%%i%d: %s" % (k, it),
                 "%%o%d: %s" % (k, ot)]
        ops.append("    %%r%d = embbag.offsets sum %%t%d[%%i%d] offsets(%%o%d) "
                   ": (%s, %s, %s) -> %s" % (k, k, k, k, tt, it, ot, rt))
        results.append(rt)
    names = ", ".join("%%r%d" % k for k in range(len(tables)))
    return ("module {\n  func.func @forward(%s) -> (%s) {\n%s\n"
            "    return %s : %s\n  }\n}\n"
            % (", ".join(args), ", ".join(results), "\n".join(ops), names,
               ", ".join(results)))


class Compiled:
    """A compiled variant, its descriptors made once."""

    def __init__(self, name, lib, buffers):
        self.name = name
        self.fn = lib.fn
        self.descs = [runner._descriptor(b) for b in buffers]
        self.refs = [ctypes.byref(d) for d in self.descs]

    def __call__(self):
        self.fn(*self.refs)


def bench_batch(a, aot, work, omp, tables, batch):
    """Compiles the variants for `batch` and prints their rows."""
    text = module_text(tables, batch)
    inputs = [x for t in tables for x in t]
    outs = [np.zeros((batch, t[0].shape[1]), np.float32) for t in tables]
    variants = [("serial", "parallel=0", aot), ("per-op", "parallel=1", aot)]
    for g in a.chunks.split(","):
        options = "parallel=1 batch-tables=1 batch-chunk=%s" % g
        variants.append(("batched %s" % g, options, aot))
        if a.baseline_aot:
            variants.append(("batched %s base" % g, options, a.baseline_aot))
    compiled, results = [], {}
    for name, options, variant_aot in variants:
        sys.stderr.write("batch %d: compiling %s (%s)\n" % (batch, name,
                                                            options))
        d = os.path.join(work, "%d_%s" % (batch, name.replace(" ", "_")))
        os.makedirs(d)
        lib = runner.compile_forward(text, d, embbag_aot=variant_aot,
                                     checks=a.checks,
                                     pipeline_options=options)
        c = Compiled(name, lib, inputs + outs)
        c()
        results[name] = [o.copy() for o in outs]
        compiled.append(c)
    # Every variant computes the same bits (the same bag kernels).
    for c in compiled[1:]:
        for k, (x, y) in enumerate(zip(results["serial"], results[c.name])):
            if not np.array_equal(x, y):
                sys.exit("%s differs from serial in table %d" % (c.name, k))
    num_indices = sum(int(t[1].size) for t in tables)
    for threads in (1, 2):
        omp.omp_set_num_threads(threads)
        times = {c.name: [] for c in compiled}
        for c in compiled:  # warm the threads and the caches
            c()
        for _ in range(a.rounds):
            for c in compiled:
                t0 = time.perf_counter()
                c()
                times[c.name].append(time.perf_counter() - t0)
        base_med = statistics.median(times["per-op"])
        base_min = min(times["per-op"])
        for c in compiled:
            med, low = statistics.median(times[c.name]), min(times[c.name])
            print("| %d | %d | %d | %s | %.3f | %.3f | %.2f | %.2f |"
                  % (batch, num_indices, threads, c.name, med * 1e3, low * 1e3,
                     base_med / med, base_min / low), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--batches", default="64,512,4096")
    p.add_argument("--chunks", default="512,2048,8192,32768")
    p.add_argument("--checks", default="abort", choices=("abort", "off"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--baseline-aot", help="another embbag-aot, for A/B rows")
    a = p.parse_args()
    build = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
    aot = os.path.join(build, "bin", "embbag-aot")

    rng = np.random.default_rng(a.seed)
    all_tables = make_tables(rng)
    omp = ctypes.CDLL(os.path.join(runner.LLVM_LIB, "libomp.so"))
    work = tempfile.mkdtemp(prefix="batch-bench-")
    print("26 tables of %.0f MB (rows of 32, 64 and 128 f32), checks=%s, "
          "%d rounds; per-op / this: above 1, this is faster than one "
          "parallel region per op" % (sum(t.nbytes for t in all_tables) / 1e6,
                                      a.checks, a.rounds))
    print()
    print("| batch | indices | threads | variant | median ms | min ms "
          "| per-op / this (median) | per-op / this (min) |")
    print("|---|---|---|---|---|---|---|---|")
    for batch in [int(b) for b in a.batches.split(",")]:
        bench_batch(a, aot, work, omp, make_bags(all_tables, batch, rng),
                    batch)
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
