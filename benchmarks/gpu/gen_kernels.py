#!/usr/bin/env python3
"""Writes the kernels of the GPU benchmark and of its differential test.

Every function takes its tensors and a destination memref, as embbag-aot's
libraries do (docs/GPU.md); `embbag-aot --target=nvptx` compiles them for the
GPU, and `embbag-aot --pipeline-options=path=gpu-loops` for the CPU, so that
the harness (bench.py --device=cpu) is checked on machines without a GPU.

Names: {form}_{mode}_{type}[_{variant}], for form offsets | packed, mode
sum | mean | max | wsum (weighted sum) | sqrtn, type f32 | f16 | bf16, and
the variants the differential test adds: pad (padding_idx), last
(include_last_offset), def (default index), static (the D64 table's shape).
Row-wise quantized tables have type q8 | q4 | q2 (`rowwise(i8 | i4 | i2)`
on a ui8 table, f32 result); the 4- and 2-bit kernels have a static row
length, which their table's bytes do not give, as the variant d{D}.
`embbag.segments` kernels are segments_{mode}_f32 (sorted ids).

With --tables it writes instead the one function of tables.py: the 26
tables of TABLES, each an embbag.offsets sum into its destination.
"""

import sys

TYPES = ["f32", "f16", "bf16"]
MODES = ["sum", "mean", "max", "wsum"]


def function(name, form, mode, t, variant="", shape=("?", "?"), bits=None):
    """One kernel; `bits` makes the table rowwise(i{bits}) (then `t` is the
    result's type and shape[1] its row length)."""
    table = (f"tensor<{shape[0]}x?xui8>" if bits else
             f"tensor<{shape[0]}x{shape[1]}x{t}>")
    out = f"memref<?x{shape[1]}x{t}>"
    result = f"tensor<?x{shape[1]}x{t}>"
    reduction = "sum" if mode == "wsum" else mode
    args = [f"%t: {table}"]
    types = [table]
    if form == "packed":
        args.append("%i: tensor<?x?xi64>")
        types.append("tensor<?x?xi64>")
        clause = ""
    elif form == "segments":
        args += ["%i: tensor<?xi64>", "%s: tensor<?xi64>", "%n: i64"]
        types += ["tensor<?xi64>", "tensor<?xi64>", "i64"]
        clause = " segment_ids(%s) num_segments(%n)"
    else:
        args += ["%i: tensor<?xi64>", "%o: tensor<?xi64>"]
        types += ["tensor<?xi64>", "tensor<?xi64>"]
        clause = " offsets(%o)"
        if variant == "last":
            clause += " include_last_offset"
        if variant == "def":
            args.append("%d: i64")
            types.append("i64")
            clause += " default(%d)"
    if variant == "pad":
        args.append("%p: i64")
        types.append("i64")
        clause += " padding_idx(%p)"
    if mode == "wsum":
        wtype = "tensor<?x?x%s>" % t if form == "packed" else "tensor<?x%s>" % t
        args.append(f"%w: {wtype}")
        types.append(wtype)
        clause += " weights(%w)"
    if bits:
        clause += f" rowwise(i{bits})"
    args.append(f"%out: {out}")
    return (
        f"func.func @{name}({', '.join(args)}) {{\n"
        f"  %r = embbag.{form} {reduction} %t[%i]{clause} : "
        f"({', '.join(types)}) -> {result}\n"
        f"  bufferization.materialize_in_destination %r in restrict writable "
        f"%out : ({result}, {out}) -> ()\n"
        f"  return\n}}\n")


def kernels():
    for form in ["offsets", "packed"]:
        for mode in MODES:
            for t in TYPES:
                yield function(f"{form}_{mode}_{t}", form, mode, t)
    for t in TYPES:
        for variant in ["pad", "last", "def"]:
            for mode in ["sum", "mean", "max"]:
                yield function(f"offsets_{mode}_{t}_{variant}", "offsets",
                               mode, t, variant)
        yield function(f"offsets_sqrtn_{t}", "offsets", "sqrtn", t)
    yield function("offsets_sum_f32_static", "offsets", "sum", "f32",
                   shape=(4194304, 64))
    for mode in MODES:
        yield function(f"segments_{mode}_f32", "segments", mode, "f32")
        for form in ["offsets", "packed"]:
            yield function(f"{form}_{mode}_q8", form, mode, "f32", bits=8)
        for bits in (4, 2):
            for dim in (5, 64):
                yield function(f"offsets_{mode}_q{bits}_d{dim}", "offsets",
                               mode, "f32", shape=("?", dim), bits=bits)
    for variant in ["pad", "last", "def"]:
        for mode in ["sum", "mean", "max"]:
            yield function(f"offsets_{mode}_q8_{variant}", "offsets", mode,
                           "f32", variant, bits=8)


# The tables of tables.py: a DLRM-like model's 26 tables (rows scaled from
# Criteo's), rows of 64, offsets sum; (rows, indices per bag, type).
TABLES = [(1460, 3, "f32"), (583, 1, "f32"), (100000, 20, "f32"),
          (50000, 8, "f16"), (305, 1, "f32"), (24, 1, "f32"),
          (12517, 4, "bf16"), (633, 2, "f32"), (3, 1, "f32"),
          (93145, 16, "f32"), (5683, 5, "f16"), (80000, 12, "f32"),
          (3194, 3, "f32"), (27, 1, "f32"), (14992, 6, "bf16"),
          (50000, 10, "f32"), (10, 1, "f32"), (5652, 4, "f32"),
          (2173, 2, "f16"), (4, 1, "f32"), (70000, 14, "f32"),
          (18, 1, "f32"), (15, 1, "f32"), (28000, 9, "f32"),
          (105, 2, "f32"), (14000, 6, "f32")]
TABLE_DIM = 64


def tables_function(name="tables"):
    """One function of every table's op, each into its destination: with
    batch-tables one launch for all of them."""
    args, body = [], []
    for k, (_, _, t) in enumerate(TABLES):
        args += [f"%t{k}: tensor<?x{TABLE_DIM}x{t}>", f"%i{k}: tensor<?xi64>",
                 f"%o{k}: tensor<?xi64>"]
    for k, (_, _, t) in enumerate(TABLES):
        args.append(f"%out{k}: memref<?x{TABLE_DIM}x{t}>")
        result = f"tensor<?x{TABLE_DIM}x{t}>"
        body.append(
            f"  %r{k} = embbag.offsets sum %t{k}[%i{k}] offsets(%o{k}) : "
            f"(tensor<?x{TABLE_DIM}x{t}>, tensor<?xi64>, tensor<?xi64>) -> "
            f"{result}\n"
            f"  bufferization.materialize_in_destination %r{k} in restrict "
            f"writable %out{k} : ({result}, memref<?x{TABLE_DIM}x{t}>) -> ()\n")
    return (f"func.func @{name}({', '.join(args)}) {{\n" + "".join(body) +
            "  return\n}\n")


if __name__ == "__main__":
    tables = len(sys.argv) > 1 and sys.argv[1] == "--tables"
    paths = sys.argv[2:] if tables else sys.argv[1:]
    out = open(paths[0], "w") if paths else sys.stdout
    out.write("// Generated by benchmarks/gpu/gen_kernels.py.\n")
    if tables:
        out.write(tables_function())
    else:
        for k in kernels():
            out.write(k)
