"""The sparse half of a DLRM on Criteo-like features: 26 categorical
features, each an nn.EmbeddingBag (sum pooling, D = 16) in a ModuleDict, as
torchrec's EmbeddingBagCollection holds them, and the pooled vectors
concatenated into one [batch, 26 * 16] tensor for the interaction layer.

The table sizes keep the relative sizes of the 26 features of Criteo's
Kaggle display-advertising data set (their number of distinct values),
compressed to rows = clamp(round(n ** 0.6), 3, 10000) so that the example
stays small: from 3 rows to 10^4.

    utils/torch-import examples/torch/dlrm_ebc.py -o dlrm_ebc.mlir
    /usr/bin/python3 utils/torch_import/check.py examples/torch/dlrm_ebc.py --mlir dlrm_ebc.mlir

forward takes (indices, offsets) of each feature in table order: 52 tensors,
as *features.

It is compiled with table batching (PIPELINE_OPTIONS below, which check.py
reads): the 26 embbag.offsets ops that torch-import writes become one
parallel loop over chunks of all the features' indices (docs/Batching.md).
"""

import torch
import torch.nn as nn

# Distinct values of the features C1..C26 (Criteo Kaggle).
CRITEO_CARDINALITIES = [
    1460, 583, 10131227, 2202608, 305, 24, 12517, 633, 3, 93145, 5683,
    8351593, 3194, 27, 14992, 5461306, 10, 5652, 2173, 4, 7046547, 18, 15,
    286181, 105, 142572,
]
DIM = 16
BATCH = 64

# The options of embbag-to-llvm that utils/torch_import/check.py compiles
# the imported module with.
PIPELINE_OPTIONS = "parallel=1 batch-tables=1"


def table_rows(n):
    return min(10000, max(3, round(n ** 0.6)))


class EmbeddingBagCollection(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding_bags = nn.ModuleDict({
            "C%d" % (k + 1): nn.EmbeddingBag(table_rows(n), DIM, mode="sum")
            for k, n in enumerate(CRITEO_CARDINALITIES)
        })

    def forward(self, *features):
        pooled = [bag(features[2 * k], features[2 * k + 1])
                  for k, bag in enumerate(self.embedding_bags.values())]
        return torch.cat(pooled, dim=1)


def make_model():
    torch.manual_seed(0)
    return EmbeddingBagCollection()


def example_inputs():
    """Multi-hot bags of 0 to 4 ids per sample (empty bags too), ids drawn
    uniformly from each table."""
    gen = torch.Generator().manual_seed(1)
    inputs = []
    for n in CRITEO_CARDINALITIES:
        lengths = torch.randint(0, 5, (BATCH,), generator=gen)
        offsets = torch.cat([torch.zeros(1, dtype=torch.int64),
                             torch.cumsum(lengths, 0)[:-1]])
        indices = torch.randint(0, table_rows(n), (int(lengths.sum()),),
                                generator=gen)
        inputs += [indices, offsets]
    return tuple(inputs)
