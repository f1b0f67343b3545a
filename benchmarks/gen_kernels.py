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

Usage: gen_kernels.py OUTDIR
"""
import os
import sys

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
    "c5_offsets_mean_i32", "c1_offsets_sum_i32_f16",
}


def cases():
    """(name, cfg, form, mode, index bits, dtype) in table order."""
    out = []
    for cfg in CONFIGS:
        for mode in MODES:
            out.append((cfg, "offsets", mode, 32, "f32"))
        if cfg == "c1":
            for mode in MODES:
                out.append((cfg, "offsets", mode, 64, "f32"))
            for form in ("packed", "segments"):
                for mode in MODES:
                    out.append((cfg, form, mode, 32, "f32"))
    # 16-bit tables (f32 accumulation): the DRAM-bound and the cached case.
    for dtype in ("f16", "bf16"):
        for mode in MODES:
            out.append(("c1", "offsets", mode, 32, dtype))
        out.append(("c3", "offsets", "sum", 32, dtype))
    return [(f"{c}_{f}_{m}_i{b}" + ("" if t == "f32" else f"_{t}"),
             c, f, m, b, t) for c, f, m, b, t in out]


def kernel(name, cfg, form, mode, bits, dtype, dynamic=False):
    """The kernel of one case; `dynamic`: every tensor and memref size `?`,
    as a frontend with symbolic shapes or a kernel library emits it."""
    rows, dim, batch, bag = CONFIGS[cfg]
    n = batch * bag
    if dynamic:
        rows = dim = batch = bag = n = "?"
    it = f"i{bits}"
    table_t = f"tensor<{rows}x{dim}x{dtype}>"
    res_t = f"tensor<{batch}x{dim}x{dtype}>"
    out_t = f"memref<{batch}x{dim}x{dtype}>"
    op_mode = "mean" if mode == "mean" else "sum"
    weighted = mode == "wsum"
    if form == "packed":
        idx_t = f"tensor<{batch}x{bag}x{it}>"
        w_t = f"tensor<{batch}x{bag}x{dtype}>"
    else:
        idx_t = f"tensor<{n}x{it}>"
        w_t = f"tensor<{n}x{dtype}>"

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
    args.append(f"%out: {out_t}")
    body.append(f"  %r = {op}\n      : ({', '.join(types)}) -> {res_t}")
    body.append(f"  bufferization.materialize_in_destination %r in restrict "
                f"writable %out : ({res_t}, {out_t}) -> ()")
    body.append("  return")
    return (f"func.func @{name}({', '.join(args)}) "
            f"attributes {{llvm.emit_c_interface}} {{\n"
            + "\n".join(body) + "\n}\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    all_cases = cases()
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
        kernels = ", ".join(
            f"/*{field}=*/(void *)&_mlir_ciface_{name}_{suffix}"
            for suffix, field in VARIANTS.items())
        inc.append(
            f'  {{"{name}", "{cfg}", Form::{form.capitalize()}, '
            f'Mode::{mode.capitalize()}, DType::{dtype.upper()}, {bits}, '
            f'{rows}, {dim}, {batch}, '
            f'{bag}, {str(name in QUICK).lower()}, {kernels}}},')
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
