// The hand-written embedding-bag kernel of the benchmark, generic over the
// vector ISA: hand_avx2.cpp instantiates it for AVX2 (ymm, 16 registers,
// vmaskmovps tails) and hand_avx512.cpp for AVX-512 (zmm, __mmask16 tails).
// Each of those files is compiled with the -march flags of its ISA.
//
// The bags' ranges [starts[b], starts[b + 1]) of the index list are found
// first (offsets: copied; packed: b * bag; segments: a histogram of the
// sorted ids). Then, for each bag, for each chunk of up to 16 vectors of the
// row (the whole row in one pass up to 16 vectors, else chunks of 8 vectors
// and a last one): the chunk's accumulators stay in registers across the
// bag's indices, each row chunk is added with vaddps/vfmadd231ps from
// memory (max: vmaxps, from -inf), the last vector of a row whose length
// is not a multiple of the vector length is read with a masked load, and
// the first chunk prefetches every cache line of the row some indices
// ahead (the index list is one array, so this runs across bag boundaries):
// by default as many as make 16 KiB of rows, within [16, 128] (measured on
// Zen 3: 16 indices are too few for rows of 64 bytes).
#pragma once

#include "bench.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Everything below has internal linkage: both ISA files include this header,
// compiled with different -march flags, and the linker must not pick one
// file's copy of a shared helper (with AVX-512 instructions) for the other.
namespace {

constexpr int kMaxVectors = 16;  // vectors of one pass over a bag
constexpr int kChunkVectors = 8; // vectors of a chunk of a longer row

// The cache level the rows are prefetched into: _MM_HINT_T0 (every level,
// as FBGEMM and caffe2 do) unless run.sh's HAND_PREFETCH_HINT says
// otherwise (e.g. _MM_HINT_T1, into L2: a what-if beside embbag's
// prefetch-locality).
#ifndef HAND_PREFETCH_HINT
#define HAND_PREFETCH_HINT _MM_HINT_T0
#endif

int64_t prefetchDistance(int64_t rowBytes) {
  if (handPrefetchOption >= 0)
    return handPrefetchOption;
  return std::clamp<int64_t>(16384 / rowBytes, 16, 128);
}

// Storage element types: f32, and f16 / bf16 accumulated in f32.
struct F32 {
  using T = float;
};
struct F16 {
  using T = uint16_t;
};
struct BF16 {
  using T = uint16_t;
};

//===----------------------------------------------------------------------===//
// AVX2
//===----------------------------------------------------------------------===//

struct Avx2 {
  static constexpr int kLanes = 8;
  using Vec = __m256;
  using Mask = __m256i; // vmaskmovps takes its mask in a vector register
  static Vec zero() { return _mm256_setzero_ps(); }
  static Vec set1(float f) { return _mm256_set1_ps(f); }
  static Vec add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
  static Vec fmadd(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
  static Vec div(Vec a, Vec b) { return _mm256_div_ps(a, b); }
  static Vec max(Vec a, Vec b) { return _mm256_max_ps(a, b); }
  // Lanes [0, n).
  static Mask tailMask(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
};

// One vector of storage type E to and from an f32 vector of ISA I.
// kMaskedTail: whether maskload / maskstore exist (AVX2 has no masked
// 16-bit move: f16 and bf16 rows must be a multiple of 8 long there).
template <typename I, typename E> struct Storage;

template <> struct Storage<Avx2, F32> {
  static constexpr bool kMaskedTail = true;
  static __m256 load(const float *p) { return _mm256_loadu_ps(p); }
  static __m256 maskload(const float *p, __m256i m) {
    return _mm256_maskload_ps(p, m);
  }
  static __m256 broadcast(const float *p) { return _mm256_broadcast_ss(p); }
  static void store(float *p, __m256 v) { _mm256_storeu_ps(p, v); }
  static void maskstore(float *p, __m256i m, __m256 v) {
    _mm256_maskstore_ps(p, m, v);
  }
};

template <> struct Storage<Avx2, F16> {
  static constexpr bool kMaskedTail = false;
  static __m256 load(const uint16_t *p) {
    return _mm256_cvtph_ps(
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
  }
  static __m256 maskload(const uint16_t *, __m256i) { std::abort(); }
  static __m256 broadcast(const uint16_t *p) {
    return _mm256_set1_ps(_cvtsh_ss(*p));
  }
  static void store(uint16_t *p, __m256 v) {
    _mm_storeu_si128(reinterpret_cast<__m128i *>(p),
                     _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  static void maskstore(uint16_t *, __m256i, __m256) { std::abort(); }
};

template <> struct Storage<Avx2, BF16> {
  static constexpr bool kMaskedTail = false;
  static __m256 load(const uint16_t *p) {
    __m256i wide = _mm256_cvtepu16_epi32(
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
  }
  static __m256 maskload(const uint16_t *, __m256i) { std::abort(); }
  static __m256 broadcast(const uint16_t *p) {
    return _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(*p) << 16));
  }
  static void store(uint16_t *p, __m256 v) {
    // Round to nearest even, keep the high halves, pack them in order.
    __m256i u = _mm256_castps_si256(v);
    __m256i odd =
        _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    u = _mm256_add_epi32(u, _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff)));
    u = _mm256_srli_epi32(u, 16);
    __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(u, u), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(p),
                     _mm256_castsi256_si128(packed));
  }
  static void maskstore(uint16_t *, __m256i, __m256) { std::abort(); }
};

//===----------------------------------------------------------------------===//
// AVX-512 (F, BW and VL: the masked 16-bit moves of the f16 / bf16 tails)
//===----------------------------------------------------------------------===//

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#define EMBBAG_HAND_AVX512 1

struct Avx512 {
  static constexpr int kLanes = 16;
  using Vec = __m512;
  using Mask = __mmask16; // a k register: masked moves cost what whole ones do
  static Vec zero() { return _mm512_setzero_ps(); }
  static Vec set1(float f) { return _mm512_set1_ps(f); }
  static Vec add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
  static Vec fmadd(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
  static Vec div(Vec a, Vec b) { return _mm512_div_ps(a, b); }
  static Vec max(Vec a, Vec b) { return _mm512_max_ps(a, b); }
  static Mask tailMask(int n) { return static_cast<Mask>((1u << n) - 1); }
};

template <> struct Storage<Avx512, F32> {
  static constexpr bool kMaskedTail = true;
  static __m512 load(const float *p) { return _mm512_loadu_ps(p); }
  static __m512 maskload(const float *p, __mmask16 m) {
    return _mm512_maskz_loadu_ps(m, p);
  }
  static __m512 broadcast(const float *p) { return _mm512_set1_ps(*p); }
  static void store(float *p, __m512 v) { _mm512_storeu_ps(p, v); }
  static void maskstore(float *p, __mmask16 m, __m512 v) {
    _mm512_mask_storeu_ps(p, m, v);
  }
};

template <> struct Storage<Avx512, F16> {
  static constexpr bool kMaskedTail = true;
  static __m512 load(const uint16_t *p) {
    return _mm512_cvtph_ps(
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
  }
  static __m512 maskload(const uint16_t *p, __mmask16 m) {
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
  }
  static __m512 broadcast(const uint16_t *p) {
    return _mm512_set1_ps(_cvtsh_ss(*p));
  }
  static __m256i round(__m512 v) {
    return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
  static void store(uint16_t *p, __m512 v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), round(v));
  }
  static void maskstore(uint16_t *p, __mmask16 m, __m512 v) {
    _mm256_mask_storeu_epi16(p, m, round(v));
  }
};

template <> struct Storage<Avx512, BF16> {
  static constexpr bool kMaskedTail = true;
  static __m512 widen(__m256i h) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
  }
  static __m512 load(const uint16_t *p) {
    return widen(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
  }
  static __m512 maskload(const uint16_t *p, __mmask16 m) {
    return widen(_mm256_maskz_loadu_epi16(m, p));
  }
  static __m512 broadcast(const uint16_t *p) {
    return _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(*p) << 16));
  }
  // Round to nearest even; the high halves in the low 16 bits of each lane.
  static __m512i round(__m512 v) {
    __m512i u = _mm512_castps_si512(v);
    __m512i odd =
        _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    u = _mm512_add_epi32(u, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff)));
    return _mm512_srli_epi32(u, 16);
  }
  static void store(uint16_t *p, __m512 v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(p),
                        _mm512_cvtepi32_epi16(round(v)));
  }
  static void maskstore(uint16_t *p, __mmask16 m, __m512 v) {
    _mm512_mask_cvtepi32_storeu_epi16(p, m, round(v));
  }
};
#endif // AVX-512

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

// Runs chunk `col` of bags [bagBegin, bagEnd).
using ChunkFn = void (*)(const Problem &p, const int64_t *starts,
                         int64_t bagBegin, int64_t bagEnd, int64_t col,
                         void *out);

// Row vector v of a chunk of NV vectors: the last one masked with TAIL.
template <typename I, typename S, int NV, bool TAIL, typename T>
inline typename I::Vec loadVector(const T *row, int v, typename I::Mask tail) {
  if constexpr (TAIL)
    if (v == NV - 1)
      return S::maskload(row + I::kLanes * v, tail);
  return S::load(row + I::kLanes * v);
}

template <typename I, typename E, int NV, bool TAIL, bool PF, Mode M,
          typename IT>
void handChunk(const Problem &p, const int64_t *starts, int64_t bagBegin,
               int64_t bagEnd, int64_t col, void *outBuf) {
  using S = Storage<I, E>;
  using T = typename E::T;
  using Vec = typename I::Vec;
  constexpr int64_t kBytes = sizeof(T);
  constexpr int kL = I::kLanes;
  const IT *__restrict idx = static_cast<const IT *>(p.indices);
  const T *__restrict w = static_cast<const T *>(p.weights);
  const T *__restrict table = static_cast<const T *>(p.table) + col;
  T *__restrict out = static_cast<T *>(outBuf);
  const int64_t dim = p.dim, n = p.n;
  const int64_t distance = prefetchDistance(dim * kBytes);
  // A row of NV vectors spans at most this many lines when it starts on a
  // line, one more at most when it does not.
  constexpr int kLines = (NV * kL * kBytes + 63) / 64;
  const bool rowsOnLines = dim * kBytes % 64 == 0;
  const int64_t lastByte = dim * kBytes - 1;
  const typename I::Mask tail = I::tailMask(static_cast<int>(dim % kL));
  for (int64_t b = bagBegin; b < bagEnd; ++b) {
    const int64_t begin = starts[b], end = starts[b + 1];
    // max starts from -inf (and leaves an empty bag zeros, below).
    const Vec init = M == Mode::Max ? I::set1(-INFINITY) : I::zero();
    Vec acc[NV];
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v)
      acc[v] = init;
    for (int64_t j = begin; j < end; ++j) {
      if (PF && j + distance < n) {
        const char *next = reinterpret_cast<const char *>(
            static_cast<const T *>(p.table) +
            static_cast<int64_t>(idx[j + distance]) * dim);
#pragma GCC unroll 16
        for (int l = 0; l < kLines; ++l)
          _mm_prefetch(next + 64 * l, HAND_PREFETCH_HINT);
        if (!rowsOnLines)
          _mm_prefetch(next + lastByte, HAND_PREFETCH_HINT);
      }
      const T *row = table + static_cast<int64_t>(idx[j]) * dim;
      if constexpr (M == Mode::Wsum) {
        const Vec wv = S::broadcast(w + j);
#pragma GCC unroll 16
        for (int v = 0; v < NV; ++v)
          acc[v] =
              I::fmadd(loadVector<I, S, NV, TAIL>(row, v, tail), wv, acc[v]);
      } else if constexpr (M == Mode::Max) {
#pragma GCC unroll 16
        for (int v = 0; v < NV; ++v)
          acc[v] = I::max(acc[v], loadVector<I, S, NV, TAIL>(row, v, tail));
      } else {
#pragma GCC unroll 16
        for (int v = 0; v < NV; ++v)
          acc[v] = I::add(acc[v], loadVector<I, S, NV, TAIL>(row, v, tail));
      }
    }
    if constexpr (M == Mode::Mean) {
      const Vec d =
          I::set1(static_cast<float>(std::max<int64_t>(end - begin, 1)));
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v)
        acc[v] = I::div(acc[v], d);
    }
    if constexpr (M == Mode::Max) {
      if (end == begin) {
#pragma GCC unroll 16
        for (int v = 0; v < NV; ++v)
          acc[v] = I::zero();
      }
    }
    T *dst = out + b * dim + col;
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) {
      if constexpr (TAIL) {
        if (v == NV - 1) {
          S::maskstore(dst + kL * v, tail, acc[v]);
          continue;
        }
      }
      S::store(dst + kL * v, acc[v]);
    }
  }
}

template <typename I, typename E, bool TAIL, bool PF, Mode M, typename IT>
ChunkFn pickChunk(int nv) {
  switch (nv) {
#define CASE(N)                                                                \
  case N:                                                                      \
    return &handChunk<I, E, N, TAIL, PF, M, IT>;
    // clang-format off
    CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9)
    CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15) CASE(16)
    // clang-format on
#undef CASE
  }
  std::abort();
}

template <typename I, typename E, Mode M, typename IT>
ChunkFn pickChunk(int nv, bool tail, bool prefetch) {
  if constexpr (Storage<I, E>::kMaskedTail) {
    if (tail)
      return prefetch ? pickChunk<I, E, true, true, M, IT>(nv)
                      : pickChunk<I, E, true, false, M, IT>(nv);
  } else if (tail) {
    std::fprintf(stderr,
                 "hand kernel: f16/bf16 rows must be a multiple of "
                 "%d elements\n",
                 I::kLanes);
    std::abort();
  }
  return prefetch ? pickChunk<I, E, false, true, M, IT>(nv)
                  : pickChunk<I, E, false, false, M, IT>(nv);
}

// The bags' ranges of the index list, starts[0..batch].
template <typename IT>
void bagStarts(const Problem &p, std::vector<int64_t> &startsBuf) {
  startsBuf.resize(p.batch + 1);
  int64_t *starts = startsBuf.data();
  const IT *off = static_cast<const IT *>(p.offsets);
  switch (p.form) {
  case Form::Packed:
    for (int64_t b = 0; b <= p.batch; ++b)
      starts[b] = b * p.bag;
    return;
  case Form::Offsets:
    for (int64_t b = 0; b < p.batch; ++b)
      starts[b] = off[b];
    starts[p.batch] = p.n;
    return;
  case Form::Segments: {
    std::fill(starts, starts + p.batch + 1, 0);
    int64_t prev = 0;
    for (int64_t j = 0; j < p.n; ++j) {
      int64_t id = off[j];
      if (id < prev) {
        std::fprintf(stderr, "hand kernel: segment ids must be sorted\n");
        std::abort();
      }
      prev = id;
      ++starts[id + 1];
    }
    for (int64_t b = 0; b < p.batch; ++b)
      starts[b + 1] += starts[b];
    return;
  }
  }
}

template <typename I, typename E, typename IT>
void handEmbBagTyped(const Problem &p, void *out) {
  auto pick = [&](int nv, bool tail, bool prefetch) {
    switch (p.mode) {
    case Mode::Sum:
      return pickChunk<I, E, Mode::Sum, IT>(nv, tail, prefetch);
    case Mode::Wsum:
      return pickChunk<I, E, Mode::Wsum, IT>(nv, tail, prefetch);
    case Mode::Mean:
      return pickChunk<I, E, Mode::Mean, IT>(nv, tail, prefetch);
    case Mode::Max:
      return pickChunk<I, E, Mode::Max, IT>(nv, tail, prefetch);
    }
    std::abort();
  };

  static thread_local std::vector<int64_t> startsBuf;
  bagStarts<IT>(p, startsBuf);
  const int64_t *starts = startsBuf.data();

  constexpr int kL = I::kLanes;
  const int64_t vectors = (p.dim + kL - 1) / kL;
  const bool hasTail = p.dim % kL != 0;
  const bool pf = prefetchDistance(p.dim * sizeof(typename E::T)) > 0;
  if (vectors <= kMaxVectors) {
    pick(static_cast<int>(vectors), hasTail, pf)(p, starts, 0, p.batch, 0, out);
    return;
  }
  // Long rows: chunk by chunk within each bag, so that the later chunks
  // find the lines that the first one prefetched.
  struct Step {
    ChunkFn fn;
    int64_t col;
  };
  std::vector<Step> steps;
  int64_t v = 0;
  for (; vectors - v > kChunkVectors; v += kChunkVectors)
    steps.push_back({pick(kChunkVectors, false, pf && v == 0), v * kL});
  steps.push_back(
      {pick(static_cast<int>(vectors - v), hasTail, false), v * kL});
  for (int64_t b = 0; b < p.batch; ++b)
    for (const Step &s : steps)
      s.fn(p, starts, b, b + 1, s.col, out);
}

template <typename I, typename E>
void handEmbBagElem(const Problem &p, void *out) {
  if (p.idxBits == 64)
    handEmbBagTyped<I, E, int64_t>(p, out);
  else
    handEmbBagTyped<I, E, int32_t>(p, out);
}

// The kernel of ISA I on any problem on a table of values (the harness
// runs no hand kernel on quantized tables).
template <typename I> void handEmbBag(const Problem &p, void *out) {
  switch (p.dtype) {
  case DType::F32:
    return handEmbBagElem<I, F32>(p, out);
  case DType::F16:
    return handEmbBagElem<I, F16>(p, out);
  case DType::BF16:
    return handEmbBagElem<I, BF16>(p, out);
  case DType::Q8:
  case DType::Q4:
    break;
  }
  std::fprintf(stderr, "hand kernel: no quantized tables\n");
  std::abort();
}

} // namespace
