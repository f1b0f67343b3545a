"""nn.EmbeddingBag in every form the importer supports: the three modes,
per_sample_weights, padding_idx, include_last_offset (1-D and 2-D input),
int32 indices, and the containers (attribute, nn.ModuleList, nn.ModuleDict,
plain list, plain dict); the outputs as a tuple with a nested list."""

import torch
import torch.nn as nn


class Bags(nn.Module):
    def __init__(self):
        super().__init__()
        self.summed = nn.EmbeddingBag(10, 4, mode="sum")
        self.listed = nn.ModuleList([
            nn.EmbeddingBag(7, 4, mode="mean", padding_idx=2),
            nn.EmbeddingBag(6, 3, mode="max", include_last_offset=True),
        ])
        self.keyed = nn.ModuleDict({
            "user-id": nn.EmbeddingBag(9, 4, mode="max", padding_idx=0),
            "item": nn.EmbeddingBag(8, 4, mode="sum", include_last_offset=True),
        })
        self.plain_list = [nn.EmbeddingBag(5, 2, mode="mean")]
        self.plain_dict = {"ctx": nn.EmbeddingBag(5, 4, mode="sum",
                                                  include_last_offset=True)}

    def forward(self, idx, off, w, packed, packed32, idx32, off32, packed2, w2,
                closed):
        a = self.summed(idx, off, per_sample_weights=w)   # offsets, weighted
        b = self.listed[0](packed)                        # packed mean + padding
        c = self.listed[1](idx, closed)                   # max, last offset
        d = self.keyed["user-id"](packed32)               # packed max, i32, padding
        e = self.keyed["item"](idx32, off32)              # i32, last offset
        f = self.plain_list[0](packed)                    # plain list
        g = self.plain_dict["ctx"](packed2, None, w2)     # 2-D, last offset, weights
        return a, [b, c], d, e, f, g


def make_model():
    torch.manual_seed(1)
    return Bags()


def example_inputs():
    idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0])
    off = torch.tensor([0, 2, 2, 5])          # an empty bag
    # include_last_offset: torch 1.13 wants the last offset to be len(indices)
    closed = torch.tensor([0, 2, 2, 5, 8])
    w = torch.tensor([0.5, 1.0, 2.0, -1.0, 0.25, 1.5, 1.0, 3.0])
    packed = torch.tensor([[1, 2, 3], [2, 2, 2], [4, 0, 2], [3, 3, 1]])
    packed32 = torch.tensor([[1, 0], [0, 0], [8, 3]], dtype=torch.int32)
    idx32 = torch.tensor([7, 6, 5, 0, 1], dtype=torch.int32)
    off32 = torch.tensor([0, 1, 3, 5], dtype=torch.int32)
    packed2 = torch.tensor([[1, 2], [3, 4], [0, 0]])  # the last row is not read
    w2 = torch.tensor([[2.0, -1.0], [0.5, 0.5], [7.0, 7.0]])
    return idx, off, w, packed, packed32, idx32, off32, packed2, w2, closed
