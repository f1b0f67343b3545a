// Calls the kernels of Inputs/destination.mlir with a destination of the
// result's shape, then with one row too few: the checked kernels must stop
// (status: return non-zero; abort: the message) before writing into it.
// Every buffer is malloc'ed to its exact size, under AddressSanitizer.

#include "libdest.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef VOID_RESULT
#define CALL(f, ...) (f(__VA_ARGS__), 0)
#else
#define CALL(f, ...) f(__VA_ARGS__)
#endif

int main(void) {
  float *table = malloc(8 * sizeof(float));
  for (int k = 0; k < 8; ++k)
    table[k] = (float)(k + 1);
  embbag_memref_2d_f32 t = {table, table, 0, {4, 2}, {2, 1}};
  int64_t *ind = malloc(3 * sizeof(int64_t));
  ind[0] = 0, ind[1] = 1, ind[2] = 3;
  // Three bags {0, 1}, {}, {3}.
  int64_t *off = malloc(3 * sizeof(int64_t));
  off[0] = 0, off[1] = 2, off[2] = 2;
  embbag_memref_1d_i64 in = {ind, ind, 0, {3}, {1}};
  embbag_memref_1d_i64 of = {off, off, 0, {3}, {1}};

  float *out = calloc(6, sizeof(float));
  embbag_memref_2d_f32 o = {out, out, 0, {3, 2}, {2, 1}};
  int32_t status = CALL(_mlir_ciface_into, &t, &in, &of, &o);
  printf("fits: status %d: %g %g %g %g %g %g\n", status, out[0], out[1],
         out[2], out[3], out[4], out[5]);
  fflush(stdout);

  // Four offsets (batch + 1, as with include_last_offset) into three rows.
  int64_t *off4 = malloc(4 * sizeof(int64_t));
  off4[0] = 0, off4[1] = 2, off4[2] = 2, off4[3] = 3;
  embbag_memref_1d_i64 of4 = {off4, off4, 0, {4}, {1}};
  printf("offsets one row too many: status %d\n",
         CALL(_mlir_ciface_into, &t, &in, &of4, &o));
  fflush(stdout);

  // Packed: four bags into a 3x2 destination.
  int32_t *pidx = malloc(8 * sizeof(int32_t));
  for (int k = 0; k < 8; ++k)
    pidx[k] = k % 4;
  embbag_memref_2d_i32 pi = {pidx, pidx, 0, {4, 2}, {2, 1}};
  embbag_memref_2d_f32 t2 = {table, table, 0, {4, 2}, {2, 1}};
  printf("packed one row too many: status %d\n",
         CALL(_mlir_ciface_into_packed, &t2, &pi, &o));
  fflush(stdout);

  free(table), free(ind), free(off), free(off4), free(out), free(pidx);
  return 0;
}
