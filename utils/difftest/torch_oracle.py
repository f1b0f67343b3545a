"""PyTorch as the oracle of the embbag lowering (difftest.py --oracle torch).

Random cases in the part of embbag that `torch.nn.functional.embedding_bag`
also implements, with the expected result computed by torch itself rather
than by our NumPy reference (reference.py), so that a misreading of PyTorch's
semantics shared by the reference and the lowering still shows up:

  embbag.packed  <->  2-D input, no offsets
  embbag.offsets <->  1-D input with offsets (include_last_offset too)
  sum / mean / max  <->  mode="sum" / "mean" / "max"
  weights (sum only) <->  per_sample_weights
  padding_idx(%p)    <->  padding_idx=p (p >= 0; -1 is torch's None, since
                          torch reads a negative padding_idx from the end)

Within torch's own contract: f32 / f64 tables (2-D), offsets[0] == 0, at
least one index per packed bag, and with include_last_offset the last offset
equal to the number of indices (torch 1.13 reads past it and corrupts its
heap otherwise; the NumPy cases cover unread trailing indices). Empty bags,
trailing empty bags, zero batches and long bags are generated; `default`
(which torch lacks) is not. Every case is valid: torch has no runtime checks
to compare with.

Needs python3-torch (Debian's PyTorch 1.13, CPU).
"""

import numpy as np

import gen
import reference as ref

ROW_LENGTHS = [1, 2, 3, 7, 8, 13, 16, 64, 100, 130]


def _bag_sizes(rng, klass):
    if klass == "zero_batch":
        return []
    if klass == "big_bag":
        return [int(rng.integers(130, 301))]
    sizes = [int(rng.integers(1, 6)) for _ in range(int(rng.integers(1, 8)))]
    if klass == "empty_bags":
        sizes = [0 if rng.random() < 0.4 else s for s in sizes]
    elif klass == "trailing_empty":
        sizes += [0] * int(rng.integers(1, 3))
    return sizes


def _indices(rng, op, klass, num_emb):
    """(indices, offsets) of a case: offsets None for packed."""
    if op == "packed":
        batch = 0 if klass == "zero_batch" else int(rng.integers(1, 8))
        per_bag = (int(rng.integers(130, 301)) if klass == "big_bag"
                   else int(rng.integers(1, 6)))
        return rng.integers(0, num_emb, size=(batch, per_bag)), None
    sizes = _bag_sizes(rng, klass)
    offsets = np.cumsum([0] + sizes[:-1]) if sizes else np.zeros(0)
    indices = rng.integers(0, num_emb, size=sum(sizes))
    return indices, offsets.astype(np.int64)


def generate(seed, index):
    """Case `index` of sequence `seed`, in the format of gen.generate."""
    rng = np.random.default_rng([int(seed), int(index), 7])
    op = "packed" if rng.random() < 0.3 else "offsets"
    klass = ["basic", "basic", "empty_bags", "trailing_empty", "zero_batch",
             "big_bag"][int(rng.integers(6))]
    if op == "packed" and klass in ("empty_bags", "trailing_empty"):
        klass = "basic"
    num_emb = int(rng.integers(1, 40))
    row = ROW_LENGTHS[int(rng.integers(len(ROW_LENGTHS)))]
    if klass == "big_bag":
        row = min(row, 16)
    etype = "f32" if rng.random() < 0.7 else "f64"
    indices, offsets = _indices(rng, op, klass, num_emb)
    case = {
        "seed": int(seed), "index": int(index), "op": op,
        "reduction": ["sum", "mean", "max"][int(rng.integers(3))],
        "etype": etype, "itype": "i32" if rng.random() < 0.5 else "i64",
        "klass": klass, "row_shape": (row,), "num_emb": num_emb,
        "indices": np.asarray(indices, dtype=np.int64), "offsets": offsets,
        "segment_ids": None, "num_segments": None, "default": None,
        "weights": None, "invalid": None, "vclass": "exact",
        "include_last_offset": False,
    }
    # Multiples of 1/8 in [-8, 8] (weights: 1/4 in [-2, 2]): sums are exact.
    case["table"] = rng.integers(-64, 65, size=(num_emb, row)) / 8.0
    if case["reduction"] == "sum" and rng.random() < 0.5:
        case["weights"] = rng.integers(-8, 9, size=case["indices"].shape) / 4.0
    if op == "offsets" and rng.random() < 0.5:
        case["include_last_offset"] = True
        case["offsets"] = np.append(offsets, len(indices)).astype(np.int64)
    case["dynamic"] = bool(rng.random() < 0.5)
    case["placement"] = "call" if rng.random() < 0.7 else "inline"
    case["dyn"] = gen._dynamic_masks(rng, case)
    case["checks"] = []
    _pad(case, np.random.default_rng([int(seed), int(index), 8]))
    return case


def _pad(case, side):
    """padding_idx on about a third of the cases, from a stream of its own
    (the rest of each case is what it was without it): -1 sometimes, else a
    row that is then written over some indices, whole bags of it too."""
    case["padding_idx"] = None
    if side.random() >= 0.35:
        return
    if side.random() < 0.2:
        case["padding_idx"] = -1
        return
    p = int(side.integers(0, case["num_emb"]))
    case["padding_idx"] = p
    flat = case["indices"].reshape(-1)
    end = len(flat)
    if case["include_last_offset"] and len(case["offsets"]):
        end = int(case["offsets"][-1])
    share = [0.2, 0.5, 0.9][int(side.integers(3))]
    for pos in range(end):
        if side.random() < share:
            flat[pos] = p


def expected(case):
    """torch.nn.functional.embedding_bag of the case, as float64 NumPy."""
    import torch
    import torch.nn.functional as F

    dtype = torch.float32 if case["etype"] == "f32" else torch.float64
    itype = torch.int32 if case["itype"] == "i32" else torch.int64
    weight = torch.tensor(case["table"], dtype=dtype).reshape(
        case["num_emb"], case["row_shape"][0])
    indices = torch.tensor(case["indices"], dtype=itype)
    offsets = None
    if case["op"] == "offsets":
        offsets = torch.tensor(case["offsets"], dtype=itype)
    psw = None
    if case["weights"] is not None:
        psw = torch.tensor(case["weights"], dtype=dtype)
    padding = case.get("padding_idx")
    if padding is not None and padding < 0:
        padding = None  # embbag's -1 is none; torch's -1 is the last row
    out = F.embedding_bag(indices, weight, offsets, mode=case["reduction"],
                          per_sample_weights=psw,
                          include_last_offset=case["include_last_offset"],
                          padding_idx=padding)
    return out.numpy().astype(np.float64)


def _self_test():
    """torch and the NumPy reference agree on the generated cases."""
    padded = 0
    for index in range(200):
        case = generate(1, index)
        want = gen.expected(case)
        got = expected(case)
        assert got.shape == want.shape, (index, got.shape, want.shape)
        assert np.allclose(got, want, rtol=1e-5, atol=1e-7), (
            index, gen.describe(case))
        padded += case["padding_idx"] is not None
    print("torch_oracle.py: torch and reference.py agree on 200 cases "
          "(%d with padding_idx)" % padded)


if __name__ == "__main__":
    _self_test()
