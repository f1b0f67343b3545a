#!/usr/bin/env python3
"""Generates the training benchmark's kernels (train_bench.sh, README.md
"Training benchmark").

For every configuration (the forward benchmark's CONFIGS of gen_kernels.py:
f32 table, i32 indices and offsets, `sum`) three functions, with
`{llvm.emit_c_interface}`:

  <cfg>_grad_<variant>(%dy, %table, %indices, %offsets, %out)
      embbag.offsets_grad sum: the dense gradient, materialized into %out
  <cfg>_sgd_<variant>(%lr, %dy, %indices, %offsets, %table)
      embbag.offsets_update sum sgd(%lr): %table (a memref) updated in place
  <cfg>_adagrad_<variant>(%lr, %eps, %dy, %indices, %offsets, %table, %state)
      embbag.offsets_update sum rowwise_adagrad: %table and %state updated
      in place

The updates read the table through `bufferization.to_tensor ... restrict
writable` and materialize their results into the same memrefs, so that
one-shot bufferization updates the caller's buffers in place (no copy of
the table per call). Three modules, kernels_train_seq.mlir (symbols
`_seq`, static shapes, lowered sequential), kernels_train_par.mlir
(`_par`, static shapes, lowered with parallel=1) and kernels_train_dyn.mlir
(`_dyn`: every size dynamic, `tensor<?x?xf32>` tables, lowered
sequential), and the case list train_cases.tsv.

Usage: gen_train_kernels.py OUTDIR [--only S] [--tiny]
  --tiny   one small configuration `t0` (1000 x 16, 64 x 4), for the lit test
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_kernels import CONFIGS  # noqa: E402

TINY = {"t0": (1000, 16, 64, 4)}


def kernels(name, variant, rows, dim, batch, bag):
    n = batch * bag
    if variant == "dyn":
        rows = dim = batch = n = "?"
    tab = f"tensor<{rows}x{dim}xf32>"
    tabm = f"memref<{rows}x{dim}xf32>"
    st = f"tensor<{rows}xf32>"
    stm = f"memref<{rows}xf32>"
    dy = f"tensor<{batch}x{dim}xf32>"
    idx = f"tensor<{n}xi32>"
    off = f"tensor<{batch}xi32>"
    return f"""
func.func @{name}_grad_{variant}(%dy: {dy}, %table: {tab}, %indices: {idx},
    %offsets: {off}, %out: {tabm}) attributes {{llvm.emit_c_interface}} {{
  %g = embbag.offsets_grad sum %dy, %table[%indices] offsets(%offsets)
      : ({dy}, {tab}, {idx}, {off}) -> {tab}
  bufferization.materialize_in_destination %g in restrict writable %out
      : ({tab}, {tabm}) -> ()
  return
}}

func.func @{name}_sgd_{variant}(%lr: f32, %dy: {dy}, %indices: {idx}, %offsets: {off},
    %tm: {tabm}) attributes {{llvm.emit_c_interface}} {{
  %table = bufferization.to_tensor %tm restrict writable : {tabm} to {tab}
  %t = embbag.offsets_update sum sgd(%lr) %dy, %table[%indices] offsets(%offsets)
      : (f32, {dy}, {tab}, {idx}, {off}) -> {tab}
  bufferization.materialize_in_destination %t in restrict writable %tm
      : ({tab}, {tabm}) -> ()
  return
}}

func.func @{name}_adagrad_{variant}(%lr: f32, %eps: f32, %dy: {dy}, %indices: {idx},
    %offsets: {off}, %tm: {tabm}, %sm: {stm})
    attributes {{llvm.emit_c_interface}} {{
  %table = bufferization.to_tensor %tm restrict writable : {tabm} to {tab}
  %state = bufferization.to_tensor %sm restrict writable : {stm} to {st}
  %t, %s = embbag.offsets_update sum rowwise_adagrad(%lr, %eps) state(%state)
      %dy, %table[%indices] offsets(%offsets)
      : (f32, f32, {st}, {dy}, {tab}, {idx}, {off}) -> ({tab}, {st})
  bufferization.materialize_in_destination %t in restrict writable %tm
      : ({tab}, {tabm}) -> ()
  bufferization.materialize_in_destination %s in restrict writable %sm
      : ({st}, {stm}) -> ()
  return
}}
"""


def selected(only, tiny):
    cfgs = TINY if tiny else CONFIGS
    return {k: v for k, v in cfgs.items() if only in k}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--only", default="")
    ap.add_argument("--tiny", action="store_true")
    args, _ = ap.parse_known_args()
    cfgs = selected(args.only, args.tiny)
    os.makedirs(args.out, exist_ok=True)
    # One module per variant, the symbols suffixed (all load into one
    # process): _seq lowered sequential, _par with parallel=1, _dyn with
    # every size dynamic, lowered sequential.
    for variant in ("seq", "par", "dyn"):
        path = os.path.join(args.out, f"kernels_train_{variant}.mlir")
        with open(path, "w") as f:
            for name, c in cfgs.items():
                f.write(kernels(f"{name}", variant, *c))
    with open(os.path.join(args.out, "train_cases.tsv"), "w") as f:
        for name, (rows, dim, batch, bag) in cfgs.items():
            f.write(f"{name}\t{rows}\t{dim}\t{batch}\t{bag}\n")


if __name__ == "__main__":
    main()
