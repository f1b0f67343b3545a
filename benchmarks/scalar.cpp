// The scalar contender and reference of the embbag benchmark: the loop one
// writes first, one element at a time. run.sh compiles this file with
// -fno-tree-vectorize so that it stays scalar.
#include "bench.h"

#include <cstring>
#include <vector>

namespace {

template <typename IT>
void run(const Problem &p, float *out) {
  const IT *idx = static_cast<const IT *>(p.indices);
  const IT *off = static_cast<const IT *>(p.offsets);
  const int64_t dim = p.dim;
  std::memset(out, 0, sizeof(float) * p.batch * dim);
  std::vector<int64_t> counts(p.batch, 0);

  auto add = [&](int64_t bag, int64_t j) {
    const float *row = p.table + static_cast<int64_t>(idx[j]) * dim;
    float *dst = out + bag * dim;
    if (p.mode == Mode::Wsum) {
      const float w = p.weights[j];
      for (int64_t d = 0; d < dim; ++d)
        dst[d] += w * row[d];
    } else {
      for (int64_t d = 0; d < dim; ++d)
        dst[d] += row[d];
    }
    ++counts[bag];
  };

  switch (p.form) {
  case Form::Packed:
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t j = b * p.bag; j < (b + 1) * p.bag; ++j)
        add(b, j);
    break;
  case Form::Offsets:
    for (int64_t b = 0; b < p.batch; ++b) {
      int64_t end = b + 1 < p.batch ? static_cast<int64_t>(off[b + 1]) : p.n;
      for (int64_t j = off[b]; j < end; ++j)
        add(b, j);
    }
    break;
  case Form::Segments:
    for (int64_t j = 0; j < p.n; ++j)
      add(static_cast<int64_t>(off[j]), j);
    break;
  }

  if (p.mode == Mode::Mean)
    for (int64_t b = 0; b < p.batch; ++b)
      if (counts[b] > 1)
        for (int64_t d = 0; d < dim; ++d)
          out[b * dim + d] /= static_cast<float>(counts[b]);
}

} // namespace

void scalarEmbBag(const Problem &p, float *out) {
  if (p.idxBits == 64)
    run<int64_t>(p, out);
  else
    run<int32_t>(p, out);
}
