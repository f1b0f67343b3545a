#!/usr/bin/env python3
"""Differential test and benchmark of embbag's GPU kernels (docs/GPU.md).

Runs on the GPU machine (benchmarks/gpu/run.sh), with the kernel libraries
that benchmarks/gpu/build.sh made with `embbag-aot --target=nvptx` on the
build machine: nothing is compiled here. Two parts:

1. Differential tests: every kernel of gen_kernels.py on seeded random
   cases (odd row lengths, empty bags, repeated indices, padding_idx,
   include_last_offset, a default row) against PyTorch's F.embedding_bag on
   the same device and the NumPy reference of the test suite
   (utils/difftest/reference.py); the checked library must return 1 for a
   broken contract (an index outside the table, bad offsets) and 0 else.
2. The benchmark: ms per call from CUDA events, effective GB/s (bytes of
   the rows read, the indices and the result), and the ratios to PyTorch
   CUDA and to the device-to-device copy bandwidth measured in the same
   run. The unchecked library and PyTorch, whose calls do not wait for
   their kernels, are timed as a model calls them: back to back on the
   stream, one synchronization at the end. The checked library
   (--checks=status), whose calls wait to read the status word, is timed
   call by call (docs/GPU.md, Synchronization).

`--device=cpu` runs part 1 on the CPU with the libraries build.sh makes for
the host from the same kernels (embbag-to-llvm{path=gpu-loops}: the GPU
kernels' code run by host loops), which checks this harness and the
kernels' semantics on any machine.
"""

import argparse
import ctypes
import os
import statistics
import sys

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "utils", "difftest"))

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
TORCH_MODE = {"sum": "sum", "mean": "mean", "max": "max", "wsum": "sum"}


# ---------------------------------------------------------------------------
# Calling the libraries: MLIR's C interface, one descriptor per memref.
# ---------------------------------------------------------------------------

def descriptor_type(rank):
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": [
        ("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * rank),
        ("strides", ctypes.c_int64 * rank)]})


DESCRIPTORS = {r: descriptor_type(r) for r in (1, 2)}


def descriptor(t):
    """The descriptor of a torch tensor (its storage stays alive in `t`)."""
    d = DESCRIPTORS[t.dim()]()
    d.allocated = d.aligned = t.data_ptr()
    d.offset = 0
    for i in range(t.dim()):
        d.sizes[i] = t.shape[i]
        d.strides[i] = t.stride(i)
    return d


class Kernels:
    """The functions of one library; `status` ones return an int32."""

    def __init__(self, path, status):
        self.lib = ctypes.CDLL(path)
        self.status = status

    def __call__(self, name, *args):
        return self.bind(name, *args)()

    def bind(self, name, *args):
        """The call with its descriptors built once: a launch-bound timing
        then measures the library's call, not the making of descriptors."""
        fn = getattr(self.lib, "_mlir_ciface_" + name)
        fn.restype = ctypes.c_int32 if self.status else None
        keep, cargs = [], []
        for a in args:
            if isinstance(a, torch.Tensor):
                keep.append(descriptor(a))
                cargs.append(ctypes.byref(keep[-1]))
            else:
                cargs.append(ctypes.c_int64(a))
        return lambda: fn(*cargs)


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

class Case:
    """One call: the kernel's name, its operands and PyTorch's arguments."""

    def __init__(self, form, mode, dtype, table, indices, offsets, weights,
                 variant="", padding=None, default=None):
        self.form, self.mode, self.dtype, self.variant = form, mode, dtype, variant
        self.table, self.indices, self.offsets = table, indices, offsets
        self.weights, self.padding, self.default = weights, padding, default

    @property
    def name(self):
        suffix = f"_{self.variant}" if self.variant else ""
        return f"{self.form}_{self.mode}_{self.dtype}{suffix}"

    @property
    def num_bags(self):
        if self.form == "packed":
            return self.indices.shape[0]
        return self.offsets.numel() - (1 if self.variant == "last" else 0)

    def arguments(self, out):
        args = [self.table, self.indices]
        if self.form == "offsets":
            args.append(self.offsets)
        if self.variant == "def":
            args.append(self.default)
        if self.variant == "pad":
            args.append(self.padding)
        if self.weights is not None:
            args.append(self.weights)
        return args + [out]

    def torch_result(self, native=False):
        """F.embedding_bag, with the default row put into empty bags; in f32
        (a closer oracle for f16 / bf16, and one that any PyTorch runs on
        the CPU) unless `native`."""
        if self.mode == "sqrtn":
            return None
        table = self.table if native else self.table.float()
        weights = self.weights
        if weights is not None and not native:
            weights = weights.float()
        result = F.embedding_bag(
            self.indices, table, None if self.form == "packed" else self.offsets,
            mode=TORCH_MODE[self.mode], per_sample_weights=weights,
            include_last_offset=self.variant == "last",
            padding_idx=self.padding if self.variant == "pad" else None)
        if self.variant == "def" and self.default >= 0:
            starts = self.offsets.tolist() + [self.indices.numel()]
            for b in range(self.num_bags):
                if starts[b] == starts[b + 1]:
                    result[b] = table[self.default]
        return result


def reference_sqrtn(case):
    """NumPy: each bag's sum divided by the square root of its size."""
    table = case.table.float().cpu().numpy()
    idx = case.indices.cpu().numpy()
    starts = case.offsets.cpu().tolist() + [idx.size]
    out = np.zeros((case.num_bags, table.shape[1]), np.float32)
    for b in range(case.num_bags):
        rows = idx[starts[b]:starts[b + 1]]
        if rows.size:
            out[b] = table[rows].sum(0) / np.sqrt(rows.size)
    return torch.from_numpy(out)


def random_case(rng, device, form, mode, dtype, variant, row, num_emb=97,
                batch=23):
    table = torch.from_numpy(rng.standard_normal((num_emb, row)).astype(
        np.float32)).to(DTYPES[dtype]).to(device)
    if form == "packed":
        per_bag = int(rng.integers(1, 9))
        indices = torch.from_numpy(
            rng.integers(0, num_emb, (batch, per_bag))).to(device)
        offsets = None
    else:
        sizes = rng.integers(0, 9, batch)
        sizes[rng.integers(0, batch)] = 0          # an empty bag
        offsets_np = np.concatenate([[0], np.cumsum(sizes)])
        if variant != "last":
            offsets_np = offsets_np[:-1]
        indices = torch.from_numpy(
            rng.integers(0, num_emb, int(sizes.sum()))).to(device)
        if indices.numel() > 2:
            indices[1] = indices[0]                 # a repeated index
        offsets = torch.from_numpy(offsets_np.astype(np.int64)).to(device)
    weights = None
    if mode == "wsum":
        weights = torch.from_numpy(rng.standard_normal(
            tuple(indices.shape)).astype(np.float32)).to(DTYPES[dtype]).to(device)
    padding = int(rng.integers(0, num_emb)) if variant == "pad" else None
    if padding is not None and indices.numel():
        indices.view(-1)[0] = padding
    default = int(rng.integers(0, num_emb)) if variant == "def" else None
    return Case(form, mode, dtype, table, indices, offsets, weights, variant,
                padding, default)


def differential_cases(device, seed=1):
    rng = np.random.default_rng(seed)
    for row in (1, 3, 16, 64, 130, 256):
        for form in ("offsets", "packed"):
            for mode in ("sum", "mean", "max", "wsum"):
                for dtype in DTYPES:
                    yield random_case(rng, device, form, mode, dtype, "", row)
        for dtype in DTYPES:
            for variant in ("pad", "last", "def"):
                for mode in ("sum", "mean", "max"):
                    yield random_case(rng, device, "offsets", mode, dtype,
                                      variant, row)
            yield random_case(rng, device, "offsets", "sqrtn", dtype, "", row)


TOLERANCE = {"f32": 1e-4, "f16": 2e-2, "bf16": 6e-2}


def run_differential(kernels, checked, device):
    passed = failed = 0
    for case in differential_cases(device):
        out = torch.full((case.num_bags, case.table.shape[1]), float("nan"),
                         dtype=case.table.dtype, device=device)
        status = kernels(case.name, *case.arguments(out))
        expected = case.torch_result()
        if expected is None:
            expected = reference_sqrtn(case)
        got = out.float().cpu()
        expected = expected.float().cpu()
        tol = TOLERANCE[case.dtype]
        ok = (status in (None, 0)) and torch.allclose(got, expected, rtol=tol,
                                                      atol=tol)
        if ok:
            passed += 1
        else:
            failed += 1
            err = (got - expected).abs().max().item() if got.numel() else 0
            print(f"FAIL {case.name} row={case.table.shape[1]} "
                  f"status={status} max|diff|={err}")
    passed_bad, failed_bad = run_broken_contracts(checked, device)
    passed += passed_bad
    failed += failed_bad
    print(f"differential: {passed + failed} cases, {passed} passed, "
          f"{failed} failed")
    return failed == 0


def run_broken_contracts(checked, device):
    """The checked library returns 1, reading nothing out of bounds."""
    rng = np.random.default_rng(7)
    passed = failed = 0
    for dtype in DTYPES:
        case = random_case(rng, device, "offsets", "sum", dtype, "", 64)
        bad_index = case.indices.clone()
        bad_index[-1] = case.table.shape[0] + 1000000
        bad_offsets = case.offsets.clone()
        bad_offsets[-1] = case.indices.numel() + 5
        for indices, offsets in ((bad_index, case.offsets),
                                 (case.indices, bad_offsets)):
            out = torch.zeros((case.num_bags, 64), dtype=case.table.dtype,
                              device=device)
            status = checked(case.name, case.table, indices, offsets, out)
            if status == 1:
                passed += 1
            else:
                failed += 1
                print(f"FAIL broken contract {case.name}: status {status}")
    return passed, failed


# ---------------------------------------------------------------------------
# Benchmark
# ---------------------------------------------------------------------------

CONFIGS = [  # (rows, D, batch, bag size, types)
    (4 << 20, 16, 16384, 64, ("f32",)),
    (4 << 20, 32, 16384, 64, ("f32",)),
    (4 << 20, 64, 16384, 64, ("f32", "f16", "bf16")),
    (4 << 20, 128, 16384, 64, ("f32", "f16", "bf16")),
    (2 << 20, 256, 16384, 64, ("f32",)),
    (100000, 64, 16384, 64, ("f32",)),
    (1 << 20, 64, 2048, 32, ("f32",)),
]


def time_ms(fn, reps):
    """Median over `reps` calls of CUDA-event times (after a warm-up), each
    call timed alone: for the checked library, whose calls wait for their
    kernels (docs/GPU.md, Synchronization)."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def time_stream_ms(fn, reps, rounds=5):
    """ms per call of `reps` calls back to back on the stream and one
    synchronization at the end, the median of `rounds`: how PyTorch's
    operators and the unchecked library, neither of which waits for its
    kernel, are called in a model."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / reps)
    return statistics.median(times)


def copy_bandwidth(reps):
    """Device-to-device copy, bytes read plus written per second."""
    n = 1 << 28  # 1 GiB of f32
    src = torch.empty(n, dtype=torch.float32, device="cuda")
    dst = torch.empty_like(src)
    ms = time_ms(lambda: dst.copy_(src), reps)
    return 2 * src.numel() * 4 / (ms * 1e-3)


def bench_case(kernels, checked, rows, dim, batch, per_bag, dtype, form, mode,
               reps):
    gen = torch.Generator(device="cuda").manual_seed(rows + dim)
    table = torch.randn(rows, dim, device="cuda", generator=gen).to(DTYPES[dtype])
    indices = torch.randint(0, rows, (batch * per_bag,), device="cuda",
                            generator=gen)
    offsets = torch.arange(0, batch * per_bag, per_bag, device="cuda")
    weights = (torch.randn(batch * per_bag, device="cuda", generator=gen)
               .to(DTYPES[dtype]) if mode == "wsum" else None)
    if form == "packed":
        indices = indices.view(batch, per_bag)
        weights = weights.view(batch, per_bag) if weights is not None else None
    case = Case(form, mode, dtype, table, indices, offsets, weights)
    out = torch.empty(batch, dim, dtype=table.dtype, device="cuda")
    args = case.arguments(out)
    kernels(case.name, *args)
    expected = case.torch_result()
    tol = TOLERANCE[dtype]
    if not torch.allclose(out.float(), expected.float(), rtol=tol, atol=tol):
        return None
    ours = time_stream_ms(kernels.bind(case.name, *args), reps)
    ours_checked = time_ms(checked.bind(case.name, *args), reps)
    theirs = time_stream_ms(lambda: case.torch_result(native=True), reps)
    esize = table.element_size()
    moved = (batch * per_bag * (dim * esize + 8 + (esize if weights is not None else 0))
             + batch * dim * esize)
    return ours, ours_checked, theirs, moved / (ours * 1e-3)


def run_benchmark(kernels, checked, reps):
    copy = copy_bandwidth(reps)
    print(f"device: {torch.cuda.get_device_name()}; copy bandwidth "
          f"{copy / 1e9:.0f} GB/s (read + write)")
    print("embbag and PyTorch ms: calls back to back on the stream; checked "
          "ms: --checks=status, each call waiting for its kernel")
    print("| table | type | form | mode | embbag ms | checked ms | "
          "PyTorch ms | GB/s | vs PyTorch | of copy |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for rows, dim, batch, per_bag, types in CONFIGS:
        for dtype in types:
            for form in ("offsets", "packed"):
                for mode in ("sum", "mean", "max", "wsum"):
                    r = bench_case(kernels, checked, rows, dim, batch,
                                   per_bag, dtype, form, mode, reps)
                    label = f"{rows} x {dim}, {batch} x {per_bag}"
                    if r is None:
                        print(f"| {label} | {dtype} | {form} | {mode} | "
                              "WRONG RESULT | | | | | |")
                        continue
                    ours, ours_checked, theirs, bw = r
                    print(f"| {label} | {dtype} | {form} | {mode} | "
                          f"{ours:.4f} | {ours_checked:.4f} | {theirs:.4f} | "
                          f"{bw / 1e9:.0f} | {theirs / ours:.2f}x | "
                          f"{bw / copy:.2f} |")
    print("8-bit row-wise tables: not supported on the GPU yet (docs/GPU.md)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lib-dir", default=os.path.join(HERE, "out"))
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--no-bench", action="store_true")
    args = parser.parse_args()
    suffix = "_cpu" if args.device == "cpu" else ""
    fast = Kernels(os.path.join(args.lib_dir, f"libbench{suffix}.so"), False)
    checked = Kernels(os.path.join(args.lib_dir, f"libbench_status{suffix}.so"),
                      True)
    if args.device == "cuda":
        runtime = ctypes.CDLL(os.path.join(args.lib_dir,
                                           "libembbag_cuda_runtime.so"))
        if runtime.embbagCudaInit() != 0:
            runtime.embbagCudaLastError.restype = ctypes.c_char_p
            sys.exit("bench: " + runtime.embbagCudaLastError().decode())
        # Launches go on PyTorch's stream, so events time them in order.
        runtime.embbagCudaSetStream(
            ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    ok = run_differential(fast, checked, args.device)
    if args.device == "cuda" and not args.no_bench:
        run_benchmark(fast, checked, args.reps)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
