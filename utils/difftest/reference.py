"""Independent NumPy reference of the embbag ops (docs/EmbBag/EmbBagOps.md).

Written from docs/EmbBag/EmbBagOps.md and the OpenVINO specifications only; it shares
no code with the compiler. Three entry points compute an op's result:

    packed(reduction, etype, table, indices, weights=None, padding_idx=None)
    offsets(reduction, etype, table, indices, offsets, default=None, weights=None,
            include_last_offset=False, padding_idx=None)
    segments(reduction, etype, table, indices, segment_ids, num_segments,
             default=None, weights=None, padding_idx=None)

and `contract_violations(...)` tells whether the inputs break the runtime
contract and which checks fire.

Values:
- `etype` is the MLIR element type T: i8 i16 i32 i64 (signless, treated as
  signed), si8 .. si64, ui8 .. ui64, f16, bf16, f32, f64.
- Integer tables and weights are any integer arrays (or lists); values are
  taken modulo 2^width, so -1 and 255 are the same ui8/i8 element.
  Integer results are numpy object arrays of Python ints, in [-2^(w-1), 2^(w-1))
  for signless and si types and in [0, 2^w) for ui types.
- Float tables and weights are rounded to T first (bf16 emulated by rounding
  f32 to bf16, round to nearest even). Float results are float64 arrays holding
  values of T.
- `default` is None (absent), -1 (the same as absent) or a row index.
- `padding_idx` is None (absent), -1 (the same as absent) or a row index.

Semantics (docs/EmbBag/EmbBagOps.md):
- result shape [batch] + table.shape[1:]; batch = indices.shape[0] (packed),
  len(offsets) (offsets), num_segments (segments);
- an empty bag / segment takes the row table[default] (unweighted, undivided,
  also for mean) when default is given and >= 0, zeros otherwise; packed with
  0 indices per bag: every bag is empty, zeros (also for mean);
- offsets: bag b is indices[offsets[b]:offsets[b+1]], the last bag running to
  num_indices; indices before offsets[0] are never read;
- segments: row s reduces the indices i with segment_ids[i] == s, in any
  order (the reference accumulates in index order);
- floats: f16 and bf16 multiply and accumulate in f32 and round once to T at
  the end (after the mean's division); f32 accumulates in f32, f64 in f64;
- integers: products and sums wrap in T; mean = wrapped sum / true count,
  truncating toward zero, unsigned T divides unsigned, the count is never
  wrapped;
- padding_idx (PyTorch's): the positions whose index equals it are left out
  of their bag before anything else: not summed, not counted by mean and
  sqrtn, not in max, their weights not in the sqrtn norm; a bag of only
  padding is an empty bag (default row or zeros).
"""

import numpy as np

INT_TYPES = {}
for _w in (8, 16, 32, 64):
    INT_TYPES["i%d" % _w] = (_w, True)
    INT_TYPES["si%d" % _w] = (_w, True)
    INT_TYPES["ui%d" % _w] = (_w, False)
FLOAT_TYPES = ("f16", "bf16", "f32", "f64")
ALL_TYPES = tuple(INT_TYPES) + FLOAT_TYPES
OPS = ("packed", "offsets", "segments")
REDUCTIONS = ("sum", "mean", "max", "sqrtn")


class ContractViolation(Exception):
    """The inputs break the op's runtime contract; `.checks` lists which."""

    def __init__(self, checks):
        super().__init__("; ".join("%s: %s" % c for c in checks))
        self.checks = checks


def is_int(etype):
    return etype in INT_TYPES


def is_float(etype):
    return etype in FLOAT_TYPES


def int_width(etype):
    return INT_TYPES[etype][0]


def is_signed(etype):
    return INT_TYPES[etype][1]


def int_range(etype):
    """[lo, hi] of the values of integer type `etype`."""
    w, signed = INT_TYPES[etype]
    if signed:
        return -(1 << (w - 1)), (1 << (w - 1)) - 1
    return 0, (1 << w) - 1


def wrap_int(value, etype):
    """Python int `value` wrapped into integer type `etype`."""
    w, signed = INT_TYPES[etype]
    value = int(value) & ((1 << w) - 1)
    if signed and value >= 1 << (w - 1):
        value -= 1 << w
    return value


# ---------------------------------------------------------------------------
# Floating-point helpers
# ---------------------------------------------------------------------------


def round_bf16(x):
    """Rounds float32 values to bf16 (round to nearest, ties to even), returns
    float32 arrays holding bf16 values. NaNs stay NaNs."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    lsb = (bits >> np.uint64(16)) & np.uint64(1)
    rounded = ((bits + np.uint64(0x7FFF) + lsb) >> np.uint64(16)) << np.uint64(16)
    out = (rounded & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), x, out).astype(np.float32)


def round_to(x, etype):
    """Rounds float values (any float dtype) to float type `etype`; returns an
    array of the accumulation type (float64 for f64, float32 otherwise)."""
    x = np.asarray(x, dtype=np.float64)
    if etype == "f64":
        return x.copy()
    with np.errstate(over="ignore"):
        x32 = x.astype(np.float32)
    if etype == "f32":
        return x32
    if etype == "f16":
        with np.errstate(over="ignore"):
            return x32.astype(np.float16).astype(np.float32)
    if etype == "bf16":
        return round_bf16(x32)
    raise ValueError("not a float type: %s" % etype)


def acc_dtype(etype):
    return np.float64 if etype == "f64" else np.float32


def representable(x, etype):
    """True when every value of `x` is exactly a value of `etype`."""
    if is_int(etype):
        lo, hi = int_range(etype)
        return all(lo <= int(v) <= hi for v in np.asarray(x, dtype=object).ravel())
    x = np.asarray(x, dtype=np.float64)
    return bool(np.all(round_to(x, etype).astype(np.float64) == x))


# ---------------------------------------------------------------------------
# Runtime contract
# ---------------------------------------------------------------------------


def _ints(a):
    return [int(v) for v in np.asarray(a, dtype=object).ravel()]


def contract_violations(op, num_emb, indices, offsets=None, segment_ids=None,
                        num_segments=None, default=None,
                        include_last_offset=False, padding_idx=None):
    """The runtime checks that the inputs fail, as a list of (check, detail).

    Checks (docs/EmbBag/EmbBagOps.md, 'invalid runtime values' / 'what is checked'):
      'index'          an index that a bag reads is outside [0, num_emb)
                       (offsets: only indices[offsets[0]:] are read);
      'default'        default given, != -1 and outside [0, num_emb)
                       (checked whether or not a bag is empty);
      'offset'         an offset is negative, smaller than the one before it,
                       or greater than num_indices; with include_last_offset
                       no offset at all;
      'segment_id'     a segment id outside [0, num_segments);
      'num_segments'   num_segments < 0;
      'padding_idx'    padding_idx given, != -1 and outside [0, num_emb)
                       (checked whether or not an index equals it).
    An index equal to a valid padding_idx is in [0, num_emb) anyway, so the
    'index' check needs not know it.
    An empty list means the inputs are valid.
    """
    out = []
    idx = _ints(indices)
    n = len(idx)
    read_to = n
    if default is not None and default != -1 and not 0 <= default < num_emb:
        out.append(("default", "default index %d is out of range [0, %d)"
                    % (default, num_emb)))
    if (padding_idx is not None and padding_idx != -1
            and not 0 <= padding_idx < num_emb):
        out.append(("padding_idx", "padding_idx %d is out of range [0, %d)"
                    % (padding_idx, num_emb)))
    read_from = 0
    if op == "offsets":
        offs = _ints(offsets)
        prev = 0
        for b, o in enumerate(offs):
            if o < 0:
                out.append(("offset", "offsets[%d] = %d is negative" % (b, o)))
                break
            if o < prev:
                out.append(("offset", "offsets[%d] = %d is smaller than "
                            "offsets[%d] = %d" % (b, o, b - 1, prev)))
                break
            if o > n:
                out.append(("offset", "offsets[%d] = %d exceeds the number of "
                            "indices, %d" % (b, o, n)))
                break
            prev = o
        # Indices before offsets[0] belong to no bag; with no bag at all no
        # index is read; with include_last_offset none from the last offset
        # on.
        read_from = min(max(offs[0], 0), n) if offs else n
        if include_last_offset:
            if not offs:
                out.append(("offset", "no offsets with include_last_offset"))
            else:
                read_to = min(max(offs[-1], read_from), n)
    elif op == "segments":
        if num_segments < 0:
            out.append(("num_segments", "num_segments = %d is negative"
                        % num_segments))
        for i, s in enumerate(_ints(segment_ids)):
            if not 0 <= s < num_segments:
                out.append(("segment_id", "segment_ids[%d] = %d is out of "
                            "range [0, %d)" % (i, s, num_segments)))
                break
    elif op != "packed":
        raise ValueError("unknown op %r" % op)
    for i in range(read_from, read_to):
        if not 0 <= idx[i] < num_emb:
            out.append(("index", "index %d at flat position %d is out of "
                        "range [0, %d)" % (idx[i], i, num_emb)))
            break
    return out


# ---------------------------------------------------------------------------
# Reduction of bags
# ---------------------------------------------------------------------------


def _reduce_bags(reduction, etype, table, flat_indices, flat_weights, bags,
                 default, padding_idx=None):
    """result[b] = reduction over positions `bags[b]` of
    weights[p] * table[indices[p]]; empty bags take table[default] or zeros.
    Positions holding padding_idx (when >= 0) are dropped from their bag
    first."""
    if reduction not in REDUCTIONS:
        raise ValueError("unknown reduction %r" % reduction)
    if reduction in ("mean", "max") and flat_weights is not None:
        raise ValueError("weights are only supported with 'sum' and 'sqrtn' "
                         "(the verifier rejects mean and max with weights)")
    if reduction == "sqrtn" and not is_float(etype):
        raise ValueError("sqrtn needs a float type (a verifier error)")
    table = np.asarray(table, dtype=object if is_int(etype) else np.float64)
    row_shape = table.shape[1:]
    row_size = int(np.prod(row_shape, dtype=np.int64))
    if padding_idx is not None and padding_idx >= 0:
        bags = [[p for p in pos if int(flat_indices[p]) != padding_idx]
                for pos in bags]
    batch = len(bags)
    use_default = default is not None and default >= 0

    if is_float(etype):
        adt = acc_dtype(etype)
        tab = round_to(table, etype).astype(adt).reshape(table.shape[0], row_size)
        w = None
        if flat_weights is not None:
            w = round_to(flat_weights, etype).astype(adt).ravel()
        out = np.zeros((batch, row_size), dtype=adt)
        for b, pos in enumerate(bags):
            if not pos:
                if use_default:
                    out[b] = tab[default]
                continue
            if reduction == "max":
                out[b] = np.max(tab[[flat_indices[p] for p in pos]], axis=0)
                continue
            acc = np.zeros(row_size, dtype=adt)
            for p in pos:
                row = tab[flat_indices[p]]
                term = row if w is None else (w[p] * row).astype(adt)
                acc = (acc + term).astype(adt)
            if reduction == "mean":
                acc = (acc / adt(len(pos))).astype(adt)
            if reduction == "sqrtn":
                # TensorFlow's combiner: the count, or the weights' norm.
                norm = adt(len(pos)) if w is None else adt(
                    sum(float(w[p]) * float(w[p]) for p in pos))
                # Weights that are all zero give 0 / 0 = NaN, as in TF.
                with np.errstate(invalid="ignore", divide="ignore"):
                    acc = (acc / np.sqrt(norm)).astype(adt)
            out[b] = acc
        return round_to(out, etype).astype(np.float64).reshape((batch,) + row_shape)

    # Integers: arithmetic modulo 2^64 in uint64 (wrapping is a ring
    # homomorphism, so reducing modulo 2^width at the end equals wrapping in T
    # after every operation).
    width, signed = INT_TYPES[etype]
    m64 = (1 << 64) - 1

    def to_u64(a):
        flat = [int(v) & m64 for v in np.asarray(a, dtype=object).ravel()]
        return np.array(flat, dtype=np.uint64)

    tab = to_u64(table).reshape(table.shape[0], row_size)
    w = to_u64(flat_weights) if flat_weights is not None else None
    out = np.empty((batch, row_size), dtype=object)
    for b, pos in enumerate(bags):
        if not pos:
            if use_default:
                out[b] = [wrap_int(int(v), etype) for v in tab[default]]
            else:
                out[b] = [0] * row_size
            continue
        rows = tab[np.asarray([flat_indices[p] for p in pos], dtype=np.int64)]
        if reduction == "max":
            # Compared in T's signedness: the wrapped values themselves.
            vals = [[wrap_int(int(v), etype) for v in r] for r in rows]
            out[b] = [max(col) for col in zip(*vals)]
            continue
        if w is not None:
            rows = rows * w[np.asarray(pos, dtype=np.int64)][:, None]
        acc = rows.sum(axis=0, dtype=np.uint64)
        sums = [wrap_int(int(v), etype) for v in acc]
        if reduction == "mean":
            count = len(pos)  # the true count, never wrapped
            if signed:
                sums = [(abs(s) // count) * (1 if s >= 0 else -1) for s in sums]
            else:
                sums = [s // count for s in sums]
        out[b] = sums
    return out.reshape((batch,) + row_shape)


def _check(op, table, indices, offsets=None, segment_ids=None,
           num_segments=None, default=None, include_last_offset=False,
           padding_idx=None):
    v = contract_violations(op, np.shape(table)[0], indices, offsets,
                            segment_ids, num_segments, default,
                            include_last_offset, padding_idx)
    if v:
        raise ContractViolation(v)


def packed(reduction, etype, table, indices, weights=None, padding_idx=None):
    """embbag.packed: indices of shape [batch, indices_per_bag]."""
    indices = np.asarray(indices, dtype=np.int64)
    assert indices.ndim == 2, "packed indices must be 2-D"
    _check("packed", table, indices, padding_idx=padding_idx)
    batch, per_bag = indices.shape
    bags = [list(range(b * per_bag, (b + 1) * per_bag)) for b in range(batch)]
    flat_w = None if weights is None else np.asarray(weights).ravel()
    return _reduce_bags(reduction, etype, table, indices.ravel(), flat_w, bags,
                        None, padding_idx)


def offsets(reduction, etype, table, indices, offsets, default=None,
            weights=None, include_last_offset=False, padding_idx=None):
    """embbag.offsets: 1-D indices, 1-D offsets of length batch (batch + 1
    with include_last_offset: the last one ends the last bag)."""
    indices = np.asarray(indices, dtype=np.int64).ravel()
    offs = [int(o) for o in np.asarray(offsets, dtype=np.int64).ravel()]
    _check("offsets", table, indices, offsets=offs, default=default,
           include_last_offset=include_last_offset, padding_idx=padding_idx)
    n = len(indices)
    bounds = offs if include_last_offset else offs + [n]
    bags = [list(range(bounds[b], bounds[b + 1]))
            for b in range(len(bounds) - 1)]
    return _reduce_bags(reduction, etype, table, indices, weights, bags,
                        default, padding_idx)


def segments(reduction, etype, table, indices, segment_ids, num_segments,
             default=None, weights=None, padding_idx=None):
    """embbag.segments: 1-D indices and segment_ids, num_segments rows."""
    indices = np.asarray(indices, dtype=np.int64).ravel()
    seg = [int(s) for s in np.asarray(segment_ids, dtype=np.int64).ravel()]
    _check("segments", table, indices, segment_ids=seg,
           num_segments=num_segments, default=default,
           padding_idx=padding_idx)
    bags = [[] for _ in range(num_segments)]
    for i, s in enumerate(seg):
        bags[s].append(i)
    return _reduce_bags(reduction, etype, table, indices, weights, bags,
                        default, padding_idx)


def compute(op, reduction, etype, table, indices, offsets_=None,
            segment_ids=None, num_segments=None, default=None, weights=None,
            include_last_offset=False, padding_idx=None):
    """Dispatches to packed / offsets / segments."""
    if op == "packed":
        return packed(reduction, etype, table, indices, weights, padding_idx)
    if op == "offsets":
        return offsets(reduction, etype, table, indices, offsets_, default,
                       weights, include_last_offset, padding_idx)
    if op == "segments":
        return segments(reduction, etype, table, indices, segment_ids,
                        num_segments, default, weights, padding_idx)
    raise ValueError("unknown op %r" % op)


# ---------------------------------------------------------------------------
# Row-wise quantized tables: rowwise(i8 | i4 | i2)
# ---------------------------------------------------------------------------
#
# The table is [num_emb, row_bytes] of bytes (ui8 or i8, read as unsigned).
# A row of D result columns (docs/EmbBag/EmbBagOps.md, the op descriptions):
#   rowwise(i8): D codes, then an f32 scale and an f32 bias (little endian);
#   rowwise(i4), rowwise(i2): ceil(D * bits / 8) bytes of codes, lowest bits
#     first (code c in byte c // (8 / bits) at bit (c % (8 / bits)) * bits),
#     then an f16 scale and an f16 bias.
# Value c of the row is code[c] * scale + bias. The result (f32 or f16) is the
# op on the dequantized rows, reduced in f32 and rounded once; weights have
# the result's type.

ROWWISE_BITS = (8, 4, 2)
U32 = 2.0 ** -24  # the unit roundoff of float32


def rowwise_row_bytes(bits, dim):
    """The bytes of a row of `dim` columns of `bits`-bit codes."""
    if bits == 8:
        return dim + 8
    return -(-dim * bits // 8) + 4


def dequantize_rowwise(table, bits, dim):
    """(values, magnitudes) of a row-wise quantized table, float64 arrays of
    shape [num_emb, dim]: values[r, c] = code * scale + bias, exact up to
    one float64 rounding; magnitudes[r, c] = |code * scale| + |bias|, the
    size of the parts a float32 dequantization rounds."""
    raw = np.asarray(table, dtype=np.int64)
    assert raw.ndim == 2, "a rowwise table is 2-D"
    raw = (raw & 0xFF).astype(np.uint8)
    if raw.shape[1] != rowwise_row_bytes(bits, dim):
        raise ValueError("a rowwise(i%d) row of %d columns has %d bytes, not %d"
                         % (bits, dim, rowwise_row_bytes(bits, dim),
                            raw.shape[1]))
    if bits == 8:
        codes = raw[:, :dim].astype(np.float64)
        ftype, tail = "<f4", dim
    else:
        per_byte = 8 // bits
        col = np.arange(dim)
        byte = raw[:, col // per_byte].astype(np.int64)
        shift = (col % per_byte) * bits
        codes = ((byte >> shift) & ((1 << bits) - 1)).astype(np.float64)
        ftype, tail = "<f2", raw.shape[1] - 4
    qparams = np.ascontiguousarray(raw[:, tail:]).view(ftype)
    scale = qparams[:, 0:1].astype(np.float64)
    bias = qparams[:, 1:2].astype(np.float64)
    values = codes * scale + bias
    magnitudes = np.abs(codes * scale) + np.abs(bias)
    return values, magnitudes


def rowwise_compute(op, reduction, etype, table, bits, dim, indices,
                    offsets_=None, segment_ids=None, num_segments=None,
                    default=None, weights=None, include_last_offset=False,
                    padding_idx=None):
    """The result of an op on a row-wise quantized table, for result type
    `etype` (f32 or f16): the dequantized rows reduced by the float reference
    above in float64 (as good as exact next to f32), rounded once to T.
    Raises ContractViolation like `compute`."""
    if etype not in ("f32", "f16"):
        raise ValueError("a rowwise result is f32 or f16, not %s" % etype)
    values, _ = dequantize_rowwise(table, bits, dim)
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    exact = compute(op, reduction, "f64", values, indices, offsets_,
                    segment_ids, num_segments, default, w,
                    include_last_offset, padding_idx)
    return round_to(exact, etype).astype(np.float64)


def rowwise_tolerance(etype, expected, got, bound):
    """The allowed |got - expected| of an element of a row-wise quantized
    result printed by printMemref: `bound` (rowwise_error_bound, doubled
    when torch computed `expected`), printMemref's 6 significant digits
    (1e-5 relative, 1e-7 absolute), and for an f16 result one f16 ulp of the
    larger value (both sides round to f16 from values up to `bound` apart:
    the roundings may fall on neighbouring f16 values), 2^-24 where that
    ulp is subnormal."""
    tol = bound + 1e-7 + 1e-5 * abs(expected)
    if etype == "f16":
        tol += max(2.0 ** -10 * max(abs(expected), abs(got)), 2.0 ** -24)
    return tol

def rowwise_error_bound(op, reduction, table, bits, dim, indices,
                        offsets_=None, segment_ids=None, num_segments=None,
                        default=None, weights=None, include_last_offset=False,
                        padding_idx=None):
    """Per result element, a bound on how far a float32 evaluation of the op
    (before the rounding to an f16 result) may be from the exact value, for
    any order of the additions and either way of dequantizing
    (`code * scale + bias` then `w * value`, or FBGEMM's
    `fma(code, w * scale, acc + w * bias)`, two additions per term).

    With u = 2^-24, n the terms of the bag (padding left out) and M the
    op applied to the magnitudes |w| * (|code * scale| + |bias|):
      sum, mean, sqrtn: (2 n + 6) u M   (2 n additions of partial sums no
        larger than M; the dequantization's and the weight's roundings; the
        mean's division; sqrtn's norm, square root and division);
      max: 4 u M   (the dequantization only; comparisons are exact).
    A worst-case bound: actual differences are far smaller, and a wrong code,
    scale, bias or row is still far larger."""
    _, mags = dequantize_rowwise(table, bits, dim)
    absw = None if weights is None else np.abs(
        np.asarray(weights, dtype=np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        m = compute(op, reduction, "f64", mags, indices, offsets_,
                    segment_ids, num_segments, default,
                    absw if reduction in ("sum", "sqrtn") else None,
                    include_last_offset, padding_idx)
    if reduction == "max":
        return 4 * U32 * m
    ones = np.ones((mags.shape[0], 1))
    count = compute(op, "sum", "f64", ones, indices, offsets_, segment_ids,
                    num_segments, None, None, include_last_offset,
                    padding_idx)
    return (2 * count + 6) * U32 * m


# ---------------------------------------------------------------------------
# Self test: the worked examples of the specifications and hand-checked edge
# cases of docs/EmbBag/EmbBagOps.md. Run `python3 reference.py`.
# ---------------------------------------------------------------------------


def _self_test():
    T = [[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1., 1.5], [0.8, -0.7]]

    def close(a, b, tol=1e-6):
        a = np.asarray(a, dtype=np.float64)
        b = np.asarray(b, dtype=np.float64)
        assert a.shape == b.shape, (a.shape, b.shape)
        assert np.allclose(a, b, rtol=tol, atol=tol), (a, b)

    def same(a, b):
        a = np.asarray(a, dtype=object)
        assert a.shape == np.asarray(b, dtype=object).shape, (a, b)
        assert a.tolist() == np.asarray(b, dtype=object).tolist(), (a, b)

    # EmbeddingBagPacked-15 examples 1-3.
    pi = [[0, 2], [1, 2], [3, 4]]
    close(packed("sum", "f32", T, pi), [[-2.1, -2.4], [-2., -2.2], [-0.2, 0.8]])
    close(packed("sum", "f32", T, pi, [[0.5, 0.5], [0.3, 0.7], [2., -1.]]),
          [[-1.05, -1.2], [-1.36, -1.38], [-2.8, 3.7]])
    close(packed("mean", "f32", T, pi),
          [[-1.05, -1.2], [-1., -1.1], [-0.1, 0.4]])
    # EmbeddingBagOffsets-15 examples 1-3 (and OffsetsSum-3).
    close(offsets("sum", "f32", T, [0, 2, 3, 4], [0, 2, 2], 0, [.5] * 4),
          [[-1.05, -1.2], [-0.2, -0.6], [-0.1, 0.4]])
    close(offsets("sum", "f32", T, [0, 2, 3, 4], [0, 2, 2], -1,
                  [0.5, 0.2, -2, 1]),
          [[-0.48, -0.66], [0., 0.], [2.8, -3.7]])
    close(offsets("mean", "f32", T, [0, 2, 3, 4], [0, 2, 2]),
          [[-1.05, -1.2], [0., 0.], [-0.1, 0.4]])
    # EmbeddingSegmentsSum-3 example.
    close(segments("sum", "f32", T, [0, 2, 3, 4], [0, 0, 2, 2], 3, 0, [.5] * 4),
          [[-1.05, -1.2], [-0.2, -0.6], [-0.1, 0.4]])

    # Unsorted segment ids give the same result; segments mean; empty segment
    # takes the default row undivided.
    close(segments("sum", "f32", T, [3, 0, 4, 2], [2, 0, 2, 0], 3, 0, [.5] * 4),
          [[-1.05, -1.2], [-0.2, -0.6], [-0.1, 0.4]])
    close(segments("mean", "f32", T, [0, 2, 3, 4], [0, 0, 2, 2], 3, 1),
          [[-1.05, -1.2], [-0.1, -0.4], [-0.1, 0.4]])
    # offsets[0] > 0: indices before it are not read (99 is out of range) and
    # not checked; trailing empty bags (offsets[b] == num_indices).
    close(offsets("sum", "f32", T, [99, -5, 1, 3], [2, 3, 4, 4], 4),
          [[-0.1, -0.4], [-1., 1.5], [0.8, -0.7], [0.8, -0.7]])
    # No indices at all: every bag empty; zero batch.
    close(offsets("mean", "f32", T, [], [0, 0]), [[0, 0], [0, 0]])
    assert offsets("sum", "f32", T, [1], []).shape == (0, 2)
    assert segments("sum", "f32", T, [], [], 0).shape == (0, 2)
    # Packed with 0 indices per bag: zeros, also for mean.
    close(packed("mean", "f32", T, np.zeros((2, 0), dtype=np.int64)),
          [[0, 0], [0, 0]])
    # Multi-dimensional rows and rank-1 tables.
    t3 = np.arange(24, dtype=np.float64).reshape(4, 2, 3)
    close(packed("sum", "f64", t3, [[0, 3]]), [t3[0] + t3[3]])
    close(segments("sum", "f32", [1., 2., 4.], [0, 2, 1], [1, 1, 0], 2),
          [2., 5.])

    # Integer wrapping and mean: i8 bag of 200 ones wraps to -56, divided by
    # the true count 200 -> 0 (truncation toward zero); ui8: 200 / 200 = 1.
    same(packed("mean", "i8", [[1], [0]], [[0] * 200]), [[0]])
    same(packed("mean", "ui8", [[1], [0]], [[0] * 200]), [[1]])
    same(packed("sum", "i8", [[100], [0]], [[0, 0]]), [[-56]])
    same(packed("sum", "ui8", [[100], [0]], [[0, 0]]), [[200]])
    same(packed("sum", "si16", [[300]], [[0, 0]], [[200, 1]]),
         [[wrap_int(300 * 201, "si16")]])
    # Truncation toward zero for negative sums, unsigned division for ui.
    same(packed("mean", "i32", [[-7], [0]], [[0, 1]]), [[-3]])
    same(packed("mean", "ui32", [[-7], [0]], [[0, 1]]), [[(2 ** 32 - 7) // 2]])
    # (-2^63) + (-1) wraps to 2^63 - 1; (2^63 - 1) / 2 = 2^62 - 1.
    same(packed("mean", "si64", [[-2 ** 63], [-1]], [[0, 1]]), [[2 ** 62 - 1]])
    same(packed("mean", "i64", [[-2 ** 63], [1]], [[0, 1]]), [[-(2 ** 62) + 1]])
    # ui64 full range.
    same(packed("sum", "ui64", [[2 ** 64 - 1], [2]], [[0, 1]]), [[1]])
    # Empty bag + default in integer mean: undivided.
    same(offsets("mean", "i16", [[5, 6], [7, 8]], [0, 1], [0, 2, 2], 1),
         [[6, 7], [7, 8], [7, 8]])

    # max: signedness of T; an empty bag is zeros or the default row.
    same(packed("max", "i8", [[-128, 5], [-1, -3]], [[0, 1]]), [[-1, 5]])
    same(packed("max", "ui8", [[-128, 5], [-1, -3]], [[0, 1]]), [[255, 253]])
    close(offsets("max", "f32", [[-1., -5.], [-2., -3.]], [0, 1], [0, 0]),
          [[0, 0], [-1, -3]])
    close(offsets("max", "f32", [[-1., -5.], [-2., -3.]], [0, 1], [0, 0], 1),
          [[-2, -3], [-1, -3]])
    # sqrtn: sum / sqrt(count); weighted: / sqrt(sum w^2); empty undivided.
    close(packed("sqrtn", "f32", [[1., 2.], [3., 4.], [4., 0.], [0., 9.]],
                 [[0, 1, 2, 3]]), [[4, 7.5]])
    close(packed("sqrtn", "f32", [[1., 2.], [3., 4.]], [[0, 1]], [[3., 4.]]),
          [[3, 4.4]])
    close(offsets("sqrtn", "f32", [[1., 2.], [3., 4.]], [0, 1], [0, 0], 1),
          [[3, 4], [4 / np.sqrt(2), 6 / np.sqrt(2)]])
    # include_last_offset: the last offset ends the last bag; index 9 after
    # it is never read.
    close(offsets("sum", "f32", [[1., 2.], [3., 4.]], [0, 1, 9], [0, 2, 2],
                  include_last_offset=True), [[4, 6], [0, 0]])
    assert contract_violations("offsets", 2, [0, 1, 9], [0, 2, 3],
                               include_last_offset=True)
    assert contract_violations("offsets", 2, [0], [],
                               include_last_offset=True)

    # padding_idx: skipped (not summed, not counted, not in max, its weight
    # not in the sqrtn norm); a bag of only padding is empty; -1 skips
    # nothing. Table rows r0 = [1, 2], r1 = [3, -4], r2 = [5, 6],
    # r3 = [70, 80] (padding_idx 3), r4 = [-1, 9] (the integration test
    # test/Integration/EmbBag/padding-idx.mlir computes the same by hand).
    tp = [[1., 2.], [3., -4.], [5., 6.], [70., 80.], [-1., 9.]]
    pp = [[0, 3], [3, 3], [1, 2], [3, 4]]
    close(packed("sum", "f32", tp, pp, padding_idx=3),
          [[1, 2], [0, 0], [8, 2], [-1, 9]])
    close(packed("sum", "f32", tp, pp, [[2, 100], [5, 5], [1, -1], [100, 3]],
                 padding_idx=3), [[2, 4], [0, 0], [-2, -10], [-3, 27]])
    close(packed("mean", "f32", tp, pp, padding_idx=3),
          [[1, 2], [0, 0], [4, 1], [-1, 9]])
    close(packed("max", "f32", tp, pp, padding_idx=3),
          [[1, 2], [0, 0], [5, 6], [-1, 9]])
    close(packed("sum", "f32", tp, pp, padding_idx=-1),
          [[71, 82], [140, 160], [8, 2], [69, 89]])
    close(packed("sqrtn", "f32", tp, [[1, 3, 2], [3, 3, 3]],
                 [[3, 100, 4], [1, 1, 1]], padding_idx=3),
          [[5.8, 2.4], [0, 0]])
    close(offsets("mean", "f32", tp, [3, 0, 3, 1, 3, 3, 2, 4, 3, 3],
                  [0, 3, 5, 6, 9], 4, include_last_offset=True,
                  padding_idx=3), [[1, 2], [3, -4], [-1, 9], [2, 7.5]])
    close(segments("mean", "f32", tp, [3, 0, 2, 3, 4, 0], [2, 0, 2, 1, 0, 2],
                   3, 1, padding_idx=3), [[0, 5.5], [3, -4], [3, 4]])
    # i8: 100 + 100 + 5 wraps to -51, divided by the 3 indices taken (not 5).
    same(segments("mean", "i8", [[100], [7], [5]], [0, 1, 0, 2, 1],
                  [0, 0, 0, 0, 0], 1, padding_idx=1), [[-17]])
    assert contract_violations("packed", 5, [[0]], padding_idx=5)[0][0] == \
        "padding_idx"
    assert contract_violations("offsets", 5, [0], [0], padding_idx=-2)[0][0] \
        == "padding_idx"
    assert contract_violations("segments", 5, [], segment_ids=[],
                               num_segments=1, padding_idx=-1) == []
    assert contract_violations("segments", 0, [], segment_ids=[],
                               num_segments=1, padding_idx=0)[0][0] == \
        "padding_idx"

    # f16 / bf16: accumulate in f32, round once.
    r = packed("sum", "f16", [[2048.0], [0.5]], [[0] + [1] * 8])
    close(r, [[2052.0]], 0)  # f16 accumulation would give 2048
    r = packed("sum", "bf16", [[256.0], [0.5]], [[0] + [1] * 8])
    close(r, [[260.0]], 0)  # bf16 accumulation would give 256
    r = packed("sum", "bf16", [[7.875]], [[0]], [[1.75]])
    close(r, [[float(round_bf16(np.float32(7.875 * 1.75)))]], 0)
    assert float(round_bf16(np.float32(1.0 + 2 ** -8))) == 1.0  # tie -> even
    assert float(round_bf16(np.float32(1.0 + 3 * 2 ** -8))) == 1.0 + 2 ** -6
    close(round_to([65520.0], "f16"), [np.inf], 0)

    # Contract.
    cv = contract_violations
    assert cv("packed", 5, [[0, 5]])[0][0] == "index"
    assert cv("packed", 5, [[0, -1]])[0][0] == "index"
    assert cv("packed", 5, np.zeros((3, 0))) == []
    assert cv("offsets", 5, [9, 0], [1]) == []          # 9 is never read
    assert cv("offsets", 5, [9, 0], [0])[0][0] == "index"
    assert cv("offsets", 5, [9, 0], []) == []            # no bag reads
    assert cv("offsets", 5, [0, 0], [0, 3])[0][0] == "offset"
    assert cv("offsets", 5, [0, 0], [1, 0])[0][0] == "offset"
    assert cv("offsets", 5, [0, 0], [-1, 0])[0][0] == "offset"
    assert cv("offsets", 5, [0, 0], [0, 2]) == []       # trailing empty bag
    assert cv("offsets", 5, [0], [0], default=5)[0][0] == "default"
    assert cv("offsets", 5, [0], [0], default=-2)[0][0] == "default"
    assert cv("offsets", 5, [0], [], default=7)[0][0] == "default"
    assert cv("offsets", 5, [0], [0], default=-1) == []
    assert cv("segments", 5, [0], segment_ids=[3], num_segments=3)[0][0] == "segment_id"
    assert cv("segments", 5, [0], segment_ids=[-1], num_segments=3)[0][0] == "segment_id"
    assert cv("segments", 5, [], segment_ids=[], num_segments=-1)[0][0] == "num_segments"
    assert cv("segments", 5, [7], segment_ids=[0], num_segments=1)[0][0] == "index"
    assert cv("segments", 0, [], segment_ids=[], num_segments=2) == []
    try:
        packed("sum", "f32", T, [[5]])
        raise AssertionError("expected a ContractViolation")
    except ContractViolation as e:
        assert e.checks[0][0] == "index"
    # Row-wise quantized rows, built by hand from the layout (rowwise.py
    # checks the same layout against torch's prepack and unpack).
    def qparams(ftype, scale, bias):
        return list(np.array([scale, bias], dtype=ftype).view(np.uint8))
    r8 = [[0, 1, 255] + qparams("<f4", 0.5, -1.0),
          [7, 7, 7] + qparams("<f4", 0.0, 2.5)]
    v, m = dequantize_rowwise(r8, 8, 3)
    close(v, [[-1, -0.5, 126.5], [2.5, 2.5, 2.5]], 0)
    close(m, [[1, 1.5, 128.5], [2.5, 2.5, 2.5]], 0)
    # i4, 3 columns: codes 1, 2, 3 -> bytes 0x21, 0x03; i8 bytes (signed)
    # read as unsigned: 0xF0 holds codes 0 and 15.
    r4 = [[0x21, 0x03] + qparams("<f2", 0.5, -1.0),
          [wrap_int(0xF0, "i8"), 0x0F] + qparams("<f2", 1.0, 0.0)]
    close(dequantize_rowwise(r4, 4, 3)[0], [[-0.5, 0, 0.5], [0, 15, 15]], 0)
    # i2, 5 columns: codes 3, 0, 1, 2 | 1 -> bytes 0b10010011, 0b01.
    r2 = [[0b10010011, 0b01] + qparams("<f2", 2.0, 0.25)]
    close(dequantize_rowwise(r2, 2, 5)[0], [[6.25, 0.25, 2.25, 4.25, 2.25]], 0)
    assert [rowwise_row_bytes(b, 5) for b in (8, 4, 2)] == [13, 7, 6]
    # The op on the dequantized rows; f16 rounds once, at the end.
    close(rowwise_compute("offsets", "sum", "f32", r4, 4, 3, [0, 1, 1],
                          [0, 1], weights=[2.0, 1.0, -0.5]),
          [[-1, 0, 1], [0, 7.5, 7.5]], 0)
    close(rowwise_compute("packed", "max", "f32", r4, 4, 3, [[0, 1]]),
          [[0, 15, 15]], 0)
    r4big = [[0x00, 0x00] + qparams("<f2", 1.0, 2048.0),
             [0x11, 0x01] + qparams("<f2", 0.5, 0.0)]
    close(rowwise_compute("packed", "sum", "f16", r4big, 4, 3,
                          [[0] + [1] * 8]), [[2052, 2052, 2052]], 0)
    b = rowwise_error_bound("packed", "sum", r8, 8, 3, [[0, 1]])
    close(b, np.array([[3.5, 4, 131]]) * 10 * U32, 0)  # (2 * 2 + 6) u M
    print("reference.py: self test passed")


if __name__ == "__main__":
    _self_test()
