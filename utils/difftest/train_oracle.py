#!/usr/bin/env python3
"""Differential tester of the training ops' lowering against PyTorch.

Each case is one `embbag.{packed,offsets,segments}_grad` or `_update` op on
constant operands, written as a standalone module, lowered with
`embbag-opt --embbag-to-llvm` (or --pipeline), run with `mlir-runner`, its
results printed as f32 and compared with the expected ones:

  _grad, packed / offsets, sum / mean / max, no default:
      torch.nn.functional.embedding_bag(...).backward() (the table's .grad,
      per_sample_weights' .grad), and with `sparse` embedding_bag(...,
      sparse=True)'s coalesced sparse gradient (its rows and values)
  _grad otherwise (segments, sqrtn, default, offsets[0] > 0): torch
      autograd of the op written with torch ops bag by bag (the default row
      detached: it gets no gradient)
  _update sgd: torch.optim.SGD's step on the dense gradient above
  _update rowwise_adagrad: NumPy, FBGEMM's formula on the dense gradient
      (s[r] += mean(g_r^2); w_r -= lr * g_r / (sqrt(s[r]) + eps), for the
      rows the batch reads)

Expected values are computed in float64 from the operands rounded to the
table's type; f16/bf16 results are compared to a tolerance of their type.
Random cases (--seed, --count) come after the hand-made edge cases
(--edge-cases): empty bags, repeated indices, padding only, max ties, zero
batches, trailing unread indices, defaults.

    train_oracle.py --seed 1 --count 100
    train_oracle.py --edge-cases
    train_oracle.py --determinism --seed 3 --count 20 --shared-libs=...,libomp.so
    train_oracle.py --dynamic --seed 4 --count 40

--sorted-segments sorts the segment ids of every segments case (reordering
its positions), for the GPU kernels (path=gpu-loops), which take sorted ids.

--dynamic gives the table and dy types of dynamic sizes (the row length
too), so that the kernels for rows of run-time length run.

--determinism compiles each case sequentially and with parallel=1, runs the
parallel one on 1 and 4 OpenMP threads, and requires the three outputs to be
the same bits (the results are printed as their f32 bit patterns). With
--path gpu-loops the three are the GPU kernels run by the host, their
blocks and threads OpenMP's with parallel=1.

Ends with `train_oracle: N cases, P passed, F failed`.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from difftest import default_tool, parse_memref  # noqa: E402

FORMS = ["packed", "offsets", "segments"]
REDUCTIONS = ["sum", "mean", "max", "sqrtn"]
ROWS = [0, 1, 2, 3, 5, 8, 13, 16, 20, 32, 33, 46, 52, 57, 64, 100]
# (rtol, atol relative to the largest expected magnitude) per table type.
TOL = {"f32": (2e-5, 2e-6), "f64": (2e-5, 2e-6), "f16": (4e-3, 2e-3),
       "bf16": (3e-2, 1.6e-2)}


def round_to(values, etype):
    """`values` rounded to `etype` (round to nearest even), as float64."""
    import torch
    dtype = {"f32": torch.float32, "f64": torch.float64,
             "f16": torch.float16, "bf16": torch.bfloat16}[etype]
    return torch.tensor(np.asarray(values, dtype=np.float64)).to(dtype).to(
        torch.float64).numpy()


#===------------------------------------------------------------------------===#
# Cases
#===------------------------------------------------------------------------===#

def _bags(rng, form, num_emb, batch):
    """indices, offsets / segment_ids, num_segments of a random case."""
    if form == "packed":
        per_bag = int(rng.integers(0 if rng.random() < 0.1 else 1, 5))
        return rng.integers(0, num_emb, size=(batch, per_bag)), None, None
    sizes = [0 if rng.random() < 0.25 else int(rng.integers(1, 6))
             for _ in range(batch)]
    n = sum(sizes)
    indices = rng.integers(0, num_emb, size=n)
    if form == "offsets":
        offsets = np.cumsum([0] + sizes[:-1]) if sizes else np.zeros(0)
        return indices, offsets.astype(np.int64), None
    segs = np.repeat(np.arange(batch), sizes)
    if rng.random() < 0.5:
        rng.shuffle(segs)
    return indices, segs.astype(np.int64), batch


def sort_segments(c):
    """Reorders a segments case's positions by segment id (stably): the
    same bags, with sorted ids."""
    order = np.argsort(np.asarray(c["bags"]), kind="stable")
    for key in ("bags", "indices", "weights"):
        if c.get(key) is not None:
            c[key] = np.asarray(c[key])[order]


def generate(seed, index):
    rng = np.random.default_rng([int(seed), int(index), 22])
    form = FORMS[int(rng.integers(3))]
    c = {"name": "%d:%d" % (seed, index), "form": form,
         "kind": "grad" if rng.random() < 0.6 else "update",
         "reduction": REDUCTIONS[int(rng.integers(4))],
         "etype": ["f32", "f32", "f16", "bf16", "f64"][int(rng.integers(5))],
         "itype": "i32" if rng.random() < 0.5 else "i64"}
    num_emb = int(rng.integers(1, 20))
    batch = int(rng.integers(0 if rng.random() < 0.05 else 1, 7))
    c["num_emb"], c["row"] = num_emb, ROWS[int(rng.integers(len(ROWS)))]
    c["indices"], c["bags"], c["num_segments"] = _bags(rng, form, num_emb,
                                                       batch)
    c["batch"] = batch
    c["include_last_offset"] = False
    if form == "offsets" and rng.random() < 0.4:
        c["include_last_offset"] = True
        end = len(c["indices"])
        # Sometimes indices after the last offset, which no bag reads.
        if rng.random() < 0.3:
            c["indices"] = np.append(c["indices"],
                                     rng.integers(0, num_emb, size=2))
        c["bags"] = np.append(c["bags"], end).astype(np.int64)
    c["padding_idx"] = (int(rng.integers(0, num_emb))
                        if rng.random() < 0.3 else None)
    if c["padding_idx"] is not None:
        flat = np.asarray(c["indices"]).reshape(-1)
        flat[rng.random(flat.shape) < 0.3] = c["padding_idx"]
    c["default"] = (int(rng.integers(0, num_emb))
                    if form != "packed" and rng.random() < 0.3 else None)
    c["weights"] = None
    if c["reduction"] in ("sum", "sqrtn") and rng.random() < 0.5:
        c["weights"] = rng.integers(1, 9, size=np.shape(c["indices"])) / 4.0
        c["weights"] *= np.where(rng.random(np.shape(c["indices"])) < 0.3,
                                 -1, 1)
    # Ties for max: few distinct values.
    levels = 4 if c["reduction"] == "max" and rng.random() < 0.5 else 64
    c["table"] = rng.integers(-levels, levels + 1,
                              size=(num_emb, c["row"])) / 8.0
    c["dy"] = rng.integers(-16, 17, size=(batch, c["row"])) / 8.0
    # Some tables of rank 3: [num_emb, 2, row / 2] (the kernels see the
    # flattened row).
    c["row_shape"] = (c["row"],)
    if c["row"] % 2 == 0 and rng.random() < 0.3:
        c["row_shape"] = (2, c["row"] // 2)
    c["sparse"] = c["kind"] == "grad" and rng.random() < 0.4
    c["optimizer"] = "sgd" if rng.random() < 0.5 else "rowwise_adagrad"
    c["lr"], c["eps"] = 0.5, 1e-3
    c["state"] = rng.integers(0, 8, size=num_emb) / 4.0
    return c


def edge_cases():
    """Hand-made cases: each reduction and form on the corners."""
    out = []

    def case(name, form, reduction, indices, bags, **kw):
        c = {"name": "edge:" + name, "form": form, "kind": "grad",
             "reduction": reduction, "etype": "f32", "itype": "i64",
             "num_emb": 5, "row": 3, "indices": np.asarray(indices),
             "bags": None if bags is None else np.asarray(bags, np.int64),
             "num_segments": None, "include_last_offset": False,
             "padding_idx": None, "default": None, "weights": None,
             "sparse": False, "optimizer": "sgd", "lr": 0.5, "eps": 1e-3}
        c.update(kw)
        if c["form"] == "offsets":
            c["batch"] = len(c["bags"]) - (1 if c["include_last_offset"] else 0)
        elif c["form"] == "segments":
            c["batch"] = c["num_segments"]
        else:
            c["batch"] = c["indices"].shape[0]
        rng = np.random.default_rng(len(out))
        c.setdefault("table", rng.integers(-16, 17, (c["num_emb"], c["row"]))
                     / 8.0)
        c.setdefault("dy", rng.integers(-16, 17, (c["batch"], c["row"])) / 8.0)
        c.setdefault("state", np.arange(c["num_emb"]) / 4.0)
        out.append(c)

    for red in REDUCTIONS:
        # Repeated indices, an empty bag, a trailing empty bag.
        case("repeat-" + red, "offsets", red, [1, 1, 3, 1, 4], [0, 3, 3, 5])
        case("segments-" + red, "segments", red, [2, 0, 2, 2], [1, 1, 0, 1],
             num_segments=3, default=4)
        case("padding-only-" + red, "offsets", red, [2, 2, 1], [0, 2],
             padding_idx=2)
        case("packed-" + red, "packed", red, [[0, 1], [1, 1], [4, 0]], None,
             sparse=True)
        for opt in ("sgd", "rowwise_adagrad"):
            case("update-%s-%s" % (opt, red), "offsets", red, [3, 3, 0],
                 [0, 1], kind="update", optimizer=opt)
    tie = np.array([[1.0, 2.0, 2.0]] * 5)
    case("max-ties", "offsets", "max", [0, 1, 2, 3], [0], table=tie)
    case("sum-weights", "offsets", "sum", [0, 4, 0], [0, 1],
         weights=np.array([0.5, -2.0, 1.5]))
    case("sqrtn-weights", "offsets", "sqrtn", [0, 4, 0, 2], [0, 3],
         weights=np.array([0.5, -2.0, 1.5, 3.0]))
    case("unread-tail", "offsets", "mean", [0, 4, 1, 2, 3], [1, 3],
         include_last_offset=True)
    case("zero-batch", "offsets", "sum", [], [])
    # Found by a 300-case sweep: torch's bags from offsets[0] = 0 with
    # unread trailing indices and their weights; bags of no positions.
    case("unread-tail-weights-sparse", "offsets", "sum", [0, 4, 1, 2, 3],
         [0, 2, 3], include_last_offset=True, sparse=True,
         weights=np.array([0.5, -2.0, 1.5, 3.0, 4.0]))
    case("packed-no-positions-sparse", "packed", "mean",
         np.zeros((2, 0), np.int64), None, sparse=True)
    case("f16-sparse", "offsets", "mean", [4, 0, 4], [0, 1], etype="f16",
         sparse=True)
    case("bf16-adagrad", "segments", "sum", [4, 0, 4], [0, 0, 1],
         num_segments=2, etype="bf16", kind="update",
         optimizer="rowwise_adagrad")
    # Tables of more than 2 rows per position take the radix sort: 5000
    # rows are 13 bits, two digits of 11 bits; rows that share their low
    # digit (7, 2055, 4103) or their high one, repeated out of order.
    wide = [4999, 7, 4103, 2048, 7, 0, 2055, 4999, 2047, 4103]
    case("radix-weighted", "offsets", "sum", wide, [0, 4, 4, 7],
         num_emb=5000, weights=np.arange(1, 11) / 4.0)
    case("radix-sparse-mean", "offsets", "mean", wide, [0, 3, 6],
         num_emb=5000, sparse=True)
    case("radix-adagrad", "segments", "sum", wide,
         [2, 0, 1, 2, 0, 1, 1, 2, 0, 0], num_segments=3, num_emb=5000,
         row=9, kind="update", optimizer="rowwise_adagrad")
    return out


#===------------------------------------------------------------------------===#
# Expected values
#===------------------------------------------------------------------------===#

def _bag_positions(c):
    """For each bag, the positions (into the flat indices) it reads, not
    counting padding."""
    flat = np.asarray(c["indices"]).reshape(-1)
    form, pad = c["form"], c["padding_idx"]
    bags = []
    if form == "packed":
        per = c["indices"].shape[1] if c["indices"].ndim == 2 else 0
        bags = [list(range(b * per, (b + 1) * per)) for b in range(c["batch"])]
    elif form == "offsets":
        off = list(c["bags"])
        n = len(flat)
        for b in range(c["batch"]):
            end = off[b + 1] if b + 1 < len(off) else n
            bags.append(list(range(off[b], end)))
    else:
        bags = [[j for j in range(len(flat)) if c["bags"][j] == s]
                for s in range(c["num_segments"])]
    return [[j for j in bag if pad is None or flat[j] != pad] for bag in bags]


def _torch_manual(c, table, weights):
    """The forward op written with torch ops, bag by bag."""
    import torch
    flat = torch.tensor(np.asarray(c["indices"]).reshape(-1), dtype=torch.long)
    wflat = weights.reshape(-1) if weights is not None else None
    rows = []
    for bag in _bag_positions(c):
        if not bag:
            if c["default"] is not None:
                rows.append(table[c["default"]].detach())
            else:
                rows.append(torch.zeros(c["row"], dtype=torch.float64))
            continue
        pos = torch.tensor(bag, dtype=torch.long)
        x = table[flat[pos]]
        w = wflat[pos].unsqueeze(1) if wflat is not None else None
        red = c["reduction"]
        if red == "max":
            rows.append(x.max(dim=0).values)
        elif red == "mean":
            rows.append(x.mean(dim=0))
        elif red == "sum":
            rows.append((x * w).sum(0) if w is not None else x.sum(0))
        elif w is not None:
            rows.append((x * w).sum(0) / torch.sqrt((w * w).sum()))
        else:
            rows.append(x.sum(0) / np.sqrt(len(bag)))
    if not rows:
        return torch.zeros(0, c["row"], dtype=torch.float64)
    return torch.stack(rows)


def _uses_embedding_bag(c):
    if c["form"] == "segments" or c["reduction"] == "sqrtn" or \
            c["default"] is not None:
        return False
    return c["form"] == "packed" or len(c["bags"]) == 0 or c["bags"][0] == 0


def _torch_forward(c, table, weights, sparse=False):
    import torch
    import torch.nn.functional as F
    if not _uses_embedding_bag(c):
        return _torch_manual(c, table, weights)
    idx = torch.tensor(np.asarray(c["indices"]), dtype=torch.long)
    off = None
    if c["form"] == "offsets":
        off = torch.tensor(c["bags"], dtype=torch.long)
        if c["include_last_offset"] and len(c["indices"]) > c["bags"][-1]:
            # torch's contract: the last offset is the number of indices
            # (and of weights; the unread ones get a zero gradient).
            idx = idx[:int(c["bags"][-1])]
            if weights is not None:
                weights = weights[:int(c["bags"][-1])]
    if c["form"] == "packed" and idx.shape[1] == 0:
        return torch.zeros(idx.shape[0], c["row"], dtype=torch.float64) + \
            0 * table.sum()
    return F.embedding_bag(idx, table, off, mode=c["reduction"],
                           per_sample_weights=weights, sparse=sparse,
                           include_last_offset=c["include_last_offset"],
                           padding_idx=c["padding_idx"])


def gradients(c):
    """(dense table gradient, sparse (rows, values), weights gradient)."""
    import torch
    e = c["etype"]
    table = torch.tensor(round_to(c["table"], e), requires_grad=True)
    weights = None
    if c["weights"] is not None:
        weights = torch.tensor(round_to(c["weights"], e), requires_grad=True)
    dy = torch.tensor(round_to(c["dy"], e))
    y = _torch_forward(c, table, weights)
    # Bags that read nothing leave y without a graph: zeros then.
    loss = (y * dy).sum() + 0 * table.sum()
    if weights is not None:
        loss = loss + 0 * weights.sum()
    loss.backward()
    dense = table.grad.numpy().copy()
    dw = weights.grad.numpy().copy() if weights is not None else None
    # torch has no sparse gradient for max: its rows come from the dense one.
    # Nor rows for a table of rows of no elements (its sparse gradient has
    # no entry): the design's rows touched, each with its empty row.
    if (c["sparse"] and _uses_embedding_bag(c) and c["reduction"] != "max"
            and c["row"] > 0):
        t2 = torch.tensor(round_to(c["table"], e), requires_grad=True)
        w2 = None
        if weights is not None:
            w2 = torch.tensor(round_to(c["weights"], e))
        y2 = _torch_forward(c, t2, w2, sparse=True)
        if not y2.requires_grad:
            return dense, (np.zeros(0, np.int64), np.zeros((0, c["row"]))), dw
        (y2 * dy).sum().backward()
        # Bags of no positions (packed L = 0) give a dense zero gradient.
        if t2.grad.is_sparse:
            g = t2.grad.coalesce()
            return dense, (g.indices()[0].numpy(), g.values().numpy()), dw
    touched = sorted({int(np.asarray(c["indices"]).reshape(-1)[j])
                      for bag in _bag_positions(c) for j in bag})
    return dense, (np.array(touched, dtype=np.int64),
                   dense[touched] if touched else
                   np.zeros((0, c["row"]))), dw


def expected(c):
    """The expected results of the case, in the op's result order."""
    import torch
    dense, (rows, values), dw = gradients(c)
    if c["kind"] == "grad":
        out = [rows, values] if c["sparse"] else [dense]
        if dw is not None:
            out.append(dw)
        return [round_to(v, c["etype"]) if k != 0 or not c["sparse"] else v
                for k, v in enumerate(out)]
    table = round_to(c["table"], c["etype"])
    if c["optimizer"] == "sgd":
        param = torch.nn.Parameter(torch.tensor(table))
        opt = torch.optim.SGD([param], lr=c["lr"])
        param.grad = torch.tensor(dense)
        opt.step()
        return [round_to(param.detach().numpy(), c["etype"])]
    state = round_to(c["state"], "f32").copy()
    new = table.copy()
    for r in rows:
        g = dense[r]
        # A row of no elements: the mean of nothing is NaN, as in torch.
        state[r] += np.sum(g * g) / g.size if g.size else np.nan
        new[r] = table[r] - c["lr"] * g / (np.sqrt(state[r]) + c["eps"])
    return [round_to(new, c["etype"]), round_to(state, "f32")]


#===------------------------------------------------------------------------===#
# The module
#===------------------------------------------------------------------------===#

def _dense(values, elt):
    arr = np.asarray(values)
    if arr.size == 0:
        return "dense<>"
    if elt.startswith("i"):
        body = np.array2string(arr.astype(np.int64), separator=", ",
                               threshold=10**9, max_line_width=10**9)
    else:
        body = np.array2string(arr.astype(np.float64), separator=", ",
                               threshold=10**9, max_line_width=10**9,
                               floatmode="unique")
    body = re.sub(r"(?<![\d.])(-?\d+)\.(?!\d)", r"\1.0", body)
    return "dense<%s>" % body


def _ttype(shape, elt):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [elt])


def _row_shape(c):
    return tuple(c.get("row_shape", (c["row"],)))


def _table_shape(c):
    """The table's (and the table gradient's) type's shape: every dimension
    dynamic with --dynamic."""
    shape = (c["num_emb"],) + _row_shape(c)
    return ("?",) * len(shape) if c.get("dynamic") else shape


def _result_types(c):
    e, i = c["etype"], c["itype"]
    if c["kind"] == "update":
        out = [_ttype(_table_shape(c), e)]
        if c["optimizer"] == "rowwise_adagrad":
            out.append(_ttype((c["num_emb"],), "f32"))
        return out
    out = ([_ttype(("?",), i), _ttype(("?",) + _table_shape(c)[1:], e)]
           if c["sparse"] else [_ttype(_table_shape(c), e)])
    if c["weights"] is not None:
        out.append(_ttype(np.shape(c["indices"]), e))
    return out


def _op_text(c, operands):
    """The op, given `operands`: [(name, type)] in operand order."""
    names = {n: "%" + n for n, _ in operands}
    form, red = c["form"], c["reduction"]
    head = "embbag.%s_%s %s " % (form, c["kind"], red)
    if c["kind"] == "update":
        if c["optimizer"] == "sgd":
            head += "sgd(%lr) "
        else:
            head += "rowwise_adagrad(%lr, %eps) state(%state) "
    text = head + "%dy, %table[%indices]"
    if form == "offsets":
        text += " offsets(%bags)"
        if c["include_last_offset"]:
            text += " include_last_offset"
    if form == "segments":
        text += " segment_ids(%%bags) num_segments(%d)" % c["num_segments"]
    if c["default"] is not None:
        text += " default(%d)" % c["default"]
    if c["padding_idx"] is not None:
        text += " padding_idx(%pad)"
    if c["weights"] is not None:
        text += " weights(%weights)"
    if c["sparse"]:
        text += " sparse"
    types = ", ".join(t for _, t in operands)
    res = _result_types(c)
    res_text = res[0] if len(res) == 1 else "(%s)" % ", ".join(res)
    results = ", ".join("%%r%d" % k for k in range(len(res)))
    return "%s = %s\n      : (%s) -> %s" % (results, text, types, res_text), res


def _print_lines(k, ttype, bits):
    """Prints result %r<k> (a 1-D or 2-D tensor) as f32 (or its bits)."""
    m = re.match(r"tensor<(.*)x(\w+)>", ttype)
    dims, elt = m.group(1).split("x"), m.group(2)
    rank = len(dims)
    strided = "strided<[%s], offset: ?>" % ", ".join(["?"] * rank)
    btype = "memref<%s, %s>" % ("x".join(dims + [elt]), strided)
    otype = "memref<%s>" % "x".join(["?"] * rank + ["f32"])
    pelt = "i32" if bits else "f32"
    ptype = "memref<%s>" % "x".join(["?"] * rank + [pelt])
    p = "p%d_" % k
    lines = ["  %%%sb = bufferization.to_buffer %%r%d : %s to %s"
             % (p, k, ttype, btype)]
    sizes = []
    for d in range(rank):
        lines.append("  %%%sd%d = memref.dim %%%sb, %%c%d : %s"
                     % (p, d, p, d, btype))
        sizes.append("%%%sd%d" % (p, d))
    lines.append("  %%%so = memref.alloc(%s) : %s" % (p, ", ".join(sizes),
                                                      ptype))
    ivs = ", ".join("%%%si%d" % (p, d) for d in range(rank))
    ind = "  "
    for d in range(rank):
        lines.append("%sscf.for %%%si%d = %%c0 to %s step %%c1 {"
                     % (ind, p, d, sizes[d]))
        ind += "  "
    lines.append("%s%%%sx = memref.load %%%sb[%s] : %s"
                 % (ind, p, p, ivs, btype))
    if elt.startswith("i"):
        conv = "arith.sitofp %%%sx : %s to f32" % (p, elt)
    elif elt == "f32":
        conv = "arith.addf %%%sx, %%fzero : f32" % p
    elif elt == "f64":
        conv = "arith.truncf %%%sx : f64 to f32" % p
    else:
        conv = "arith.extf %%%sx : %s to f32" % (p, elt)
    lines.append("%s%%%sy = %s" % (ind, p, conv))
    val = "%%%sy" % p
    if bits:
        lines.append("%s%%%sz = arith.bitcast %%%sy : f32 to i32"
                     % (ind, p, p))
        val = "%%%sz" % p
    lines.append("%smemref.store %s, %%%so[%s] : %s" % (ind, val, p, ivs,
                                                        ptype))
    for d in range(rank):
        ind = ind[:-2]
        lines.append("%s}" % ind)
    fn = "printMemrefI32" if bits else "printMemrefF32"
    lines.append("  %%%su = memref.cast %%%so : %s to memref<*x%s>"
                 % (p, p, ptype, pelt))
    lines.append("  call @%s(%%%su) : (memref<*x%s>) -> ()" % (fn, p, pelt))
    return lines


def emit_module(c, bits=False):
    e, i = c["etype"], c["itype"]
    operands, consts = [], []

    def add(name, value, elt, shape=None, scalar=False):
        if scalar:
            consts.append("  %%%s = arith.constant %s : %s" % (name, value, elt))
            operands.append((name, elt))
            return
        t = _ttype(np.shape(value) if shape is None else shape, elt)
        consts.append("  %%%s = arith.constant %s : %s"
                      % (name, _dense(value, elt), t))
        operands.append((name, t))

    if c["kind"] == "update":
        add("lr", repr(float(c["lr"])), "f32", scalar=True)
        if c["optimizer"] == "rowwise_adagrad":
            add("eps", repr(float(c["eps"])), "f32", scalar=True)
            add("state", round_to(c["state"], "f32"), "f32")
    rows = _row_shape(c)
    dy = round_to(c["dy"], e).reshape((c["batch"],) + rows)
    table = round_to(c["table"], e).reshape((c["num_emb"],) + rows)
    if c.get("dynamic"):
        # The constants cast to types of dynamic sizes, rows included.
        for name, value in (("dy", dy), ("table", table)):
            t = _ttype(np.shape(value), e)
            dt = _ttype(("?",) * np.ndim(value), e)
            consts.append("  %%%s_static = arith.constant %s : %s"
                          % (name, _dense(value, e), t))
            consts.append("  %%%s = tensor.cast %%%s_static : %s to %s"
                          % (name, name, t, dt))
            operands.append((name, dt))
    else:
        add("dy", dy, e)
        add("table", table, e)
    add("indices", c["indices"], i)
    if c["form"] != "packed":
        add("bags", c["bags"], i)
    if c["padding_idx"] is not None:
        add("pad", c["padding_idx"], i, scalar=True)
    if c["weights"] is not None:
        add("weights", round_to(c["weights"], e), e)
    op, res = _op_text(c, operands)
    lines = ["// train_oracle case " + c["name"],
             "func.func private @printMemrefF32(memref<*xf32>) "
             "attributes { llvm.emit_c_interface }",
             "func.func private @printMemrefI32(memref<*xi32>) "
             "attributes { llvm.emit_c_interface }",
             "func.func @main() {",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             "  %c2 = arith.constant 2 : index",
             "  %fzero = arith.constant 0.0 : f32"]
    lines += consts
    lines.append("  " + op)
    for k, t in enumerate(res):
        lines += _print_lines(k, t, bits)
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


#===------------------------------------------------------------------------===#
# Running
#===------------------------------------------------------------------------===#

def describe(c):
    parts = [c["name"], "%s_%s" % (c["form"], c["kind"]), c["reduction"],
             c["etype"], c["itype"], "emb=%d row=%s batch=%d"
             % (c["num_emb"], "x".join(map(str, _row_shape(c))), c["batch"])]
    for key in ("padding_idx", "default"):
        if c[key] is not None:
            parts.append("%s=%d" % (key, c[key]))
    for key in ("include_last_offset", "sparse"):
        if c[key]:
            parts.append(key)
    if c["weights"] is not None:
        parts.append("weights")
    if c["kind"] == "update":
        parts.append(c["optimizer"])
    return " ".join(parts)


def parse_all(stdout):
    """Every printMemref output of `stdout`, in order."""
    chunks = stdout.split("Unranked Memref")[1:]
    return [parse_memref("Unranked Memref" + ch) for ch in chunks]


def compile_and_run(a, c, pipeline, env=None, bits=False):
    text = emit_module(c, bits)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run([a.embbag_opt] + shlex.split(pipeline) + [path],
                           capture_output=True, text=True)
        if p.returncode:
            return None, "compile failed:\n" + p.stderr[-3000:], path
        r = subprocess.run([a.mlir_runner, "-e", "main",
                            "-entry-point-result=void",
                            "-shared-libs=" + a.shared_libs],
                           input=p.stdout, capture_output=True, text=True,
                           env=env)
        if r.returncode:
            return None, "run failed:\n" + r.stderr[-3000:], path
        return r.stdout, None, path
    finally:
        if not a.keep:
            os.unlink(path)


def compare(c, want, got):
    rtol, atol = TOL[c["etype"]]
    if len(want) != len(got):
        return ["%d results printed, %d expected" % (len(got), len(want))]
    diff = []
    for k, (w, (sizes, vals)) in enumerate(zip(want, got)):
        w = np.asarray(w, dtype=np.float64)
        if list(w.shape) != sizes:
            diff.append("result %d: sizes %s, expected %s"
                        % (k, sizes, list(w.shape)))
            continue
        g = np.asarray(vals, dtype=np.float64).reshape(w.shape)
        scale = max(1.0, float(np.abs(w).max()) if w.size else 0.0)
        if c["kind"] == "grad" and c["weights"] is not None and \
                k == len(want) - 1:
            # The weights gradient is a dot product of a row with dy: it
            # may cancel to ~0 from terms as large as row * |dy| * |table|.
            scale = max(scale, c["row"] * float(np.abs(c["dy"]).max(
                initial=0)) * float(np.abs(c["table"]).max(initial=0)))
        bad = np.abs(g - w) > rtol * np.abs(w) + atol * scale
        if bad.any():
            pos = np.argwhere(bad)[:6]
            diff.append("result %d: %d elements differ: %s" % (
                k, int(bad.sum()), "; ".join(
                    "%s expected %r got %r" % (list(p), w[tuple(p)],
                                               g[tuple(p)]) for p in pos)))
    return diff


def _shaped(c, results):
    """The expected results in the op's shapes: table-shaped ones (rows of
    `row` elements) take the table's row shape."""
    rows = _row_shape(c)
    shaped = []
    for k, r in enumerate(results):
        r = np.asarray(r)
        is_rows = r.ndim == 2 and r.shape[1] == c["row"] and not (
            k == len(results) - 1 and c["kind"] == "grad" and
            c["weights"] is not None)
        shaped.append(r.reshape((r.shape[0],) + rows) if is_rows else r)
    return shaped


def check_case(a, c):
    out, err, path = compile_and_run(a, c, a.pipeline)
    if err:
        return [err]
    return compare(c, _shaped(c, expected(c)), parse_all(out))


def check_determinism(a, c):
    path = " path=%s" % a.path if a.path else ""
    base = '--embbag-to-llvm="%s"' % path.strip()
    parallel = '--embbag-to-llvm="parallel=1%s"' % path
    outs = []
    for pipeline, threads in ((base, "1"), (parallel, "1"), (parallel, "4")):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        out, err, _ = compile_and_run(a, c, pipeline, env=env, bits=True)
        if err:
            return [err]
        # The values only: printMemref's header holds the buffer's address.
        outs.append(parse_all(out))
    if outs[0] == outs[1] == outs[2]:
        return []
    return ["outputs differ between 1 thread, parallel=1 on 1 thread and on "
            "4 threads"]


def main(argv=None):
    llvm_bin = "/usr/lib/llvm-22/bin"
    root = os.path.dirname(os.path.dirname(HERE))
    p = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--edge-cases", action="store_true")
    p.add_argument("--determinism", action="store_true")
    p.add_argument("--dynamic", action="store_true",
                   help="the table and dy of dynamic sizes (row included)")
    p.add_argument("--embbag-opt", default=default_tool(
        "embbag-opt", [os.path.join(root, "build", "bin", "embbag-opt")]))
    p.add_argument("--pipeline", default="--embbag-to-llvm")
    p.add_argument("--mlir-runner", default=default_tool(
        "mlir-runner", [os.path.join(llvm_bin, "mlir-runner")]))
    p.add_argument("--shared-libs", default=None)
    p.add_argument("--path", default=None,
                   help="--determinism: embbag-to-llvm's path option (e.g. "
                        "gpu-loops, the GPU kernels on the host)")
    p.add_argument("--sorted-segments", action="store_true",
                   help="sort every segments case's positions by segment id "
                        "(the GPU kernels take sorted ids only)")
    p.add_argument("--keep", action="store_true",
                   help="keep the case files (their paths are printed)")
    p.add_argument("--verbose", "-v", action="store_true")
    a = p.parse_args(argv)
    if a.shared_libs is None:
        libdir = os.path.join(os.path.dirname(os.path.dirname(
            os.path.realpath(a.mlir_runner))), "lib")
        a.shared_libs = ",".join(os.path.join(libdir, l) for l in (
            "libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    cases = edge_cases() if a.edge_cases else []
    cases += [generate(a.seed, k) for k in range(a.count)]
    for c in cases:
        c["dynamic"] = a.dynamic
        if a.sorted_segments and c["form"] == "segments":
            sort_segments(c)
    passed = failed = 0
    for c in cases:
        diff = (check_determinism if a.determinism else check_case)(a, c)
        if diff:
            failed += 1
            print("FAIL %s" % describe(c))
            print("\n".join("  " + l for l in "\n".join(diff).splitlines()))
        else:
            passed += 1
            if a.verbose:
                print("ok %s" % describe(c))
    print("train_oracle: %d cases, %d passed, %d failed"
          % (passed + failed, passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
