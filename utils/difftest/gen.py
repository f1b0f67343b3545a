"""Random test cases for the embbag ops, emitted as standalone MLIR modules.

A case is a dict (see `generate`) holding the op, its attributes and its input
values; `emit_module` turns it into an upstream-style integration test: a
`func.func @main()` that builds the inputs with `arith.constant dense<...>`,
runs the embbag op (in the syntax of docs/EmbBag/EmbBagOps.md) and prints the result
with `printMemref*` of the MLIR runner utils.

Placement of the op:
- "call": the op lives in a public `func.func @embbag_case(...)` taking every
  operand (tensors and scalars) as an argument, called from @main with
  `{no_inline}`. The compiler sees no constant operand, so runtime-invalid
  inputs reach the runtime checks (and `--embbag-verify-constants` cannot
  reject them), and with `dynamic` the argument types have `?` dims (the
  constants go through `tensor.cast`). `num_segments` is an argument, so the
  segments result has a dynamic batch.
- "inline": the op sits in @main on the constants themselves (through
  `tensor.cast` when dynamic); only for valid cases.

Every case is reproducible from (seed, index): `generate(seed, index)`.
The cases of torch_oracle.py and rowwise.py are emitted by the same code; a
row-wise quantized case (`rowwise` set) has a table of bytes (`table_type`),
the `rowwise(iN)` clause last, and a result `[batch, D]` of its `etype`.

    python3 gen.py --seed 1 --count 20 --out /tmp/cases   # writes case files
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402

# ---------------------------------------------------------------------------
# Distributions
# ---------------------------------------------------------------------------

ETYPE_WEIGHTS = {
    "f32": 0.22, "f16": 0.09, "bf16": 0.09, "f64": 0.08,
    "i8": 0.05, "i16": 0.04, "i32": 0.05, "i64": 0.05,
    "si8": 0.04, "si16": 0.03, "si32": 0.03, "si64": 0.03,
    "ui8": 0.04, "ui16": 0.03, "ui32": 0.03, "ui64": 0.03,
}

# Row shapes (table.shape[1:]): rank-1 tables, row lengths that are and are not
# multiples of the vector width, multi-dimensional rows, and rows longer than
# the register file holds (several passes over each bag by default: 136 = 17
# vectors of 8, 130 = 16 and a masked tail).
ROW_SHAPES = [
    ((), 0.05), ((1,), 0.08), ((2,), 0.10), ((3,), 0.10), ((7,), 0.05),
    ((8,), 0.08), ((13,), 0.08), ((16,), 0.08), ((64,), 0.06), ((100,), 0.06),
    ((3, 5), 0.10), ((2, 3, 4), 0.06), ((4, 8), 0.05), ((1, 1), 0.05),
    ((130,), 0.03), ((2, 68), 0.02),
    # Rows of no elements: results of no elements, the contract still checked.
    ((0,), 0.02), ((3, 0), 0.01),
]

SHAPE_CLASSES = {
    "packed": [("basic", 0.40), ("zero_batch", 0.10), ("zero_indices", 0.15),
               ("big_bag", 0.10), ("single", 0.10), ("wide_bag", 0.15)],
    "offsets": [("basic", 0.25), ("empty_bags", 0.15), ("trailing_empty", 0.12),
                ("zero_batch", 0.08), ("zero_indices", 0.08),
                ("offset_prefix", 0.14), ("big_bag", 0.08), ("single", 0.10)],
    "segments": [("basic", 0.20), ("unsorted", 0.20), ("empty_bags", 0.17),
                 ("zero_batch", 0.08), ("zero_indices", 0.08),
                 ("big_bag", 0.10), ("single", 0.07), ("empty_tail", 0.10)],
}

INVALID_KINDS = {
    "packed": ["index"],
    "offsets": ["index", "default", "offset_decreasing", "offset_exceeds",
                "offset_negative"],
    "segments": ["index", "default", "segment_id", "num_segments"],
}

INVALID_FRACTION = 0.10

# Print functions of libmlir_runner_utils / libmlir_c_runner_utils and the
# element type each result type is printed as.
PRINT_AS = {
    "f32": "f32", "f64": "f64", "i32": "i32", "i64": "i64",
    "f16": "f32", "bf16": "f32",
    "i8": "i32", "i16": "i32", "si8": "i32", "si16": "i32", "si32": "i32",
    "si64": "i64", "ui8": "i32", "ui16": "i32", "ui32": "i64", "ui64": "i64",
}
PRINT_FN = {"f32": "printMemrefF32", "f64": "printMemrefF64",
            "i32": "printMemrefI32", "i64": "printMemrefI64"}


def _pick(rng, weighted):
    items = [w[0] for w in weighted]
    p = np.array([w[1] for w in weighted], dtype=np.float64)
    return items[rng.choice(len(items), p=p / p.sum())]


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


def _int_values(rng, etype, shape, vclass):
    """Integer values of `etype` (object array of Python ints)."""
    lo, hi = ref.int_range(etype)
    n = int(np.prod(shape, dtype=np.int64))
    if vclass == "bits01":
        vals = [int(v) for v in rng.integers(0, 2, size=n)]
    elif vclass == "small":
        slo = max(lo, -9)
        vals = [int(v) for v in rng.integers(slo, 10, size=n)]
    else:  # full range, with the extremes mixed in
        width = ref.int_width(etype)
        raw = rng.integers(0, 2 ** 63, size=n, dtype=np.uint64)
        raw2 = rng.integers(0, 2, size=n, dtype=np.uint64)
        vals = []
        for a, b in zip(raw, raw2):
            v = (int(a) << 1 | int(b)) & ((1 << width) - 1)
            vals.append(ref.wrap_int(v, etype))
        special = [lo, hi, 0, 1, lo + 1, hi - 1] + ([-1] if lo < 0 else [])
        for k in range(n):
            if rng.random() < 0.1:
                vals[k] = special[rng.integers(len(special))]
    return np.array(vals, dtype=object).reshape(shape)


def _float_values(rng, etype, shape, vclass, weights=False):
    """Float values that are exact in `etype` and keep sums exact in the
    accumulation type (multiples of 1/8 in [-8, 8] for tables, of 1/4 in
    [-2, 2] for weights), so that the result does not depend on the
    accumulation order."""
    if weights:
        v = rng.integers(-8, 9, size=shape) / 4.0
    elif vclass == "precision":
        # A large value next to small ones: accumulating in f16 / bf16 instead
        # of f32 loses the small ones (2048 + 0.5 == 2048 in f16).
        big = {"f16": 2048.0, "bf16": 256.0}.get(etype, 2048.0)
        choices = np.array([big, -big, 0.5, 0.5, 0.5, 1.0, -0.5, 0.25])
        v = choices[rng.integers(0, len(choices), size=shape)]
    elif vclass == "wide" and etype == "f64":
        k = rng.integers(-64, 65, size=shape) / 8.0
        v = k * np.exp2(rng.integers(-12, 13, size=shape).astype(np.float64))
    elif vclass == "integers":
        v = rng.integers(-9, 10, size=shape).astype(np.float64)
    else:
        v = rng.integers(-64, 65, size=shape) / 8.0
    v = np.asarray(v, dtype=np.float64).reshape(shape)
    assert ref.representable(v, etype)
    return v


def _values(rng, etype, shape, vclass, weights=False):
    if ref.is_int(etype):
        return _int_values(rng, etype, shape, vclass)
    return _float_values(rng, etype, shape, vclass, weights)


# ---------------------------------------------------------------------------
# Index structure per shape class
# ---------------------------------------------------------------------------


def _bag_sizes(rng, klass, batch_range=(1, 8), size_range=(1, 5)):
    if klass == "zero_batch":
        return []
    batch = int(rng.integers(batch_range[0], batch_range[1] + 1))
    if klass == "single":
        return [1]
    if klass == "zero_indices":
        return [0] * batch
    sizes = [int(rng.integers(size_range[0], size_range[1] + 1))
             for _ in range(batch)]
    if klass == "empty_bags":
        for b in range(batch):
            if rng.random() < 0.4:
                sizes[b] = 0
        sizes[int(rng.integers(batch))] = 0
    elif klass == "trailing_empty":
        t = int(rng.integers(1, min(3, batch) + 1))
        sizes[batch - t:] = [0] * t
    elif klass == "big_bag":
        batch = int(rng.integers(1, 3))
        sizes = [int(rng.integers(1, 4)) for _ in range(batch)]
        sizes[int(rng.integers(batch))] = int(rng.integers(130, 301))
    return sizes


def _index_values(rng, count, num_emb):
    if num_emb == 0:
        assert count == 0
        return []
    return [int(v) for v in rng.integers(0, num_emb, size=count)]


def _garbage_index(rng, num_emb, itype):
    """An index outside [0, num_emb) that fits T_IND."""
    limit = 2 ** 31 - 1 if itype == "i32" else 2 ** 63 - 1
    choices = [num_emb, num_emb + int(rng.integers(1, 5)), -1,
               -int(rng.integers(2, 100)), limit, -limit - 1]
    if itype == "i64":
        # Would be in range if truncated to 32 bits.
        choices.append(2 ** 32 + int(rng.integers(0, max(num_emb, 1))))
    return choices[int(rng.integers(len(choices)))]


# ---------------------------------------------------------------------------
# Case generation
# ---------------------------------------------------------------------------


def index_structure(rng, case, num_emb):
    """Draws the index operands of `case` for its op and shape class
    (case["op"], case["klass"], case["itype"]) from `rng`, with indices in
    [0, num_emb) (unread ones may be garbage): sets case["indices"] and
    case["offsets"] or case["segment_ids"] and case["num_segments"]; returns
    the number of indices the bags read. Also used by rowwise.py."""
    op, klass, itype = case["op"], case["klass"], case["itype"]
    if op == "packed":
        if klass == "zero_batch":
            batch, per_bag = 0, int(rng.integers(0, 4))
        elif klass == "zero_indices":
            batch, per_bag = int(rng.integers(1, 7)), 0
        elif klass == "single":
            batch, per_bag = 1, 1
        elif klass == "big_bag":
            batch, per_bag = int(rng.integers(1, 3)), int(rng.integers(130, 301))
        elif klass == "wide_bag":
            batch, per_bag = int(rng.integers(1, 4)), int(rng.integers(6, 20))
        else:
            batch, per_bag = int(rng.integers(1, 9)), int(rng.integers(1, 6))
        indices = _index_values(rng, batch * per_bag, num_emb)
        indices = np.array(indices, dtype=np.int64).reshape(batch, per_bag)
        case["indices"] = indices
        n_read = batch * per_bag
    elif op == "offsets":
        sizes = _bag_sizes(rng, "basic" if klass == "offset_prefix" else klass)
        prefix = int(rng.integers(1, 5)) if klass == "offset_prefix" else 0
        n = prefix + sum(sizes)
        if klass == "zero_batch":
            n = int(rng.integers(0, 5))
            prefix = n  # nothing is read
        offs, pos = [], prefix
        for s in sizes:
            offs.append(pos)
            pos += s
        body = _index_values(rng, n - prefix, num_emb)
        # Indices that no bag reads may be anything: out of range too.
        head = [_garbage_index(rng, num_emb, itype) if rng.random() < 0.6
                else int(rng.integers(0, num_emb)) for _ in range(prefix)]
        case["indices"] = np.array(head + body, dtype=np.int64)
        case["offsets"] = np.array(offs, dtype=np.int64)
        n_read = n - prefix
    else:
        if klass == "zero_batch":
            num_segments, ids = 0, []
        elif klass == "zero_indices":
            num_segments, ids = int(rng.integers(1, 6)), []
        elif klass == "single":
            num_segments, ids = int(rng.integers(1, 4)), []
            ids = [int(rng.integers(num_segments))]
        elif klass == "big_bag":
            num_segments = int(rng.integers(1, 4))
            big = int(rng.integers(num_segments))
            ids = [big] * int(rng.integers(130, 301)) + [
                int(rng.integers(num_segments)) for _ in range(3)]
        else:
            num_segments = int(rng.integers(1, 9))
            n = int(rng.integers(1, 13))
            allowed = list(range(num_segments))
            if klass == "empty_bags":
                keep = [s for s in allowed if rng.random() < 0.5]
                allowed = keep or [allowed[-1]]
            elif klass == "empty_tail":
                allowed = allowed[:max(1, len(allowed) // 2)]
                num_segments += int(rng.integers(1, 3))
            ids = [allowed[int(rng.integers(len(allowed)))] for _ in range(n)]
        ids = sorted(ids)
        if not SORTED_SEGMENTS and (klass in ("unsorted", "big_bag") or (
                klass == "empty_bags" and rng.random() < 0.5)):
            ids = [ids[k] for k in rng.permutation(len(ids))]
        case["indices"] = np.array(_index_values(rng, len(ids), num_emb),
                                   dtype=np.int64)
        case["segment_ids"] = np.array(ids, dtype=np.int64)
        case["num_segments"] = num_segments
        n_read = len(ids)
    return n_read


# Whether segment ids are always sorted (difftest.py --sorted-segments): the
# GPU kernels need them sorted.
SORTED_SEGMENTS = False


def generate(seed, index, invalid=None):
    """Case number `index` of the sequence `seed` (deterministic).
    `invalid` forces (True) or forbids (False) a runtime-invalid case."""
    rng = np.random.default_rng([int(seed), int(index)])
    op = ["packed", "offsets", "segments"][int(rng.integers(3))]
    if invalid is None:
        invalid = rng.random() < INVALID_FRACTION
    etype = _pick(rng, list(ETYPE_WEIGHTS.items()))
    itype = "i32" if rng.random() < 0.5 else "i64"
    reduction = "mean" if rng.random() < 0.35 else "sum"
    klass = _pick(rng, SHAPE_CLASSES[op])
    if invalid and klass in ("zero_batch", "zero_indices"):
        klass = "basic"
    row_shape = _pick(rng, ROW_SHAPES)
    if klass == "big_bag" and int(np.prod(row_shape, dtype=np.int64)) > 16:
        row_shape = (3,)

    num_emb = int(rng.integers(1, 25)) if rng.random() < 0.85 else int(
        rng.integers(25, 200))
    case = {
        "seed": int(seed), "index": int(index), "op": op,
        "reduction": reduction, "etype": etype, "itype": itype,
        "klass": klass, "row_shape": tuple(row_shape),
        "offsets": None, "segment_ids": None, "num_segments": None,
        "default": None, "weights": None, "invalid": None,
    }

    n_read = index_structure(rng, case, num_emb)

    # A table with no rows is valid when no index is read.
    if n_read == 0 and not invalid and rng.random() < 0.15:
        num_emb = 0
        if op == "offsets":  # the unread indices are garbage anyway
            pass
    case["num_emb"] = num_emb

    # Values.
    if ref.is_int(etype):
        vclass = ["full", "full", "small"][int(rng.integers(3))]
        if klass == "big_bag" and ref.int_width(etype) <= 16:
            vclass = "bits01"  # the mean's divisor exceeds T's range
    else:
        vclass = "exact"
        r = rng.random()
        if etype in ("f16", "bf16") and r < 0.3:
            vclass = "precision"
        elif etype == "f64" and r < 0.3:
            vclass = "wide"
        elif r < 0.45:
            vclass = "integers"
    case["vclass"] = vclass
    case["table"] = _values(rng, etype, (num_emb,) + tuple(row_shape), vclass)
    if reduction == "sum" and rng.random() < 0.5:
        wshape = case["indices"].shape
        wclass = vclass if ref.is_int(etype) else "exact"
        case["weights"] = _values(rng, etype, wshape, wclass, weights=True)
    if op != "packed":
        r = rng.random()
        if r < 0.4:
            case["default"] = None
        elif r < 0.6 or num_emb == 0:
            case["default"] = -1
        else:
            case["default"] = int(rng.integers(0, num_emb))

    _extend(case, np.random.default_rng([int(seed), int(index), 1]), invalid)
    bad_padding = _pad(case, np.random.default_rng([int(seed), int(index), 2]),
                       invalid)

    # Shapes: static, or `?` dims.
    case["dynamic"] = bool(rng.random() < 0.5)
    case["placement"] = "call" if (invalid or rng.random() < 0.7) else "inline"

    if invalid:
        _make_invalid(rng, case)
    elif bad_padding:
        # A case whose only violation is its padding_idx; in the call
        # placement, like every invalid case (the draws of `rng` stay those
        # of the valid case it was).
        case["invalid"] = "padding_idx"
        case["placement"] = "call"
        invalid = True

    case["dyn"] = _dynamic_masks(rng, case)
    checks = _violations(case)
    if invalid:
        assert checks, "generator failed to make an invalid case"
    else:
        assert not checks, checks
    case["checks"] = checks
    return case


def _extend(case, side, invalid):
    """The extensions beyond the specifications: some means become `max`,
    some float sums and means `sqrtn` (sums keep their weights), and some
    valid offsets cases get include_last_offset (the number of indices
    appended as the closing offset, then indices that no bag reads). Drawn
    from their own stream `side`, so that the rest of a case is what it was
    before they existed."""
    if case["reduction"] == "mean" and side.random() < 0.4:
        case["reduction"] = "max"
    elif ref.is_float(case["etype"]) and side.random() < 0.2:
        case["reduction"] = "sqrtn"
    if case["op"] != "offsets" or invalid or side.random() >= 0.3:
        return
    include_last_offset(case, side, int(side.integers(0, 3)))


def include_last_offset(case, side, tail):
    """Makes an offsets case one with include_last_offset: the number of
    indices appended as the closing offset, then `tail` indices that no bag
    reads (garbage, out of range too) and their weights, drawn from `side`.
    Also used by rowwise.py."""
    case["include_last_offset"] = True
    n = len(case["indices"])
    case["offsets"] = np.append(case["offsets"], n).astype(np.int64)
    garbage = [_garbage_index(side, case["num_emb"], case["itype"])
               for _ in range(tail)]
    # (An int64 array of its own: appending an empty list would make a
    # float64 array, and the cast back would turn 2^63 - 1 into -2^63.)
    case["indices"] = np.append(case["indices"],
                                np.array(garbage, dtype=np.int64))
    if case["weights"] is not None:
        wclass = case["vclass"] if ref.is_int(case["etype"]) else "exact"
        extra = _values(side, case["etype"], (tail,), wclass, weights=True)
        case["weights"] = np.concatenate([case["weights"], extra])


def _read_positions(case):
    """The flat positions of the indices that the bags read."""
    n = len(case["indices"].reshape(-1))
    if case["op"] != "offsets":
        return list(range(n))
    offs = case["offsets"]
    if not len(offs):
        return []
    end = int(offs[-1]) if case.get("include_last_offset") else n
    return list(range(int(offs[0]), end))


def _pad(case, side, invalid):
    """PyTorch's padding_idx on some cases: -1 (none) or a row of the table,
    then written over some of the indices the bags read (whole bags of
    padding too). Drawn from a stream of its own, like `_extend`. Returns
    whether to make the case invalid through its padding_idx alone (out of
    [-1, num_emb)): some valid cases become such."""
    case["padding_idx"] = None
    if side.random() >= 0.3:
        return False
    num_emb = case["num_emb"]
    if num_emb == 0 or side.random() < 0.25:
        case["padding_idx"] = -1
    else:
        p = int(side.integers(0, num_emb))
        case["padding_idx"] = p
        if side.random() < 0.7:
            flat = case["indices"].reshape(-1)
            share = [0.2, 0.5, 0.9][int(side.integers(3))]
            for pos in _read_positions(case):
                if side.random() < share:
                    flat[pos] = p
    if invalid or side.random() >= 0.15:
        return False
    limit = 2 ** 31 - 1 if case["itype"] == "i32" else 2 ** 63 - 1
    choices = [num_emb, num_emb + int(side.integers(1, 10)), -2,
               -int(side.integers(3, 1000)), limit, -limit - 1]
    case["padding_idx"] = choices[int(side.integers(len(choices)))]
    return True


def _make_invalid(rng, case):
    op, num_emb, itype = case["op"], case["num_emb"], case["itype"]
    kinds = list(INVALID_KINDS[op])
    n = len(case["indices"].ravel())
    read = list(range(n))
    if op == "offsets":
        offs = case["offsets"]
        read = list(range(int(offs[0]), n)) if len(offs) else []
    if not read:
        kinds = [k for k in kinds if k not in ("index", "segment_id")]
    if op == "offsets" and len(case["offsets"]) < 2:
        kinds = [k for k in kinds if k != "offset_decreasing"]
    if op == "offsets" and len(case["offsets"]) < 1:
        kinds = [k for k in kinds if k not in ("offset_exceeds",
                                               "offset_negative")]
    if not kinds:
        kinds = ["default"] if op != "packed" else []
    assert kinds, "no way to make this case invalid"
    kind = kinds[int(rng.integers(len(kinds)))]
    case["invalid"] = kind
    if kind == "index":
        flat = case["indices"].reshape(-1)
        flat[read[int(rng.integers(len(read)))]] = _garbage_index(
            rng, num_emb, itype)
    elif kind == "default":
        limit = 2 ** 31 - 1 if itype == "i32" else 2 ** 63 - 1
        choices = [num_emb, num_emb + int(rng.integers(1, 10)), -2,
                   -int(rng.integers(3, 1000)), limit, -limit - 1]
        case["default"] = choices[int(rng.integers(len(choices)))]
    elif kind == "offset_decreasing":
        offs = case["offsets"]
        b = int(rng.integers(1, len(offs)))
        if offs[b] < n:
            offs[b - 1] = offs[b] + 1
        elif offs[b - 1] >= 1:
            offs[b] = offs[b - 1] - 1
        elif n >= 1:
            offs[b - 1], offs[b] = n, n - 1
        else:  # no indices: a decrease has to go negative
            offs[b] = -1
    elif kind == "offset_exceeds":
        offs = case["offsets"]
        b = int(rng.integers(len(offs)))
        offs[b:] = n + int(rng.integers(1, 4))
    elif kind == "offset_negative":
        case["offsets"][0] = -int(rng.integers(1, 5))
    elif kind == "segment_id":
        ids = case["segment_ids"]
        s = case["num_segments"]
        bad = [s, s + int(rng.integers(1, 5)), -1, -int(rng.integers(2, 50))]
        ids[int(rng.integers(len(ids)))] = bad[int(rng.integers(len(bad)))]
    elif kind == "num_segments":
        case["num_segments"] = -int(rng.integers(1, 4))


def _violations(case):
    return ref.contract_violations(
        case["op"], case["num_emb"], case["indices"], case["offsets"],
        case["segment_ids"], case["num_segments"], case["default"],
        case.get("include_last_offset", False), case.get("padding_idx"))


def _dynamic_masks(rng, case):
    """Which dims of each tensor operand are `?` (all False when static)."""
    ranks = {"table": 1 + len(case["row_shape"]),
             "indices": case["indices"].ndim}
    if case["offsets"] is not None:
        ranks["offsets"] = 1
    if case["segment_ids"] is not None:
        ranks["segment_ids"] = 1
    if case["weights"] is not None:
        ranks["weights"] = case["indices"].ndim
    masks = {k: [False] * r for k, r in ranks.items()}
    if not case["dynamic"]:
        return masks
    for k, r in ranks.items():
        masks[k] = [bool(rng.random() < 0.6) for _ in range(r)]
    if not any(any(m) for m in masks.values()):
        masks["table"][0] = True
    return masks


def expected(case):
    """The reference result, or raises reference.ContractViolation."""
    return ref.compute(case["op"], case["reduction"], case["etype"],
                       case["table"], case["indices"], case["offsets"],
                       case["segment_ids"], case["num_segments"],
                       case["default"], case["weights"],
                       case.get("include_last_offset", False),
                       case.get("padding_idx"))


def expected_shape(case):
    """The shape of the result when the case is valid."""
    op = case["op"]
    if op == "packed":
        batch = case["indices"].shape[0]
    elif op == "offsets":
        batch = len(case["offsets"])
        if case.get("include_last_offset"):
            batch = max(batch - 1, 0)
    else:
        batch = max(case["num_segments"], 0)
    return (batch,) + tuple(case["row_shape"])


def _type_text(case):
    """T, or for a row-wise quantized table the bytes, the code width and
    the result type."""
    if not case.get("rowwise"):
        return case["etype"]
    return "%s rowwise(i%d)%s result=%s" % (
        case["table_type"], case["rowwise"],
        " static-D" if case.get("static_d") else "", case["etype"])


def describe(case):
    d = case["default"]
    p = case.get("padding_idx")
    return ("op=%s reduction=%s T=%s T_IND=%s class=%s rows=%s num_emb=%d "
            "values=%s weights=%s default=%s shapes=%s placement=%s "
            "invalid=%s%s%s" % (
                case["op"], case["reduction"], _type_text(case), case["itype"],
                case["klass"], list(case["row_shape"]), case["num_emb"],
                case["vclass"], "yes" if case["weights"] is not None else "no",
                "none" if d is None else d,
                "dynamic" if case["dynamic"] else "static",
                case["placement"], case["invalid"] or "no",
                " include_last_offset" if case.get("include_last_offset")
                else "", "" if p is None else " padding_idx=%d" % p)) + (
                    " oracle=%s" % case["oracle"] if case.get("oracle") else "")


# ---------------------------------------------------------------------------
# MLIR emission
# ---------------------------------------------------------------------------


def fmt_float(x):
    x = float(x)
    if not np.isfinite(x):
        raise ValueError("non-finite value %r in a case" % x)
    s = repr(x)
    if "e" in s or "E" in s:
        mant, exp = s.lower().split("e")
        if "." not in mant:
            mant += ".0"
        s = mant + "e" + exp
    elif "." not in s:
        s += ".0"
    return s


def float_bits(x, etype):
    """A non-finite float as the hexadecimal bit pattern of `etype`, the
    form MLIR's dense literals take for NaN and infinities (only --mock
    results hold them: a weighted sqrtn over zero weights is 0 / 0)."""
    if etype == "f64":
        return "0x%016X" % int(np.array(x, dtype=np.float64).view(np.uint64))
    bits = int(np.array(x, dtype=np.float32).view(np.uint32))
    if etype == "f32":
        return "0x%08X" % bits
    if etype == "bf16":
        return "0x%04X" % (bits >> 16)
    return "0x%04X" % int(np.array(x, dtype=np.float16).view(np.uint16))


def dense(values, etype_or_itype):
    """The body of `dense<...>` for an array of values."""
    arr = np.asarray(values, dtype=object)
    if arr.size == 0:
        return "dense<>"
    is_f = etype_or_itype in ref.FLOAT_TYPES

    def rec(a):
        if not isinstance(a, np.ndarray) or a.ndim == 0:
            v = a.item() if isinstance(a, np.ndarray) else a
            if is_f and not np.isfinite(float(v)):
                return float_bits(v, etype_or_itype)
            return fmt_float(v) if is_f else str(int(v))
        return "[" + ", ".join(rec(a[k]) for k in range(a.shape[0])) + "]"
    return "dense<%s>" % rec(arr)


def tensor_type(shape, etype, mask=None):
    dims = []
    for k, d in enumerate(shape):
        dims.append("?" if (mask and mask[k]) else str(d))
    return "tensor<%s>" % "x".join(dims + [etype])


def _operands(case):
    """[(name, static shape, element type, is_scalar, value)] in operand
    order."""
    e, i = case["etype"], case["itype"]
    # A row-wise quantized table holds bytes (rowwise.py); T is the result's.
    t = case.get("table_type", e)
    ops = [("table", case["table"].shape, t, False, case["table"]),
           ("indices", case["indices"].shape, i, False, case["indices"])]
    if case["op"] == "offsets":
        ops.append(("offsets", case["offsets"].shape, i, False,
                    case["offsets"]))
    if case["op"] == "segments":
        ops.append(("segment_ids", case["segment_ids"].shape, i, False,
                    case["segment_ids"]))
        ops.append(("num_segments", None, i, True, case["num_segments"]))
    if case["default"] is not None:
        ops.append(("default", None, i, True, case["default"]))
    if case.get("padding_idx") is not None:
        ops.append(("padding_idx", None, i, True, case["padding_idx"]))
    if case["weights"] is not None:
        ops.append(("weights", case["weights"].shape, e, False,
                    case["weights"]))
    return ops


def _op_text(case, names, types, result_type):
    """The embbag op, docs/EmbBag/EmbBagOps.md syntax."""
    op = case["op"]
    parts = ["embbag.%s %s %%%s[%%%s]" % (op, case["reduction"], names["table"],
                                           names["indices"])]
    if op == "offsets":
        parts.append("offsets(%%%s)" % names["offsets"])
        if case.get("include_last_offset"):
            parts.append("include_last_offset")
    if op == "segments":
        parts.append("segment_ids(%%%s)" % names["segment_ids"])
        parts.append("num_segments(%%%s)" % names["num_segments"])
    if "default" in names:
        parts.append("default(%%%s)" % names["default"])
    if "padding_idx" in names:
        parts.append("padding_idx(%%%s)" % names["padding_idx"])
    if "weights" in names:
        parts.append("weights(%%%s)" % names["weights"])
    if case.get("rowwise"):
        parts.append("rowwise(i%d)" % case["rowwise"])
    return "%s\n      : (%s) -> %s" % (" ".join(parts), ", ".join(types),
                                      result_type)


def result_type_of(case, operand_types_dyn, num_segments_const):
    """The inferred result type given the operand dims (masks)."""
    e = case["etype"]
    shape = list(expected_shape(case))
    dyn = [False] * len(shape)
    masks = operand_types_dyn
    if case["op"] == "packed":
        dyn[0] = masks["indices"][0]
    elif case["op"] == "offsets":
        dyn[0] = masks["offsets"][0]
    else:
        dyn[0] = not num_segments_const
    for k in range(1, len(shape)):
        dyn[k] = masks["table"][k]
    if case.get("rowwise"):
        # [batch, D]: D is static for i4 / i2; for i8 it follows the table's
        # row (bytes - 8), or is declared static over a `?` row.
        dyn[1] = (case["rowwise"] == 8 and masks["table"][1]
                  and not case.get("static_d"))
    return tensor_type(shape, e, dyn), dyn


def emit_module(case, mock_result=None):
    """The MLIR module of `case`. With `mock_result` (an array of the result's
    values) the embbag op is replaced by a constant holding them: used to
    check the harness (printing, parsing, comparing) with upstream passes
    only."""
    e = case["etype"]
    ops = _operands(case)
    masks = case["dyn"]
    call = case["placement"] == "call"
    lines = []
    lines.append("// embbag difftest case %d:%d" % (case["seed"], case["index"]))
    lines.append("// " + describe(case))
    if case["checks"]:
        lines.append("// runtime-invalid: " + "; ".join(
            "%s (%s)" % c for c in case["checks"]))
    else:
        lines.append("// expected sizes = %s" % list(expected_shape(case)))
    if mock_result is not None:
        lines.append("// MOCK: the embbag op is replaced by the reference result")
    lines.append("")

    res_type, res_dyn = result_type_of(case, masks, num_segments_const=not call)
    res_shape = expected_shape(case)
    pelt = PRINT_AS[e]
    direct = pelt == e
    pfn = PRINT_FN[pelt]
    if direct:
        lines.append("func.func private @%s(tensor<*x%s>) attributes "
                     "{ llvm.emit_c_interface }" % (pfn, pelt))
    else:
        lines.append("func.func private @%s(memref<*x%s>) attributes "
                     "{ llvm.emit_c_interface }" % (pfn, pelt))
    lines.append("")

    def arg_type(name, shape, elt, scalar):
        if scalar:
            return elt
        return tensor_type(shape, elt, masks[name])

    def mock_body(indent):
        static_t = tensor_type(res_shape, e)
        if static_t == res_type:
            return ["%s%%result = arith.constant %s : %s"
                    % (indent, dense(mock_result, e), static_t)]
        return ["%s%%mock = arith.constant %s : %s"
                % (indent, dense(mock_result, e), static_t),
                "%s%%result = tensor.cast %%mock : %s to %s"
                % (indent, static_t, res_type)]

    if call:
        params, types, names = [], [], {}
        for name, shape, elt, scalar, _ in ops:
            t = arg_type(name, shape, elt, scalar)
            params.append("%%%s: %s" % (name, t))
            types.append(t)
            names[name] = name
        lines.append("func.func @embbag_case(%s) -> %s {"
                     % (", ".join(params), res_type))
        if mock_result is None:
            lines.append("  %%result = %s" % _op_text(case, names, types,
                                                       res_type))
        else:
            lines.extend(mock_body("  "))
        lines.append("  return %%result : %s" % res_type)
        lines.append("}")
        lines.append("")

    lines.append("func.func @main() {")
    args, arg_types, names = [], [], {}
    for name, shape, elt, scalar, value in ops:
        if scalar:
            lines.append("  %%%s = arith.constant %d : %s" % (name, value, elt))
            args.append("%" + name)
            arg_types.append(elt)
            names[name] = name
            continue
        st = tensor_type(shape, elt)
        lines.append("  %%%s = arith.constant %s : %s" % (name, dense(value, elt),
                                                           st))
        dt = tensor_type(shape, elt, masks[name])
        if dt != st:
            lines.append("  %%%s_dyn = tensor.cast %%%s : %s to %s"
                         % (name, name, st, dt))
            args.append("%%%s_dyn" % name)
            names[name] = name + "_dyn"
        else:
            args.append("%" + name)
            names[name] = name
        arg_types.append(dt)
    if call:
        lines.append("  %%result = call @embbag_case(%s) {no_inline}\n"
                     "      : (%s) -> %s" % (", ".join(args), ", ".join(arg_types),
                                            res_type))
    elif mock_result is None:
        lines.append("  %%result = %s" % _op_text(case, names, arg_types,
                                                   res_type))
    else:
        lines.extend(mock_body("  "))
    lines.extend(_epilogue(e, res_shape, res_dyn, res_type))
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _epilogue(etype, shape, dyn, res_type):
    """Prints %result (of type `res_type`) with printMemref*.

    f32, f64, i32 and i64 results are printed as they are (`tensor.cast` to an
    unranked tensor). Other types are converted element by element into a
    buffer of the print type: f16 / bf16 with arith.extf to f32, signless
    i8 / i16 with arith.extsi to i32; si* / ui* elements, on which arith does
    not operate, are first reinterpreted as signless through vector.bitcast
    of a 1-element vector, then sign- (si) or zero- (ui) extended: to i32 for
    8 and 16 bits, to i64 for ui32 (ui64 and si64 print as i64 bit patterns,
    si32 as i32)."""
    pelt = PRINT_AS[etype]
    pfn = PRINT_FN[pelt]
    rank = len(shape)
    out = []
    if pelt == etype:
        out.append("  %%printed = tensor.cast %%result : %s to tensor<*x%s>"
                   % (res_type, pelt))
        out.append("  call @%s(%%printed) : (tensor<*x%s>) -> ()" % (pfn, pelt))
        return out
    dims = "x".join(["?" if dyn[k] else str(shape[k]) for k in range(rank)] +
                    [etype])
    strided = "strided<[%s], offset: ?>" % ", ".join(["?"] * rank)
    btype = "memref<%s, %s>" % (dims, strided)
    otype = "memref<%s>" % "x".join(
        ["?" if dyn[k] else str(shape[k]) for k in range(rank)] + [pelt])
    out.append("  %%buf = bufferization.to_buffer %%result : %s to %s"
               % (res_type, btype))
    for k in range(max(rank, 2)):
        out.append("  %%c%d = arith.constant %d : index" % (k, k))
    for k in range(rank):
        out.append("  %%d%d = memref.dim %%buf, %%c%d : %s" % (k, k, btype))
    dyn_sizes = ", ".join("%%d%d" % k for k in range(rank) if dyn[k])
    out.append("  %%out = memref.alloc(%s) : %s" % (dyn_sizes, otype))
    ivs = ", ".join("%%i%d" % k for k in range(rank))
    indent = "  "
    for k in range(rank):
        out.append("%sscf.for %%i%d = %%c0 to %%d%d step %%c1 {" % (indent, k, k))
        indent += "  "
    out.append("%s%%x = memref.load %%buf[%s] : %s" % (indent, ivs, btype))
    if ref.is_float(etype):
        out.append("%s%%y = arith.extf %%x : %s to f32" % (indent, etype))
        y = "%y"
    else:
        width = ref.int_width(etype)
        signless = "i%d" % width
        val = "%x"
        if etype != signless:
            out.append("%s%%v = vector.broadcast %%x : %s to vector<1x%s>"
                       % (indent, etype, etype))
            out.append("%s%%vb = vector.bitcast %%v : vector<1x%s> to "
                       "vector<1x%s>" % (indent, etype, signless))
            out.append("%s%%s = vector.extract %%vb[0] : %s from vector<1x%s>"
                       % (indent, signless, signless))
            val = "%s"
        if pelt == signless:
            y = val
        else:
            ext = "extui" if not ref.is_signed(etype) else "extsi"
            out.append("%s%%y = arith.%s %s : %s to %s"
                       % (indent, ext, val, signless, pelt))
            y = "%y"
    out.append("%smemref.store %s, %%out[%s] : %s" % (indent, y, ivs, otype))
    for k in range(rank):
        indent = indent[:-2]
        out.append("%s}" % indent)
    out.append("  %%printed = memref.cast %%out : %s to memref<*x%s>"
               % (otype, pelt))
    out.append("  call @%s(%%printed) : (memref<*x%s>) -> ()" % (pfn, pelt))
    # No memref.dealloc: the ownership-based buffer deallocation rejects
    # input IR that frees memory itself; the deallocation passes free %out.
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--out", required=True, help="directory for the .mlir files")
    a = p.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    for k in range(a.start, a.start + a.count):
        case = generate(a.seed, k)
        path = os.path.join(a.out, "case-%d-%05d.mlir" % (a.seed, k))
        with open(path, "w") as f:
            f.write(emit_module(case))
        print("%s: %s" % (path, describe(case)))


if __name__ == "__main__":
    main()
