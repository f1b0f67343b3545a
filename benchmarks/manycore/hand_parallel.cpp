// The hand-written AVX-512 kernel of the single-core benchmark
// (../hand_kernel.h), run on many threads: the bags are split evenly among
// the OpenMP threads (static schedule, as embbag's parallel=1), and each
// thread runs the kernel's chunk function on its share. This is the "hand
// gather loop in the same process" that scale.py compares embbag with.
// f32 offsets sum with i32 indices and rows of at most 256 values (one pass
// over the row per bag); built by build.sh with -march=x86-64-v4 -fopenmp
// (AVX-512), or for AVX2 where build.sh is given MARCH (to try it on
// machines without AVX-512).
#include "../hand_kernel.h"

#include <omp.h>

int64_t handPrefetchOption = -1;

#ifdef __AVX512F__
using Isa = Avx512;
#else
using Isa = Avx2;
#endif

extern "C" void handOffsetsSum(const float *table, int64_t rows, int64_t dim,
                               const int32_t *indices, const int32_t *offsets,
                               int64_t batch, int64_t n, float *out) {
  Problem p{Form::Offsets, Mode::Sum, DType::F32, 32,      table,   rows,   dim,
            batch,         1,         n,          indices, offsets, nullptr};
  std::vector<int64_t> starts;
  bagStarts<int32_t>(p, starts);
  constexpr int kL = Isa::kLanes;
  const int64_t vectors = (dim + kL - 1) / kL;
  if (vectors > kMaxVectors)
    std::abort();
  ChunkFn chunk = pickChunk<Isa, F32, Mode::Sum, int32_t>(
      static_cast<int>(vectors), dim % kL != 0,
      prefetchDistance(dim * sizeof(float)) > 0);
#pragma omp parallel
  {
    int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
    chunk(p, starts.data(), batch * t / threads, batch * (t + 1) / threads, 0,
          out);
  }
}
