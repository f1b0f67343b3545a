"""Models the importer refuses, one per value of the environment variable
TORCH_IMPORT_CASE (see errors.test)."""

import os

import torch
import torch.nn as nn

CASE = os.environ.get("TORCH_IMPORT_CASE", "")


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(10, 4, mode="mean" if CASE == "weighted_mean"
                                   else "sum",
                                   max_norm=1.0 if CASE == "max_norm" else None)
        self.emb = nn.Embedding(10, 4, max_norm=2.0 if CASE == "max_norm_embedding"
                                else None)
        self.mlp = nn.Sequential(nn.Linear(4, 2), nn.ReLU())
        self.scale = nn.Parameter(torch.ones(4))

    def forward(self, idx, off, w):
        if CASE == "linear":
            return self.mlp(self.bag(idx, off))
        if CASE == "add":
            return self.bag(idx, off) + self.bag(idx, off)
        if CASE == "method":
            return self.emb(idx).view(-1)
        if CASE == "attribute":
            return self.bag(idx, off) * self.scale
        if CASE == "control_flow":
            if idx.sum() > 3:
                return self.bag(idx, off)
            return self.emb(idx)
        if CASE == "weighted_mean":
            return self.bag(idx, off, per_sample_weights=w)
        if CASE == "index_types":
            return self.bag(idx, off)
        if CASE == "no_offsets":
            return self.bag(idx)
        if CASE == "not_a_tensor":
            return self.bag(idx, off), 3
        if CASE == "max_norm_embedding":
            return self.emb(idx)
        return self.bag(idx, off)


def make_model():
    if CASE == "not_a_module":
        return lambda x: x
    return Model()


def example_inputs():
    offsets_type = torch.int32 if CASE == "index_types" else torch.int64
    inputs = (torch.tensor([1, 2, 3, 4]),
              torch.tensor([0, 2, 2], dtype=offsets_type), torch.ones(4))
    return inputs[:2] if CASE == "arity" else inputs
