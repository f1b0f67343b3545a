// The AVX2 instance of the hand-written kernel (hand_kernel.h). run.sh
// compiles this file with -mno-avx512f: on an AVX-512 machine GCC would
// otherwise give the "AVX2" kernel 32 vector registers and EVEX encodings.
#include "hand_kernel.h"

#ifdef __AVX512F__
#error "hand_avx2.cpp is the AVX2 kernel: compile it with -mno-avx512f"
#endif

void avx2EmbBag(const Problem &p, void *out) { handEmbBag<Avx2>(p, out); }
