// Calls the kernels of Inputs/kernels.mlir, compiled by embbag-aot, through
// the generated header: good inputs give the right values, an index outside
// the table gives a non-zero status (built with --checks=status) without
// reading outside the table: every buffer is malloc'ed to its exact size,
// and the test builds the kernels and this program with AddressSanitizer.
//
// Built with -DVOID_RESULT for --checks=abort and --checks=off, whose
// functions return nothing: the first bad call then ends the process with
// the check's message (abort), or reads outside the table (off), which
// AddressSanitizer reports.

#include "libkernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef VOID_RESULT
#define CALL(f, ...) (f(__VA_ARGS__), 0)
#else
#define CALL(f, ...) f(__VA_ARGS__)
#endif

static float *copyFloats(const float *src, size_t n) {
  float *p = malloc(n * sizeof(float));
  memcpy(p, src, n * sizeof(float));
  return p;
}

static embbag_memref_2d_f32 matrix(float *data, int64_t rows, int64_t cols) {
  embbag_memref_2d_f32 m = {data, data, 0, {rows, cols}, {cols, 1}};
  return m;
}

static void print(const char *what, int32_t status, const float *out,
                  int64_t rows, int64_t cols) {
  printf("%s: status %d:", what, status);
  for (int64_t i = 0; i < rows * cols; ++i)
    printf(" %g", out[i]);
  printf("\n");
}

int main(void) {
  // Rows r0 = [1, 2], r1 = [10, 20], r2 = [100, 200], r3 = [1000, 2000].
  const float tableData[] = {1, 2, 10, 20, 100, 200, 1000, 2000};
  float *table = copyFloats(tableData, 8);
  embbag_memref_2d_f32 t = matrix(table, 4, 2);
  float *out = calloc(6, sizeof(float));
  embbag_memref_2d_f32 o = matrix(out, 3, 2);

  // embbag.packed sum, bags {0, 3}, {1, 2}, {2, 2}.
  int32_t *idx = malloc(6 * sizeof(int32_t));
  const int32_t good[] = {0, 3, 1, 2, 2, 2};
  memcpy(idx, good, sizeof(good));
  embbag_memref_2d_i32 i = {idx, idx, 0, {3, 2}, {2, 1}};
  int32_t status = CALL(_mlir_ciface_bag_sum, &t, &i, &o);
  print("packed", status, out, 3, 2);

  // embbag.offsets mean with default row 3 for the empty bag:
  // bags {0, 1}, {}, {2}.
  int64_t *ind = malloc(3 * sizeof(int64_t));
  int64_t *off = malloc(3 * sizeof(int64_t));
  ind[0] = 0, ind[1] = 1, ind[2] = 2;
  off[0] = 0, off[1] = 2, off[2] = 2;
  embbag_memref_1d_i64 in = {ind, ind, 0, {3}, {1}};
  embbag_memref_1d_i64 of = {off, off, 0, {3}, {1}};
  status = CALL(_mlir_ciface_bag_offsets, &t, &in, &of, 3, &o);
  print("offsets", status, out, 3, 2);

  // embbag.segments sum into two segments (ids 1, 0, 1), with a buffer the
  // kernel allocates and must free when a check fails.
  int32_t *sind = malloc(3 * sizeof(int32_t));
  int32_t *sid = malloc(3 * sizeof(int32_t));
  sind[0] = 0, sind[1] = 1, sind[2] = 2;
  sid[0] = 1, sid[1] = 0, sid[2] = 1;
  embbag_memref_1d_i32 si = {sind, sind, 0, {3}, {1}};
  embbag_memref_1d_i32 ss = {sid, sid, 0, {3}, {1}};
  float *sout = calloc(4, sizeof(float));
  embbag_memref_2d_f32 so = matrix(sout, 2, 2);
  status = CALL(_mlir_ciface_seg, &t, &si, &ss, &so);
  print("segments", status, sout, 2, 2);

  fflush(stdout);
  // Bad inputs: index 4 and index -1 in a table of 4 rows, a decreasing
  // offset, a segment id out of range. The outputs must not be trusted
  // after a non-zero status; nothing is printed of them.
  idx[3] = 4;
  printf("packed index 4: status %d\n", CALL(_mlir_ciface_bag_sum, &t, &i, &o));
  fflush(stdout);
  idx[3] = -1;
  printf("packed index -1: status %d\n",
         CALL(_mlir_ciface_bag_sum, &t, &i, &o));
  off[1] = 1, off[2] = 0;
  printf("offsets decreasing: status %d\n",
         CALL(_mlir_ciface_bag_offsets, &t, &in, &of, 3, &o));
  off[1] = 2, off[2] = 2;
  printf("offsets default 4: status %d\n",
         CALL(_mlir_ciface_bag_offsets, &t, &in, &of, 4, &o));
  sind[2] = 9;
  printf("segments index 9: status %d\n",
         CALL(_mlir_ciface_seg, &t, &si, &ss, &so));
  sind[2] = 2, sid[1] = 2;
  printf("segments id 2: status %d\n",
         CALL(_mlir_ciface_seg, &t, &si, &ss, &so));

  // Good again after the bad calls.
  idx[3] = good[3], sid[1] = 0;
  status = CALL(_mlir_ciface_bag_sum, &t, &i, &o);
  print("packed again", status, out, 3, 2);

  free(table), free(out), free(idx), free(ind), free(off);
  free(sind), free(sid), free(sout);
  return 0;
}
