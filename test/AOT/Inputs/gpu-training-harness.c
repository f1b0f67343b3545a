// Calls the kernels of Inputs/gpu-training.mlir, compiled by embbag-aot
// --target=nvptx, with the fake CUDA driver (device memory is host memory;
// no kernel runs, EMBBAG_FAKE_CUDA_KERNEL_FLAGS stands for the bits a
// kernel sets), and prints each call's status. @adagrad is called twice,
// in place (the table and state buffers as their destinations): the
// scratch memory of the second call is the first's.
//
// Built with -DVOID_RESULT for --checks=abort, whose functions return
// nothing.

#include "libtraining.h"

#include <stdio.h>
#include <stdlib.h>

#include "call-status.h"

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  float *table = aligned_alloc(16, 8 * 4 * sizeof(float));
  float *state = aligned_alloc(16, 8 * sizeof(float));
  float *dy = aligned_alloc(16, 3 * 4 * sizeof(float));
  float *grad = aligned_alloc(16, 8 * 4 * sizeof(float));
  int64_t *ind = aligned_alloc(16, 4 * sizeof(int64_t));
  int64_t *off = aligned_alloc(16, 3 * sizeof(int64_t));
  embbag_memref_2d_f32 t = {table, table, 0, {8, 4}, {4, 1}};
  embbag_memref_1d_f32 s = {state, state, 0, {8}, {1}};
  embbag_memref_2d_f32 d = {dy, dy, 0, {3, 4}, {4, 1}};
  embbag_memref_2d_f32 g = {grad, grad, 0, {8, 4}, {4, 1}};
  embbag_memref_1d_i64 in = {ind, ind, 0, {4}, {1}};
  embbag_memref_1d_i64 of = {off, off, 0, {3}, {1}};
  printf("grad: status %d\n", CALL(_mlir_ciface_grad, &d, &t, &in, &of, &g));
  for (int step = 0; step < 2; ++step)
    printf("adagrad: status %d\n", CALL(_mlir_ciface_adagrad, 0.1f, 1e-8f, &s,
                                        &d, &t, &in, &of, &t, &s));
  return 0;
}
