#!/usr/bin/env python3
"""Generates the benchmark kernels and the case list shared by the harness.

For every benchmark case this writes one func.func that runs one embbag op
and materializes its result into the caller's `%out` memref, in one module
per variant (the same kernels, named `<case>_<variant>`, see VARIANTS; run.sh
lowers each module with its own --embbag-to-llvm options): on static tensor
shapes, and for the `dyn` variant on shapes whose every size is `?`:

  OUT/kernels_chk.mlir, OUT/kernels_unc.mlir, OUT/kernels_par.mlir,
  OUT/kernels_dyn.mlir
  OUT/cases.inc    the case table compiled into bench.cpp
  OUT/cases.tsv    the same list for torch_bench.py

With --quick and/or --only S (run.sh passes its own options on), only the
cases the harness will run are written and lowered, plus the f32 case of
every selected quantized case (the harness times the two side by side).
Other options of run.sh (--budget, --prefetch) are accepted and ignored.

Usage: gen_kernels.py OUTDIR [--quick] [--only S] [--budget X] [--prefetch N]
"""
import argparse
import os

ROWS_1M = 1_000_000

# name: (rows, dim, batch, bag length) -- the design of the benchmark: README.md.
CONFIGS = {
    "c1": (ROWS_1M, 64, 2048, 32),
    "c2": (ROWS_1M, 128, 1024, 64),
    "c3": (10_000, 64, 2048, 32),
    "c4": (ROWS_1M, 16, 4096, 16),
    "c5": (ROWS_1M, 100, 2048, 32),
    "c6": (ROWS_1M, 64, 2048, 100),
}
MODES = ("sum", "wsum", "mean")
# The DRAM-bound configurations that also run `max`, and row-wise quantized
# tables (`rowwise(i8)`, `rowwise(i4)`) next to their f32 tables.
MAX_CONFIGS = ("c1", "c2")
QUANT_CONFIGS = ("c1", "c2")
QUANT_MODES = ("sum", "wsum", "max")
# Quantized table dtypes: the code bits (the op's rowwise(iN)).
QBITS = {"q8": 8, "q4": 4}


def table_cols(dtype, dim):
    """Dimension 1 of the table tensor: `dim` values, or the bytes of one
    quantized row in PyTorch's / FBGEMM's layout (8-bit: the codes, f32
    scale and bias; 4-bit: the codes two to a byte, f16 scale and bias)."""
    if dtype == "q8":
        return dim + 8
    if dtype == "q4":
        return (dim * 4 + 7) // 8 + 4
    return dim


def f32_peer(name):
    """The f32 case a quantized case is compared with (same configuration,
    form, mode and index type)."""
    return name.rsplit("_", 1)[0]

# The kernel variants: symbol suffix -> the Case field of bench.h that
# points to them, in the order of those fields. run.sh lowers each module
# with its own --embbag-to-llvm options.
VARIANTS = {
    "chk": "checked",    # checks=1
    "unc": "unchecked",  # checks=0
    "par": "parallel",   # checks=1 parallel=1 (OpenMP)
    "dyn": "dynamic",    # checks=1, every size dynamic (tensor<?x?xf32>, ...)
}

# The cases of the --quick run.
QUICK = {
    "c1_offsets_sum_i32", "c1_offsets_wsum_i32", "c1_offsets_mean_i32",
    "c1_packed_sum_i32", "c1_segments_sum_i32", "c3_offsets_sum_i32",
    "c5_offsets_mean_i32", "c1_offsets_sum_i32_f16", "c1_offsets_max_i32",
    "c1_offsets_sum_i32_q8", "c1_offsets_sum_i32_q4",
}


def cases():
    """(name, cfg, form, mode, index bits, dtype) in table order."""
    out = []
    for cfg in CONFIGS:
        for mode in MODES:
            out.append((cfg, "offsets", mode, 32, "f32"))
        if cfg in MAX_CONFIGS:
            out.append((cfg, "offsets", "max", 32, "f32"))
        if cfg == "c1":
            for mode in MODES:
                out.append((cfg, "offsets", mode, 64, "f32"))
            for form in ("packed", "segments"):
                for mode in MODES:
                    out.append((cfg, form, mode, 32, "f32"))
        if cfg == "c3":
            # The cached table's segments form (issue 23's single-core cell).
            for mode in MODES:
                out.append((cfg, "segments", mode, 32, "f32"))
    # 16-bit tables (f32 accumulation): the DRAM-bound and the cached case.
    for dtype in ("f16", "bf16"):
        for mode in MODES:
            out.append(("c1", "offsets", mode, 32, dtype))
        out.append(("c3", "offsets", "sum", 32, dtype))
    # Row-wise quantized tables (f32 results and weights).
    for cfg in QUANT_CONFIGS:
        for dtype in QBITS:
            for mode in QUANT_MODES:
                out.append((cfg, "offsets", mode, 32, dtype))
    return [(f"{c}_{f}_{m}_i{b}" + ("" if t == "f32" else f"_{t}"),
             c, f, m, b, t) for c, f, m, b, t in out]


def kernel(name, cfg, form, mode, bits, dtype, dynamic=False):
    """The kernel of one case; `dynamic`: every tensor and memref size `?`,
    as a frontend with symbolic shapes or a kernel library emits it. For a
    4-bit table the row's bytes and the result's dimension 1 stay static
    (the op needs them: the result's length is not the row's bytes); an
    8-bit table's are dynamic too."""
    # `cfg`: a name of CONFIGS, or its (rows, dim, batch, bag) itself.
    rows, dim, batch, bag = CONFIGS[cfg] if isinstance(cfg, str) else cfg
    n = batch * bag
    cols = table_cols(dtype, dim)
    if dynamic:
        rows = batch = bag = n = "?"
        if dtype != "q4":
            dim = cols = "?"
    it = f"i{bits}"
    # Quantized tables are bytes; their values, weights and results f32.
    vtype = "f32" if dtype in QBITS else dtype
    table_t = f"tensor<{rows}x{cols}x{'ui8' if dtype in QBITS else dtype}>"
    res_t = f"tensor<{batch}x{dim}x{vtype}>"
    out_t = f"memref<{batch}x{dim}x{vtype}>"
    # A leading "w" is the weighted form of the reduction (wsum, wsqrtn).
    weighted = mode.startswith("w")
    op_mode = mode[1:] if weighted else mode
    if form == "packed":
        idx_t = f"tensor<{batch}x{bag}x{it}>"
        w_t = f"tensor<{batch}x{bag}x{vtype}>"
    else:
        idx_t = f"tensor<{n}x{it}>"
        w_t = f"tensor<{n}x{vtype}>"

    args = [f"%table: {table_t}", f"%indices: {idx_t}"]
    types = [table_t, idx_t]
    body = []
    if form == "packed":
        op = f"embbag.packed {op_mode} %table[%indices]"
    elif form == "offsets":
        off_t = f"tensor<{batch}x{it}>"
        args.append(f"%offsets: {off_t}")
        types.append(off_t)
        op = f"embbag.offsets {op_mode} %table[%indices] offsets(%offsets)"
    else:
        ids_t = f"tensor<{n}x{it}>"
        args.append(f"%segment_ids: {ids_t}")
        types += [ids_t, it]
        if dynamic:
            # The batch is the output's: a kernel library knows no constant.
            body.append("  %c0 = arith.constant 0 : index")
            body.append(f"  %batch = memref.dim %out, %c0 : {out_t}")
            body.append(f"  %num_segments = arith.index_cast %batch : "
                        f"index to {it}")
        else:
            body.append(f"  %num_segments = arith.constant {batch} : {it}")
        op = (f"embbag.segments {op_mode} %table[%indices] "
              f"segment_ids(%segment_ids) num_segments(%num_segments)")
    if weighted:
        args.append(f"%weights: {w_t}")
        types.append(w_t)
        op += " weights(%weights)"
    if dtype in QBITS:
        op += f" rowwise(i{QBITS[dtype]})"
    args.append(f"%out: {out_t}")
    body.append(f"  %r = {op}\n      : ({', '.join(types)}) -> {res_t}")
    body.append(f"  bufferization.materialize_in_destination %r in restrict "
                f"writable %out : ({res_t}, {out_t}) -> ()")
    body.append("  return")
    return (f"func.func @{name}({', '.join(args)}) "
            f"attributes {{llvm.emit_c_interface}} {{\n"
            + "\n".join(body) + "\n}\n")


def selected_cases(quick, only):
    """The cases run.sh's --quick / --only select, in table order, with the
    f32 peer of every selected quantized case."""
    every = cases()
    chosen = {name for name, *_ in every
              if (not quick or name in QUICK) and only in name}
    chosen |= {f32_peer(name) for name, *rest in every
               if name in chosen and rest[-1] in QBITS}
    return [c for c in every if c[0] in chosen]


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("outdir")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--budget")    # run.sh's, unused here
    ap.add_argument("--prefetch")  # run.sh's, unused here
    args = ap.parse_args()
    outdir = args.outdir
    os.makedirs(outdir, exist_ok=True)
    all_cases = selected_cases(args.quick, args.only)
    for suffix in VARIANTS:
        text = "// Generated by benchmarks/gen_kernels.py; do not edit.\n\n"
        text += "\n".join(kernel(f"{name}_{suffix}", *rest,
                                 dynamic=(suffix == "dyn"))
                          for name, *rest in all_cases)
        with open(os.path.join(outdir, f"kernels_{suffix}.mlir"), "w") as f:
            f.write(text)

    inc = ["// Generated by benchmarks/gen_kernels.py; do not edit."]
    for name, *_ in all_cases:
        for suffix in VARIANTS:
            inc.append(f'extern "C" void _mlir_ciface_{name}_{suffix}(void);')
    inc.append("static const Case kCases[] = {")
    for name, cfg, form, mode, bits, dtype in all_cases:
        rows, dim, batch, bag = CONFIGS[cfg]
        peer = f'"{f32_peer(name)}"' if dtype in QBITS else "nullptr"
        kernels = ", ".join(
            f"/*{field}=*/(void *)&_mlir_ciface_{name}_{suffix}"
            for suffix, field in VARIANTS.items())
        inc.append(
            f'  {{"{name}", "{cfg}", Form::{form.capitalize()}, '
            f'Mode::{mode.capitalize()}, DType::{dtype.upper()}, {bits}, '
            f'{rows}, {dim}, {batch}, '
            f'{bag}, {str(name in QUICK).lower()}, {peer}, {kernels}}},')
    inc.append("};")
    with open(os.path.join(outdir, "cases.inc"), "w") as f:
        f.write("\n".join(inc) + "\n")

    with open(os.path.join(outdir, "cases.tsv"), "w") as f:
        f.write("name\tcfg\tform\tmode\tbits\tdtype\trows\tdim\tbatch\t"
                "bag\tquick\n")
        for name, cfg, form, mode, bits, dtype in all_cases:
            rows, dim, batch, bag = CONFIGS[cfg]
            f.write(f"{name}\t{cfg}\t{form}\t{mode}\t{bits}\t{dtype}\t"
                    f"{rows}\t{dim}\t{batch}\t{bag}\t"
                    f"{int(name in QUICK)}\n")


if __name__ == "__main__":
    main()
