"""nn.Embedding (a gather) on inputs of 0 to 3 dimensions, with a padding
row that is not zero (padding_idx does not change the forward result), and
torch.stack / torch.cat of embedding outputs."""

import torch
import torch.nn as nn


class Lookups(nn.Module):
    def __init__(self):
        super().__init__()
        self.words = nn.Embedding(12, 4, padding_idx=3)
        with torch.no_grad():
            self.words.weight[3] = 5.0  # read as any row in forward
        self.pos = nn.Embedding(6, 4)
        self.bag = nn.EmbeddingBag(6, 4, mode="mean")

    def forward(self, tokens, grid, one, flat32, bags):
        t = self.words(tokens)                # [5] -> [5, 4]
        g = self.words(grid)                  # [2, 3, 2] -> [2, 3, 2, 4]
        o = self.pos(one)                     # [] -> [4]
        f = self.pos(flat32)                  # int32 [2, 5] -> [2, 5, 4]
        b = self.bag(bags)                    # [5, 2] -> [5, 4]
        stacked = torch.stack([t, b], dim=-1)     # [5, 4, 2]
        joined = torch.cat((t, b, t), 0)          # [15, 4]
        return t, g, o, f, stacked, joined


def make_model():
    torch.manual_seed(2)
    return Lookups()


def example_inputs():
    tokens = torch.tensor([3, 0, 11, 3, 7])
    grid = torch.tensor([[[1, 3], [5, 5], [0, 11]], [[2, 2], [3, 4], [10, 9]]])
    one = torch.tensor(5)
    flat32 = torch.tensor([[0, 1, 2, 3, 4], [5, 4, 3, 2, 1]], dtype=torch.int32)
    bags = torch.tensor([[0, 1], [2, 3], [4, 5], [5, 5], [1, 0]])
    return tokens, grid, one, flat32, bags
