"""Small tables of known values, one per element type, for the bytes of the
dense_resource blobs; two modules sharing one table (one blob, one
argument)."""

import torch
import torch.nn as nn


def table(dtype):
    return nn.Parameter(torch.arange(1, 7, dtype=torch.float64).reshape(3, 2).to(dtype))


class Known(nn.Module):
    def __init__(self):
        super().__init__()
        self.f32 = nn.EmbeddingBag(3, 2)
        self.f16 = nn.Embedding(3, 2, dtype=torch.float16)
        self.bf16 = nn.Embedding(3, 2, dtype=torch.bfloat16)
        self.f64 = nn.EmbeddingBag(3, 2, mode="max", dtype=torch.float64)
        self.tied = nn.Embedding(3, 2)
        for name in ("f32", "f16", "bf16", "f64"):
            getattr(self, name).weight = table(getattr(self, name).weight.dtype)
        self.tied.weight = self.f32.weight

    def forward(self, packed):
        return (self.f32(packed), self.f16(packed), self.bf16(packed),
                self.f64(packed), self.tied(packed))


def make_model():
    return Known()


def example_inputs():
    return (torch.tensor([[0, 1], [2, 2]]),)
