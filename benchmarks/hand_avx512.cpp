// The AVX-512 instance of the hand-written kernel (hand_kernel.h), present
// when this file is compiled for a CPU with AVX-512 F, BW and VL (run.sh:
// -march=native on such a host). The harness calls it only if the CPU it
// runs on has them too.
// GCC 12's AVX-512 conversions (_mm512_cvtph_ps, _mm512_cvtps_ph) start
// from _mm512_undefined_ps(), `__m512 __Y = __Y;`, which -Wall reports as
// maybe uninitialized wherever they are inlined.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "hand_kernel.h"

EmbBagFn avx512Kernel() {
#ifdef EMBBAG_HAND_AVX512
  return &handEmbBag<Avx512>;
#else
  return nullptr;
#endif
}
