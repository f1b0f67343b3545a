// The hand-written dense gradient of `embbag.offsets sum` (f32 table, i32
// indices and offsets) that the training benchmark (train_bench.sh) times
// next to `embbag.offsets_grad sum`: the gradient zeroed, then for each
// bag, for each of its indices, grad[idx] += dy[bag], the row loop left to
// GCC's vectoriser (-O3 -march of the host). Offsets as the op's (no
// include_last_offset): bag b reads [offsets[b], offsets[b + 1]), the last
// one up to n.
#include <cstdint>
#include <cstring>

extern "C" void hand_offsets_grad_sum(const float *__restrict dy,
                                      const int32_t *__restrict indices,
                                      const int32_t *__restrict offsets,
                                      int64_t batch, int64_t n, int64_t rows,
                                      int64_t dim, float *__restrict grad) {
  std::memset(grad, 0, sizeof(float) * rows * dim);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t end = b + 1 < batch ? offsets[b + 1] : n;
    const float *__restrict src = dy + b * dim;
    for (int64_t j = offsets[b]; j < end; ++j) {
      float *__restrict dst = grad + int64_t(indices[j]) * dim;
      for (int64_t d = 0; d < dim; ++d)
        dst[d] += src[d];
    }
  }
}
