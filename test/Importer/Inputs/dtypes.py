"""Tables of f16, bf16 and f64: nn.EmbeddingBag (sum with weights of the
table's type, mean, max) and nn.Embedding. torch 1.13 has no CPU
nn.EmbeddingBag for bf16: check.py then computes the model in f64 and rounds
to bf16."""

import torch
import torch.nn as nn


class Typed(nn.Module):
    def __init__(self):
        super().__init__()
        self.halves = nn.EmbeddingBag(20, 8, mode="sum", dtype=torch.float16)
        self.brains = nn.EmbeddingBag(20, 8, mode="mean", dtype=torch.bfloat16)
        self.doubles = nn.EmbeddingBag(20, 3, mode="max", dtype=torch.float64)
        self.lookup = nn.Embedding(20, 8, dtype=torch.bfloat16)

    def forward(self, idx, off, w16, packed):
        h = self.halves(idx, off, per_sample_weights=w16)
        b = self.brains(packed)
        d = self.doubles(idx, off)
        e = self.lookup(packed)
        return h, b, d, e


def make_model():
    torch.manual_seed(3)
    return Typed()


def example_inputs():
    idx = torch.tensor([1, 19, 4, 5, 4, 3, 12, 0, 7])
    off = torch.tensor([0, 3, 3, 8])
    w16 = torch.tensor([0.5, 1.0, 2.0, -1.0, 0.25, 1.5, 1.0, 3.0, -2.0],
                       dtype=torch.float16)
    packed = torch.tensor([[1, 2, 3, 4], [19, 18, 2, 2], [0, 0, 0, 1]])
    return idx, off, w16, packed
