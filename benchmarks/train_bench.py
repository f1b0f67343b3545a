#!/usr/bin/env python3
"""The training benchmark's timing (train_bench.sh builds its inputs; what
is timed: README.md, "Training benchmark").

One process runs every contender on the same numpy memory, interleaved
call by call, each call on the next of SETS index sets (and gradients dy):

  embbag  embbag.offsets_grad sum, offsets_update sum sgd and
          offsets_update sum rowwise_adagrad, lowered sequential (_seq),
          with parallel=1 (_par, libomp), and sequential with every size
          dynamic (_dyn), called through ctypes
  hand    the hand scatter-add of the dense gradient (train_hand.cpp)
  torch   F.embedding_bag's autograd backward plus the optimizer step:
          sparse=True + torch.optim.SGD, sparse=False + torch.optim.SGD,
          and sparse=True + row-wise Adagrad written with index ops

Every contender is first checked on a copy of the table (embbag's dense
gradient against the hand loop, the updates against torch's), then timed.
Prints one Markdown table.

Usage: train_bench.py OUTDIR [--budget SECONDS] [--only S] [--sets N]
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

LR = 0.01
EPS = 1e-8


def descriptor(array):
    """A memref descriptor of the C-contiguous `array`, as _mlir_ciface_
    takes it by pointer; the array must outlive it."""
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


def ref(d):
    return ctypes.byref(d)


class Case:
    def __init__(self, name, rows, dim, batch, bag, sets, seed):
        self.name, self.rows, self.dim = name, rows, dim
        self.batch, self.bag, self.n = batch, bag, batch * bag
        rng = np.random.default_rng(seed)
        self.table = (rng.random((rows, dim), dtype=np.float32) - 0.5)
        self.state = np.zeros(rows, np.float32)
        self.grad = np.zeros((rows, dim), np.float32)  # embbag's dense grad
        self.hgrad = np.zeros((rows, dim), np.float32)  # the hand loop's
        self.offsets = (np.arange(batch, dtype=np.int32) * bag)
        self.indices = [rng.integers(0, rows, self.n, dtype=np.int32)
                        for _ in range(sets)]
        self.dy = [(rng.random((batch, dim), dtype=np.float32) - 0.5)
                   for _ in range(sets)]
        # torch shares the table's memory: every contender updates it.
        self.w = torch.from_numpy(self.table).requires_grad_()
        self.t_state = torch.from_numpy(self.state)
        self.t_off = torch.from_numpy(self.offsets)
        self.t_idx = [torch.from_numpy(i) for i in self.indices]
        self.t_dy = [torch.from_numpy(d) for d in self.dy]
        self.opt = torch.optim.SGD([self.w], lr=LR)


def torch_backward(c, k, sparse):
    """The forward graph (untimed), then a function that runs what is
    timed: its backward."""
    c.w.grad = None
    out = F.embedding_bag(c.t_idx[k], c.w, c.t_off, mode="sum", sparse=sparse)
    return out


def torch_sgd(c, k, sparse, timer):
    out = torch_backward(c, k, sparse)
    t0 = timer()
    out.backward(c.t_dy[k])
    c.opt.step()
    return timer() - t0


def adagrad_step(w, state):
    """FBGEMM's row-wise Adagrad on w's sparse gradient (summed over the
    batch by coalesce)."""
    g = w.grad.coalesce()
    rows = g._indices()[0]
    vals = g._values()
    with torch.no_grad():
        s = state.index_select(0, rows) + vals.square().mean(1)
        state.index_copy_(0, rows, s)
        w.index_add_(0, rows, vals * (-LR / (s.sqrt() + EPS)).unsqueeze(1))


def torch_adagrad(c, k, timer):
    out = torch_backward(c, k, True)
    t0 = timer()
    out.backward(c.t_dy[k])
    adagrad_step(c.w, c.t_state)
    return timer() - t0


class Kernels:
    def __init__(self, lib, hand, case):
        self.lib, self.hand, self.c = lib, hand, case

    def fn(self, op, variant):
        return getattr(self.lib[variant],
                       f"_mlir_ciface_{self.c.name}_{op}_{variant}")

    def grad(self, variant, k, out=None, table=None):
        c = self.c
        out = c.grad if out is None else out
        table = c.table if table is None else table
        ds = [descriptor(c.dy[k]), descriptor(table),
              descriptor(c.indices[k]), descriptor(c.offsets),
              descriptor(out)]
        return lambda: self.fn("grad", variant)(*map(ref, ds))

    def sgd(self, variant, k, table=None):
        c = self.c
        table = c.table if table is None else table
        ds = [descriptor(c.dy[k]), descriptor(c.indices[k]),
              descriptor(c.offsets), descriptor(table)]
        f = self.fn("sgd", variant)
        return lambda: f(ctypes.c_float(LR), *map(ref, ds))

    def adagrad(self, variant, k, table=None, state=None):
        c = self.c
        table = c.table if table is None else table
        state = c.state if state is None else state
        ds = [descriptor(c.dy[k]), descriptor(c.indices[k]),
              descriptor(c.offsets), descriptor(table), descriptor(state)]
        f = self.fn("adagrad", variant)
        return lambda: f(ctypes.c_float(LR), ctypes.c_float(EPS),
                         *map(ref, ds))

    def handgrad(self, k):
        c = self.c
        args = (c.dy[k].ctypes.data, c.indices[k].ctypes.data,
                c.offsets.ctypes.data, c.batch, c.n, c.rows, c.dim,
                c.hgrad.ctypes.data)
        return lambda: self.hand(*args)


def close(name, what, got, want):
    if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
        bad = np.argwhere(~np.isclose(got, want, rtol=1e-4, atol=1e-5))[0]
        sys.exit(f"train_bench: {name}: {what} differs at {tuple(bad)}: "
                 f"{got[tuple(bad)]} != {want[tuple(bad)]}")


def check(c, ks, set_num_threads):
    """Every embbag kernel against the hand loop (dense gradient) and torch
    (updates), on copies of the table."""
    for threads in (1, 2):
        set_num_threads(threads)
        ks.handgrad(0)()
        for v in ("seq", "par", "dyn"):
            out = np.full_like(c.grad, np.nan)
            ks.grad(v, 0, out=out)()
            close(c.name, f"offsets_grad ({v}, {threads}T) vs hand", out,
                  c.hgrad)
            # SGD: embbag's against torch's sparse and dense ones.
            t = c.table.copy()
            ks.sgd(v, 0, table=t)()
            for sparse in (True, False):
                w = torch.from_numpy(c.table.copy()).requires_grad_()
                F.embedding_bag(c.t_idx[0], w, c.t_off, mode="sum",
                                sparse=sparse).backward(c.t_dy[0])
                torch.optim.SGD([w], lr=LR).step()
                close(c.name, f"sgd ({v}, {threads}T) vs torch sparse="
                      f"{sparse}", t, w.detach().numpy())
            # Row-wise Adagrad, twice (the second step sees a state).
            t, s = c.table.copy(), np.zeros_like(c.state)
            w = torch.from_numpy(c.table.copy()).requires_grad_()
            ts = torch.zeros(c.rows)
            for k in (0, 1):
                ks.adagrad(v, k, table=t, state=s)()
                w.grad = None
                F.embedding_bag(c.t_idx[k], w, c.t_off, mode="sum",
                                sparse=True).backward(c.t_dy[k])
                adagrad_step(w, ts)
            close(c.name, f"rowwise_adagrad table ({v}, {threads}T)", t,
                  w.detach().numpy())
            close(c.name, f"rowwise_adagrad state ({v}, {threads}T)", s,
                  ts.numpy())


def median(xs):  # ms
    return sorted(xs)[len(xs) // 2] * 1e3


def timed(call):
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def run_case(c, ks, set_num_threads, budget, sets):
    """{(contender, threads): median ms}: the contenders of each thread
    count interleaved call by call, each call on the next set."""
    timer = time.perf_counter
    contenders = {
        "grad_seq": lambda k: timed(ks.grad("seq", k)),
        "grad_par": lambda k: timed(ks.grad("par", k)),
        "grad_dyn": lambda k: timed(ks.grad("dyn", k)),
        "hand": lambda k: timed(ks.handgrad(k)),
        "sgd_seq": lambda k: timed(ks.sgd("seq", k)),
        "sgd_par": lambda k: timed(ks.sgd("par", k)),
        "sgd_dyn": lambda k: timed(ks.sgd("dyn", k)),
        "torch_sgd_sparse": lambda k: torch_sgd(c, k, True, timer),
        "torch_sgd_dense": lambda k: torch_sgd(c, k, False, timer),
        "ada_seq": lambda k: timed(ks.adagrad("seq", k)),
        "ada_par": lambda k: timed(ks.adagrad("par", k)),
        "ada_dyn": lambda k: timed(ks.adagrad("dyn", k)),
        "torch_ada": lambda k: torch_adagrad(c, k, timer),
    }
    # The sequential kernels (_seq, _dyn) run on 1 thread only.
    per_thread = {1: list(contenders),
                  2: [n for n in contenders
                      if not n.endswith(("_seq", "_dyn"))]}
    res = {}
    for threads in (1, 2):
        set_num_threads(threads)
        names = per_thread[threads]
        times = {n: [] for n in names}
        counter = 0
        # One warm-up round, which also sizes the number of rounds.
        t0 = time.perf_counter()
        for n in names:
            contenders[n](counter % sets)
            counter += 1
        per_round = time.perf_counter() - t0
        reps = max(5, min(101, int(budget / max(per_round, 1e-6))))
        # Each round starts one contender later: every contender follows
        # every other equally often (in a fixed order the first one always
        # came after torch's Adagrad, with the caches its
        # index ops left, and looked slower than it is).
        for rep in range(reps):
            k = rep % len(names)
            for n in names[k:] + names[:k]:
                times[n].append(contenders[n](counter % sets))
                counter += 1
        for n in names:
            res[(n, threads)] = median(times[n])
            res[(n, threads, "min")] = min(times[n]) * 1e3
        res[("reps", threads)] = reps
    return res


def table(results, cases):
    print("| cfg | embbag op | reference | embbag 1T ms | dyn 1T ms | "
          "par 1T ms | par 2T ms | ref 1T ms | ref 2T ms | "
          "ref 1T / embbag 1T | ref 1T / dyn 1T | ref 2T / par 2T | "
          "min: 1T, dyn, 2T | target |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    rowsdef = [
        ("offsets_update sum sgd", "torch sparse=True + SGD", "sgd",
         "torch_sgd_sparse", 2.0),
        ("offsets_update sum sgd", "torch sparse=False + SGD", "sgd",
         "torch_sgd_dense", None),
        ("offsets_update sum rowwise_adagrad",
         "torch sparse=True + row-wise Adagrad (index ops)", "ada",
         "torch_ada", 2.0),
        ("offsets_grad sum", "hand scatter-add (1 thread)", "grad", "hand",
         1.0),
    ]
    for c in cases:
        r = results[c.name]
        cfg = (f"{c.name} {c.rows // 1000}k x {c.dim}, "
               f"{c.batch} x {c.bag}")
        for op, refname, k, rk, target in rowsdef:
            e1, d1 = r[(k + "_seq", 1)], r[(k + "_dyn", 1)]
            p1, p2 = r[(k + "_par", 1)], r[(k + "_par", 2)]
            r1, r2 = r[(rk, 1)], r[(rk, 2)]
            a, ad, b = r1 / e1, r1 / d1, r2 / p2
            # The same ratios of the fastest calls (min of the rounds).
            am = r[(rk, 1, "min")] / r[(k + "_seq", 1, "min")]
            dm = r[(rk, 1, "min")] / r[(k + "_dyn", 1, "min")]
            bm = r[(rk, 2, "min")] / r[(k + "_par", 2, "min")]
            if target is None:
                verdict = "-"
            else:
                ok = min(a, ad, b) >= target
                verdict = f">= {target:g}x: {'met' if ok else 'MISSED'}"
            ref2 = f"{r2:.3f}" + (" (1T)" if rk == "hand" else "")
            print(f"| {cfg} | {op} | {refname} | {e1:.3f} | {d1:.3f} | "
                  f"{p1:.3f} | {p2:.3f} | {r1:.3f} | {ref2} | {a:.2f}x | "
                  f"{ad:.2f}x | {b:.2f}x | {am:.2f}x, {dm:.2f}x, {bm:.2f}x | "
                  f"{verdict} |")
    print()
    print("Rounds per case (1T, 2T): " + ", ".join(
        f"{c.name} {results[c.name][('reps', 1)]}/"
        f"{results[c.name][('reps', 2)]}" for c in cases))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--budget", type=float, default=3.0)
    ap.add_argument("--only", default="")
    ap.add_argument("--sets", type=int, default=7)
    ap.add_argument("--libomp", default="/usr/lib/llvm-22/lib/libomp.so")
    args = ap.parse_args()
    d = args.dir
    libomp = ctypes.CDLL(args.libomp)
    lib = {v: ctypes.CDLL(os.path.join(d, f"libtrain_{v}.so"))
           for v in ("seq", "par", "dyn")}
    hand = ctypes.CDLL(os.path.join(d, "libtrain_hand.so")) \
        .hand_offsets_grad_sum
    hand.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int64] * 4 + \
        [ctypes.c_void_p]

    def set_num_threads(t):
        torch.set_num_threads(t)
        libomp.omp_set_num_threads(t)

    cases, results = [], {}
    with open(os.path.join(d, "train_cases.tsv")) as f:
        specs = [ln.split("\t") for ln in f.read().splitlines() if ln]
    for i, (name, rows, dim, batch, bag) in enumerate(specs):
        if args.only not in name:
            continue
        print(f"== {name}", file=sys.stderr, flush=True)
        c = Case(name, int(rows), int(dim), int(batch), int(bag), args.sets,
                 seed=i + 1)
        ks = Kernels(lib, hand, c)
        check(c, ks, set_num_threads)
        results[name] = run_case(c, ks, set_num_threads, args.budget,
                                 args.sets)
        cases.append(c)
        for big in ("table", "state", "grad", "hgrad", "w", "opt",
                    "t_state", "indices", "dy", "t_idx", "t_dy"):
            setattr(c, big, None)  # the next configuration's memory
    table(results, cases)


if __name__ == "__main__":
    main()
