#!/usr/bin/env python3
"""The training ops on the GPU (issue 22): gradients and fused updates of
embbag.offsets, built by benchmarks/gpu/build.sh from the functions this
script writes (--emit-mlir), checked against PyTorch autograd and timed.

  libtrain.so          embbag-aot --target=nvptx (checks off)
  libtrain_status.so   the same with --checks=status
  *_cpu.so             the same through the GPU kernels' host loops
                       (--device=cpu: the harness checked without a GPU)

  libtrain_sparse.so   sparse gradients (train_sparse.mlir), checks off:
                       their rows and gradient rows come back in new
                       device memory, which the harness frees
                       (embbagCudaFree)

Checks, for every function: the table gradient (and the weights gradient)
against F.embedding_bag(...).backward on the same device; sgd against
w - lr * grad; row-wise Adagrad against FBGEMM's formula on the rows the
batch reads (s += mean(g^2); w -= lr * g / (sqrt(s) + eps)); the updates
run in place (the table and state are their own destinations); two calls
give the same bits; an index outside the table makes the checked library
return status 1. A sparse gradient's rows and values against
F.embedding_bag(..., sparse=True)'s coalesced gradient, two calls the same
bits. With --device=cuda each function is then timed against PyTorch's
backward (and the optimizer's arithmetic for the updates; sparse=True for
the sparse gradients, whose embbag call includes freeing its results),
back to back on the stream (bench.py's time_stream_ms): ms per call.

    python3 benchmarks/gpu/train.py --emit-mlir out/train.mlir \
        --emit-sparse-mlir out/train_sparse.mlir
    python3 benchmarks/gpu/train.py [--device cpu|cuda] [--lib-dir DIR]
"""

import argparse
import ctypes
import os
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import (DESCRIPTORS, DTYPES, Kernels,  # noqa: E402
                   add_library_arguments, descriptor, init_cuda_runtime,
                   time_stream_ms)

DIM = 64
LR, EPS = 0.05, 1e-6
TOLERANCE = {"f32": 1e-4, "f16": 2e-2, "bf16": 5e-2}
MLIR_TYPE = {"f32": "f32", "f16": "f16", "bf16": "bf16"}

# (name, op kind, mode, table type, weighted)
FUNCTIONS = [
    ("grad_sum_f32", "grad", "sum", "f32", False),
    ("grad_wsum_f32", "grad", "sum", "f32", True),
    ("grad_mean_f16", "grad", "mean", "f16", False),
    ("grad_max_f32", "grad", "max", "f32", False),
    ("grad_sum_bf16", "grad", "sum", "bf16", False),
    ("sgd_sum_f32", "sgd", "sum", "f32", False),
    ("sgd_mean_f16", "sgd", "mean", "f16", False),
    ("adagrad_sum_f32", "adagrad", "sum", "f32", False),
    ("adagrad_max_f32", "adagrad", "max", "f32", False),
]


# (name, mode, table type, weighted): sparse gradients, which return their
# rows and gradient rows (new memory that the caller frees); a weights
# gradient goes into the caller's buffer.
SPARSE_FUNCTIONS = [
    ("sparse_sum_f32", "sum", "f32", False),
    ("sparse_wsum_f32", "sum", "f32", True),
    ("sparse_mean_bf16", "mean", "bf16", False),
]


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------

def mlir_sparse_function(name, mode, t, weighted):
    """One sparse gradient: rows and gradient rows returned."""
    e = MLIR_TYPE[t]
    mat = f"tensor<?x{DIM}x{e}>"
    ops = "%dy, %t[%i] offsets(%o)" + (" weights(%w)" if weighted else "")
    types = f"{mat}, {mat}, tensor<?xi64>, tensor<?xi64>" + (
        f", tensor<?x{e}>" if weighted else "")
    args = (f"%dy: {mat}, %t: {mat}, %i: tensor<?xi64>, %o: tensor<?xi64>" +
            (f", %w: tensor<?x{e}>, %dwout: memref<?x{e}>" if weighted
             else ""))
    returned = f"tensor<?xi64>, {mat}"
    results = returned + (f", tensor<?x{e}>" if weighted else "")
    lines = [f"  %r, %v{', %dw' if weighted else ''} = embbag.offsets_grad "
             f"{mode} {ops} sparse : ({types}) -> ({results})"]
    if weighted:
        lines.append(f"  bufferization.materialize_in_destination %dw in "
                     f"restrict writable %dwout : (tensor<?x{e}>, "
                     f"memref<?x{e}>) -> ()")
    return "\n".join([f"func.func @{name}({args}) -> ({returned}) {{"] +
                     lines + [f"  return %r, %v : {returned}", "}"])


def mlir_function(name, kind, mode, t, weighted):
    """One function: its results in the caller's buffers."""
    e = MLIR_TYPE[t]
    mat = f"tensor<?x{DIM}x{e}>"
    buf = f"memref<?x{DIM}x{e}>"
    ops = "%dy, %t[%i] offsets(%o)" + (" weights(%w)" if weighted else "")
    types = f"{mat}, {mat}, tensor<?xi64>, tensor<?xi64>" + (
        f", tensor<?x{e}>" if weighted else "")
    if kind == "grad":
        args = (f"%dy: {mat}, %t: {mat}, %i: tensor<?xi64>, "
                f"%o: tensor<?xi64>" + (f", %w: tensor<?x{e}>" if weighted
                                         else "") + f", %out: {buf}")
        results = f"{mat}, tensor<?x{e}>" if weighted else mat
        lines = [f"  %g{', %dw' if weighted else ''} = embbag.offsets_grad "
                 f"{mode} {ops} : ({types}) -> ({results})",
                 f"  bufferization.materialize_in_destination %g in restrict "
                 f"writable %out : ({mat}, {buf}) -> ()"]
        if weighted:
            args += f", %dwout: memref<?x{e}>"
            lines.append(f"  bufferization.materialize_in_destination %dw in "
                         f"restrict writable %dwout : (tensor<?x{e}>, "
                         f"memref<?x{e}>) -> ()")
    elif kind == "sgd":
        args = (f"%lr: f32, %dy: {mat}, %t: {mat}, %i: tensor<?xi64>, "
                f"%o: tensor<?xi64>, %tout: {buf}")
        lines = [f"  %t2 = embbag.offsets_update {mode} sgd(%lr) {ops} : "
                 f"(f32, {types}) -> {mat}",
                 f"  bufferization.materialize_in_destination %t2 in "
                 f"restrict writable %tout : ({mat}, {buf}) -> ()"]
    else:
        args = (f"%lr: f32, %eps: f32, %s: tensor<?xf32>, %dy: {mat}, "
                f"%t: {mat}, %i: tensor<?xi64>, %o: tensor<?xi64>, "
                f"%tout: {buf}, %sout: memref<?xf32>")
        lines = [f"  %t2, %s2 = embbag.offsets_update {mode} "
                 f"rowwise_adagrad(%lr, %eps) state(%s) {ops} : "
                 f"(f32, f32, tensor<?xf32>, {types}) -> ({mat}, "
                 f"tensor<?xf32>)",
                 f"  bufferization.materialize_in_destination %t2 in "
                 f"restrict writable %tout : ({mat}, {buf}) -> ()",
                 "  bufferization.materialize_in_destination %s2 in "
                 "restrict writable %sout : (tensor<?xf32>, memref<?xf32>) "
                 "-> ()"]
    return "\n".join([f"func.func @{name}({args}) {{"] + lines +
                     ["  return", "}"])


def emit_mlir(path, sparse_path):
    with open(path, "w") as out:
        out.write("// The functions of benchmarks/gpu/train.py.\n")
        for f in FUNCTIONS:
            out.write(mlir_function(*f) + "\n")
    if not sparse_path:
        return
    with open(sparse_path, "w") as out:
        out.write("// The sparse gradients of benchmarks/gpu/train.py.\n")
        for f in SPARSE_FUNCTIONS:
            out.write(mlir_sparse_function(*f) + "\n")


# ---------------------------------------------------------------------------
# Operands and references
# ---------------------------------------------------------------------------

def operands(rows, batch, per_bag, t, weighted, device, seed):
    """table, indices, offsets (bags of 0 to 2 * per_bag indices), weights,
    dy."""
    gen = torch.Generator(device="cpu").manual_seed(seed)
    sizes = torch.randint(0, 2 * per_bag + 1, (batch,), generator=gen)
    offsets = torch.cat([torch.zeros(1, dtype=torch.long),
                         sizes.cumsum(0)[:-1]])
    n = int(sizes.sum())
    # Repeated rows, within and across bags: a hot row among the others.
    indices = torch.randint(0, rows, (n,), generator=gen)
    indices[torch.rand(n, generator=gen) < 0.1] = 1
    table = torch.randn(rows, DIM, generator=gen).to(DTYPES[t])
    dy = torch.randn(batch, DIM, generator=gen).to(DTYPES[t])
    weights = torch.rand(n, generator=gen).to(DTYPES[t]) if weighted else None
    move = (lambda x: None if x is None else x.to(device))
    return tuple(move(x) for x in (table, indices, offsets, weights, dy))


def reference_grads(table, indices, offsets, weights, dy, mode):
    """torch autograd, in f32: the table gradient and the weights'."""
    w = table.float().clone().requires_grad_()
    psw = None
    if weights is not None:
        psw = weights.float().clone().requires_grad_()
    out = F.embedding_bag(indices, w, offsets, mode=mode,
                          per_sample_weights=psw)
    out.backward(dy.float())
    return w.grad, (psw.grad if psw is not None else None)


# f32 rounding of a sum, per unit of the sum of its terms' magnitudes
# (8 ulps of 1.0): a hot row's gradient sums thousands of terms, which the
# kernels add in another order than PyTorch, and may cancel to a small
# value (on the H200 a row of 3344 terms came out 2e-4 from PyTorch's
# 0.2889, outside rtol 1e-4 alone).
SUM_ROUNDING = 1e-6


def close(got, want, t, magnitude=None):
    """allclose(rtol=atol=TOLERANCE[t]), widened by SUM_ROUNDING times
    `magnitude`, the sum of the magnitudes of each element's terms."""
    tol = TOLERANCE[t]
    allowed = tol + tol * want.float().abs()
    if magnitude is not None:
        allowed = allowed + SUM_ROUNDING * magnitude.float()
    return bool(((got.float() - want.float()).abs() <= allowed).all())


def magnitude_grads(table, indices, offsets, weights, dy, mode):
    """Each gradient element's sum of its terms' magnitudes: the gradients
    of |dy| and |weights| (|table| too for the weights gradient); the
    table itself for the table gradient, so that max picks the same
    rows."""
    abs_w = weights.abs() if weights is not None else None
    grad, _ = reference_grads(table, indices, offsets, abs_w, dy.abs(), mode)
    if weights is None:
        return [grad]
    _, dw = reference_grads(table.abs(), indices, offsets, abs_w, dy.abs(),
                            mode)
    return [grad, dw]


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------

def call(lib, name, kind, ops, weighted, state=None):
    """One call: its results (the gradients, or the table and state after
    the step, updated in place) and its status."""
    table, indices, offsets, weights, dy = ops
    if kind == "grad":
        out = torch.full_like(table, float("nan"))
        args = [dy, table, indices, offsets]
        results = [out]
        if weighted:
            dw = torch.full_like(weights, float("nan"))
            args += [weights, out, dw]
            results.append(dw)
        else:
            args.append(out)
        return results, lib(name, *args)
    t = table.clone()
    if kind == "sgd":
        return [t], lib(name, LR, dy, t, indices, offsets, t)
    s = state.clone()
    return [t, s], lib(name, LR, EPS, s, dy, t, indices, offsets, t, s)


def expected(kind, mode, ops, state):
    table, indices, offsets, weights, dy = ops
    grad, dw = reference_grads(table, indices, offsets, weights, dy, mode)
    if kind == "grad":
        return [grad] + ([dw] if weights is not None else [])
    if kind == "sgd":
        return [table.float() - LR * grad]
    touched = torch.zeros(table.shape[0], dtype=torch.bool,
                          device=table.device)
    touched[indices] = True
    s = state + touched * grad.pow(2).mean(1)
    step = (LR / (s.sqrt() + EPS)).unsqueeze(1) * grad
    w = torch.where(touched.unsqueeze(1), table.float() - step, table.float())
    return [w, s]


def check_function(libs, spec, device, rows, batch, per_bag):
    name, kind, mode, t, weighted = spec
    ops = operands(rows, batch, per_bag, t, weighted, device, seed=len(name))
    state = torch.rand(rows, device=device)
    lib = libs["off"]
    got, _ = call(lib, name, kind, ops, weighted, state)
    want = expected(kind, mode, ops, state)
    magnitudes = (magnitude_grads(*ops, mode) if kind == "grad"
                  else [None] * len(want))
    ok = True
    for k, (g, w, m) in enumerate(zip(got, want, magnitudes)):
        if not close(g, w, t, m):
            err = (g.float() - w.float()).abs().max().item()
            print(f"FAIL {name}: result {k}, max |error| {err:.3g}")
            ok = False
    again, _ = call(lib, name, kind, ops, weighted, state)
    if not all(torch.equal(a, b) for a, b in zip(got, again)):
        print(f"FAIL {name}: two calls gave different bits")
        ok = False
    checked, status = call(libs["status"], name, kind, ops, weighted, state)
    if status != 0 or not all(torch.equal(a, b)
                              for a, b in zip(got, checked)):
        print(f"FAIL {name}: checked library: status {status}, "
              f"same bits: {all(torch.equal(a, b) for a, b in zip(got, checked))}")
        ok = False
    table, indices, offsets, weights, dy = ops
    broken = indices.clone()
    broken[len(broken) // 2] = rows
    _, status = call(libs["status"], name, kind,
                     (table, broken, offsets, weights, dy), weighted, state)
    if status != 1:
        print(f"FAIL {name}: status {status} for an index outside the table")
        ok = False
    print(f"{'ok' if ok else 'FAIL'} {name}")
    return ok


class SparseKernels:
    """The sparse gradients of one library: each returns a NAME_results
    struct of its rows' and gradient rows' descriptors, memory the caller
    frees: embbagCudaFree on the GPU, free() from the host loops'
    library."""

    RESULTS = type("SparseResults", (ctypes.Structure,), {"_fields_": [
        ("result0", DESCRIPTORS[1]), ("result1", DESCRIPTORS[2])]})

    def __init__(self, path, device, lib_dir):
        self.lib = ctypes.CDLL(path)
        self.device = device
        if device == "cuda":
            runtime = ctypes.CDLL(os.path.join(lib_dir,
                                               "libembbag_cuda_runtime.so"))
            self.free = runtime.embbagCudaFree
            self.copy = ctypes.CDLL("libcuda.so.1").cuMemcpyDtoH_v2
            self.copy.argtypes = [ctypes.c_void_p, ctypes.c_uint64,
                                  ctypes.c_size_t]
        else:
            self.free = ctypes.CDLL(None).free
        self.free.argtypes = [ctypes.c_void_p]

    def bind(self, name, *tensors):
        """The call (descriptors built once); returns the results struct."""
        fn = getattr(self.lib, "_mlir_ciface_" + name)
        fn.restype = None
        results = self.RESULTS()
        keep = [descriptor(t) for t in tensors]
        cargs = [ctypes.byref(results)] + [ctypes.byref(d) for d in keep]

        def call():
            fn(*cargs)
            return results
        call.keep = keep
        return call

    def release(self, results):
        self.free(results.result0.allocated)
        self.free(results.result1.allocated)

    def fetch(self, d, shape, dtype):
        """A result's elements, copied into a new tensor on the host."""
        out = torch.empty(shape, dtype=dtype)
        size = out.numel() * out.element_size()
        address = (d.aligned or 0) + d.offset * out.element_size()
        if size and self.device == "cuda":
            error = self.copy(out.data_ptr(), address, size)
            if error:
                raise RuntimeError(f"cuMemcpyDtoH failed: CUresult {error}")
        elif size:
            ctypes.memmove(out.data_ptr(), address, size)
        return out

    def __call__(self, name, t, *tensors):
        """The rows and gradient rows of one call, on the host."""
        r = self.bind(name, *tensors)()
        n = r.result0.sizes[0]
        got = (self.fetch(r.result0, (n,), torch.int64),
               self.fetch(r.result1, (n, r.result1.sizes[1]), DTYPES[t]))
        self.release(r)
        return got


def sparse_arguments(ops, weighted):
    table, indices, offsets, weights, dy = ops
    args = [dy, table, indices, offsets]
    if weighted:
        args += [weights, torch.full_like(weights, float("nan"))]
    return args


def reference_sparse(ops, mode):
    """torch's sparse=True gradient, coalesced: its rows and values."""
    table, indices, offsets, weights, dy = ops
    w = table.float().clone().requires_grad_()
    psw = weights.float() if weights is not None else None
    out = F.embedding_bag(indices, w, offsets, mode=mode,
                          per_sample_weights=psw, sparse=True)
    out.backward(dy.float())
    g = w.grad.coalesce()
    return g.indices()[0].cpu(), g.values().cpu()


def magnitude_sparse(ops, mode):
    """reference_sparse's values for |dy| and |weights|: each element's sum
    of its terms' magnitudes."""
    table, indices, offsets, weights, dy = ops
    absolute = (table, indices, offsets,
                weights.abs() if weights is not None else None, dy.abs())
    return reference_sparse(absolute, mode)[1]


def check_sparse(lib, spec, device, rows, batch, per_bag):
    name, mode, t, weighted = spec
    ops = operands(rows, batch, per_bag, t, weighted, device, seed=len(name))
    got = lib(name, t, *sparse_arguments(ops, weighted))
    want_rows, want_values = reference_sparse(ops, mode)
    ok = torch.equal(got[0], want_rows) and close(
        got[1], want_values, t, magnitude_sparse(ops, mode))
    if not ok:
        print(f"FAIL {name}: rows {got[0].numel()} (torch "
              f"{want_rows.numel()}), same rows "
              f"{torch.equal(got[0], want_rows)}")
    again = lib(name, t, *sparse_arguments(ops, weighted))
    if not all(torch.equal(a, b) for a, b in zip(got, again)):
        print(f"FAIL {name}: two calls gave different bits")
        ok = False
    print(f"{'ok' if ok else 'FAIL'} {name}")
    return ok


def run_checks(libs, device, rows, batch, per_bag):
    results = [check_function(libs, f, device, rows, batch, per_bag)
               for f in FUNCTIONS]
    results += [check_sparse(libs["sparse"], f, device, rows, batch, per_bag)
                for f in SPARSE_FUNCTIONS]
    print(f"train: {len(results)} functions, {sum(results)} passed, "
          f"{len(results) - sum(results)} failed")
    return all(results)


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

def torch_step(kind, mode, ops, state):
    """PyTorch's backward of F.embedding_bag (its graph built once), then
    for an update the optimizer's arithmetic on the dense gradient."""
    table, indices, offsets, weights, dy = ops
    w = table.clone().requires_grad_()
    psw = weights.clone().requires_grad_() if weights is not None else None
    out = F.embedding_bag(indices, w, offsets, mode=mode,
                          per_sample_weights=psw)

    def step():
        w.grad = None
        out.backward(dy, retain_graph=True)
        if kind == "sgd":
            with torch.no_grad():
                w.add_(w.grad, alpha=-LR)
        elif kind == "adagrad":
            with torch.no_grad():
                g = w.grad
                s = state + g.pow(2).mean(1)
                w.sub_((LR / (s.sqrt() + EPS)).unsqueeze(1) * g)
    return step


def bind_step(lib, spec, ops, state):
    """A call of `spec`'s function of `lib` on `ops`, bound once: its
    results go into new buffers (an update steps a copy of the table and
    state, in place)."""
    name, kind, _, _, weighted = spec
    table, indices, offsets, weights, dy = ops
    if kind == "grad":
        out = torch.empty_like(table)
        args = [dy, table, indices, offsets]
        if weighted:
            args += [weights, out, torch.empty_like(weights)]
        else:
            args.append(out)
    elif kind == "sgd":
        t2 = table.clone()
        args = [LR, dy, t2, indices, offsets, t2]
    else:
        t2, s2 = table.clone(), state.clone()
        args = [LR, EPS, s2, dy, t2, indices, offsets, t2, s2]
    fn = lib.bind(name, *args)

    # The descriptors hold the tensors' raw pointers: the step keeps the
    # tensors alive.
    def step(tensors=args):
        return fn()
    return step


# --training-sweep: build.sh's libraries of train.mlir built with other
# options of the training kernels' sort and pieces.
TRAINING_VARIANTS = [
    ("default", "libtrain.so"),
    ("chunk 64", "libtrain_c64.so"),
    ("piece 32", "libtrain_p32.so"),
    ("piece 512", "libtrain_p512.so"),
]


def run_training_sweep(lib_dir, reps, configs):
    """ms per call of two functions built with each TRAINING_VARIANTS
    option, timed round by round in one process."""
    libs = [(label, Kernels(os.path.join(lib_dir, file), False))
            for label, file in TRAINING_VARIANTS]
    print("| function | table | batch x bag | " +
          " | ".join(f"{label} ms" for label, _ in libs) + " |")
    print("|---|---|---|" + "--:|" * len(libs))
    swept = ("grad_sum_f32", "adagrad_sum_f32")
    for rows, batch, per_bag, share in configs:
        config_reps = max(1, int(reps * share))
        for spec in FUNCTIONS:
            name, _, _, t, weighted = spec
            if name not in swept:
                continue
            ops = operands(rows, batch, per_bag, t, weighted, "cuda", 3)
            state = torch.rand(rows, device="cuda")
            ms = time_stream_ms({label: bind_step(lib, spec, ops, state)
                                 for label, lib in libs}, config_reps)
            print(f"| {name} | {rows} x {DIM} | {batch} x {per_bag} | " +
                  " | ".join(f"{ms[label]:.4f}" for label, _ in libs) +
                  " |", flush=True)


def run_timing(libs, reps, configs):
    """`configs`: (rows, batch, bag, share of `reps`): the large batch's
    row owners each walk a million indices, so it takes fewer calls."""
    print("| function | table | batch x bag | embbag ms | torch ms | "
          "torch / embbag |")
    print("|---|---|---|--:|--:|--:|")
    for rows, batch, per_bag, share in configs:
        config_reps = max(1, int(reps * share))
        for spec in FUNCTIONS:
            name, kind, mode, t, weighted = spec
            ops = operands(rows, batch, per_bag, t, weighted, "cuda", 3)
            state = torch.rand(rows, device="cuda")
            fn = bind_step(libs["off"], spec, ops, state)
            ms = time_stream_ms({"embbag": fn,
                                 "torch": torch_step(kind, mode, ops, state)},
                                config_reps)
            print(f"| {name} | {rows} x {DIM} | {batch} x {per_bag} | "
                  f"{ms['embbag']:.4f} | {ms['torch']:.4f} | "
                  f"{ms['torch'] / ms['embbag']:.2f}x |")
        for name, mode, t, weighted in SPARSE_FUNCTIONS:
            ops = operands(rows, batch, per_bag, t, weighted, "cuda", 3)
            sparse = libs["sparse"]
            call = sparse.bind(name, *sparse_arguments(ops, weighted))
            ms = time_stream_ms(
                {"embbag": lambda: sparse.release(call()),
                 "torch": torch_sparse_step(mode, ops)}, config_reps)
            print(f"| {name} | {rows} x {DIM} | {batch} x {per_bag} | "
                  f"{ms['embbag']:.4f} | {ms['torch']:.4f} | "
                  f"{ms['torch'] / ms['embbag']:.2f}x |")


def torch_sparse_step(mode, ops):
    """PyTorch's backward of F.embedding_bag(..., sparse=True), its graph
    built once."""
    table, indices, offsets, weights, dy = ops
    w = table.clone().requires_grad_()
    out = F.embedding_bag(indices, w, offsets, mode=mode,
                          per_sample_weights=weights, sparse=True)

    def step():
        w.grad = None
        out.backward(dy, retain_graph=True)
    return step


def run_host_timing(libs):
    """--host-timing: the host loops' time per call (best of three) of the
    gradients and row-wise Adagrad on `train.py`'s operands: the kernels'
    total work, since the host runs their threads one after another (not
    a GPU's time, which the longest chain sets)."""
    print("| function | table | batch x bag | host loops ms |")
    print("|---|---|---|--:|")
    timed = ("grad_sum_f32", "grad_mean_f16", "grad_max_f32",
             "adagrad_sum_f32")
    for rows in (100000, 1000000):
        for name, kind, mode, t, weighted in FUNCTIONS:
            if name not in timed:
                continue
            ops = operands(rows, 2048, 32, t, weighted, "cpu", 3)
            state = torch.rand(rows)
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                call(libs["off"], name, kind, ops, weighted, state)
                best = min(best, time.perf_counter() - start)
            print(f"| {name} | {rows} x {DIM} | 2048 x 32 | "
                  f"{best * 1e3:.0f} |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--emit-mlir", metavar="PATH",
                        help="write the kernels' MLIR and stop")
    parser.add_argument("--emit-sparse-mlir", metavar="PATH",
                        help="with --emit-mlir: the sparse gradients' MLIR")
    parser.add_argument("--training-sweep", action="store_true",
                        help="then time two functions built with other "
                        "options of the sort and the pieces (build.sh's "
                        "libtrain_*.so)")
    parser.add_argument("--host-timing", action="store_true",
                        help="with --device cpu: time the host loops of "
                        "four functions at 100k and 1M rows")
    add_library_arguments(parser, reps=20)
    args = parser.parse_args()
    if args.emit_mlir:
        emit_mlir(args.emit_mlir, args.emit_sparse_mlir)
        return
    if args.libomp:
        import ctypes
        ctypes.CDLL(args.libomp, mode=ctypes.RTLD_GLOBAL)
    suffix = "_cpu" if args.device == "cpu" else ""
    if args.device == "cuda":
        init_cuda_runtime(args.lib_dir)
    libs = {"off": Kernels(os.path.join(args.lib_dir,
                                        f"libtrain{suffix}.so"), False),
            "status": Kernels(os.path.join(args.lib_dir,
                                           f"libtrain_status{suffix}.so"),
                              True),
            "sparse": SparseKernels(
                os.path.join(args.lib_dir, f"libtrain_sparse{suffix}.so"),
                args.device, args.lib_dir)}
    if args.device == "cpu":
        # 5000 rows: two passes of the sort by row (1024 digits each).
        ok = run_checks(libs, "cpu", rows=5000, batch=40, per_bag=4)
        if ok and args.host_timing:
            run_host_timing(libs)
    else:
        ok = run_checks(libs, "cuda", rows=100000, batch=2048, per_bag=16)
        configs = [(1000000, 2048, 32, 1.0), (4000000, 16384, 64, 0.1)]
        if ok:
            run_timing(libs, args.reps, configs)
        if ok and args.training_sweep:
            run_training_sweep(args.lib_dir, args.reps, configs)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
