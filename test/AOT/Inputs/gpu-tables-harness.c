// Calls @tables of Inputs/gpu-tables.mlir, compiled by embbag-aot
// --target=nvptx, with the fake CUDA driver (device memory is host memory;
// no kernel runs, EMBBAG_FAKE_CUDA_KERNEL_FLAGS stands for the bits a
// kernel sets), and prints the call's status.
//
// Built with -DVOID_RESULT for --checks=abort, whose functions return
// nothing.

#include "libtables.h"

#include <stdio.h>
#include <stdlib.h>

#include "call-status.h"

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  float *table4 = aligned_alloc(16, 8 * 4 * sizeof(float));
  float *table8 = aligned_alloc(16, 8 * 8 * sizeof(float));
  float *out0 = aligned_alloc(16, 3 * 4 * sizeof(float));
  float *out1 = aligned_alloc(16, 3 * 4 * sizeof(float));
  float *out2 = aligned_alloc(16, 3 * 8 * sizeof(float));
  int32_t *idx = aligned_alloc(16, 6 * sizeof(int32_t));
  int64_t *ind = aligned_alloc(16, 4 * sizeof(int64_t));
  int64_t *off = aligned_alloc(16, 4 * sizeof(int64_t));
  embbag_memref_2d_f32 t4 = {table4, table4, 0, {8, 4}, {4, 1}};
  embbag_memref_2d_f32 t8 = {table8, table8, 0, {8, 8}, {8, 1}};
  embbag_memref_2d_f32 o0 = {out0, out0, 0, {3, 4}, {4, 1}};
  embbag_memref_2d_f32 o1 = {out1, out1, 0, {3, 4}, {4, 1}};
  embbag_memref_2d_f32 o2 = {out2, out2, 0, {3, 8}, {8, 1}};
  embbag_memref_2d_i32 i = {idx, idx, 0, {3, 2}, {2, 1}};
  embbag_memref_1d_i64 in = {ind, ind, 0, {4}, {1}};
  embbag_memref_1d_i64 of = {off, off, 0, {3}, {1}};
  int32_t status = CALL(_mlir_ciface_tables, &t4, &i, &o0, &t4, &in, &of, &o1,
                        &t8, &i, &o2);
  printf("tables: status %d\n", status);
  return 0;
}
