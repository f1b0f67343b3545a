#!/usr/bin/python3
"""Writes a module of N kernels, one embbag op each, for compile_time.sh.

Usage: benchmarks/gen_compile_module.py static|dynamic [N] > module.mlir

The kernels cycle through the forms (packed, offsets, segments) and the
reductions (sum, mean, max, sqrtn, each weighted where the op allows it:
sum and sqrtn): 18 kinds of kernel, with i32 indices, as
benchmarks/gen_kernels.py writes them: a public func.func with {llvm.emit_c_interface} that runs the
op and materializes its result into the caller's %out. `static`: rows of 64
f32, every size known; `dynamic`: every size `?` (tensor<?x?xf32>).
"""
import itertools
import sys

FORMS = ["packed", "offsets", "segments"]
MODES = ["sum", "wsum", "mean", "max", "sqrtn", "wsqrtn"]
STATIC = {"rows": 1000, "dim": 64, "batch": 256, "bag": 16}


def kernel(name, form, mode, bits, dynamic):
    s = {k: "?" for k in STATIC} if dynamic else dict(STATIC)
    n = "?" if dynamic else STATIC["batch"] * STATIC["bag"]
    it = f"i{bits}"
    table_t = f"tensor<{s['rows']}x{s['dim']}xf32>"
    res_t = f"tensor<{s['batch']}x{s['dim']}xf32>"
    out_t = f"memref<{s['batch']}x{s['dim']}xf32>"
    if form == "packed":
        idx_t = f"tensor<{s['batch']}x{s['bag']}x{it}>"
        w_t = f"tensor<{s['batch']}x{s['bag']}xf32>"
    else:
        idx_t = f"tensor<{n}x{it}>"
        w_t = f"tensor<{n}xf32>"
    args = [f"%table: {table_t}", f"%indices: {idx_t}"]
    types = [table_t, idx_t]
    body = []
    op_mode = mode[1:] if mode.startswith("w") else mode
    op = f"embbag.{form} {op_mode} %table[%indices]"
    if form == "offsets":
        args.append(f"%offsets: tensor<{s['batch']}x{it}>")
        types.append(f"tensor<{s['batch']}x{it}>")
        op += " offsets(%offsets)"
    elif form == "segments":
        args.append(f"%segment_ids: {idx_t}")
        types += [idx_t, it]
        body.append("  %c0 = arith.constant 0 : index")
        body.append(f"  %batch = memref.dim %out, %c0 : {out_t}")
        body.append(f"  %num_segments = arith.index_cast %batch : index to {it}")
        op += " segment_ids(%segment_ids) num_segments(%num_segments)"
    if mode.startswith("w"):
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
    dynamic = sys.argv[1] == "dynamic"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    kinds = itertools.cycle(itertools.product(MODES, FORMS))
    print(f"// {count} kernels written by benchmarks/gen_compile_module.py\n")
    for i, (mode, form) in zip(range(count), kinds):
        print(kernel(f"k{i}_{form}_{mode}", form, mode, 32, dynamic))


if __name__ == "__main__":
    main()
