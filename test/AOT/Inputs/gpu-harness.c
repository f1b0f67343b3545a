// Calls the kernels of Inputs/gpu-kernels.mlir, compiled by embbag-aot
// --target=nvptx, through the generated header, with the fake CUDA driver
// (whose device memory is host memory, and which runs no kernel): it prints
// the buffers' addresses, which the driver's log must show as the kernels'
// parameters, and each call's status. The last call breaks a rule the host
// checks (a default row outside the table) before any launch.
//
// Built with -DVOID_RESULT for --checks=abort and --checks=off, whose
// functions return nothing.

#include "libgpu.h"

#include <stdio.h>
#include <stdlib.h>

#include "call-status.h"

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  // 8 rows of 4 floats: 16-byte rows on 16-byte boundaries, the vector
  // path's buffers.
  float *table = aligned_alloc(16, 8 * 4 * sizeof(float));
  float *out = aligned_alloc(16, 3 * 4 * sizeof(float));
  int32_t *idx = aligned_alloc(16, 6 * sizeof(int32_t));
  int64_t *ind = aligned_alloc(16, 4 * sizeof(int64_t));
  int64_t *off = aligned_alloc(16, 4 * sizeof(int64_t));
  embbag_memref_2d_f32 t = {table, table, 0, {8, 4}, {4, 1}};
  embbag_memref_2d_f32 o = {out, out, 0, {3, 4}, {4, 1}};
  embbag_memref_2d_i32 i = {idx, idx, 0, {3, 2}, {2, 1}};
  embbag_memref_1d_i64 in = {ind, ind, 0, {4}, {1}};
  embbag_memref_1d_i64 of = {off, off, 0, {3}, {1}};
  printf("table %llx out %llx indices %llx\n", (unsigned long long)table,
         (unsigned long long)out, (unsigned long long)idx);

  int32_t status = CALL(_mlir_ciface_bag_sum, &t, &i, &o);
  printf("bag_sum: status %d\n", status);
  status = CALL(_mlir_ciface_bag_offsets, &t, &in, &of, 3, &o);
  printf("bag_offsets: status %d\n", status);
  status = CALL(_mlir_ciface_bag_offsets, &t, &in, &of, 8, &o);
  printf("bag_offsets default 8: status %d\n", status);
  return 0;
}
