// Calls the sparse gradient of Inputs/gpu-sparse.mlir, compiled by
// embbag-aot --target=nvptx, with the fake CUDA driver (device memory is
// host memory; no kernel runs, EMBBAG_FAKE_CUDA_KERNEL_COUNT stands for the
// row count the kernels leave in the count word), prints the results'
// sizes and frees their device memory with embbagCudaFree.

#include "libsparse.h"

#include "embbag-c/CudaRuntime.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  float *table = aligned_alloc(16, 8 * 4 * sizeof(float));
  float *dy = aligned_alloc(16, 3 * 4 * sizeof(float));
  int32_t *ind = aligned_alloc(16, 4 * sizeof(int32_t));
  int32_t *off = aligned_alloc(16, 4 * sizeof(int32_t));
  embbag_memref_2d_f32 t = {table, table, 0, {8, 4}, {4, 1}};
  embbag_memref_2d_f32 d = {dy, dy, 0, {3, 4}, {4, 1}};
  embbag_memref_1d_i32 in = {ind, ind, 0, {4}, {1}};
  embbag_memref_1d_i32 of = {off, off, 0, {3}, {1}};
  for (int call = 0; call < 2; ++call) {
    sparse_grad_results r;
    _mlir_ciface_sparse_grad(&r, &d, &t, &in, &of);
    printf("rows %lld (%s), values %lld x %lld (%s)\n",
           (long long)r.result0.sizes[0],
           r.result0.allocated ? "memory" : "null",
           (long long)r.result1.sizes[0], (long long)r.result1.sizes[1],
           r.result1.allocated ? "memory" : "null");
    if (embbagCudaFree(r.result0.allocated) ||
        embbagCudaFree(r.result1.allocated))
      printf("free failed: %s\n", embbagCudaLastError());
  }
  return 0;
}
