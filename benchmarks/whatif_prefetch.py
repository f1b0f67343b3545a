#!/usr/bin/env python3
"""What-if: the embbag kernels with software prefetch in their hot loops.

An experiment for the lowering, not a contender: it runs the first half of
the embbag-to-llvm pipeline (up to bufferization, as in
lib/Pipelines/Pipelines.cpp), inserts into every bag loop a `memref.prefetch`
of each cache line of the row chunk that the loop reads, some indices ahead
(the distance the AVX2 kernel uses: 16 KiB of rows, within [16, 128]), and
runs the rest of the pipeline. run.sh --whatif-prefetch
links the result in place of the checks=0 kernels.

Usage: whatif_prefetch.py [--max-vectors N] EMBBAG_OPT KERNELS_UNC.MLIR
                          OUT.LLVM.MLIR

--max-vectors N: the convert-embbag-to-loops option (default 8, the
pipeline's): 16 keeps rows up to 128 floats in one pass over the bag.
"""
import re
import subprocess
import sys

# The two halves of embbag-to-llvm with checks=0 (lib/Pipelines/Pipelines.cpp).
FIRST = ("builtin.module(embbag-verify-constants,"
         "func.func(convert-embbag-to-loops{checks=0 vector-bits=256 "
         "max-vectors=MAXV}),"
         "canonicalize,cse,eliminate-empty-tensors,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map},"
         "canonicalize)")
SECOND = ("builtin.module(buffer-deallocation-pipeline,canonicalize,"
          "func.func(convert-linalg-to-loops),convert-embbag-assert-to-llvm,"
          "convert-vector-to-scf,lower-affine,convert-scf-to-cf,"
          "expand-strided-metadata,lower-affine,convert-vector-to-llvm,"
          "finalize-memref-to-llvm,convert-arith-to-llvm,convert-math-to-llvm,"
          "convert-index-to-llvm,convert-ub-to-llvm,convert-func-to-llvm,"
          "convert-cf-to-llvm,reconcile-unrealized-casts,canonicalize,cse)")

# %x = memref.load %idx[%j] : memref<Nxi32>
LOAD = re.compile(r"^(\s*)(%[\w#]+) = memref\.load (%[\w#]+)\[(%\w+)\] : "
                  r"memref<(\d+)x(i32|i64)>$")
CAST = re.compile(r"^\s*(%[\w#]+) = arith\.index_cast (%[\w#]+) : "
                  r"i(32|64) to index$")
# vector.transfer_read %table[%row, %col] ... : memref<RxDxT>, vector<Lx...>
READ = re.compile(r"vector\.transfer_read (%[\w#]+)\[(%[\w#]+), (%[\w#]+)\]"
                  r".*: memref<(\d+)x(\d+)x(f32|f16|bf16)>, vector<(\d+)x")
ELEM_BYTES = {"f32": 4, "f16": 2, "bf16": 2}


def insert_prefetches(text):
    """Prefetches, in each bag loop, the lines of the row chunk it reads."""
    lines = text.split("\n")
    out = []
    count = 0
    for k, line in enumerate(lines):
        out.append(line)
        m = CAST.match(line)
        load = LOAD.match(lines[k - 1]) if k else None
        if not m or not load or load.group(2) != m.group(2):
            continue
        # The row chunk: the reads of this row up to the loop's yield.
        reads = []
        for x in lines[k + 1:]:
            if "scf.yield" in x:
                break
            r = READ.search(x)
            if r and r.group(2) == m.group(1):
                reads.append(r)
        if not reads:
            continue
        indent, _, idx, j, n, itype = load.groups()
        table, _, col, rows, dim, elem, lanes = reads[0].groups()
        dim, width = int(dim), int(lanes) * len(reads)
        per_line = 64 // ELEM_BYTES[elem]
        distance = max(16, min(128, 16384 // (dim * ELEM_BYTES[elem])))
        u = f"%pf{count}"
        count += 1
        table_type = f"memref<{rows}x{dim}x{elem}>"
        out += [
            f"{indent}{u}_d = arith.constant {distance} : index",
            f"{indent}{u}_last = arith.constant {int(n) - 1} : index",
            f"{indent}{u}_j = arith.addi {j}, {u}_d : index",
            f"{indent}{u}_jc = arith.minui {u}_j, {u}_last : index",
            f"{indent}{u}_i = memref.load {idx}[{u}_jc] : memref<{n}x{itype}>",
            f"{indent}{u}_r = arith.index_cast {u}_i : {itype} to index",
            f"{indent}{u}_lastcol = arith.constant {dim - 1} : index",
        ]
        # One element per cache line of the chunk, and its last one.
        offsets = list(range(0, width, per_line)) + [width - 1]
        for o in offsets:
            out += [
                f"{indent}{u}_o{o} = arith.constant {o} : index",
                f"{indent}{u}_a{o} = arith.addi {col}, {u}_o{o} : index",
                f"{indent}{u}_c{o} = arith.minui {u}_a{o}, {u}_lastcol : index",
                f"{indent}memref.prefetch {table}[{u}_r, {u}_c{o}], read, "
                f"locality<3>, data : {table_type}",
            ]
    return "\n".join(out), count


def main():
    args = sys.argv[1:]
    max_vectors = "8"
    if args[:1] == ["--max-vectors"] and len(args) > 1:
        max_vectors = args[1]
        args = args[2:]
    if len(args) != 3:
        sys.exit(__doc__)
    opt, src, dst = args
    first = FIRST.replace("MAXV", max_vectors)
    half = subprocess.run([opt, f"--pass-pipeline={first}", src],
                          check=True, capture_output=True, text=True).stdout
    edited, count = insert_prefetches(half)
    if count == 0:
        sys.exit("whatif_prefetch.py: found no bag loop to prefetch in")
    subprocess.run([opt, f"--pass-pipeline={SECOND}", "-o", dst],
                   input=edited, check=True, text=True)
    print(f"whatif_prefetch.py: prefetch in {count} bag loops", file=sys.stderr)


if __name__ == "__main__":
    main()
