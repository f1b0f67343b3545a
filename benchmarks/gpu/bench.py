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
import reference  # noqa: E402  (the NumPy reference of the test suite)

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
            elif isinstance(a, float):
                cargs.append(ctypes.c_float(a))  # an f32 scalar
            else:
                cargs.append(ctypes.c_int64(a))
        return lambda: fn(*cargs)


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

class Case:
    """One call: the kernel's name, its operands and PyTorch's arguments.
    A row-wise quantized case (dtype q8, q4, q2) has a ui8 table of `dim`
    columns; a segments case has `offsets` None and its segment ids."""

    def __init__(self, form, mode, dtype, table, indices, offsets, weights,
                 variant="", padding=None, default=None, dim=None,
                 segment_ids=None, num_segments=None):
        self.form, self.mode, self.dtype, self.variant = form, mode, dtype, variant
        self.table, self.indices, self.offsets = table, indices, offsets
        self.weights, self.padding, self.default = weights, padding, default
        self.dim = dim if dim is not None else table.shape[1]
        self.segment_ids, self.num_segments = segment_ids, num_segments

    @property
    def bits(self):
        return int(self.dtype[1:]) if self.dtype.startswith("q") else None

    @property
    def result_dtype(self):
        return torch.float32 if self.bits else self.table.dtype

    @property
    def name(self):
        suffix = f"_{self.variant}" if self.variant else ""
        return f"{self.form}_{self.mode}_{self.dtype}{suffix}"

    @property
    def num_bags(self):
        if self.form == "packed":
            return self.indices.shape[0]
        if self.form == "segments":
            return self.num_segments
        return self.offsets.numel() - (1 if self.variant == "last" else 0)

    def arguments(self, out):
        args = [self.table, self.indices]
        if self.form == "offsets":
            args.append(self.offsets)
        if self.form == "segments":
            args += [self.segment_ids, self.num_segments]
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
        if self.mode == "sqrtn" or self.bits or self.form == "segments":
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


def reference_result(case):
    """The NumPy reference (utils/difftest/reference.py), for what PyTorch
    has no operator for: sqrtn, segments, row-wise quantized tables. Returns
    (result, allowed |error| per element)."""
    def host(t):
        return None if t is None else t.float().cpu().numpy() \
            if t.is_floating_point() else t.cpu().numpy()
    kwargs = dict(offsets_=host(case.offsets), segment_ids=host(case.segment_ids),
                  num_segments=case.num_segments, weights=host(case.weights),
                  default=case.default if case.variant == "def" else None,
                  include_last_offset=case.variant == "last",
                  padding_idx=case.padding if case.variant == "pad" else None)
    reduction = "sum" if case.mode == "wsum" else case.mode
    indices = host(case.indices)
    if case.bits:
        table = host(case.table)
        args = (table, case.bits, case.dim, indices)
        exact = reference.rowwise_compute(case.form, reduction, "f32", *args,
                                          **kwargs)
        bound = reference.rowwise_error_bound(case.form, reduction, *args,
                                              **kwargs)
        return torch.from_numpy(exact), torch.from_numpy(
            2 * bound + 1e-6 + 1e-5 * np.abs(exact))
    exact = reference.compute(case.form, reduction, "f64", host(case.table)
                              .astype(np.float64), indices, **kwargs)
    tol = TOLERANCE[case.dtype]
    return torch.from_numpy(exact), torch.from_numpy(tol + tol * np.abs(exact))


def rowwise_table(rng, bits, num_emb, dim):
    """A rowwise(i{bits}) table of random codes, scales and biases (the
    layout of docs/EmbBag/EmbBagOps.md): f32 scale and bias after 8-bit
    codes, f16 after packed 4- and 2-bit codes."""
    raw = rng.integers(0, 256, (num_emb, reference.rowwise_row_bytes(bits, dim)),
                       dtype=np.uint8)
    ftype = "<f4" if bits == 8 else "<f2"
    qparams = np.stack([rng.uniform(0.001, 0.05, num_emb),
                        rng.standard_normal(num_emb)], 1).astype(ftype)
    raw[:, raw.shape[1] - 2 * qparams.itemsize:] = qparams.view(np.uint8)
    return torch.from_numpy(raw)


def random_case(rng, device, form, mode, dtype, variant, row, num_emb=97,
                batch=23):
    if dtype.startswith("q"):
        table = rowwise_table(rng, int(dtype[1:]), num_emb, row).to(device)
        wtype = torch.float32
    else:
        table = torch.from_numpy(rng.standard_normal((num_emb, row)).astype(
            np.float32)).to(DTYPES[dtype]).to(device)
        wtype = DTYPES[dtype]
    segment_ids = num_segments = None
    if form == "packed":
        per_bag = int(rng.integers(1, 9))
        indices = torch.from_numpy(
            rng.integers(0, num_emb, (batch, per_bag))).to(device)
        offsets = None
    elif form == "segments":
        # Sorted ids, with empty segments between and after them.
        num_segments = batch
        ids = np.sort(rng.integers(0, batch - 2, int(rng.integers(1, 5 * batch))))
        ids[ids == 3] = 4
        indices = torch.from_numpy(rng.integers(0, num_emb, ids.size)).to(device)
        segment_ids = torch.from_numpy(ids.astype(np.int64)).to(device)
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
            tuple(indices.shape)).astype(np.float32)).to(wtype).to(device)
    padding = int(rng.integers(0, num_emb)) if variant == "pad" else None
    if padding is not None and indices.numel():
        indices.view(-1)[0] = padding
    default = int(rng.integers(0, num_emb)) if variant == "def" else None
    return Case(form, mode, dtype, table, indices, offsets, weights, variant,
                padding, default, dim=row, segment_ids=segment_ids,
                num_segments=num_segments)


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
        for mode in ("sum", "mean", "max", "wsum"):
            yield random_case(rng, device, "segments", mode, "f32", "", row)
            for form in ("offsets", "packed"):
                yield random_case(rng, device, form, mode, "q8", "", row)
        for variant in ("pad", "last", "def"):
            for mode in ("sum", "mean", "max"):
                yield random_case(rng, device, "offsets", mode, "q8", variant,
                                  row)
    for bits in (4, 2):
        for row in (5, 64):
            for mode in ("sum", "mean", "max", "wsum"):
                case = random_case(rng, device, "offsets", mode, f"q{bits}", "",
                                   row)
                case.variant = f"d{row}"
                yield case


TOLERANCE = {"f32": 1e-4, "f16": 2e-2, "bf16": 6e-2, "q8": 1e-3}


def run_differential(kernels, checked, device):
    passed = failed = 0
    for case in differential_cases(device):
        out = torch.full((case.num_bags, case.dim), float("nan"),
                         dtype=case.result_dtype, device=device)
        status = kernels(case.name, *case.arguments(out))
        got = out.float().cpu()
        expected = case.torch_result()
        if expected is None:
            expected, allowed = reference_result(case)
            expected = expected.float()
            ok = bool(((got.double() - expected.double()).abs() <= allowed).all())
        else:
            expected = expected.float().cpu()
            tol = TOLERANCE[case.dtype]
            ok = torch.allclose(got, expected, rtol=tol, atol=tol)
        ok = ok and status in (None, 0)
        if ok:
            passed += 1
        else:
            failed += 1
            err = (got - expected).abs().max().item() if got.numel() else 0
            print(f"FAIL {case.name} row={case.dim} "
                  f"status={status} max|diff|={err}")
    passed_bad, failed_bad = run_broken_contracts(checked, device)
    passed += passed_bad
    failed += failed_bad
    print(f"differential: {passed + failed} cases, {passed} passed, "
          f"{failed} failed")
    return failed == 0


def broken_variants(case):
    """Copies of `case` that break the runtime contract, with what breaks."""
    def copy(**changes):
        c = Case(case.form, case.mode, case.dtype, case.table, case.indices,
                 case.offsets, case.weights, case.variant, case.padding,
                 case.default, case.dim, case.segment_ids, case.num_segments)
        c.__dict__.update(changes)
        return c
    bad_index = case.indices.clone()
    bad_index.view(-1)[-1] = case.table.shape[0] + 1000000
    yield "an index outside the table", copy(indices=bad_index)
    if case.form == "offsets":
        bad_offsets = case.offsets.clone()
        bad_offsets[-1] = case.indices.numel() + 5
        yield "an offset past the indices", copy(offsets=bad_offsets)
    if case.form == "segments":
        ids = case.segment_ids.clone()
        ids[-1] = case.num_segments
        yield "a segment id out of range", copy(segment_ids=ids)
        ids = case.segment_ids.clone()
        ids[0] = ids[-1] + 1
        yield "unsorted segment ids", copy(segment_ids=ids)


def run_broken_contracts(checked, device):
    """The checked library returns 1, reading nothing out of bounds."""
    rng = np.random.default_rng(7)
    passed = failed = 0
    cases = [random_case(rng, device, "offsets", "sum", dtype, "", 64)
             for dtype in list(DTYPES) + ["q8"]]
    cases.append(random_case(rng, device, "segments", "sum", "f32", "", 64))
    for case in cases:
        for what, bad in broken_variants(case):
            out = torch.zeros((bad.num_bags, bad.dim), dtype=bad.result_dtype,
                              device=device)
            status = checked(bad.name, *bad.arguments(out))
            if status == 1:
                passed += 1
            else:
                failed += 1
                print(f"FAIL broken contract {bad.name} ({what}): status {status}")
    return passed, failed


# ---------------------------------------------------------------------------
# Benchmark
# ---------------------------------------------------------------------------

CONFIGS = [  # (rows, D, batch, bag size, types)
    (4 << 20, 16, 16384, 64, ("f32",)),
    (4 << 20, 32, 16384, 64, ("f32",)),
    (4 << 20, 64, 16384, 64, ("f32", "f16", "bf16", "q8")),
    (4 << 20, 128, 16384, 64, ("f32", "f16", "bf16", "q8")),
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


def time_stream_ms(fns, reps, rounds=9):
    """ms per call of each of `fns` (name -> function), called `reps` times
    back to back on the stream with one synchronization at the end, the
    median of `rounds`: how PyTorch's operators and the unchecked library,
    neither of which waits for its kernel, are called in a model. The
    contenders take turns round by round, so that the GPU's clocks and
    caches treat them alike."""
    for fn in fns.values():
        fn()
    torch.cuda.synchronize()
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(reps):
                fn()
            end.record()
            end.synchronize()
            times[name].append(start.elapsed_time(end) / reps)
    return {name: statistics.median(t) for name, t in times.items()}


def copy_bandwidth(reps):
    """Device-to-device copy, bytes read plus written per second."""
    n = 1 << 28  # 1 GiB of f32
    src = torch.empty(n, dtype=torch.float32, device="cuda")
    dst = torch.empty_like(src)
    ms = time_ms(lambda: dst.copy_(src), reps)
    return 2 * src.numel() * 4 / (ms * 1e-3)


def bench_table(rows, dim, dtype, gen):
    """(table, f32 table for PyTorch): a q8 table is rowwise(i8) (codes, f32
    scale and bias), and PyTorch, which has no 8-bit embedding bag on CUDA,
    gets its dequantized rows in f32."""
    if dtype != "q8":
        table = torch.randn(rows, dim, device="cuda", generator=gen)
        return table.to(DTYPES[dtype]), None
    codes = torch.randint(0, 256, (rows, dim), dtype=torch.uint8, device="cuda",
                          generator=gen)
    qparams = torch.stack([
        torch.rand(rows, device="cuda", generator=gen) * 0.05 + 0.001,
        torch.randn(rows, device="cuda", generator=gen)], 1)
    table = torch.cat([codes, qparams.view(torch.uint8)], 1)
    return table, codes.float() * qparams[:, :1] + qparams[:, 1:]


def bench_operands(rows, dim, batch, per_bag, dtype, form, mode):
    """(case, destination, PyTorch's case) of a benchmark config."""
    gen = torch.Generator(device="cuda").manual_seed(rows + dim)
    table, dequantized = bench_table(rows, dim, dtype, gen)
    wtype = torch.float32 if dtype == "q8" else DTYPES[dtype]
    indices = torch.randint(0, rows, (batch * per_bag,), device="cuda",
                            generator=gen)
    offsets = torch.arange(0, batch * per_bag, per_bag, device="cuda")
    weights = (torch.randn(batch * per_bag, device="cuda", generator=gen)
               .to(wtype) if mode == "wsum" else None)
    if form == "packed":
        indices = indices.view(batch, per_bag)
        weights = weights.view(batch, per_bag) if weights is not None else None
    case = Case(form, mode, dtype, table, indices, offsets, weights, dim=dim)
    theirs_case = case if dequantized is None else Case(
        form, mode, "f32", dequantized, indices, offsets, weights)
    out = torch.empty(batch, dim, dtype=case.result_dtype, device="cuda")
    return case, out, theirs_case


def bench_case(kernels, checked, rows, dim, batch, per_bag, dtype, form, mode,
               reps):
    case, out, theirs_case = bench_operands(rows, dim, batch, per_bag, dtype,
                                            form, mode)
    table, weights = case.table, case.weights
    args = case.arguments(out)
    kernels(case.name, *args)
    expected = theirs_case.torch_result()
    tol = TOLERANCE[dtype]
    if not torch.allclose(out.float(), expected.float(), rtol=tol, atol=tol):
        return None
    ms = time_stream_ms({
        "ours": kernels.bind(case.name, *args),
        "theirs": lambda: theirs_case.torch_result(native=True)}, reps)
    ours, theirs = ms["ours"], ms["theirs"]
    ours_checked = time_ms(checked.bind(case.name, *args), reps)
    row_bytes = table.shape[1] * table.element_size()
    wbytes = weights.element_size() if weights is not None else 0
    moved = (batch * per_bag * (row_bytes + 8 + wbytes)
             + batch * dim * out.element_size())
    return ours, ours_checked, theirs, moved / (ours * 1e-3)


def run_benchmark(kernels, checked, reps):
    copy = copy_bandwidth(reps)
    print(f"device: {torch.cuda.get_device_name()}; copy bandwidth "
          f"{copy / 1e9:.0f} GB/s (read + write)")
    print("embbag and PyTorch ms: calls back to back on the stream; checked "
          "ms: --checks=status, each call waiting for its kernel; q8: "
          "rowwise(i8), PyTorch on the dequantized f32 table")
    print("| table | type | form | mode | embbag ms | checked ms | "
          "PyTorch ms | GB/s | vs PyTorch | of copy |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ours_ms = {}
    for rows, dim, batch, per_bag, types in CONFIGS:
        for dtype in types:
            for form in ("offsets", "packed"):
                for mode in ("sum", "mean", "max", "wsum"):
                    r = bench_case(kernels, checked, rows, dim, batch,
                                   per_bag, dtype, form, mode, reps)
                    label = f"{rows} x {dim}, {batch} x {per_bag}"
                    if r is None:
                        print(f"| {label} | {dtype} | {form} | {mode} | "
                              "WRONG RESULT | | | | | |", flush=True)
                        continue
                    ours, ours_checked, theirs, bw = r
                    ours_ms[label, dtype, form, mode] = ours
                    print(f"| {label} | {dtype} | {form} | {mode} | "
                          f"{ours:.4f} | {ours_checked:.4f} | {theirs:.4f} | "
                          f"{bw / 1e9:.0f} | {theirs / ours:.2f}x | "
                          f"{bw / copy:.2f} |", flush=True)
    print("\n8-bit row-wise against f32, embbag's ms per call on the same "
          "indices:")
    print("| table | form | mode | f32 ms | q8 ms | q8 speed-up |")
    print("|---|---|---|---|---|---|")
    for (label, dtype, form, mode), q8 in ours_ms.items():
        f32 = ours_ms.get((label, "f32", form, mode))
        if dtype == "q8" and f32:
            print(f"| {label} | {form} | {mode} | {f32:.4f} | {q8:.4f} | "
                  f"{f32 / q8:.2f}x |")


SWEEP_CONFIGS = [  # (rows, D, batch, bag size, types)
    (4 << 20, 16, 16384, 64, ("f32",)),
    (4 << 20, 64, 16384, 64, ("f32", "f16", "q8")),
    (4 << 20, 128, 16384, 64, ("f32", "q8")),
    (1 << 20, 64, 2048, 32, ("f32",)),
]
SWEEP_ROWS = (1, 2, 4, 8, 16)


def run_rows_in_flight_sweep(lib_dir, reps):
    """ms per call of the unchecked kernels built with each rows-in-flight
    (build.sh: libbench_rif{N}.so, libbench.so for 8), taking turns on the
    same operands: what the option's default and its scaling for narrow
    loads were chosen from (docs/GPU.md)."""
    libs = {n: Kernels(os.path.join(lib_dir, "libbench.so" if n == 8 else
                                    f"libbench_rif{n}.so"), False)
            for n in SWEEP_ROWS}
    print("\nrows-in-flight sweep, ms per call (unchecked, back to back):")
    print("| table | type | form | mode | "
          + " | ".join(f"{n} rows" for n in SWEEP_ROWS) + " |")
    print("|---|---|---|---|" + "---|" * len(SWEEP_ROWS))
    for rows, dim, batch, per_bag, types in SWEEP_CONFIGS:
        for dtype in types:
            for form in ("offsets", "packed"):
                for mode in ("sum", "wsum"):
                    case, out, theirs_case = bench_operands(
                        rows, dim, batch, per_bag, dtype, form, mode)
                    args = case.arguments(out)
                    expected = theirs_case.torch_result().float()
                    tol = TOLERANCE[dtype]
                    for n, lib in libs.items():
                        out.fill_(float("nan"))
                        lib(case.name, *args)
                        if not torch.allclose(out.float(), expected,
                                              rtol=tol, atol=tol):
                            print(f"FAIL sweep {case.name} rows-in-flight {n}")
                    ms = time_stream_ms({n: lib.bind(case.name, *args)
                                         for n, lib in libs.items()}, reps)
                    print(f"| {rows} x {dim}, {batch} x {per_bag} | {dtype} | "
                          f"{form} | {mode} | "
                          + " | ".join(f"{ms[n]:.4f}" for n in SWEEP_ROWS)
                          + " |", flush=True)


def add_library_arguments(parser, reps):
    """The options of the scripts that run the libraries of build.sh."""
    parser.add_argument("--lib-dir", default=os.path.join(HERE, "out"))
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--reps", type=int, default=reps)
    parser.add_argument("--libomp", help="the OpenMP runtime of host "
                        "libraries built with parallel=1, loaded first")


def init_cuda_runtime(lib_dir):
    """Loads embbag's CUDA runtime beside the libraries and makes PyTorch's
    current stream the launches' stream, so that events time them in
    order."""
    runtime = ctypes.CDLL(os.path.join(lib_dir, "libembbag_cuda_runtime.so"))
    if runtime.embbagCudaInit() != 0:
        runtime.embbagCudaLastError.restype = ctypes.c_char_p
        sys.exit("bench: " + runtime.embbagCudaLastError().decode())
    runtime.embbagCudaSetStream(
        ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lib-dir", default=os.path.join(HERE, "out"))
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--no-bench", action="store_true")
    parser.add_argument("--rows-in-flight-sweep", action="store_true",
                        help="after the benchmark, time the kernels built "
                        "with each rows-in-flight")
    args = parser.parse_args()
    suffix = "_cpu" if args.device == "cpu" else ""
    fast = Kernels(os.path.join(args.lib_dir, f"libbench{suffix}.so"), False)
    checked = Kernels(os.path.join(args.lib_dir, f"libbench_status{suffix}.so"),
                      True)
    if args.device == "cuda":
        init_cuda_runtime(args.lib_dir)
    ok = run_differential(fast, checked, args.device)
    if args.device == "cuda" and not args.no_bench:
        run_benchmark(fast, checked, args.reps)
        if args.rows_in_flight_sweep:
            run_rows_in_flight_sweep(args.lib_dir, args.reps)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
