// The scalar contender and reference of the embbag benchmark: the loop one
// writes first, one element at a time. run.sh compiles this file with
// -fno-tree-vectorize so that it stays scalar.
#include "bench.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace {

// Storage types: f32 as is, f16 and bf16 as 16-bit patterns; quantized
// rows of bytes (codes, scale, bias), whose weights are f32.
struct F32 {
  using T = float;
  using W = float;
  static float load(float v) { return v; }
};
struct F16 {
  using T = uint16_t;
  using W = uint16_t;
  static float load(uint16_t v) { return f16ToF32(v); }
};
struct BF16 {
  using T = uint16_t;
  using W = uint16_t;
  static float load(uint16_t v) { return bf16ToF32(v); }
};
struct Quantized {
  using T = uint8_t;
  using W = float;
  static float load(float v) { return v; } // the weights
};

template <typename IT, typename S> void run(const Problem &p, void *outBuf) {
  using T = typename S::T;
  using W = typename S::W;
  constexpr bool kQuantized = std::is_same_v<S, Quantized>;
  const T *table = static_cast<const T *>(p.table);
  const W *weights = static_cast<const W *>(p.weights);
  const IT *idx = static_cast<const IT *>(p.indices);
  const IT *off = static_cast<const IT *>(p.offsets);
  const int64_t dim = p.dim, cols = tableCols(p.dtype, dim);
  // f32 results accumulate in the result itself; f16 and bf16 in f32,
  // rounded once.
  std::vector<float> scratch;
  float *out;
  if (valueType(p.dtype) == DType::F32) {
    out = static_cast<float *>(outBuf);
  } else {
    scratch.resize(p.batch * dim);
    out = scratch.data();
  }
  if (p.mode == Mode::Max)
    std::fill(out, out + p.batch * dim, -INFINITY);
  else
    std::memset(out, 0, sizeof(float) * p.batch * dim);
  std::vector<int64_t> counts(p.batch, 0);

  auto add = [&](int64_t bag, int64_t j) {
    const T *row = table + static_cast<int64_t>(idx[j]) * cols;
    float *dst = out + bag * dim;
    if constexpr (kQuantized) {
      float scale, bias;
      quantScaleBias(p.dtype, row, dim, scale, bias);
      auto value = [&](int64_t d) {
        return static_cast<float>(quantCode(p.dtype, row, d)) * scale + bias;
      };
      if (p.mode == Mode::Wsum) {
        const float w = S::load(weights[j]);
        for (int64_t d = 0; d < dim; ++d)
          dst[d] += w * value(d);
      } else if (p.mode == Mode::Max) {
        for (int64_t d = 0; d < dim; ++d)
          dst[d] = std::max(dst[d], value(d));
      } else {
        for (int64_t d = 0; d < dim; ++d)
          dst[d] += value(d);
      }
    } else if (p.mode == Mode::Wsum) {
      const float w = S::load(weights[j]);
      for (int64_t d = 0; d < dim; ++d)
        dst[d] += w * S::load(row[d]);
    } else if (p.mode == Mode::Max) {
      for (int64_t d = 0; d < dim; ++d)
        dst[d] = std::max(dst[d], S::load(row[d]));
    } else {
      for (int64_t d = 0; d < dim; ++d)
        dst[d] += S::load(row[d]);
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
  if (p.mode == Mode::Max) // an empty bag is zeros
    for (int64_t b = 0; b < p.batch; ++b)
      if (counts[b] == 0)
        std::fill(out + b * dim, out + (b + 1) * dim, 0.0f);
  if (valueType(p.dtype) != DType::F32)
    for (int64_t i = 0; i < p.batch * dim; ++i)
      storeElem(p.dtype, outBuf, i, out[i]);
}

template <typename IT> void runTyped(const Problem &p, void *out) {
  switch (p.dtype) {
  case DType::F32:
    return run<IT, F32>(p, out);
  case DType::F16:
    return run<IT, F16>(p, out);
  case DType::BF16:
    return run<IT, BF16>(p, out);
  case DType::Q8:
  case DType::Q4:
    return run<IT, Quantized>(p, out);
  }
}

} // namespace

void scalarEmbBag(const Problem &p, void *out) {
  if (p.idxBits == 64)
    runTyped<int64_t>(p, out);
  else
    runTyped<int32_t>(p, out);
}
