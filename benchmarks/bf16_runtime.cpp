// __truncsfbf2: f32 to bf16, rounding to nearest even. LLVM lowers an
// fptrunc to bfloat into a call of this runtime function when the target
// has no conversion instruction (znver3: no AVX512-BF16); compiler-rt and
// libgcc 13 define it, Debian 12's libgcc (GCC 12) does not, so the
// benchmark links this one. bf16 and _Float16 values are both returned in
// the low 16 bits of xmm0, which is why _Float16 stands in for __bf16
// (that GCC 12 does not have).
#include "bench.h"

extern "C" _Float16 __truncsfbf2(float f) {
  uint16_t bits = f32ToBF16(f);
  _Float16 result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}
