#!/usr/bin/python3
"""Writes test/Integration/EmbBag/dynamic-row-dispatch-{2d,3d}.mlir.

The test runs every op form and mode on tables whose shape is dynamic in
every dimension, for row lengths around the vector sizes (one version of
the kernel each, and the chunked loop beyond them); the CHECK lines are the
results numpy computes from the ops' semantics here, not our output.

Usage: utils/gen-dispatch-test.py 2 > test/Integration/EmbBag/dynamic-row-dispatch-2d.mlir
       utils/gen-dispatch-test.py 3 > test/Integration/EmbBag/dynamic-row-dispatch-3d.mlir
(two files: each is compiled by every configuration of
utils/verify-each-sweep.py, within its timeout.)
"""
import sys

import numpy as np

ROWS = [1, 7, 8, 9, 15, 16, 17, 100, 130]
SHAPE_2D = (2, 68)  # a two-dimensional row, 136 elements once flattened
NUM_EMB = 5

# Bags (the same for every row length). Packed: 3 bags of 2. Offsets: bags
# {4, 0}, {} (takes the default row 1), {2, 1, 3, 3}. Segments, unsorted
# ids: segment 0 = {0, 2, 1, 3}, segment 1 = {} (default row 1), segment 2 =
# {4, 3}.
PACKED_IDX = [[4, 0], [2, 2], [1, 3]]
PACKED_W = [[2.0, -1.0], [1.0, 3.0], [0.5, 0.25]]
IDX = [4, 0, 2, 1, 3, 3]
W = [2.0, -1.0, 1.0, 3.0, 0.5, 0.25]
OFFSETS = [0, 2, 2]
SEG_IDS = [2, 0, 0, 0, 0, 2]
DEFAULT = 1
MODES = ["sum", "wsum", "mean"]


def table(row):
    r, c = np.meshgrid(np.arange(NUM_EMB), np.arange(row), indexing="ij")
    return (10 * r + c).astype(np.float32)


def bags(form):
    """[(indices, weights)] per bag, None for an empty bag."""
    if form == "packed":
        return [list(zip(i, w)) for i, w in zip(PACKED_IDX, PACKED_W)]
    if form == "offsets":
        ends = OFFSETS[1:] + [len(IDX)]
        return [list(zip(IDX[s:e], W[s:e])) for s, e in zip(OFFSETS, ends)]
    return [[(i, w) for i, w, s in zip(IDX, W, SEG_IDS) if s == seg]
            for seg in range(3)]


def expected(form, mode, t):
    out = []
    for bag in bags(form):
        if not bag:
            acc = t[DEFAULT] if form != "packed" else np.zeros(t.shape[1])
        else:
            acc = np.zeros(t.shape[1], np.float32)
            for i, w in bag:
                acc = acc + (np.float32(w) if mode == "wsum" else 1) * t[i]
            if mode == "mean":
                acc = acc / np.float32(len(bag))
        out.append(acc.astype(np.float32))
    return out


def fmt(v):
    return "%g" % v  # what printMemrefF32 prints (ostream, 6 digits)


def op_func(form, mode, rank):
    t_t = "tensor<?x?xf32>" if rank == 2 else "tensor<?x?x?xf32>"
    r_t = t_t
    op_mode = "mean" if mode == "mean" else "sum"
    if form == "packed":
        args = [f"%t: {t_t}", "%i: tensor<?x?xi32>"]
        types = [t_t, "tensor<?x?xi32>"]
        op = f"embbag.packed {op_mode} %t[%i]"
        w_t = "tensor<?x?xf32>"
    elif form == "offsets":
        args = [f"%t: {t_t}", "%i: tensor<?xi64>", "%o: tensor<?xi64>"]
        types = [t_t, "tensor<?xi64>", "tensor<?xi64>", "i64"]
        op = (f"embbag.offsets {op_mode} %t[%i] offsets(%o) "
              f"default(%d)")
        w_t = "tensor<?xf32>"
    else:
        args = [f"%t: {t_t}", "%i: tensor<?xi32>", "%s: tensor<?xi32>"]
        types = [t_t, "tensor<?xi32>", "tensor<?xi32>", "i32", "i32"]
        op = (f"embbag.segments {op_mode} %t[%i] segment_ids(%s) "
              f"num_segments(%n) default(%d)")
        w_t = "tensor<?xf32>"
    body = []
    if form == "offsets":
        body.append("  %d = arith.constant 1 : i64")
    if form == "segments":
        body.append("  %n = arith.constant 3 : i32")
        body.append("  %d = arith.constant 1 : i32")
    if mode == "wsum":
        args.append(f"%w: {w_t}")
        types.append(w_t)
        op += " weights(%w)"
    body.append(f"  %r = {op}\n      : ({', '.join(types)}) -> {r_t}")
    result = "%r"
    if rank == 3:
        body.append("  %f = tensor.collapse_shape %r [[0], [1, 2]] "
                    ": tensor<?x?x?xf32> into tensor<?x?xf32>")
        result = "%f"
    # Printed here, not returned: a returned buffer that may alias an
    # argument is cloned by the deallocation pipeline.
    body.append(f"  %u = tensor.cast {result} : tensor<?x?xf32> to "
                "tensor<*xf32>")
    body.append("  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()")
    body.append("  return")
    return (f"func.func @{form}_{mode}_{rank}d({', '.join(args)}) "
            "{\n" + "\n".join(body) + "\n}\n")


def call_args(form, mode):
    a = {"packed": ["%t", "%pi"], "offsets": ["%t", "%oi", "%oo"],
         "segments": ["%t", "%si", "%ss"]}[form]
    if mode == "wsum":
        a.append("%pw" if form == "packed" else "%w")
    return a


def runner(rank):
    t_t = "tensor<?x?xf32>" if rank == 2 else "tensor<?x?x?xf32>"
    lines = [f"func.func @run{rank}d(%t: {t_t}) {{",
             f"  %pi0 = arith.constant dense<{PACKED_IDX}> : tensor<3x2xi32>",
             "  %pi = tensor.cast %pi0 : tensor<3x2xi32> to tensor<?x?xi32>",
             f"  %pw0 = arith.constant dense<{PACKED_W}> : tensor<3x2xf32>",
             "  %pw = tensor.cast %pw0 : tensor<3x2xf32> to tensor<?x?xf32>",
             f"  %oi0 = arith.constant dense<{IDX}> : tensor<6xi64>",
             "  %oi = tensor.cast %oi0 : tensor<6xi64> to tensor<?xi64>",
             f"  %oo0 = arith.constant dense<{OFFSETS}> : tensor<3xi64>",
             "  %oo = tensor.cast %oo0 : tensor<3xi64> to tensor<?xi64>",
             f"  %si0 = arith.constant dense<{IDX}> : tensor<6xi32>",
             "  %si = tensor.cast %si0 : tensor<6xi32> to tensor<?xi32>",
             f"  %ss0 = arith.constant dense<{SEG_IDS}> : tensor<6xi32>",
             "  %ss = tensor.cast %ss0 : tensor<6xi32> to tensor<?xi32>",
             f"  %w0 = arith.constant dense<{W}> : tensor<6xf32>",
             "  %w = tensor.cast %w0 : tensor<6xf32> to tensor<?xf32>"]
    for form in ["packed", "offsets", "segments"]:
        for mode in MODES:
            name = f"{form}_{mode}_{rank}d"
            a = call_args(form, mode)
            types = {"%t": t_t, "%pi": "tensor<?x?xi32>",
                     "%pw": "tensor<?x?xf32>", "%oi": "tensor<?xi64>",
                     "%oo": "tensor<?xi64>", "%si": "tensor<?xi32>",
                     "%ss": "tensor<?xi32>", "%w": "tensor<?xf32>"}
            lines.append(f"  call @{name}({', '.join(a)}) : "
                         f"({', '.join(types[x] for x in a)}) -> ()")
    lines.append("  return\n}\n")
    return "\n".join(lines)


def generate(rank, dims):
    """A tensor.generate of the table t[r, c] = 10 * r + c (flat c)."""
    sizes = ", ".join(f"%c{d}" for d in [NUM_EMB] + list(dims))
    t_t = "tensor<" + "x".join("?" * (1 + len(dims))) + "xf32>"
    ivs = ", ".join(f"%x{k}: index" for k in range(1 + len(dims)))
    col = "%x1" if len(dims) == 1 else "%col"
    body = []
    if len(dims) == 2:
        body.append(f"    %rowpart = arith.muli %x1, %c{dims[1]} : index")
        body.append("    %col = arith.addi %rowpart, %x2 : index")
    body += ["    %ten = arith.muli %x0, %c10 : index",
             f"    %v = arith.addi %ten, {col} : index",
             "    %vi = arith.index_cast %v : index to i64",
             "    %vf = arith.sitofp %vi : i64 to f32",
             "    tensor.yield %vf : f32"]
    return (f"  %t = tensor.generate {sizes} {{\n  ^bb0({ivs}):\n"
            + "\n".join(body) + f"\n  }} : {t_t}\n")


def main():
    out = ["// Generated by utils/gen-dispatch-test.py; do not edit.",
           "// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s",
           "// RUN: embbag-opt %s --embbag-to-llvm=\"target=avx2\" | %mlir_runner | FileCheck %s",
           "// RUN: embbag-opt %s --embbag-to-llvm=\"target=avx2 max-vectors=2 checks=0\" | %mlir_runner | FileCheck %s",
           "// RUN: embbag-opt %s --embbag-to-llvm=\"target=generic prefetch-distance=3\" | %mlir_runner | FileCheck %s",
           "// RUN: embbag-opt %s --embbag-to-llvm=\"prefetch-distance=3 prefetch-locality=2\" | %mlir_runner | FileCheck %s",
           "",
           "// Tables of shape tensor<?x?xf32> (and tensor<?x?x?xf32> for the",
           "// 2x68 row) reach the kernel with a row length known only at run",
           "// time: rows of 1, 7, 8, 9, 15, 16, 17, 100, 130 and 2x68 take the",
           "// versions of one vector (masked), of whole vectors, of whole",
           "// vectors and a masked one, and the chunked loop for long rows (with",
           "// max-vectors=2 from 17 elements on at 8 lanes). Table",
           "// t[r, c] = 10 * r + c, 5 rows; every form with sum, weighted sum and",
           "// mean, offsets and segments with an empty bag taking default row 1;",
           "// the expected rows are numpy's. prefetch-distance=3 makes every",
           "// pass prefetch: into L1 as the run time finds the table small, or",
           "// into L2 with prefetch-locality=2.",
           "",
           "func.func private @printMemrefF32(tensor<*xf32>) "
           "attributes { llvm.emit_c_interface }", ""]
    ranks = [int(sys.argv[1])]
    for rank in ranks:
        for form in ["packed", "offsets", "segments"]:
            for mode in MODES:
                out.append(op_func(form, mode, rank))
        out.append(runner(rank))
    main_lines = ["func.func @main() {"]
    consts = sorted({NUM_EMB, 10} | set(ROWS) | set(SHAPE_2D))
    for c in consts:
        main_lines.append(f"  %c{c} = arith.constant {c} : index")
    checks = []
    for row in ROWS + [SHAPE_2D]:
        dims = row if isinstance(row, tuple) else (row,)
        rank = 1 + len(dims)
        if rank not in ranks:
            continue
        main_lines.append(f"  // Row {'x'.join(map(str, dims))}.")
        main_lines.append("  scf.execute_region {")
        main_lines.append(generate(rank, dims).rstrip("\n"))
        main_lines.append(f"    func.call @run{rank}d(%t) : "
                          f"({'tensor<?x?xf32>' if rank == 2 else 'tensor<?x?x?xf32>'}) -> ()")
        main_lines.append("    scf.yield\n  }")
        flat = int(np.prod(dims))
        t = table(flat)
        for form in ["packed", "offsets", "segments"]:
            for mode in MODES:
                checks.append(f"// CHECK: sizes = [3, {flat}] strides = "
                              f"[{flat}, 1] data =")
                for k, r in enumerate(expected(form, mode, t)):
                    pre = "// CHECK-NEXT: " + ("{{\\[\\[}}" if k == 0 else "[")
                    checks.append(pre + ", ".join(fmt(v) for v in r) + "]")
    main_lines.append("  return\n}")
    out += main_lines
    out.append("")
    out += checks
    print("\n".join(out))


if __name__ == "__main__":
    main()
