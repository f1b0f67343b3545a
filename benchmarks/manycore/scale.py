#!/usr/bin/env python3
"""Thread scaling of embbag's parallel kernels against PyTorch's CPU
embedding_bag (FBGEMM's JIT kernels) and a hand-written AVX-512 loop, on the
GPU machine's 16 cores (benchmarks/README.md, "16 cores (issue 23)"). Runs
where build.sh's libraries are (benchmarks/manycore/out); compiles nothing.

Each thread count runs in its own process (`--threads T`): PyTorch at T
threads (torch.set_num_threads), embbag's kernels and the hand loop on T
OpenMP threads (libomp's omp_set_num_threads), all on the same table,
indices and offsets, every result checked against PyTorch's first, the
contenders timed round by round (interleaved, 20 ms apart so that the
threads of one do not still spin when the next starts), median of the
rounds. The
parent prints the table: ms per call, and embbag / PyTorch, checked /
unchecked, embbag / hand.

    scale.py [--lib-dir DIR] [--threads-list 1,2,4,8,16] [--rounds N]
"""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# name: (rows, dim, batch, bag), f32 offsets sum (gen_kernels.kernel's cfg)
CASES = {"t4m_d16": (4_000_000, 16, 16384, 64),
         "t4m_d64": (4_000_000, 64, 16384, 64),
         "t2m_d128": (2_000_000, 128, 16384, 64),
         "t100k_d64": (100_000, 64, 16384, 64)}
# The same names on small tables, for the lit test (build.sh with TINY=1).
TINY_CASES = {"t4m_d16": (4000, 16, 64, 8),
              "t4m_d64": (4000, 64, 64, 8),
              "t2m_d128": (2000, 128, 64, 8),
              "t100k_d64": (1000, 64, 64, 8)}
KERNELS = ("par_chk", "par_unc", "par_pf0", "ser_chk")


def label(rows):
    """A table's rows as the table prints them: 4000k, 100k; small counts
    (the tiny cases) as they are."""
    return f"{rows // 1000}k" if rows % 1000 == 0 and rows >= 10000 else str(rows)


def descriptor(t):
    rank = t.dim()
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * rank),
              ("strides", ctypes.c_int64 * rank)]
    d = type("D", (ctypes.Structure,), {"_fields_": fields})()
    d.allocated = d.aligned = t.data_ptr()
    for i in range(rank):
        d.sizes[i], d.strides[i] = t.shape[i], t.stride(i)
    return d


def child(lib_dir, threads, rounds, cases):
    import torch
    import torch.nn.functional as F
    omp = ctypes.CDLL(os.path.join(lib_dir, "libomp.so.5"))
    omp.omp_set_num_threads(threads)
    torch.set_num_threads(threads)
    libs = {k: ctypes.CDLL(os.path.join(lib_dir, f"lib{k}.so")) for k in KERNELS}
    hand = ctypes.CDLL(os.path.join(lib_dir, "libhand.so"))
    gen = torch.Generator().manual_seed(1)
    for name, (rows, dim, batch, bag) in cases.items():
        table = torch.empty(rows, dim).uniform_(-1, 1, generator=gen)
        indices = torch.randint(0, rows, (batch * bag,), generator=gen,
                                dtype=torch.int32)
        offsets = torch.arange(0, batch * bag, bag, dtype=torch.int32)
        expected = F.embedding_bag(indices, table, offsets, mode="sum")
        out = torch.empty(batch, dim)
        calls = {"torch": lambda: F.embedding_bag(indices, table, offsets,
                                                  mode="sum")}
        descs = [descriptor(t) for t in (table, indices, offsets, out)]
        for k in KERNELS:
            if k == "ser_chk" and threads != 1:
                continue
            fn = getattr(libs[k], f"_mlir_ciface_{name}_{k}")
            calls[k] = (lambda fn=fn: fn(*[ctypes.byref(d) for d in descs]))
        calls["hand"] = lambda: hand.handOffsetsSum(
            ctypes.c_void_p(table.data_ptr()), ctypes.c_int64(rows),
            ctypes.c_int64(dim), ctypes.c_void_p(indices.data_ptr()),
            ctypes.c_void_p(offsets.data_ptr()), ctypes.c_int64(batch),
            ctypes.c_int64(batch * bag), ctypes.c_void_p(out.data_ptr()))
        for k, call in calls.items():
            if k == "torch":
                continue
            out.fill_(float("nan"))
            call()
            if not torch.allclose(out, expected, rtol=1e-4, atol=1e-4):
                print(f"{name}\t{threads}\t{k}\tWRONG", flush=True)
                return 1
        times = {k: [] for k in calls}
        for _ in range(rounds):
            for k, call in calls.items():
                # PyTorch's libgomp workers spin for a while after a region
                # (GOMP_SPINCOUNT), and so would take the cores of the next
                # contender: each call starts on quiet cores.
                time.sleep(0.02)
                start = time.perf_counter()
                call()
                times[k].append((time.perf_counter() - start) * 1e3)
        for k, ts in times.items():
            print(f"{name}\t{threads}\t{k}\t{statistics.median(ts[1:]):.4f}",
                  flush=True)
        del table
    return 0


def table(results, threads_list, cases):
    print("| table | threads | PyTorch ms | embbag ms | checks=0 ms | "
          "prefetch 0 ms | hand ms | embbag / PyTorch | checked / checks=0 "
          "| embbag / hand |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for name, (rows, dim, _, _) in cases.items():
        for t in threads_list:
            r = results.get((name, t))
            if not r or "torch" not in r or "par_chk" not in r:
                continue
            print(f"| {label(rows)} x {dim} | {t} | {r['torch']:.3f} | "
                  f"{r['par_chk']:.3f} | {r['par_unc']:.3f} | "
                  f"{r['par_pf0']:.3f} | {r['hand']:.3f} | "
                  f"{r['torch'] / r['par_chk']:.2f}x | "
                  f"{r['par_chk'] / r['par_unc']:.2f} | "
                  f"{r['hand'] / r['par_chk']:.2f}x |")
    print("\nOne thread: serial kernel (parallel=0) against parallel=1:")
    print("| table | serial ms | parallel=1 on 1 thread ms |")
    print("|---|--:|--:|")
    for name, (rows, dim, _, _) in cases.items():
        r = results.get((name, 1), {})
        if "ser_chk" in r:
            print(f"| {label(rows)} x {dim} | {r['ser_chk']:.3f} | "
                  f"{r['par_chk']:.3f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib-dir", default=os.path.join(HERE, "out"))
    ap.add_argument("--threads", type=int)
    ap.add_argument("--threads-list", default="1,2,4,8,16")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--tiny", action="store_true",
                    help="the small tables of build.sh's TINY=1")
    args = ap.parse_args()
    cases = TINY_CASES if args.tiny else CASES
    if args.threads:
        return child(args.lib_dir, args.threads, args.rounds, cases)
    threads_list = [int(t) for t in args.threads_list.split(",")]
    results, failed = {}, 0
    for t in threads_list:
        env = dict(os.environ, OMP_NUM_THREADS=str(t))
        run = subprocess.run([sys.executable, __file__, "--threads", str(t),
                              "--lib-dir", args.lib_dir, "--rounds",
                              str(args.rounds)] + (["--tiny"] if args.tiny
                                                   else []),
                             capture_output=True, text=True, env=env)
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        failed |= run.returncode != 0
        for line in run.stdout.splitlines():
            name, threads, k, ms = line.split("\t")
            if ms != "WRONG":
                results.setdefault((name, int(threads)), {})[k] = float(ms)
    table(results, threads_list, cases)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
